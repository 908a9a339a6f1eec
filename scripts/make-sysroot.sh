#!/usr/bin/env bash
# A target sysroot from Debian's own packages, for the cross builds' target tests (presets
# armv7 and aarch64): `apt-get download` of the foreign-architecture packages and `dpkg -x`
# into build/sysroot-ARCH, which the presets add to CMAKE_FIND_ROOT_PATH. The C library and
# libstdc++ stay the cross toolchain's own (/usr/aarch64-linux-gnu, /usr/arm-linux-gnueabihf:
# g++-aarch64-linux-gnu / g++-arm-linux-gnueabihf); the sysroot adds what the target tests
# and the XNNPACK backend (issue 15) link: GoogleTest/GoogleMock, OpenSSL's libcrypto
# (converter library: SHA-256), XNNPACK with pthreadpool and cpuinfo.
#
#   scripts/make-sysroot.sh arm64|armhf [OUT_DIR]     (default OUT_DIR: build/sysroot-ARCH)
#
# Needs root (or sudo) the first time: `dpkg --add-architecture ARCH` and `apt-get update`
# (only Debian's registry is reached). Idempotent: does nothing when OUT_DIR already holds
# these package versions. Fails if a package depends on something neither listed here nor
# provided by the cross toolchain.
set -euo pipefail

arch=${1:-}
case "$arch" in
  arm64|armhf) ;;
  *) echo "usage: $0 arm64|armhf [OUT_DIR]" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${2:-"$root/build/sysroot-$arch"}
packages=(
  libgtest-dev libgmock-dev                       # GoogleTest, GoogleMock (static libraries)
  libssl-dev libssl3                              # libcrypto (converter library, tests)
  libxnnpack-dev libxnnpack0                      # XNNPACK (issue 15's backend)
  libpthreadpool-dev libpthreadpool0 libcpuinfo-dev libcpuinfo0
)
# Run-time dependencies the cross toolchain's root already provides.
toolchain_provides=(libc6 libgcc-s1 libstdc++6 gcc-12-base googletest)

if [[ $(id -u) -eq 0 ]]; then SUDO=(); else SUDO=(sudo); fi
source "$(dirname "${BASH_SOURCE[0]}")/apt-candidate.sh"
candidate() { apt_candidate "$1:$arch"; }

if ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
  echo "make-sysroot: dpkg --add-architecture $arch"
  "${SUDO[@]}" dpkg --add-architecture "$arch"
  "${SUDO[@]}" "$(dirname "$0")/apt-update.sh" "${packages[@]/%/:$arch}"
fi
version=$(candidate "${packages[0]}")
if [[ -z "$version" ]]; then
  "${SUDO[@]}" "$(dirname "$0")/apt-update.sh" "${packages[@]/%/:$arch}"
fi

wanted=""
for pkg in "${packages[@]}"; do
  version=$(candidate "$pkg")
  if [[ -z "$version" ]]; then
    echo "make-sysroot: Debian has no package $pkg:$arch" >&2
    exit 1
  fi
  wanted+="$pkg:$arch=$version"$'\n'
done
if [[ -f "$out/.packages" && "$(cat "$out/.packages")" == "$(printf '%s' "$wanted")" ]]; then
  exit 0
fi

# Every dependency must be in the list or come with the cross toolchain.
for pkg in "${packages[@]}"; do
  while read -r dep; do
    dep=${dep%%:*}
    dep=${dep#<}; dep=${dep%>}
    if [[ " ${packages[*]} ${toolchain_provides[*]} " != *" $dep "* ]]; then
      echo "make-sysroot: $pkg:$arch depends on $dep, which is neither listed nor in the toolchain" >&2
      exit 1
    fi
  done < <(apt-cache depends --no-recommends --no-suggests --no-conflicts --no-breaks \
             --no-replaces --no-enhances "$pkg:$arch" | sed -n 's/^ *\(Pre\)\{0,1\}Depends: //p')
done

rm -rf "$out"
mkdir -p "$out/debs"
(
  cd "$out/debs"
  # apt's download sandbox user cannot write every directory; downloading as root is fine here.
  apt-get download -o APT::Sandbox::User=root "${packages[@]/%/:$arch}" >/dev/null
)
for deb in "$out"/debs/*.deb; do
  dpkg -x "$deb" "$out"
done
rm -rf "$out/debs"
printf '%s' "$wanted" > "$out/.packages"
echo "make-sysroot: ${#packages[@]} packages ($arch) -> $out"
