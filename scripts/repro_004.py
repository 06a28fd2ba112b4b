#!/usr/bin/env python3
"""repro_004.py: `make repro-004`, the CTA-scheduling paper's experiments
(reference/004 section 5) on fermi-cta, through the study runner.

  repro_004.py SIMT [--size paper|small] [-j N] [--report-only]

Runs the studies of studies/004/ (each point cached, so a rerun computes
only what is missing), then writes results/repro-004[-SIZE]/report.md and
prints it:

  1. Fig. 4: cycles over CTAs/core 1..8 under GTO + RR; T_max, OPT and the
     type I-IV of each curve by the rule below, beside the paper's type;
  2. Figs. 12, 15-17, 19: every mechanism's speedup over GTO + RR per
     workload, with arithmetic and geometric means over the paper's sets
     (all, Type III+IV, 2D), the L1 miss-rate change, LCS's T_new beside
     OPT, each paper figure beside ours;
  3. Fig. 18: mCKE against CKE on the paper's kernel pairs.

Classification rule (docs/cta-scheduling.md, "Reproduction"): perf(N) =
1 / cycles(N) for N = 1..T_max (T_max: the smallest N from which the
cycles no longer change, the resources' limit); best = max perf; OPT =
the smallest N with perf(N) >= TOL * best (TOL = 0.98, reference 004 §6).
  I    OPT == T_max                       (still rising at the limit)
  II   OPT <  T_max and perf(T_max) >= TOL * best   (saturates)
  III  OPT == 1     and perf(T_max) <  TOL * best   (best at the minimum)
  IV   1 < OPT < T_max and perf(T_max) < TOL * best (rises, then falls)
With --size small the studies run at the workloads' small sizes (a check
of the pipeline in minutes; the numbers then mean little).
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOL = 0.98

# Table 2: abbreviation, our workload, the paper's type, CTA dimensionality.
TABLE2 = [
    ("CONV", "conv", "I", "2D"), ("MMUL", "mmul", "I", "2D"),
    ("BP", "bp004", "II", "2D"), ("BFS", "bfs", "II", "1D"),
    ("CP", "cp", "II", "2D"), ("RAY", "ray", "II", "2D"),
    ("SRAD", "srad004", "II", "2D"), ("MADD", "madd", "II", "2D"),
    ("TRAN", "tran", "II", "2D"), ("VADD", "vadd", "II", "1D"),
    ("FDTD", "fdtd004", "II", "2D"), ("KMN", "kmn", "III", "1D"),
    ("MUM", "mum", "III", "1D"), ("EIP", "eip", "III", "1D"),
    ("3DFD", "fd3d", "IV", "2D"), ("BLK", "blk", "IV", "1D"),
    ("STN", "stn", "IV", "2D"), ("LBM", "lbm004", "IV", "1D"),
    ("LPS", "lps", "IV", "2D"),
]
NAME = {w: a for a, w, _, _ in TABLE2}
PAPER_TYPE = {w: t for _, w, t, _ in TABLE2}
DIM = {w: d for _, w, _, d in TABLE2}

# The paper's figures (reference/004 §5); means are over the sets named.
PAPER_MEANS = [
    # (config, set, paper speedup over GTO, where it is stated)
    ("lcs", "all", 1.07, "§5.1 (+7%; §5.4 says +8%)"),
    ("lcs", "III+IV", 1.23, "§5.1 (about +23%)"),
    ("bcs_gto", "2D", 1.03, "§5.2 (+3%)"),
    ("bcs_sca", "2D", 1.15, "§5.2 (+15%, up to +70%)"),
    ("lcs_bcs", "all", 1.16, "§5.4 (+16%; also given as +15%)"),
]
PAPER_VS = [
    # (config a, config b, paper mean of a over b, where)
    ("lcs_bcs", "ccws", 1.13, "§5.4 (LCS+BCS +13% over CCWS)"),
    ("lcs_bcs", "dyncta", 1.14, "§5.4 (LCS+BCS +14% over DYNCTA)"),
]
PAPER_L1 = [("bcs_gto", -0.08, "Fig. 17 (-8%)"), ("bcs_sca", -0.24, "Fig. 17 (-24%)")]
PAPER_TNEW = {"lps": (8, 3, None), "kmn": (None, 1, None), "mmul": (4, 2, 3)}
PAPER_POINTS = [
    ("stn", "bcs_sca", 1.07, "§5.2: STN about +7% under BCS+SCA"),
    ("mmul", "lcs", None, "§5.1: MMUL slows down under LCS (T_new 2 < OPT 3)"),
    ("bp004", "bcs_sca", None, "§5.2: BP slightly slower under BCS+SCA"),
]
PAPER_MIX = {"kmn+srad004": 1.27, "cp+lps": 1.20, "cp+madd": 1.00}


def run_study(simt, study, size, jobs, results, report_only):
    """Runs one study file (a copy at another size when size != paper);
    returns its points.csv rows."""
    path = os.path.join(ROOT, "studies", "004", study + ".toml")
    if size != "paper":
        text = open(path).read().replace('size = "paper"', 'size = "%s"' % size)
        os.makedirs(os.path.join(ROOT, "build", "repro-004"), exist_ok=True)
        path = os.path.join(ROOT, "build", "repro-004", "%s-%s.toml" % (study, size))
        with open(path, "w") as f:
            f.write(text)
    out = os.path.join(results, study)
    cmd = [simt, "study", "report" if report_only else "run", path, "--results", out]
    if jobs and not report_only:
        cmd += ["-j", str(jobs)]
    rc = subprocess.call(cmd, cwd=ROOT)
    pts = os.path.join(out, "points.csv")
    if not os.path.exists(pts):
        sys.exit("repro-004: %s wrote no points.csv (exit %d)" % (study, rc))
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


def num(row, key):
    v = row.get(key, "")
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


def classify(cycles):
    """cycles: {N: cycles}.  (T_max, OPT, type) by the module's rule."""
    ns = sorted(n for n in cycles if cycles[n])
    if not ns:
        return None, None, None
    last = cycles[ns[-1]]
    tmax = ns[-1]
    for n in reversed(ns):
        if cycles[n] != last:
            break
        tmax = n
    perf = {n: 1.0 / cycles[n] for n in ns if n <= tmax}
    best = max(perf.values())
    opt = min(n for n in perf if perf[n] >= TOL * best)
    at_max = perf[tmax] >= TOL * best
    if opt == tmax:
        t = "I"
    elif at_max:
        t = "II"
    elif opt == 1:
        t = "III"
    else:
        t = "IV"
    return tmax, opt, t


