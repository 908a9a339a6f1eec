#!/usr/bin/python3
"""make bench-arm: instructions per word of every ARM target under QEMU (which gives no
timings), against the kernels' limit under llvm-mca and against ONNX Runtime's arm64 library.

  /usr/bin/python3 tools/bench/bench_arm.py [--words N] [--jobs J]

* Boards: the Cortex-M firmware (build/cortex-m55, -m7, -m4, -m33, -m3: make test-cortex-m
  builds them) under qemu-system-arm with -icount shift=0, so their clock counts instructions; the
  harness times only Translate (targets/cortex-m-common/README.md). The shipped model and
  g2p-en-mcu in int8-full, greedy and beam 5; outputs compared with the host CLI's.
* Linux targets: the CLI (build/aarch64, build/armv7: make test-arm) under qemu-aarch64 /
  qemu-arm with a TCG plugin counting instructions (qemu_insn_count.c), each scheme x backend
  x search, minus the same command on no input (process start and model load). aarch64 runs
  on QEMU's -cpu cortex-a76 (dot product), and plain NEON on -cpu cortex-a72.
* The peer: ONNX Runtime 1.30's arm64 library (npm onnxruntime-node, setup_node.sh) in Debian's
  arm64 Node.js (node_sysroot.sh) under the same qemu-aarch64 -cpu cortex-a76, on the float and
  int8 graphs of make bench, counted the same way (start-up: the run on no sources); its outputs
  are checked against the PyTorch reference's (models/g2p-en/outputs/test.greedy.tsv).
* The limit: mca_limits.py (Cortex-A55 and A76, whose LLVM model is the A57's with one load
  pipe, and Neoverse N1, the A76's server sibling modelled with two, as the A76 has).
The words: the first N distinct words of data/g2p/test.tsv (default 500). The last line:
  arm_instructions m55=A m7=B m55_mcu=C m7_mcu=D aarch64_int8=E aarch64_int8_full=G
  aarch64_f32=H ort_aarch64_int8=F ort_aarch64_f32=J m55_transformer=K m55_transformer_mcu=L
  m4_mcu=M m33_mcu=N m3_mcu=P m55_startup=S
(greedy instructions per word: the shipped model in int8-full on the boards; on aarch64 with
-cpu cortex-a76 the default backend per scheme and ONNX Runtime; S: Model::Load +
Translator::Init of the shipped int8-full file on the M55, as the harness counts it.)
--boards-only: the Cortex-M rows alone (the Linux, batch, ONNX Runtime and llvm-mca rows then
read "–"). A table before it gives the
aarch64 rows again through translate --batch 32 (issue 24: batch 32 against batch 1).
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "converter", "reference"))
import bench_results  # noqa: E402
import mca_limits  # noqa: E402
from g2p_metrics import read_tsv, score  # noqa: E402

B = os.path.join(ROOT, "build")
# name: (qemu machine, cpu, preset, board); firmware: build/<preset>/targets/<preset>-<board>/
# edgenmt_<board>[_mcu|_transformer|_transformer_mcu].elf (make test-cortex-m builds them).
BOARDS = {
    "m55": ("mps3-an547", "cortex-m55", "cortex-m55", "an547"),
    "m7": ("mps2-an500", "cortex-m7", "cortex-m7", "an500"),
    "m4": ("mps2-an386", "cortex-m4", "cortex-m4", "an386"),
    "m33": ("mps2-an505", "cortex-m33", "cortex-m33", "an505"),
    "m3": ("mps2-an385", "cortex-m3", "cortex-m3", "an385"),
}
# model: (file stem under build/models, firmware suffix)
BOARD_MODELS = {"shipped": ("g2p-en", ""), "mcu": ("g2p-en-mcu", "_mcu"),
                "transformer": ("g2p-en-transformer", "_transformer"),
                "transformer_mcu": ("g2p-en-transformer-mcu", "_transformer_mcu")}
# Which models each board runs here: the M3's reference kernels make the shipped models' 500
# words at beam 5 too long a run; only the M55 has a firmware of the shipped Transformer.
BOARD_RUNS = {"m55": ("shipped", "mcu", "transformer", "transformer_mcu"),
              "m7": ("shipped", "mcu", "transformer_mcu"), "m4": ("shipped", "mcu", "transformer_mcu"),
              "m33": ("shipped", "mcu", "transformer_mcu"), "m3": ("mcu", "transformer_mcu")}


def firmware(board, model):
    _, _, preset, name = BOARDS[board]
    return f"{B}/{preset}/targets/{preset}-{name}/edgenmt_{name}{BOARD_MODELS[model][1]}.elf"


LINUX = {  # target: (qemu, sysroot, XNNPACK's library directory, [(backend, cpu)])
    "aarch64": ("qemu-aarch64", "/usr/aarch64-linux-gnu", f"{B}/sysroot-arm64/usr/lib/aarch64-linux-gnu",
                [("reference", "cortex-a76"), ("simd", "cortex-a76"), ("simd", "cortex-a72"),
                 ("xnnpack", "cortex-a76"), ("auto", "cortex-a76")]),
    "armv7": ("qemu-arm", "/usr/arm-linux-gnueabihf", f"{B}/sysroot-armhf/usr/lib/arm-linux-gnueabihf",
              [("reference", ""), ("simd", ""), ("xnnpack", ""), ("auto", "")]),
}
SCHEMES = ("f32", "int8", "int8-full")
BATCH = 32  # the batched rows' translate --batch
M7_LOAD_BOUND_CYCLES = 14  # cycles per 16 MACs of the M7's DSP loop when only its loads bind
NODE_SYSROOT = f"{B}/sysroot-node-arm64"


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def plugin(work):
    so = os.path.join(work, "libinsn.so")
    subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-Wall", "-o", so,
                    os.path.join(HERE, "qemu_insn_count.c")], check=True)
    return so


def count(cmd, stdin_path):
    """Guest instructions of a qemu-user command (its plugin's "insns: N" on stderr)."""
    with open(stdin_path) as f:
        r = subprocess.run(cmd, stdin=f, capture_output=True, text=True)
    m = re.search(r"^insns: (\d+)", r.stderr, re.M)
    if r.returncode != 0 or not m:
        raise RuntimeError(f"{' '.join(cmd[:6])}...: exit {r.returncode}: {r.stderr.strip()[-300:]}")
    return int(m.group(1))


def linux_row(so, target, backend, cpu, scheme, beam, words_file, empty_file, n, batch=1):
    qemu, sysroot, libdir, _ = LINUX[target]
    cli = f"{B}/{target}/edgenmt"
    cmd = [qemu, "-L", sysroot, "-E", f"LD_LIBRARY_PATH={libdir}"] + (["-cpu", cpu] if cpu else []) + [
        "-plugin", so, "-d", "plugin", cli, "translate", "-m", f"{B}/models/g2p-en.{scheme}.enmt",
        "--backend", backend, "--beam", str(beam)] + (["--batch", str(batch)] if batch > 1 else [])
    return (count(cmd, words_file) - count(cmd, empty_file)) / n


def board_row(board, model, beam, words_file, host_out, n):
    """(instructions per word, outputs identical to the host's, Load + Init instructions)."""
    machine, cpu, _, _ = BOARDS[board]
    fw = firmware(board, model)
    if not os.path.exists(fw):
        raise RuntimeError(f"{fw} not built (make test-cortex-m)")
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "out")
        r = run(["timeout", "3000", "qemu-system-arm", "-M", machine, "-cpu", cpu, "-nographic",
                 "-monitor", "none", "-serial", "null", "-icount", "shift=0", "-semihosting-config",
                 f"enable=on,target=native,arg=fw,arg={words_file},arg={out},arg={beam}", "-kernel", fw],
                stdin=subprocess.DEVNULL)
        m = re.search(r"(\d+) instructions per word", r.stdout + r.stderr)
        start = re.search(r"startup: Load \d+ \+ Init \d+ = (\d+) instructions", r.stdout + r.stderr)
        if r.returncode != 0 or not m:
            raise RuntimeError(f"{os.path.basename(fw)}: exit {r.returncode}: {(r.stdout + r.stderr)[-300:]}")
        with open(out) as f:
            same = f.read() == host_out
    return int(m.group(1)), same, int(start.group(1)) if start else None


