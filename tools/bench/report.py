"""What `make bench` (bench.py) prints: one row per Job (peers.py) from its passes, the table, and
the lines under it.

A row's words/s is the MEDIAN of its passes (the passes of all rows interleaved, so the
machine's drift falls on all rows alike), shown with its spread (the slowest and fastest
pass); µs/word and the efficiency (floor / µs per word) come from that median. Peak RSS is the
largest of the passes. WER, outputs and model bytes do not change from pass to pass: the first
pass's are shown.
"""
import statistics


def summarize(job, floors):
    """The table row of a job: a dict for fmt_table (and the lines under it)."""
    base = dict(runtime=job.runtime, model=job.model, decoding=job.decoding, job=job)
    if not job.passes:
        kind = job.refused.kind if job.refused else "no pass"
        if job.refused and job.refused.kind == "not built":
            base["model"] = "-"
        return dict(base, decoding=kind, note=job.refused.note if job.refused else None,
                    failed=kind == "FAILED")
    wps = [p["wps"] for p in job.passes]
    first = job.passes[0]
    r = dict(base, wps=statistics.median(wps), lo=min(wps), hi=max(wps), n=len(wps),
             rss=max(job.rss), bytes=first["bytes"], wer=first["wer"], arena=first.get("arena"))
    r["us"] = 1e6 / r["wps"]
    # The weight-read floor bounds one word per call on one thread only: batched rows share
    # each read among their sources (their measure is the int8 peak, batching.py).
    if job.info.get("edgenmt") and job.info.get("batch", 1) == 1 and job.info.get("threads", 1) == 1:
        r["floor_us"] = floors.get(job.info["scheme"], {}).get(job.info["beam"])
        r["eff"] = r["floor_us"] / r["us"] if r["floor_us"] else None
    if job.info.get("edgenmt"):
        if first.get("variant") and job.info["backend"] != "reference":
            r["runtime"] += f" ({first['variant']})"
    if job.refused:   # stopped after some passes (a sibling's refusal or a later failure)
        r["note"], r["failed"] = f"after {len(wps)} pass(es): {job.refused.note}", \
            job.refused.kind == "FAILED"
    return r


def fmt_table(rows):
    header = ("runtime", "model", "decoding", "words/s", "spread", "µs/word", "peak RSS", "model",
              "arena", "WER %", "floor µs", "efficiency", "int8 peak")
    cells = []
    for r in rows:
        if "wps" not in r:
            cells.append((r["runtime"], r["model"], r["decoding"]) + ("-",) * (len(header) - 3))
            continue
        cells.append((r["runtime"], r["model"], r["decoding"], f"{r['wps']:.1f}",
                      f"{r['lo']:.0f}-{r['hi']:.0f}" + ("" if r["n"] > 1 else " (1 pass)"),
                      f"{r['us']:.0f}", f"{r['rss'] / 1024:.1f} MiB",
                      f"{r['bytes'] / 1024:.0f} KiB",
                      f"{r['arena'] / 1024:.1f} KiB" if r.get("arena") else "-",
                      f"{r['wer']:.2f}",
                      f"{r['floor_us']:.0f}" if r.get("floor_us") else "-",
                      f"{100 * r['eff']:.1f} %" if r.get("eff") else "-",
                      f"{100 * r['mac_eff']:.1f} %" if r.get("mac_eff") is not None else "-"))
    widths = [max(len(c[i]) for c in cells + [header]) for i in range(len(header))]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths))]
    lines += ["  ".join(c.ljust(w) for c, w in zip(cell, widths)) for cell in cells]
    return "\n".join(lines)


def find(rows, **want):
    """The row whose job matches every key of want (job attributes or info), or None."""
    for r in rows:
        job = r.get("job")   # None: a "not available" peer's row
        if job is not None and all(getattr(job, k, job.info.get(k)) == v for k, v in want.items()):
            return r
    return None


