#!/usr/bin/env bash
# Installs the Debian packages edgenmt needs to build, test and run its Python reference.
#   install-deps.sh        everything (make deps, make test)
#   install-deps.sh demo   only what `make demo` needs: the compiler, CMake, FlatBuffers and the
#                          converter's and CLI's libraries (a few dozen packages, no cross
#                          toolchains, no PyTorch)
#   install-deps.sh bench-arm  everything, plus LLVM 19's llvm-mca and llvm-objdump (make
#                          bench-arm's inner-loop limits; make test does not need them)
#   install-deps.sh bench-g2p  everything, plus make bench-g2p's G2P peers: flite and its
#                          headers and libraries (flite1-dev: tools/bench/flite_lts.c links
#                          libflite_cmulex), eSpeak NG, Festival with festlex-cmu (CMUdict 0.4
#                          as Festival's lexicon, /usr/share/festival/dicts/cmu/cmudict-0.4.out,
#                          and its letter-to-sound rules) and GNU time (/usr/bin/time: peak RSS)
# Only missing packages are installed; `apt-get update` runs once, and only if something is
# missing. Needs root (or sudo). Extend the lists as the project grows.
set -euo pipefail

DEMO_PACKAGES=(
  # build
  build-essential cmake ninja-build pkg-config
  # model file format and converter
  libflatbuffers-dev flatbuffers-compiler nlohmann-json3-dev libssl-dev
  # command-line parsing (edgenmt CLI, edgenmt-convert)
  libcli11-dev
)
PACKAGES=(
  "${DEMO_PACKAGES[@]}"
  # the XNNPACK kernel backend (docs/BACKENDS.md)
  libxnnpack-dev libpthreadpool-dev
  # tests and benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev
  # fuzzing / sanitizers (CMake preset "fuzz")
  clang-14 libclang-rt-14-dev
  # make lint (.clang-format; make test runs it)
  clang-format-14
  # ARM cross builds of the portable tests, run under QEMU (make test-arm)
  g++-arm-linux-gnueabihf g++-aarch64-linux-gnu qemu-user
  # Cortex-M firmware (presets cortex-m55, cortex-m7), run under QEMU's MPS2/MPS3 boards
  # (make test-cortex-m)
  gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-dev
  libstdc++-arm-none-eabi-newlib qemu-system-arm
  # PyTorch reference, training and golden data
  python3 python3-torch libopenblas0-pthread python3-numpy python3-tqdm python3-flatbuffers
  # alignment heatmaps (tools/plot_alignments.py)
  python3-matplotlib
  # example data
  pocketsphinx-en-us
  # make bench's ONNX Runtime peer: ONNX export/quantization and onnxruntime-node under node
  python3-onnx nodejs
)
case "${1:-all}" in
  demo) PACKAGES=("${DEMO_PACKAGES[@]}") ;;
  all) ;;
  bench-arm) PACKAGES+=(llvm-19) ;;
  bench-g2p) PACKAGES+=(flite flite1-dev espeak-ng festival festlex-cmu time) ;;
  *) echo "usage: $0 [demo|all|bench-arm|bench-g2p]" >&2; exit 2 ;;
esac
# npm: Debian's npm package conflicts with a nodejs that bundles npm (NodeSource's), and
# installing it would remove that nodejs; ask for it only when no npm command exists.
[[ "${1:-all}" == demo ]] || command -v npm >/dev/null 2>&1 || PACKAGES+=(npm)

missing=()
for pkg in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "installed" ]] || missing+=("$pkg")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

if [[ $(id -u) -eq 0 ]]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1; then
  SUDO=(sudo)
else
  echo "install-deps: missing packages: ${missing[*]}" >&2
  echo "install-deps: run as root (or install sudo) to install them" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
"${SUDO[@]}" "$(dirname "$0")/apt-update.sh"
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