def ort_row(so, sub, sources, n, work):
    node = ["qemu-aarch64", "-L", NODE_SYSROOT, "-cpu", "cortex-a76", "-plugin", so, "-d", "plugin",
            f"{NODE_SYSROOT}/usr/bin/node", os.path.join(HERE, "ort_count.mjs"), f"{B}/bench-node",
            f"{B}/bench/{sub}"]
    empty = os.path.join(work, "no-sources.json")
    with open(empty, "w") as f:
        json.dump([], f)
    out = os.path.join(work, f"ort-{sub}.json")
    base = count(node + [empty, os.path.join(work, "ort-empty.json")], os.devnull)
    total = count(node + [sources, out], os.devnull)
    with open(out) as f:
        return (total - base) / n, json.load(f)["hyps"]


def linux_jobs(jobs, pool, so, words_file, empty_file, sources, n, args):
    """The Linux targets' rows, the batched rows and ONNX Runtime's (not with --boards-only)."""
    for target, (_, _, _, runs) in LINUX.items():
        for scheme in SCHEMES:
            for backend, cpu in runs:
                if backend == "xnnpack" and scheme != "f32":
                    continue  # XNNPACK serves float32 models only (docs/BACKENDS.md)
                for beam in (1, 5):
                    jobs["linux", target, scheme, backend, cpu, beam] = pool.submit(
                        linux_row, so, target, backend, cpu, scheme, beam, words_file, empty_file, n)
    # Issue 24: the same words through TranslateBatch (translate --batch 32), aarch64.
    for scheme in SCHEMES:
        for beam in (1, 5):
            jobs["batch", scheme, beam] = pool.submit(
                linux_row, so, "aarch64", "simd", "cortex-a76", scheme, beam, words_file,
                empty_file, n, BATCH)
    for sub in ("onnx-f32", "onnx-int8"):
        jobs["ort", sub] = pool.submit(ort_row, so, sub, sources, n, args.work)


