"""ctest backend_list_consistent (issue 60 §3): the kernel backends and SIMD levels are listed once
and every other place that names them agrees.

- Backends: edgenmt/kernel_backend.h EDGENMT_KERNEL_BACKENDS is the list (values 0, 1, ... in
  order; CMake reads its names from there). The C API's ENMT_BACKEND_* (edgenmt.h) and Python's
  BACKENDS (python/edgenmt/_capi.py) must name the same backends with the same numbers.
- SIMD levels: runtime/kernel_instruction_sets.cmake lists the instruction-set folders; each entry's
  level must be a SimdLevel (kernels/simd/simd_level.h), every SimdLevel but kNone must have an
  entry, each listed folder must exist, and every folder under kernels/x86, arm_neon and arm_m that
  holds sources must be listed (a folder nobody lists would never be compiled).
Exit 0 when all agree; otherwise each disagreement on stderr and exit 1.
"""
import ast
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
KERNELS = os.path.join(ROOT, "runtime", "src", "kernels")


def read(*parts):
    with open(os.path.join(ROOT, *parts), encoding="utf-8") as f:
        return f.read()


def upper_snake(camel):
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", camel).upper()


def main():
    errors = []
    header = read("runtime", "include", "edgenmt", "kernel_backend.h")
    backends = [(m.group(1), int(m.group(2)), m.group(3)) for m in re.finditer(
        r'^  X\((k[A-Za-z0-9]+), +([0-9]+), "([a-z0-9]+)"', header, re.M)]
    if not backends:
        errors.append("kernel_backend.h: no X(...) lines in EDGENMT_KERNEL_BACKENDS")
    for index, (ident, value, name) in enumerate(backends):
        if value != index:
            errors.append(f"kernel_backend.h: {ident} = {value}, expected {index} (in order)")
        if ident != "k" + name.capitalize():
            errors.append(f"kernel_backend.h: {ident} named {name!r}")
    expected = {name: value for _, value, name in backends}

    c_header = read("runtime", "include", "edgenmt", "edgenmt.h")
    c_api = {m.group(1).lower(): int(m.group(2)) for m in re.finditer(
        r"^#define ENMT_BACKEND_([A-Z0-9_]+) ([0-9]+)", c_header, re.M)}
    if c_api != expected:
        errors.append(f"edgenmt.h ENMT_BACKEND_*: {c_api}, the list says {expected}")

    capi_py = read("python", "edgenmt", "_capi.py")
    match = re.search(r"^BACKENDS = (\{.*?\})", capi_py, re.M | re.S)
    python = ast.literal_eval(match.group(1)) if match else None
    if python != expected:
        errors.append(f"_capi.py BACKENDS: {python}, the list says {expected}")

    level_header = read("runtime", "src", "kernels", "simd", "simd_level.h")
    enum = re.search(r"enum class SimdLevel[^{]*\{(.*?)\};", level_header, re.S).group(1)
    levels = {upper_snake(m.group(1)) for m in re.finditer(r"\bk([A-Za-z0-9]+) =", enum)}
    levels.discard("NONE")
    isa_cmake = read("runtime", "kernel_instruction_sets.cmake")
    body = re.search(r"set\(EDGENMT_KERNEL_INSTRUCTION_SETS(.*?)\n\)", isa_cmake, re.S).group(1)
    entries = re.findall(r'^  "([a-z0-9_/]+)" +([A-Z0-9_]+)\b', body, re.M)
    listed = {folder for folder, _ in entries}
    for folder, level in entries:
        if level not in levels:
            errors.append(f"kernel_instruction_sets.cmake: {folder} gives {level}, not a SimdLevel")
        if not os.path.isdir(os.path.join(KERNELS, folder)):
            errors.append(f"kernel_instruction_sets.cmake: no folder runtime/src/kernels/{folder}")
    for level in sorted(levels - {level for _, level in entries}):
        errors.append(f"SimdLevel {level}: no instruction-set folder gives it")
    for family in ("x86", "arm_neon", "arm_m"):
        for dirpath, _, files in os.walk(os.path.join(KERNELS, family)):
            folder = os.path.relpath(dirpath, KERNELS)
            if any(f.endswith(".cc") for f in files) and folder not in listed:
                errors.append(f"runtime/src/kernels/{folder}: sources no entry compiles")

    for error in errors:
        print("backend_list_consistent:", error, file=sys.stderr)
    if errors:
        return 1
    print(f"backend_list_consistent: {len(backends)} backends, {len(entries)} instruction-set "
          "folders agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
