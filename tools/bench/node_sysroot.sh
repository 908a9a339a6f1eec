#!/usr/bin/env bash
# Debian's arm64 Node.js unpacked into a sysroot for qemu-aarch64 (make bench-arm's ONNX Runtime
# peer: onnxruntime-node's arm64 library under `qemu-aarch64 -L DIR -cpu cortex-a76`), once:
# `apt-get download` of nodejs, libnode108 and their run-time dependencies (C library and
# libstdc++ included, so the sysroot is whole), plus the architecture-independent modules
# libnode loads from /usr/share/nodejs, then `dpkg -x`. Does nothing when DIR holds them.
#   tools/bench/node_sysroot.sh [DIR]          (default build/sysroot-node-arm64)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${1:-$root/build/sysroot-node-arm64}
arch=arm64
packages=(nodejs libnode108 libbrotli1 libc-ares2 libicu72 libnghttp2-14 libssl3 libuv1 zlib1g
          libc6 libgcc-s1 libstdc++6)
all_packages=(node-acorn node-cjs-module-lexer node-undici)   # Architecture: all
if [[ -x $out/usr/bin/node && -f $out/.complete ]]; then exit 0; fi
if [[ $(id -u) -eq 0 ]]; then SUDO=(); else SUDO=(sudo); fi
if ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
  "${SUDO[@]}" dpkg --add-architecture "$arch"
  "${SUDO[@]}" "$root/scripts/apt-update.sh"
fi
if [[ $(apt-cache policy "nodejs:$arch" | sed -n 's/^ *Candidate: //p') == "(none)" ]]; then
  "${SUDO[@]}" "$root/scripts/apt-update.sh"
fi
rm -rf "$out"
mkdir -p "$out/debs"
(cd "$out/debs" && apt-get download -o APT::Sandbox::User=root "${packages[@]/%/:$arch}" \
   "${all_packages[@]}" >/dev/null)
for deb in "$out"/debs/*.deb; do dpkg -x "$deb" "$out"; done
rm -rf "$out/debs"
[[ -x $out/usr/bin/node ]] || { echo "node_sysroot: no usr/bin/node in $out" >&2; exit 1; }
touch "$out/.complete"
