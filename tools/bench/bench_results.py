"""`make bench`'s results beside its printed tables: every row as JSON, and the front page's chart
(greedy words/s, one word per call, one thread: edgenmt's default backend against PyTorch and
ONNX Runtime, for the LSTM and the Transformer), both stamped with the run's date, CPU model and
command (issue 60 §5)."""
import datetime
import json
import os
import platform
import sys


def cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def meta(args, n_words):
    return dict(date=datetime.date.today().isoformat(), cpu=cpu_model(),
                machine=platform.machine(), words=n_words, repeat=getattr(args, "repeat", 1),
                data=os.path.relpath(args.data), command="make bench (tools/bench/bench.py "
                + " ".join(sys.argv[1:]) + ")")


def plain(row, family):
    """A table row without its Job: what JSON can hold."""
    out = {k: v for k, v in row.items() if k != "job"}
    job = row.get("job")
    if job is not None:
        out.update({k: v for k, v in job.info.items() if isinstance(v, (str, int, float, bool))})
    out["family"] = family
    return out


def write_json(path, rows, tfm_rows, info):
    doc = dict(info, rows=[plain(r, "lstm") for r in rows]
               + [plain(r, "transformer") for r in tfm_rows])
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
    os.replace(tmp, path)


def chart_rows(rows, family, backend):
    """Greedy, one word per call, one thread: edgenmt's default backend and the peers."""
    picked = []
    for r in rows:
        job = r.get("job")
        if "wps" not in r or job is None or r.get("failed"):
            continue
        i = job.info
        if i.get("beam", 1) != 1 or i.get("batch", 1) != 1 or i.get("threads", 1) != 1:
            continue
        if i.get("edgenmt") and i.get("backend") != backend:
            continue
        if not (i.get("edgenmt") or i.get("peer") in ("torch", "ort")):
            continue
        name = r["runtime"] if i.get("edgenmt") else r["runtime"].split(" (")[0]
        picked.append((f"{family}: {name}, {r['model']}", r["wps"], bool(i.get("edgenmt"))))
    return picked


def write_chart(path, rows, tfm_rows, backend, info):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    bars = chart_rows(rows, "LSTM", backend) + chart_rows(tfm_rows, "Transformer", backend)
    if not bars:
        print(f"bench: no rows for the chart {path}", file=sys.stderr)
        return
    labels = [b[0] for b in bars][::-1]
    values = [b[1] for b in bars][::-1]
    colors = ["#1f6fb4" if b[2] else "#b0b0b0" for b in bars][::-1]
    fig, ax = plt.subplots(figsize=(9, 0.32 * len(bars) + 1.6), dpi=100)
    ax.barh(range(len(bars)), values, color=colors)
    ax.set_yticks(range(len(bars)))
    ax.set_yticklabels(labels, fontsize=8)
    ax.set_xscale("log")
    ax.set_xlabel("words/s, greedy, one word per call, one thread (log scale; higher is better)")
    for y, v in enumerate(values):
        ax.text(v, y, f" {v:,.0f}", va="center", fontsize=7)
    ax.set_title(f"edgenmt (blue) against PyTorch and ONNX Runtime: G2P, first {info['words']} "
                 f"test words\n{info['date']}, {info['cpu']}, median of {info['repeat']} passes, "
                 f"{info['command']}", fontsize=8)
    ax.set_xlim(right=max(values) * 4)
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