def identical_lines(rows, n_words):
    """PyTorch int8 and ONNX Runtime outputs against PyTorch float's, word by word."""
    lines = []
    for r in rows:
        peer = r["job"].info.get("peer") if r.get("job") else None
        if "wps" not in r or not peer or (peer == "torch" and r["job"].info["quant"] == "none"):
            continue
        base = find(rows, peer="torch", quant="none", beam=1 if r["decoding"] == "greedy" else 5)
        if not base or "wps" not in base:
            continue
        ours, theirs = r["job"].passes[0]["hyps"], base["job"].passes[0]["hyps"]
        same = sum(a == b for a, b in zip(ours, theirs))
        lines.append(f"vs PyTorch float {r['decoding']}: {r['runtime']} {r['model']}: WER "
                     f"{r['wer'] - base['wer']:+.2f} points, {same}/{n_words} identical outputs")
    return lines


def thread_line(rows):
    """The peers' one-thread checks, as measured (each pass was checked where it ran)."""
    def worst(peer, key):
        vals = [p[key] for r in rows if r.get("job") and r["job"].info.get("peer") == peer
                for p in r["job"].passes if key in p]
        return f"{max(vals):.3f}" if vals else "n/a"
    return ("one thread per peer, checked in every pass (a pass that fails the check fails its "
            "row): PyTorch process CPU / main-thread CPU at most "
            f"{worst('torch', 'threads')} (limit 1.10); ONNX Runtime all threads' / main "
            f"thread's CPU ticks at most {worst('ort', 'threads')} (limit 1.10 + 2 ticks of the "
            f"10 ms clock), process CPU / wall at most {worst('ort', 'cpu_wall')} (limit 1.10); "
            "OMP/MKL/OPENBLAS_NUM_THREADS=1, torch.set_num_threads(1), ORT intra-op and "
            "inter-op threads 1")


def overhead_line(rows):
    ort = find(rows, peer="ort", quant="none")
    if not ort or "wps" not in ort:
        return None
    o = ort["job"].passes[0]["overhead"]
    calls = 1 + o["decoder_calls"] / o["words"]
    return (f"ONNX Runtime per-call overhead: {o['trivial_call_us']:.1f} µs per call of a "
            f"one-Identity graph, {o['decoder_step_s1_us']:.1f} µs per float decoder step on a "
            f"1-char source; {calls:.2f} calls per word -> {calls * o['trivial_call_us']:.0f} µs "
            f"of {ort['us']:.0f} µs per word (the median pass) is call overhead")


def speedup_lines(rows, backend, variant):
    """The named row the ratios come from, and the machine-readable last line. backend: the
    CLI's default backend, or None (then variant says why there is none)."""
    ours = (find(rows, edgenmt=True, backend=backend, scheme="int8", beam=1, batch=1, threads=1)
            if backend else None)
    peers = [("torch_float", find(rows, peer="torch", quant="none", beam=1)),
             ("torch_int8", find(rows, peer="torch", quant="dynamic", beam=1)),
             ("ort", find(rows, peer="ort", quant="none")),
             ("ort_int8", find(rows, peer="ort", quant="int8"))]
    if ours and "wps" in ours:
        first = (f"speedups: edgenmt {backend} ({variant}), the default backend (`edgenmt eval` "
                 f"without --backend), g2p-en.int8.enmt (int8 hybrid), greedy, median "
                 f"{ours['wps']:.1f} words/s, over each peer's greedy median")
    else:
        first = (f"speedups: n/a (the default backend {backend} has no int8 greedy row)" if backend
                 else f"speedups: n/a (no default backend: {variant})")
    ratios = []
    for name, p in peers:
        ok = ours and "wps" in ours and p and "wps" in p
        ratios.append(f"speedup_vs_{name}={ours['wps'] / p['wps']:.2f}" if ok else
                      f"speedup_vs_{name}=n/a")
    return [first, " ".join(ratios)]
