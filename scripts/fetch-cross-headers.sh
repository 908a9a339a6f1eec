#!/usr/bin/env bash
# Header-only dependencies for the cross builds (presets armv7, aarch64), from Debian's own
# packages: `apt-get download` and `dpkg -x` into build/cross-headers, which the presets add to
# CMAKE_FIND_ROOT_PATH. The packages are architecture-independent in use (FlatBuffers is read
# header-only by the runtime; CLI11 and nlohmann-json are header-only), so one tree serves every
# target and the host's own /usr/include never reaches a cross compiler. Idempotent: does
# nothing when the tree already holds these package versions.
#   scripts/fetch-cross-headers.sh [OUT_DIR]
set -euo pipefail

out=${1:-"$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build/cross-headers"}
packages=(libflatbuffers-dev nlohmann-json3-dev libcli11-dev)

source "$(dirname "${BASH_SOURCE[0]}")/apt-candidate.sh"
# Without package lists (a machine that never ran apt-get update) apt knows no versions.
if [[ -z "$(apt_candidate "${packages[0]}")" ]]; then
  "$(dirname "$0")/apt-update.sh" "${packages[@]}"
fi
wanted=""
for pkg in "${packages[@]}"; do
  version=$(apt_candidate "$pkg")
  if [[ -z "$version" ]]; then
    echo "fetch-cross-headers: Debian has no package $pkg" >&2
    exit 1
  fi
  wanted+="$pkg=$version"$'\n'
done
if [[ -f "$out/.packages" && "$(cat "$out/.packages")" == "$(printf '%s' "$wanted")" ]]; then
  exit 0
fi

rm -rf "$out"
mkdir -p "$out/debs"
(
  cd "$out/debs"
  # apt's download sandbox user cannot write every directory; downloading as root is fine here.
  apt-get download -o APT::Sandbox::User=root "${packages[@]}" >/dev/null
)
for deb in "$out"/debs/*.deb; do
  dpkg -x "$deb" "$out"
done
rm -rf "$out/debs"
printf '%s' "$wanted" > "$out/.packages"
echo "fetch-cross-headers: ${packages[*]} -> $out"
