#!/usr/bin/env bash
# Schemathesis (https://schemathesis.readthedocs.io), the property-based API tester, in a virtual environment of its own.
#
#   tools/scripts/schemathesis.sh install      installs it (once) under .tools/schemathesis and prints the CLI's path
#   tools/scripts/schemathesis.sh run ARGS...  installs it when needed, then runs `schemathesis run ARGS...` with the
#                                              settings of tools/scripts/schemathesis.toml (SCHEMATHESIS_CONFIG: another
#                                              file); that file takes the bearer token from SCHEMATHESIS_TOKEN
#   tools/scripts/schemathesis.sh path         prints the CLI's path (installs when needed)
#
# The version is pinned: a new Schemathesis release brings new checks, and those belong in a change of their own.
# Needs python3 (>= 3.10) with venv; when `python3 -m venv` lacks ensurepip (Debian), python3-venv is installed with
# apt-get (root or passwordless sudo), as deploy/local/infra.sh does for its packages.
#
# Environment: SCHEMATHESIS_VENV (default <repo>/.tools/schemathesis), PYTHON (default python3), SCHEMATHESIS_CONFIG,
# SCHEMATHESIS_TOKEN.
set -euo pipefail

SCHEMATHESIS_VERSION="4.32.5"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VENV="${SCHEMATHESIS_VENV:-$ROOT/.tools/schemathesis}"
PYTHON="${PYTHON:-python3}"
CLI="$VENV/bin/schemathesis"

say() { echo "schemathesis.sh: $*" >&2; }
die() { say "$*"; exit 1; }

can_sudo() { command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; }
as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif can_sudo; then sudo -n "$@"
  else die "root (or passwordless sudo) is needed to run: $*"
  fi
}

installed_version() {
  [ -x "$CLI" ] || return 1
  "$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("schemathesis"))' 2>/dev/null
}

ensure_python() {
  command -v "$PYTHON" >/dev/null 2>&1 || die "$PYTHON not found: install Python 3.10 or later"
  "$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' \
    || die "Schemathesis $SCHEMATHESIS_VERSION needs Python 3.10 or later ($($PYTHON --version 2>&1))"
}

# Debian and Ubuntu ship venv without ensurepip unless python3-venv is installed: install it when `-m venv` fails.
install_venv_package() {
  command -v apt-get >/dev/null 2>&1 || die "$PYTHON -m venv failed and there is no apt-get: install the venv module of $PYTHON"
  local minor
  minor="$("$PYTHON" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
  say "apt: installing python3-venv (python$minor-venv)"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null || die "apt-get update failed"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends python3-venv "python$minor-venv" >/dev/null \
    || as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends python3-venv >/dev/null \
    || die "apt-get install python3-venv failed"
}

make_venv() {
  rm -rf "$VENV"
  mkdir -p "$(dirname "$VENV")"
  if ! "$PYTHON" -m venv "$VENV" >/dev/null 2>&1; then
    rm -rf "$VENV"
    install_venv_package
    "$PYTHON" -m venv "$VENV" || die "$PYTHON -m venv $VENV failed"
  fi
}

install() {
  if [ "$(installed_version || true)" = "$SCHEMATHESIS_VERSION" ]; then return 0; fi
  ensure_python
  say "installing schemathesis==$SCHEMATHESIS_VERSION into $VENV"
  make_venv
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION" >&2 \
    || { rm -rf "$VENV"; die "pip install schemathesis==$SCHEMATHESIS_VERSION failed"; }
  [ "$(installed_version || true)" = "$SCHEMATHESIS_VERSION" ] || die "schemathesis $SCHEMATHESIS_VERSION did not install"
}

case "${1:-}" in
  install | path)
    install
    echo "$CLI"
    ;;
  run)
    shift
    install
    export SCHEMATHESIS_TELEMETRY="${SCHEMATHESIS_TELEMETRY:-false}"
    export SCHEMATHESIS_TOKEN="${SCHEMATHESIS_TOKEN:-}"  # the config file refers to it; unset would fail to load
    exec "$CLI" --config-file "${SCHEMATHESIS_CONFIG:-$ROOT/tools/scripts/schemathesis.toml}" run "$@"
    ;;
  *)
    echo "usage: $0 install | path | run ARGS..." >&2
    exit 2
    ;;
esac
