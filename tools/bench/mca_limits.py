"""The limit of make bench-arm (bench_arm.py): each hot kernel's inner loop, as the build compiled
it, under llvm-mca (LLVM 19: scripts/install-deps.sh bench-arm) for the cores it targets, in
multiply-accumulates per cycle against the core's peak.

The loop is found in the binary itself (llvm-objdump): of the kernel function's innermost loops
(backward branches with no other inside), the one with the most multiply instructions (the
many-rows block, not the one-row remainder); its body, with the branch aimed at a label, is
what llvm-mca schedules (steady state over many iterations). llvm-mca has no timing for the
Armv8.1-M low-overhead loop end (LE), which it skips: the M55's loop cache runs it without an
issue slot after the first iteration. The peak is llvm-mca's
throughput for a loop of 8 independent copies of the same multiply instruction on the same
core model: the most that instruction can give, loads and loop overhead aside. A kernel at 70 %
of it spends at most 30 % of its issue slots on loads, pointer updates and the branch.
"""
import functools
import os
import re
import subprocess
import tempfile

OBJDUMP = "llvm-objdump-19"
MCA = "llvm-mca-19"
NM = "llvm-nm-19"

# (core, triple, extra llvm-mca attributes, binary, kernel, {multiply mnemonic: MACs}, peak asm)
THUMB_M55 = "thumbv8.1m.main-none-eabi"
THUMB_M7 = "thumbv7em-none-eabi"
THUMB_M33 = "thumbv8m.main-none-eabi"
A64 = "aarch64-linux-gnu"
DOT_NEON = {"smull": 8, "smull2": 8, "smlal": 8, "smlal2": 8}
CASES = [
    # The row-group loop in assembly (the models' shapes); DotS8Helium also holds DotS8Four's
    # loop for other shapes, with as many multiplies, which the search would take instead.
    ("cortex-m55", THUMB_M55, "+mve", "m55", "edgenmt::simd::(anonymous namespace)::DotS8FourRowGroups",
     {"vmlava.s8": 16, "vmladava.s8": 16},
     "vmlava.s8 r{even}, q{q}, q7"),
    ("cortex-m7", THUMB_M7, "", "m7", "edgenmt::simd::DotS8Dsp", {"smlad": 2},
     "smlad r{i}, r10, r11, r{i}"),
    # The same DSP loop as built for the M4 and M33 (LLVM models both cores).
    ("cortex-m4", THUMB_M7, "", "m4", "edgenmt::simd::DotS8Dsp", {"smlad": 2},
     "smlad r{i}, r10, r11, r{i}"),
    ("cortex-m33", THUMB_M33, "", "m33", "edgenmt::simd::DotS8Dsp", {"smlad": 2},
     "smlad r{i}, r10, r11, r{i}"),
]
for core in ("cortex-a55", "cortex-a76", "neoverse-n1"):
    CASES += [
        # The row-group loop in assembly (one activation row: greedy steps, the recurrences),
        # beside DotS8NeonRows' loop for other shapes in DotS8NeonDotprod.
        (core, A64, "+dotprod", "aarch64", "edgenmt::simd::(anonymous namespace)::DotS8EightRowGroups",
         {"sdot": 16},
         "sdot v{i}.4s, v16.16b, v17.16b"),
        (core, A64, "", "aarch64", "edgenmt::simd::DotS8Neon", DOT_NEON,
         "smull v{i}.8h, v16.8b, v17.8b"),
        (core, A64, "", "aarch64", "edgenmt::simd::DotF32Neon", {"fmla": 4},
         "fmla v{i}.4s, v16.4s, v17.4s"),
    ]

LINE = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
TARGET = re.compile(r"0x([0-9a-f]+) <[^>]*>")


@functools.lru_cache(maxsize=None)
def _nm(binary, demangle):
    """The binary's defined symbols as llvm-nm lines (read once per binary)."""
    cmd = [NM, "--defined-only"] + (["-C"] if demangle else []) + [binary]
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.splitlines()


def _symbol(binary, demangled_prefix):
    for raw, pretty in zip(_nm(binary, False), _nm(binary, True)):
        name = pretty.split(" ", 2)[-1]
        if name.startswith(demangled_prefix + "("):
            return raw.split(" ", 2)[-1]
    return None


def _instructions(binary, symbol, core):
    cmd = [OBJDUMP, "-d", "--no-show-raw-insn", f"--mcpu={core}", f"--disassemble-symbols={symbol}",
           binary]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    insns = []
    for line in out.splitlines():
        m = LINE.match(line)
        if m:
            text = re.split(r"\s+(?:@|//)\s", m.group(3))[0].strip()
            insns.append((int(m.group(1), 16), m.group(2), text))
    return insns