def table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out) + "\n"


def curves_section(rows, res):
    by = {}
    for r in rows:
        c = num(r, "cycles")
        by.setdefault(r["workload"], {})[int(r["gpgpu_shader_cta"])] = c
    md = ["## Fig. 4: performance over CTAs per core (GTO + RR)\n",
          "Performance is cycles(T_max) / cycles(N) (1.000 at the resources' "
          "maximum); T_max, OPT and the type by the rule of scripts/repro_004.py "
          "(tolerance %.2f).\n" % TOL]
    head = ["workload"] + ["N=%d" % n for n in range(1, 9)] + ["T_max", "OPT", "type", "paper type"]
    out, info, agree, known = [], {}, 0, 0
    for a, w, pt, _ in TABLE2:
        cyc = by.get(w, {})
        tmax, opt, t = classify(cyc)
        info[w] = (tmax, opt, t)
        ref = cyc.get(tmax) if tmax else None
        cells = [fmt(ref / cyc[n]) if ref and cyc.get(n) and n <= tmax else "" for n in range(1, 9)]
        if t:
            known += 1
            agree += t == pt
        out.append([a] + cells + [tmax or "-", opt or "-", t or "missing", pt])
    md.append(table(head, out))
    md.append("Types agreeing with Table 2: %d of %d classified.\n" % (agree, known))
    plot_curves(by, info, os.path.join(res, "curves.png"))
    md.append("![curves](curves.png)\n")
    return "\n".join(md), info