def fmt(v):
    return "–" if v is None else f"{v / 1e6:.2f} M"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--words", type=int, default=500)
    ap.add_argument("--data", default=os.path.join(ROOT, "data/g2p/test.tsv"))
    ap.add_argument("--checkpoint", default=os.path.join(ROOT, "models/g2p-en"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--json", default=os.path.join(ROOT, "build/bench/bench_arm.json"),
                    help="every count as JSON, with the date, CPU model and command")
    ap.add_argument("--work", default=os.path.join(B, "bench-arm"))
    ap.add_argument("--boards-only", action="store_true",
                    help="only the Cortex-M boards (no Linux targets, ONNX Runtime or llvm-mca)")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    refs_all = read_tsv(args.data)
    words = list(refs_all)[: args.words]
    n = len(words)
    words_file = os.path.join(args.work, "words.txt")
    empty_file = os.path.join(args.work, "empty.txt")
    with open(words_file, "w") as f:
        f.write("".join(w + "\n" for w in words))
    open(empty_file, "w").close()
    so = plugin(args.work)
    sources = os.path.join(args.work, "sources.json")
    subprocess.run(["/usr/bin/python3", os.path.join(HERE, "torch_peer.py"), "--checkpoint",
                    args.checkpoint, "--data", args.data, "--words", str(n), "--sources-only",
                    "--sources-out", sources], check=True)
    # make bench's graphs (export_onnx.py, quantize_onnx.py), written once.
    if not args.boards_only and not all(os.path.exists(f"{B}/bench/{sub}/decoder.onnx")
                                        for sub in ("onnx-f32", "onnx-int8")):
        subprocess.run(["/usr/bin/python3", os.path.join(HERE, "export_onnx.py"), "--checkpoint",
                        args.checkpoint, "--out", f"{B}/bench/onnx-f32"], check=True)
        subprocess.run(["/usr/bin/python3", os.path.join(HERE, "quantize_onnx.py"), "--src",
                        f"{B}/bench/onnx-f32", "--out", f"{B}/bench/onnx-int8"], check=True)

    host = {}
    for model, (path, _) in BOARD_MODELS.items():
        if not os.path.exists(f"{B}/models/{path}.int8-full.enmt"):
            continue
        for beam in (1, 5):
            r = run([f"{B}/host/edgenmt", "translate", "-m", f"{B}/models/{path}.int8-full.enmt",
                     "--beam", str(beam)], input="".join(w + "\n" for w in words), check=True)
            host[model, beam] = r.stdout

    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for board in BOARDS:
            for model in BOARD_RUNS[board]:
                for beam in (1, 5):
                    if (model, beam) in host:
                        jobs["board", board, model, beam] = pool.submit(
                            board_row, board, model, beam, words_file, host[model, beam], n)
        mca = []
        if not args.boards_only:
            linux_jobs(jobs, pool, so, words_file, empty_file, sources, n, args)
            mca = mca_limits.limits({"m55": firmware("m55", "shipped"),
                                     "m7": firmware("m7", "shipped"),
                                     "m4": firmware("m4", "shipped"),
                                     "m33": firmware("m33", "shipped"),
                                     "aarch64": f"{B}/aarch64/edgenmt"})
    res = {}
    for key, fut in jobs.items():
        try:
            res[key] = fut.result()
        except (RuntimeError, OSError, subprocess.SubprocessError) as e:
            print(f"bench-arm: {key}: {e}", file=sys.stderr)
            res[key] = None
    report(res, mca, words, refs_all, n, args)


def report(res, mca, words, refs_all, n, args):
    print(f"\nInstructions per word under QEMU, first {n} distinct test words "
          "(means; instructions, not cycles)\n")
    print("| board (int8-full, its default backend) | model | greedy | beam 5 | outputs = host | "
          "start-up (Load + Init) |")
    print("|---|---|---|---|---|---|")
    for board in BOARDS:
        for model in BOARD_RUNS[board]:
            g, b5 = res.get(("board", board, model, 1)), res.get(("board", board, model, 5))
            same = all(r and r[1] for r in (g, b5))
            print(f"| {board} | {BOARD_MODELS[model][0]} | {fmt(g and g[0])} | {fmt(b5 and b5[0])} | "
                  f"{'yes' if same else 'NO'} | {fmt(g and g[2])} |")
    print("\n| target | scheme | backend (QEMU cpu) | greedy | beam 5 |")
    print("|---|---|---|---|---|")
    for target, (_, _, _, runs) in LINUX.items():
        for scheme in SCHEMES:
            for backend, cpu in runs:
                if backend == "xnnpack" and scheme != "f32":
                    continue
                g = res.get(("linux", target, scheme, backend, cpu, 1))
                b5 = res.get(("linux", target, scheme, backend, cpu, 5))
                print(f"| {target} | {scheme} | {backend} ({cpu or 'qemu default'}) | {fmt(g)} | {fmt(b5)} |")
    print(f"\n| aarch64 (cortex-a76, simd) | search | batch 1 | batch {BATCH} | batch {BATCH} / batch 1 |")
    print("|---|---|---|---|---|")
    batch_ratio = None
    for scheme in SCHEMES:
        for beam in (1, 5):
            one = res.get(("linux", "aarch64", scheme, "simd", "cortex-a76", beam))
            many = res.get(("batch", scheme, beam))
            ratio = many / one if one and many else None
            if scheme == "int8" and beam == 1:
                batch_ratio = ratio
            print(f"| {scheme} | {'greedy' if beam == 1 else 'beam 5'} | {fmt(one)} | {fmt(many)} | "
                  f"{'–' if ratio is None else f'{ratio:.2f}'} |")
    with open(os.path.join(args.checkpoint, "tgt.vocab"), encoding="utf-8") as f:
        tgt = [line.rstrip("\n") for line in f]
    golden = {}
    with open(os.path.join(args.checkpoint, "outputs", "test.greedy.tsv"), encoding="utf-8") as f:
        for line in f:
            w, out, _ = line.rstrip("\n").split("\t")
            golden[w] = out
    refs = {w: refs_all[w] for w in words}
    torch_wer = score({w: golden[w].split() for w in words}, refs)["wer"]
    print(f"\n| ONNX Runtime 1.30 arm64 (qemu-aarch64 -cpu cortex-a76) | greedy | identical to PyTorch | WER (PyTorch {torch_wer:.2f}) |")
    print("|---|---|---|---|")
    ort = {}
    for sub in ("onnx-f32", "onnx-int8"):
        r = res.get(("ort", sub))
        if r is None:
            print(f"| {sub} | – | – | – |")
            continue
        hyps = [" ".join(tgt[t] for t in ids) for ids in r[1]]
        same = sum(h == golden[w] for w, h in zip(words, hyps)) / n
        wer = score({w: h.split() for w, h in zip(words, hyps)}, refs)["wer"]
        ort[sub] = r[0] if same >= (0.99 if sub == "onnx-f32" else 0.9) else None
        print(f"| {sub} | {fmt(r[0])} | {100 * same:.1f} % | {wer:.2f} |")
    print("\n(a peer row counts only when its outputs check: float ≥ 99 % identical to PyTorch's, "
          "int8 ≥ 90 %)")
    print("\n| core | kernel (inner loop as built) | instructions | MACs / iteration | MACs / cycle "
          "(llvm-mca) | peak | of peak |")
    print("|---|---|---|---|---|---|---|")
    for core, kernel, ninsn, macs, rate, peak, why in mca:
        if why:
            print(f"| {core} | {kernel} | {why} | | | | |")
        else:
            print(f"| {core} | {kernel} | {ninsn} | {macs} | {rate:.2f} | {peak:.2f} | {100 * rate / peak:.0f} % |")

    def v(key):
        r = res.get(key)
        return None if r is None else (r[0] if isinstance(r, tuple) else r)
    A, B_, C, D = (v(("board", b, m, 1)) for b, m in (("m55", "shipped"), ("m7", "shipped"),
                                                     ("m55", "mcu"), ("m7", "mcu")))
    K, L, M, N, P = (v(("board", b, m, 1)) for b, m in (
        ("m55", "transformer"), ("m55", "transformer_mcu"), ("m4", "mcu"), ("m33", "mcu"), ("m3", "mcu")))
    start = res.get(("board", "m55", "shipped", 1))
    S = start[2] if start else None
    E, G, H = (v(("linux", "aarch64", s, "simd", "cortex-a76", 1)) for s in ("int8", "int8-full", "f32"))
    F, J = ort.get("onnx-int8"), ort.get("onnx-f32")
    print("\nTargets (issue 23 for Linux; issue 61 for the boards)")
    for name, val, limit in (("m55 ≤ 3.0 M", A, 3.0e6), ("m7 ≤ 20 M", B_, 20e6),
                             ("m55_mcu ≤ 1.2 M", C, 1.2e6), ("m7_mcu ≤ 8 M", D, 8e6),
                             ("m55_transformer ≤ 4.5 M", K, 4.5e6),
                             ("m55_transformer_mcu ≤ 1.6 M", L, 1.6e6),
                             ("m4_mcu ≤ 8 M", M, 8e6), ("m33_mcu ≤ 8 M", N, 8e6),
                             ("m55_startup ≤ 1.5 M", S, 1.5e6),
                             ("aarch64_int8 ≤ ort_int8 / 4", E, F and F / 4),
                             ("aarch64_int8_full ≤ ort_int8 / 3", G, F and F / 3),
                             ("aarch64_f32 ≤ ort_f32 / 2", H, J and J / 2)):
        ok = val is not None and limit is not None and val <= limit
        print(f"  {name:34s} {fmt(val):>10s} vs {fmt(limit):>10s}  {'met' if ok else 'NOT met'}")
    print("  startup per board (Load + Init, the shipped int8-full file where the board runs it, "
          "else g2p-en-mcu): " + ", ".join(
              f"{b} {fmt(r[2])}" for b in BOARDS
              for r in [res.get(("board", b, "shipped", 1)) or res.get(("board", b, "mcu", 1))] if r))
    ok = batch_ratio is not None and batch_ratio <= 1 / 3
    print(f"  aarch64 int8 greedy batch {BATCH} ≤ batch 1 / 3 (issue 24): "
          f"{'–' if batch_ratio is None else f'{batch_ratio:.2f}'}  {'met' if ok else 'NOT met'}")
    for core, kernel, _, _, rate, peak, why in mca:
        if not why:
            print(f"  {core} {kernel} ≥ 70 % of peak: {100 * rate / peak:.0f} %  {'met' if rate >= 0.7 * peak else 'NOT met'}")
        if not why and core == "cortex-m7":
            # Issue 61: the M7's SMLAD loop is bound by its loads (SXTB16 pairs with SMLAD, no
            # load does): 16 MACs in 14 cycles at best under llvm-mca (measured in November).
            limit = 16 / M7_LOAD_BOUND_CYCLES
            print(f"  {core} {kernel} ≥ 70 % of its load-bound limit ({limit:.2f} MACs/cycle): "
                  f"{100 * rate / limit:.0f} %  {'met' if rate >= 0.7 * limit else 'NOT met'}")
    i = lambda x: "NA" if x is None else str(round(x))  # noqa: E731
    # Every count as JSON too (issue 60 §5), with the date, the CPU and the command.
    doc = bench_results.meta(args, n)
    doc.update(instructions_per_word={"|".join(map(str, k)): (r[0] if isinstance(r, tuple) else r)
                                      for k, r in res.items()},
               inner_loops=[dict(core=c, kernel=k, instructions=ni, macs=m, macs_per_cycle=rt,
                                 peak=pk, note=why) for c, k, ni, m, rt, pk, why in mca],
               arm_instructions=dict(m55=A, m7=B_, m55_mcu=C, m7_mcu=D, aarch64_int8=E,
                                     aarch64_int8_full=G, aarch64_f32=H, ort_aarch64_int8=F,
                                     ort_aarch64_f32=J, m55_transformer=K, m55_transformer_mcu=L,
                                     m4_mcu=M, m33_mcu=N, m3_mcu=P, m55_startup=S))
    os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
    with open(args.json + ".tmp", "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, default=str)
    os.replace(args.json + ".tmp", args.json)
    print(f"JSON: {os.path.relpath(args.json, ROOT)}")
    print(f"arm_instructions m55={i(A)} m7={i(B_)} m55_mcu={i(C)} m7_mcu={i(D)} aarch64_int8={i(E)} "
          f"aarch64_int8_full={i(G)} aarch64_f32={i(H)} ort_aarch64_int8={i(F)} ort_aarch64_f32={i(J)} "
          f"m55_transformer={i(K)} m55_transformer_mcu={i(L)} m4_mcu={i(M)} m33_mcu={i(N)} "
          f"m3_mcu={i(P)} m55_startup={i(S)}")


if __name__ == "__main__":
    main()
