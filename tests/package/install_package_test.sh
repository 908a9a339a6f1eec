#!/usr/bin/env bash
# `cmake --install` into BUILD/install, then three consumers of the *installed* package only:
# targets/host-example through find_package(edgenmt) (C++ API, edgenmt::runtime), its C twin
# through pkg-config (C API, shared library), and the Python module from the prefix's site
# directory. Each must translate WORDS exactly like the installed CLI.
# usage: install_package_test.sh BUILD_DIR SOURCE_DIR MODEL_FILE
set -euo pipefail
build=$(cd "$1" && pwd) source=$(cd "$2" && pwd) model=$3
prefix=$build/install
example=$build/host-example
words=(hello world phoneme edge translation)

rm -rf "$prefix" "$example"
cmake --install "$build" --prefix "$prefix" > /dev/null
site=$(cd "$prefix" && ls -d lib/python3*/site-packages | head -n 1)
for f in include/edgenmt/edgenmt.h include/edgenmt/translator.h lib/libedgenmt.a lib/libedgenmt.so \
         bin/edgenmt bin/edgenmt-convert lib/cmake/edgenmt/edgenmtConfig.cmake \
         include/edgenmt/phonemizer.h include/edgenmt/phonemizer_c.h lib/libedgenmt_frontend.a \
         bin/edgenmt-phonemizer-pack \
         lib/cmake/edgenmt/edgenmtTargets.cmake lib/pkgconfig/edgenmt.pc \
         "$site/edgenmt/__init__.py" "$site/edgenmt/_library_location.py"; do
  [[ -e "$prefix/$f" ]] || { echo "not installed: $f" >&2; exit 1; }
done

expected=$(printf '%s\n' "${words[@]}" | "$prefix/bin/edgenmt" translate -m "$model" |
           paste <(printf '%s\n' "${words[@]}") -)
echo "installed CLI:"; echo "$expected"

# 1. CMake package: find_package(edgenmt) and nothing from the source tree.
cmake -S "$source/targets/host-example" -B "$example" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF > /dev/null
cmake --build "$example" > /dev/null
if grep -q -- "$source/runtime" "$example/build.ninja"; then
  echo "host-example was built against the source tree, not the installed package" >&2; exit 1
fi
got=$("$example/translate_words" "$model" "${words[@]}" 2> /dev/null)
[[ "$got" == "$expected" ]] || { echo "host-example (find_package) differs:"; echo "$got"; exit 1; } >&2

# 2. pkg-config: the C API example against the shared library.
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
libdir=$(pkg-config --variable=libdir edgenmt)
[[ $(cd "$libdir" && pwd) == "$prefix/lib" ]] || { echo "edgenmt.pc libdir $libdir is not $prefix/lib" >&2; exit 1; }
cc -std=c11 -Wall -Werror -o "$example/translate_words_c" "$source/targets/host-example/translate_words.c" \
   $(pkg-config --cflags --libs edgenmt) -Wl,-rpath,"$libdir"
got=$("$example/translate_words_c" "$model" "${words[@]}")
[[ "$got" == "$expected" ]] || { echo "host-example C (pkg-config) differs:"; echo "$got"; exit 1; } >&2

# The front end's C API from the installed headers and shared library: a link check (the
# phonemizer's behaviour is python/tests/test_phonemizer.py's).
cat > "$example/phonemizer_link.c" <<'C'
#include <stdio.h>
#include "edgenmt/phonemizer_c.h"
int main(void) { printf("%zu\n", enmt_phonemizer_storage_bytes()); return 0; }
C
cc -std=c11 -Wall -Werror -o "$example/phonemizer_link" "$example/phonemizer_link.c" \
   $(pkg-config --cflags --libs edgenmt) -Wl,-rpath,"$libdir"
"$example/phonemizer_link" > /dev/null

# 3. The installed Python module (finds the installed libedgenmt.so relative to itself).
got=$(cd / && PYTHONPATH="$prefix/$site" /usr/bin/python3 - "$model" "${words[@]}" <<'PY'
import os, sys, edgenmt
assert edgenmt.__file__.startswith(os.environ["PYTHONPATH"]), edgenmt.__file__
translator = edgenmt.Translator(sys.argv[1])
for word, output in zip(sys.argv[2:], translator.translate(sys.argv[2:])):
    print(f"{word}\t{output}")
PY
)
[[ "$got" == "$expected" ]] || { echo "installed Python module differs:"; echo "$got"; exit 1; } >&2
echo "OK: find_package, pkg-config and the Python module translate like the installed CLI"
