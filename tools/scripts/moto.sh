#!/usr/bin/env bash
# moto (https://docs.getmoto.org) in server mode: an S3-compatible endpoint for the tests of the S3 storage driver
# (libs/platform/storage/src/s3-blob-store.ts), in a virtual environment of its own.
#
#   tools/scripts/moto.sh install | path   installs it (once) under .tools/moto and prints the server's path
#   tools/scripts/moto.sh run ARGS...      installs it when needed, then runs `moto_server ARGS...` in the foreground
#
# deploy/local/infra.sh (s3-start, up) starts it in the background on 127.0.0.1:9000. The version is pinned: a new moto
# release may change what the emulated S3 accepts, and that belongs in a change of its own. Installed by
# tools/scripts/pip-tool.sh (python3 >= 3.10 with venv) under .tools/moto.
#
# Environment: MOTO_HOME (the folder of the tool environments, default <repo>/.tools), PYTHON (default python3).
set -euo pipefail

MOTO_VERSION="5.2.5"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export PIP_TOOL_HOME="${MOTO_HOME:-$ROOT/.tools}"

install() {
  SERVER="$(bash "$ROOT/tools/scripts/pip-tool.sh" moto "moto[server]" "$MOTO_VERSION" moto_server)"
}

case "${1:-}" in
  install | path)
    install
    echo "$SERVER"
    ;;
  run)
    shift
    install
    exec "$SERVER" "$@"
    ;;
  *)
    echo "usage: $0 install | path | run ARGS..." >&2
    exit 2
    ;;
esac