def plot_curves(by, info, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, axes = plt.subplots(4, 5, figsize=(15, 11))
    for ax, (a, w, pt, _) in zip(axes.flat, TABLE2):
        cyc = by.get(w, {})
        tmax = info.get(w, (None,))[0]
        if tmax:
            ns = [n for n in sorted(cyc) if n <= tmax]
            ax.plot(ns, [cyc[tmax] / cyc[n] for n in ns], marker="o")
        ax.set_title("%s (paper %s, ours %s)" % (a, pt, info.get(w, (0, 0, "-"))[2] or "-"), fontsize=9)
        ax.set_xlabel("CTAs/core", fontsize=8)
    for ax in list(axes.flat)[len(TABLE2):]:
        ax.axis("off")
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


def policies_section(rows, info):
    by = {}
    for r in rows:
        by[(r["workload"], r["config"])] = r
    configs = []
    for r in rows:
        if r["config"] not in configs:
            configs.append(r["config"])
    others = [c for c in configs if c != "gto"]

    def speedup(w, c):
        b, x = by.get((w, "gto")), by.get((w, c))
        cb, cx = (num(b, "cycles") if b else None), (num(x, "cycles") if x else None)
        return cb / cx if cb and cx else None

    md = ["## Figs. 12, 15, 19: speedup over GTO + RR\n",
          "cycles(GTO + RR) / cycles(mechanism), at the most CTAs the resources allow.\n"]
    out = []
    for a, w, pt, d in TABLE2:
        out.append([a, pt, d] + [fmt(speedup(w, c)) for c in others])
    sets = {"all": [w for _, w, _, _ in TABLE2],
            "III+IV": [w for _, w, t, _ in TABLE2 if t in ("III", "IV")],
            "I+II": [w for _, w, t, _ in TABLE2 if t in ("I", "II")],
            "2D": [w for _, w, _, d in TABLE2 if d == "2D"]}
    for s, ws in sets.items():
        out.append(["**geomean %s**" % s, "", ""] + [fmt(gmean([speedup(w, c) for w in ws])) for c in others])
        out.append(["**mean %s**" % s, "", ""] + [fmt(amean([speedup(w, c) for w in ws])) for c in others])
    md.append(table(["workload", "paper type", "CTA"] + others, out))

    md.append("### The paper's averages beside ours\n")
    cmp_rows = []
    for c, s, paper, where in PAPER_MEANS:
        g = gmean([speedup(w, c) for w in sets[s]])
        m = amean([speedup(w, c) for w in sets[s]])
        cmp_rows.append([c, s, fmt(paper), fmt(g), fmt(m), pct((g - paper) / paper) if g else "-", where])
    for c1, c2, paper, where in PAPER_VS:
        ratios = [speedup(w, c1) / speedup(w, c2) for _, w, _, _ in TABLE2
                  if speedup(w, c1) and speedup(w, c2)]
        g = gmean(ratios)
        cmp_rows.append(["%s / %s" % (c1, c2), "all", fmt(paper), fmt(g), fmt(amean(ratios)),
                         pct((g - paper) / paper) if g else "-", where])
    md.append(table(["mechanism", "set", "paper", "ours (geomean)", "ours (mean)",
                     "diff (geomean)", "paper says"], cmp_rows))

    md.append("### Single points the paper states\n")
    pts = []
    for w, c, paper, where in PAPER_POINTS:
        pts.append([NAME[w], c, fmt(paper) if paper else "-", fmt(speedup(w, c)), where])
    e = speedup("eip", "ccws"), speedup("eip", "lcs_bcs")
    pts.append(["EIP", "ccws / lcs_bcs", "1.130", fmt(e[0] / e[1]) if all(e) else "-",
                "§5.4: CCWS beats LCS+BCS on EIP by 13%"])
    blk = {c: speedup("blk", c) for c in others}
    best = max((v, c) for c, v in blk.items() if v) if any(blk.values()) else (None, "-")
    pts.append(["BLK", "best mechanism", "tlv", best[1], "§5.4: TLV is best on BLK"])
    md.append(table(["workload", "mechanism", "paper", "ours", "paper says"], pts))

    md.append("### Fig. 17: L1 data-cache miss rate over GTO + RR (2D workloads)\n")
    l1 = []
    for c, paper, where in PAPER_L1:
        changes = []
        for w in sets["2D"]:
            b, x = by.get((w, "gto")), by.get((w, c))
            mb, mx = (num(b, "l1d_miss_rate") if b else None), (num(x, "l1d_miss_rate") if x else None)
            if mb and mx is not None:
                changes.append(mx / mb - 1)
        ours = amean(changes)
        l1.append([c, pct(paper), pct(ours), where])
    md.append(table(["mechanism", "paper", "ours (mean relative change)", "paper says"], l1))

    md.append("### Fig. 13: LCS's T_new beside OPT\n")
    tn = []
    for a, w, _, _ in TABLE2:
        decided = [k["lcs_t_new"] for k in kernel_records(by.get((w, "lcs")))
                   if k.get("lcs_t_new")]
        t_new = sum(decided) / len(decided) if decided else None
        tmax, opt, _ = info.get(w, (None, None, None))
        p = PAPER_TNEW.get(w)
        tn.append([a, tmax or "-", fmt(t_new, 2) if t_new is not None else "-", opt or "-",
                   "T_max %s, T_new %s, OPT %s" % tuple("-" if v is None else v for v in p) if p else ""])
    md.append(table(["workload", "T_max (ours)", "T_new (ours, mean over launches)",
                     "OPT (ours)", "paper"], tn))
    return "\n".join(md)


def mix_section(rows):
    by = {(r["workload"], r["config"]): num(r, "cycles") for r in rows}
    md = ["## Fig. 18: mCKE against CKE (both with the Table 3 quotas)\n",
          "cycles(CKE) / cycles(mCKE), both kernels to completion.\n"]
    out = []
    for w in sorted({r["workload"] for r in rows}):
        c, m = by.get((w, "cke")), by.get((w, "mcke"))
        s = c / m if c and m else None
        p = PAPER_MIX.get(w)
        out.append([w.upper().replace("+", "-"), fmt(p) if p else "-", fmt(s),
                    pct((s - p) / p) if s and p else "-"])
    md.append(table(["mix", "paper", "ours", "diff"], out))
    return "\n".join(md)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("simt")
    ap.add_argument("--size", default="paper", choices=["paper", "small"])
    ap.add_argument("-j", "--jobs", type=int)
    ap.add_argument("--report-only", action="store_true",
                    help="tables from the cache only, running nothing")
    a = ap.parse_args()
    simt = os.path.abspath(a.simt)
    res = os.path.join(ROOT, "results", "repro-004" + ("" if a.size == "paper" else "-" + a.size))
    os.makedirs(res, exist_ok=True)
    failed = 0
    curves, rc = run_study(simt, "curves", a.size, a.jobs, res, a.report_only)
    failed |= rc
    pol, rc = run_study(simt, "policies", a.size, a.jobs, res, a.report_only)
    failed |= rc
    parts = ["# Seed 004 reproduction (fermi-cta, size %s)\n" % a.size,
             "Generated by scripts/repro_004.py; each study's own report, CSVs and "
             "charts are in its folder (curves/, policies/, mixes/).  "
             "docs/cta-scheduling.md explains the differences.\n"]
    sec, info = curves_section(curves, res)
    parts.append(sec)
    parts.append(policies_section(pol, info))
    if os.path.exists(os.path.join(ROOT, "studies", "004", "mixes.toml")):
        mixes, rc = run_study(simt, "mixes", a.size, a.jobs, res, a.report_only)
        failed |= rc
        parts.append(mix_section(mixes))
    text = "\n".join(parts)
    with open(os.path.join(res, "report.md.tmp"), "w") as f:
        f.write(text)
    os.replace(os.path.join(res, "report.md.tmp"), os.path.join(res, "report.md"))
    print(text)
    print("report: %s" % os.path.relpath(os.path.join(res, "report.md"), ROOT))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