def _callees(binary, insns):
    """Mangled names of the functions insns branch to directly (bl / b to a symbol's start)."""
    by_address = {}
    for line in _nm(binary, False):
        parts = line.split(" ", 2)
        if len(parts) == 3:
            by_address.setdefault(int(parts[0], 16), parts[2])
    names = []
    for _, mnem, ops in insns:
        t = TARGET.search(ops)
        if mnem in ("bl", "b", "b.w") and t and int(t.group(1), 16) in by_address:
            names.append(by_address[int(t.group(1), 16)])
    return names


def _inner_loop(insns, macs):
    """The innermost loop with the most multiply instructions, as llvm-mca input."""
    loops = []
    for i, (addr, mnem, ops) in enumerate(insns):
        t = TARGET.search(ops)
        if not t or int(t.group(1), 16) > addr:
            continue
        start = next((j for j, x in enumerate(insns) if x[0] == int(t.group(1), 16)), None)
        if start is not None:
            loops.append((start, i))
    innermost = [(a, b) for a, b in loops
                 if not any((c, d) != (a, b) and a <= c and d < b for c, d in loops)]
    best, best_macs = None, 0
    for a, b in innermost:
        body = insns[a:b + 1]
        n = sum(macs.get(m, 0) for _, m, _ in body)
        if n > best_macs:
            best, best_macs = body, n
    if best is None:
        return None, 0
    lines = [".Lloop:"]
    for _, mnem, ops in best:
        lines.append(f"  {mnem} {TARGET.sub('.Lloop', ops)}".rstrip())
    return "\n".join(lines) + "\n", sum(macs.get(m, 0) for _, m, _ in best)


def _cycles_per_iteration(asm, triple, core, attrs):
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write(asm)
    try:
        cmd = [MCA, f"-mtriple={triple}", f"-mcpu={core}", "-iterations=400",
               "-skip-unsupported-instructions=lack-sched", f.name]
        if attrs:
            cmd.insert(3, f"-mattr={attrs}")
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError(out.stderr.strip().splitlines()[-1] if out.stderr.strip() else "llvm-mca failed")
        it = int(re.search(r"Iterations:\s+(\d+)", out.stdout).group(1))
        cycles = int(re.search(r"Total Cycles:\s+(\d+)", out.stdout).group(1))
        return cycles / it
    finally:
        os.unlink(f.name)


def _peak_asm(template):
    lines = [".Lloop:"]
    for i in range(8):
        lines.append("  " + template.format(i=i, even=2 * (i % 6), q=i % 7))
    return "\n".join(lines) + "\n"


def limits(binaries):
    """Rows (core, kernel, loop instructions, MACs per iteration, MACs/cycle, peak, fraction)
    for the binaries given ({"m55": path, "m7": path, "m4": path, "m33": path, "aarch64": path});
    a case whose binary or kernel is missing gets a row saying so."""
    rows = []
    for core, triple, attrs, key, kernel, macs, peak_template in CASES:
        short = kernel.split("::")[-1]
        binary = binaries.get(key)
        if not binary or not os.path.exists(binary):
            rows.append((core, short, None, None, None, None, f"no {key} binary"))
            continue
        symbol = _symbol(binary, kernel)
        if symbol is None:
            rows.append((core, short, None, None, None, None, "kernel not in the binary"))
            continue
        insns = _instructions(binary, symbol, core)
        asm, loop_macs = _inner_loop(insns, macs)
        if asm is None:  # a thin wrapper: the loop is in a function it calls (a template's copy)
            for callee in _callees(binary, insns):
                asm, loop_macs = _inner_loop(_instructions(binary, callee, core), macs)
                if asm is not None:
                    break
        if asm is None:
            rows.append((core, short, None, None, None, None, "no multiply loop found"))
            continue
        try:
            loop = _cycles_per_iteration(asm, triple, core, attrs)
            peak_asm = _peak_asm(peak_template)
            peak = 8 * max(macs.values()) / _cycles_per_iteration(peak_asm, triple, core, attrs)
        except (RuntimeError, AttributeError) as e:
            rows.append((core, short, None, None, None, None, f"llvm-mca: {e}"))
            continue
        n = asm.count("\n") - 1
        rows.append((core, short, n, loop_macs, loop_macs / loop, peak, None))
    return rows
