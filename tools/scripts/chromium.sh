#!/usr/bin/env bash
# Chromium for the browser tests (Playwright's playwright-core drives it): Debian's own `chromium` package, never a
# browser downloaded from anywhere else (no `npx playwright install`), so it comes signed from the distribution's
# archive and updates with the machine.
#
#   tools/scripts/chromium.sh ensure   installs the package when /usr/bin/chromium is missing; prints one line
#                                      with the path and the version either way (idempotent, fast when installed)
#   tools/scripts/chromium.sh path     prints the executable's path (fails when it is not installed)
#
# Installing needs root or passwordless sudo. The Jest global setup (libs/platform/testing/src/global-setup.cjs)
# runs `ensure` and hands the path to the tests as CHROMIUM_PATH.
#
# Environment: DSAR_INFRA_DIR (where the apt log goes, default <repo>/.infra).
set -Eeuo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
INFRA_DIR="${DSAR_INFRA_DIR:-$ROOT/.infra}"
APT_LOG="$INFRA_DIR/chromium-apt.log"
CHROMIUM=/usr/bin/chromium

die() { echo "chromium.sh: ERROR: $*" >&2; exit 1; }
trap 'rc=$?; echo "chromium.sh: command failed (exit $rc) at line $LINENO: $BASH_COMMAND" >&2' ERR

installed() { [ -x "$CHROMIUM" ]; }

# How this user runs a command as root: directly, or through passwordless sudo; fails when neither works.
ROOT_RUNNER=()
find_root_runner() {
  if [ "$(id -u)" -eq 0 ]; then ROOT_RUNNER=()
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then ROOT_RUNNER=(sudo -n)
  else
    die "$CHROMIUM is missing and installing it needs root (or passwordless sudo). Install Debian's package by hand:
  sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium"
  fi
}

as_root() { "${ROOT_RUNNER[@]}" "$@"; }

# The last lines of the apt log, so a failed install says why.
dump_log() {
  [ -s "$APT_LOG" ] || return 0
  echo "----- last 30 lines of $APT_LOG -----" >&2
  tail -n 30 "$APT_LOG" >&2 || true
  echo "-----" >&2
}

install_chromium() {
  find_root_runner
  mkdir -p "$INFRA_DIR"
  : >"$APT_LOG"
  echo "chromium: installing Debian's chromium package (apt log: $APT_LOG)"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q >>"$APT_LOG" 2>&1 \
    || { dump_log; die "apt-get update failed"; }
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium >>"$APT_LOG" 2>&1 \
    || { dump_log; die "apt-get install chromium failed"; }
  installed || die "the chromium package is installed but $CHROMIUM is missing"
}

# "Chromium 1xx.0.…" without the "built on Debian …" tail; the package's version when the binary cannot say.
version() {
  local line
  line="$("$CHROMIUM" --version 2>/dev/null | head -n 1)" || line=""
  [ -n "$line" ] || line="Chromium $(dpkg-query -W -f='${Version}' chromium 2>/dev/null || echo '(version unknown)')"
  echo "${line%% built on*}"
}

case "${1:-}" in
  ensure)
    installed || install_chromium
    echo "chromium: $CHROMIUM ($(version))"
    ;;
  path)
    installed || die "$CHROMIUM is missing: run 'bash tools/scripts/chromium.sh ensure'"
    echo "$CHROMIUM"
    ;;
  *)
    echo "usage: $0 ensure | path" >&2
    exit 2
    ;;
esac
