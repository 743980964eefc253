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
# Installed by tools/scripts/pip-tool.sh (python3 >= 3.10 with venv) under .tools/schemathesis.
#
# Environment: SCHEMATHESIS_HOME (the folder of the tool environments, default <repo>/.tools), PYTHON (default
# python3), SCHEMATHESIS_CONFIG, SCHEMATHESIS_TOKEN.
set -euo pipefail

SCHEMATHESIS_VERSION="4.32.5"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export PIP_TOOL_HOME="${SCHEMATHESIS_HOME:-$ROOT/.tools}"

install() {
  CLI="$(bash "$ROOT/tools/scripts/pip-tool.sh" schemathesis schemathesis "$SCHEMATHESIS_VERSION" schemathesis)"
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
