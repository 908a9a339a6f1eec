#!/usr/bin/env python3
"""`edgenmt inspect --reference` on an int8 file: every int8 tensor has an SQNR against the
float32 file of the same checkpoint, and each one is at least MIN_DB (per-row int8 of trained
weights measures 35-45 dB; one badly scaled tensor shows up here by name). Other quantized
tensors (int32 biases of int8-full) are listed too and must not fall below it either.

    sqnr_every_tensor.py CLI INT8_FILE F32_FILE MIN_DB
"""
import re
import subprocess
import sys

ROW = re.compile(r"^\s+(\S+)\s+(f32|i8|i32|u8|f16)\s+\[([0-9, ]+)\]\s+(\d+)\s+(.*)$")


def main():
    cli, model, reference, min_db = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    out = subprocess.run([cli, "inspect", model, "--reference", reference], check=True,
                         capture_output=True, text=True).stdout
    rows = [m for m in map(ROW.match, out.splitlines()) if m]
    int8 = [m for m in rows if m.group(2) == "i8"]
    if not int8:
        sys.exit(f"no int8 tensor in `edgenmt inspect {model}`")
    failures, measured = [], []
    for m in rows:
        sqnr = re.search(r"SQNR (-?[0-9.]+|inf|nan) dB", m.group(5))
        if sqnr is None:
            if m.group(2) == "i8":
                failures.append(f"{m.group(1)}: no SQNR reported")
            continue
        db = float(sqnr.group(1))
        measured.append((db, m.group(1), m.group(2)))
        if not db >= min_db:   # also catches nan
            failures.append(f"{m.group(1)} ({m.group(2)}): SQNR {db:.1f} dB < {min_db:g} dB")
    measured.sort()
    print(f"{len(int8)} int8 tensors, {len(measured)} with an SQNR; lowest: " +
          ", ".join(f"{n} {db:.1f} dB" for db, n, _ in measured[:3]))
    if failures:
        sys.exit("FAIL: " + "; ".join(failures))
    print(f"OK: every quantized tensor >= {min_db:g} dB")


if __name__ == "__main__":
    main()
