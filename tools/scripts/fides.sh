#!/usr/bin/env bash
# Ethyca Fides (PyPI `ethyca-fides`) and the Redis it needs (Debian's redis-server), for the `fides` benchmark
# (tools/bench/benchmarks/fides.ts: our intake beside Fides's, the recipe of ../shared/reference/fides-side-by-side.md).
#
#   tools/scripts/fides.sh install   installs what is missing (once), then prints FIDES_UVICORN=<path> and
#                                    REDIS_SERVER=<path>, one a line
#
# Fides goes into a virtual environment of its own under .tools/fides (tools/scripts/pip-tool.sh), pinned: it needs
# Python 3.13, which Debian 12 does not ship, so pip-tool.sh looks for python3.13 (pyenv's included) or takes PYTHON.
# Redis: the redis-server on PATH when there is one; otherwise `apt-get install redis-server` (root or passwordless
# sudo, as deploy/local/infra.sh installs PostgreSQL); when that is not possible, its .deb files are fetched with
# `apt-get download` and unpacked under .tools/redis (no root needed, nothing started by the package's scripts).
# Neither is started here: the benchmark runs them on free loopback ports and stops them.
#
# Environment: FIDES_HOME (the folder of the tool environments, default <repo>/.tools), PYTHON (see pip-tool.sh).
set -euo pipefail

FIDES_VERSION="2.86.2"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TOOLS="${FIDES_HOME:-$ROOT/.tools}"
REDIS_DIR="$TOOLS/redis"

say() { echo "fides.sh: $*" >&2; }
die() { say "$*"; exit 1; }

can_sudo() { command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; }
can_root() { [ "$(id -u)" -eq 0 ] || can_sudo; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi; }

install_fides() {
  PIP_TOOL_HOME="$TOOLS" PIP_TOOL_PYTHON_MIN=3.13 bash "$ROOT/tools/scripts/pip-tool.sh" fides ethyca-fides "$FIDES_VERSION" uvicorn
}

# The Debian package, as deploy/local/infra.sh installs its own: the lists refreshed only when installing.
apt_install_redis() {
  command -v apt-get >/dev/null 2>&1 && can_root || return 1
  mkdir -p "$TOOLS"
  local log="$TOOLS/redis-apt.log"
  say "apt: installing redis-server (log in $log)"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q >"$log" 2>&1 || return 1
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends redis-server >>"$log" 2>&1 || return 1
  [ -x /usr/bin/redis-server ]
}

# The same package unpacked under .tools/redis, with the libraries it needs that the machine lacks. Debian's
# redis-server is a link to redis-check-rdb (redis-tools), which runs as the server when called by that name.
unpack_redis() {
  command -v apt-get >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1 || die "no apt-get/dpkg-deb to fetch Redis with: install redis-server"
  say "apt: downloading redis-tools into $REDIS_DIR"
  rm -rf "$REDIS_DIR"
  mkdir -p "$REDIS_DIR/debs"
  local packages=(redis-tools) lib
  for lib in libjemalloc2 liblzf1; do
    dpkg -s "$lib" >/dev/null 2>&1 || packages+=("$lib")
  done
  (cd "$REDIS_DIR/debs" && apt-get download -q "${packages[@]}" >&2) || die "apt-get download ${packages[*]} failed"
  local deb libs
  for deb in "$REDIS_DIR"/debs/*.deb; do dpkg-deb -x "$deb" "$REDIS_DIR/root"; done
  # The folders of the unpacked libraries (none when the machine has them all).
  libs="$(find "$REDIS_DIR/root" -name 'lib*.so*' -printf '%h\n' | sort -u | paste -sd:)"
  mkdir -p "$REDIS_DIR/bin"
  cat >"$REDIS_DIR/bin/redis-server" <<EOF
#!/usr/bin/env bash
export LD_LIBRARY_PATH="$libs\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
exec -a redis-server "$REDIS_DIR/root/usr/bin/redis-check-rdb" "\$@"
EOF
  chmod +x "$REDIS_DIR/bin/redis-server"
  "$REDIS_DIR/bin/redis-server" --version >/dev/null || die "the unpacked redis-server does not run"
}

redis_server() {
  if command -v redis-server >/dev/null 2>&1; then
    command -v redis-server
  elif [ -x "$REDIS_DIR/bin/redis-server" ]; then
    echo "$REDIS_DIR/bin/redis-server"
  elif apt_install_redis; then
    echo /usr/bin/redis-server
  else
    say "apt-get install redis-server was not possible; unpacking the package instead"
    unpack_redis
    echo "$REDIS_DIR/bin/redis-server"
  fi
}

case "${1:-}" in
  install)
    uvicorn="$(install_fides)"
    redis="$(redis_server)"
    echo "FIDES_UVICORN=$uvicorn"
    echo "REDIS_SERVER=$redis"
    ;;
  *)
    echo "usage: $0 install" >&2
    exit 2
    ;;
esac
