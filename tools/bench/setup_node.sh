#!/usr/bin/env bash
# Installs onnxruntime-node (ONNX Runtime's Node.js binding, the ONNX Runtime peer of
# `make bench`) into build/bench-node, once: does nothing when the pinned version is there.
#
#   tools/bench/setup_node.sh [DIR]      (default build/bench-node)
#
# --ignore-scripts: the package's postinstall (script/install.js) only fetches the CUDA provider
# libraries for linux/x64 from NuGet, a host the build machines cannot reach; the CPU library we
# use, libonnxruntime.so.1, ships inside the npm tarball (bin/napi-v6/linux/<arch>/), which is
# checked below. Needs node and npm (scripts/install-deps.sh) and the npm registry, once.
set -euo pipefail

VERSION=1.30.0
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DIR=${1:-$ROOT/build/bench-node}
PKG=$DIR/node_modules/onnxruntime-node

case "$(uname -m)" in
  x86_64) ARCH=x64 ;;
  aarch64) ARCH=arm64 ;;
  *) echo "setup_node: no onnxruntime-node CPU library for $(uname -m)" >&2; exit 1 ;;
esac
LIB=$PKG/bin/napi-v6/linux/$ARCH/libonnxruntime.so.1

installed() {
  [[ -f $PKG/package.json && -f $LIB ]] &&
    [[ $(node -p "require('$PKG/package.json').version" 2>/dev/null) == "$VERSION" ]]
}

if installed; then
  echo "setup_node: onnxruntime-node $VERSION present in $DIR"
  exit 0
fi
for tool in node npm; do
  command -v "$tool" >/dev/null || { echo "setup_node: $tool not found (run make deps)" >&2; exit 1; }
done
mkdir -p "$DIR"
[[ -f $DIR/package.json ]] || echo '{"name": "edgenmt-bench-node", "private": true}' > "$DIR/package.json"
echo "setup_node: installing onnxruntime-node@$VERSION into $DIR"
(cd "$DIR" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error \
  "onnxruntime-node@$VERSION")
installed || { echo "setup_node: $LIB missing after npm install" >&2; exit 1; }
# The binding must load with its bundled library (nothing fetched by the skipped script).
node -e "const o = require('$PKG'); if (o.env.versions.node !== '$VERSION') process.exit(1)"
echo "setup_node: onnxruntime-node $VERSION ready ($LIB)"
