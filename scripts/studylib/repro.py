"""repro.py: what the papers' reproduction scripts (scripts/repro_NNN.py,
`make repro-NNN`) share: running a seed's study files through the study
runner at paper or small size, reading a point's per-launch records from
the cache, and the arithmetic and Markdown of their paper-style tables.

A reproduction is studies/NNN/*.toml run by `simt study run` (each point
cached), then tables built from each study's points.csv with the paper's
numbers beside ours.  Nothing here knows a paper; the scripts own their
tables and the paper's figures.
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def arguments(doc):
    """The command line every repro script takes:
    SIMT [--size paper|small] [-j N] [--report-only]."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("simt")
    ap.add_argument("--size", default="paper", choices=["paper", "small"])
    ap.add_argument("-j", "--jobs", type=int)
    ap.add_argument("--report-only", action="store_true",
                    help="tables from the cache only, running nothing")
    a = ap.parse_args()
    a.simt = os.path.abspath(a.simt)
    return a


def results_dir(seed, size):
    """results/repro-NNN, or results/repro-NNN-SIZE below paper size."""
    res = os.path.join(ROOT, "results", "repro-%s" % seed + ("" if size == "paper" else "-" + size))
    os.makedirs(res, exist_ok=True)
    return res


def run_study(seed, simt, study, size, jobs, results, report_only):
    """Runs studies/SEED/STUDY.toml (a copy at another size when size !=
    paper: every `size = "paper"` becomes that size) into RESULTS/STUDY;
    returns (its points.csv rows, the runner's exit status)."""
    path = os.path.join(ROOT, "studies", seed, study + ".toml")
    if size != "paper":
        text = open(path).read().replace('size = "paper"', 'size = "%s"' % size)
        os.makedirs(os.path.join(ROOT, "build", "repro-%s" % seed), exist_ok=True)
        path = os.path.join(ROOT, "build", "repro-%s" % seed, "%s-%s.toml" % (study, size))
        with open(path, "w") as f:
            f.write(text)
    out = os.path.join(results, study)
    cmd = [simt, "study", "report" if report_only else "run", path, "--results", out]
    if jobs and not report_only:
        cmd += ["-j", str(jobs)]
    rc = subprocess.call(cmd, cwd=ROOT)
    pts = os.path.join(out, "points.csv")
    if not os.path.exists(pts):
        sys.exit("repro-%s: %s wrote no points.csv (exit %d)" % (seed, study, rc))
    with open(pts) as f:
        return list(csv.DictReader(f)), rc


def kernel_records(row):
    """The per-launch records (simt run --json "kernels") of a point, read
    from its cache record; [] when it has none."""
    key = row.get("key", "") if row else ""
    path = os.path.join(ROOT, "build", "study-cache", key[:2], key + ".json")
    if not key or not os.path.exists(path):
        return []
    with open(path) as f:
        return json.loads(json.load(f)["output"]).get("kernels", [])


def by_point(rows):
    """{(workload, config): row} of a study's points.csv rows."""
    return {(r["workload"], r["config"]): r for r in rows}


def num(row, key):
    v = row.get(key, "") if row else ""
    return float(v) if v not in ("", None) else None


def gmean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def amean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def fmt(x, p=3):
    return "-" if x is None else ("%.*f" % (p, x))


def pct(x):
    return "-" if x is None else "%+.1f%%" % (100 * x)


def rel(ours, paper):
    """(ours - paper) / paper, None when either is missing."""
    return None if ours is None or not paper else (ours - paper) / paper


def table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out) + "\n"


def bars_png(path, labels, series, title, ylabel, baseline=None):
    """Grouped bars: a group per label, a bar per series ({name: values},
    None for a missing value); a dashed line at BASELINE if given.  Written
    only when matplotlib is there (make deps puts it in build/venv);
    returns whether it was."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    names = list(series)
    fig, ax = plt.subplots(figsize=(min(18, max(6.0, 0.3 * len(labels) * len(names) + 2)), 4.2))
    w = 0.8 / max(1, len(names))
    for i, n in enumerate(names):
        xs = [x + (i - (len(names) - 1) / 2) * w for x in range(len(labels))]
        ax.bar(xs, [float("nan") if v is None else v for v in series[n]], w, label=n)
    ax.set_xticks(range(len(labels)), labels, rotation=30, ha="right")
    if baseline is not None:
        ax.axhline(baseline, color="0.4", linewidth=0.8, linestyle="--")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.tight_layout()
    fig.savefig(path, dpi=90, metadata={"Software": None})
    plt.close(fig)
    return True


def write_report(res, text, root=ROOT):
    """RES/report.md, atomically, and printed."""
    tmp = os.path.join(res, "report.md.tmp")
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, os.path.join(res, "report.md"))
    print(text)
    print("report: %s" % os.path.relpath(os.path.join(res, "report.md"), root))
