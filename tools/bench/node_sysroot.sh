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
source "$root/scripts/apt-candidate.sh"
if [[ -z "$(apt_candidate "nodejs:$arch")" ]]; then
  "${SUDO[@]}" "$root/scripts/apt-update.sh"
fi
rm -rf "$out"
mkdir -p "$out/debs"
(cd "$out/debs" && apt-get download -o APT::Sandbox::User=root "${packages[@]/%/:$arch}" \
   "${all_packages[@]}" >/dev/null)
for deb in "$out"/debs/*.deb; do dpkg -x "$deb" "$out"; done
rm -rf "$out/debs"
[[ -x $out/usr/bin/node ]] || { echo "node_sysroot: no usr/bin/node in $out" >&2; exit 1; }
# ONNX Runtime's cpuinfo reads /proc/cpuinfo, and qemu-aarch64 shows the host's (x86: no ARM
# processors, and cpuinfo crashes); `-L DIR` redirects the open to DIR/proc/cpuinfo, which
# describes the emulated core: two Cortex-A76 (implementer 0x41, part 0xd0b) with QEMU's
# -cpu cortex-a76 features.
mkdir -p "$out/proc"
for cpu in 0 1; do
  printf 'processor\t: %d\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x4\nCPU part\t: 0xd0b\nCPU revision\t: 1\n\n' "$cpu"
done > "$out/proc/cpuinfo"
touch "$out/.complete"
