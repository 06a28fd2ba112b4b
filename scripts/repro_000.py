#!/usr/bin/env python3
"""repro_000.py: `make repro-000`, the Scratchpad Sharing paper's experiments
(reference/000 section 6) on kepler-ss, through the study runner.

  repro_000.py SIMT [--size paper|small] [-j N] [--report-only]

Runs the studies of studies/000/ (each point cached, so a rerun computes
only what is missing), then writes results/repro-000[-SIZE]/report.md and
its PNG charts and prints the report:

  1. the workloads: Table 1 and Set-3 kernels, their scratchpad per block,
     threads and thread instructions as the runs report them, beside the
     paper's Tables 1 and 4;
  2. Fig. 15: resident blocks per SM, baseline m and with sharing n;
  3. Table 11 / Fig. 20: IPC under the nine configurations, and
     Shared-OWF-OPT's gain over Unshared-LRR, -GTO and -2level with
     geometric means;
  4. Fig. 17: cycles Unshared-LRR -> Shared-OWF-OPT, reduction = 1 -
     cycles ratio, averaged as 1 - geomean of the ratios (§6.3);
  5. Table 4: thread instructions Unshared, Shared-OWF and Shared-OWF-OPT,
     the overhead SO - U per thread;
  6. Fig. 18: each sharing configuration over Unshared-LRR;
  7. Fig. 21 (16 KB scratchpad, 48 KB L1) and Figs. 22/27 (48 KB
     scratchpad, 2048 threads): the gains and block counts;
  8. Set-3 (Fig. 25): cycles identical Shared vs Unshared under LRR and GTO;
  9. Table 5's 16 KB kernels kmeans and lud (§6.9): blocks per SM beside the
     reference's derived m -> n, IPC gain over Unshared-LRR, with registers
     as compiled and capped at 20 (studies/000/table5-16k.toml);
 10. Fig. 19: the progress of paired CTAs, the shares of their cycles
     before their first shared-region access, in the shared region and
     after their relssp release, under the sharing configurations.

Every number is read from the runs (the sizes are the workloads'; nothing
here assumes them).  The paper's numbers are written once, in PAPER below,
each with where it comes from.  With --size small the studies run at the
workloads' small sizes: a check of the pipeline in about a minute; the
numbers then mean little (small grids leave few blocks to pair).
docs/scratchpad-sharing.md, "Measured here", explains the differences.
"""
import os
import sys

from studylib.repro import (amean, arguments, bars_png, by_point, fmt, gmean, kernel_records, num,
                            pct, rel, results_dir, run_study, table, write_report)

# Table 1 (Set-1, Set-2) and Table 2 (Set-3): the paper's name, our workload.
TABLE1 = [("backprop", "backprop", 1), ("DCT1", "dct1", 1), ("DCT2", "dct2", 1),
          ("DCT3", "dct3", 1), ("DCT4", "dct4", 1), ("NQU", "nqueens", 1),
          ("SRAD1", "srad1", 1), ("SRAD2", "srad2", 1), ("FDTD3d", "fdtd3d", 2),
          ("heartwall", "heartwall", 2), ("histogram", "histogram256", 2),
          ("MC1", "mc1", 2), ("NW1", "nw1", 2), ("NW2", "nw2", 2)]
SET3 = [("BFS", "bfs"), ("b+tree", "btree"), ("DCT5", "dct5"), ("gaussian", "gaussian"),
        ("NN", "nn")]
TABLE5_48K = [("DCT1 (8 KB tile)", "dct1_8k"), ("DCT2 (8 KB tile)", "dct2_8k"), ("MC2", "mc2")]
TABLE5_16K = [("kmeans", "kmeans"), ("lud", "lud")]
NAME = {w: n for n, w, _ in TABLE1}
NAME.update({w: n for n, w in SET3 + TABLE5_48K + TABLE5_16K})

# The paper's numbers (reference/000 = ../shared/reference/000-scratchpad-sharing.md;
# the seed is arXiv 1607.03238).  Per Table 1 kernel:
#   smem, thr: Table 1 (scratchpad bytes and threads per block);
#   m, n: Fig. 15 / §6.1 (resident blocks per SM, baseline and with sharing);
#   ipc: Table 11, absolute IPC (Unshared-LRR, Unshared-GTO, Unshared-2level,
#        Shared-OWF-OPT);
#   threads, u, so: Table 4 (threads launched; thread instructions Unshared =
#        Shared-OWF, and Shared-OWF-OPT).
# The paper's cycles are not printed; Fig. 17's per-kernel cycles are
# derived as instructions / IPC (reference §6.3, [derived]).
PAPER = {
    "backprop": dict(smem=9408, thr=256, m=1, n=2, ipc=(178.01, 179.78, 178.38, 310.10),
                     threads=1048576, u=131203072, so=133234688),
    "dct1": dict(smem=2112, thr=64, m=7, n=14, ipc=(284.48, 289.39, 281.54, 322.28),
                 threads=32768, u=9371648, so=9404416),
    "dct2": dict(smem=2112, thr=64, m=7, n=14, ipc=(283.84, 287.16, 288.42, 325.83),
                 threads=32768, u=9502720, so=9535488),
    "dct3": dict(smem=2176, thr=128, m=7, n=12, ipc=(358.11, 373.21, 384.30, 423.12),
                 threads=32768, u=11255808, so=11304960),
    "dct4": dict(smem=2176, thr=128, m=7, n=12, ipc=(381.23, 402.40, 406.12, 436.20),
                 threads=32768, u=11157504, so=11206656),
    "nqueens": dict(smem=10496, thr=64, m=1, n=2, ipc=(35.77, 35.77, 35.76, 37.46),
                    threads=24576, u=1282747, so=1331515),
    "srad1": dict(smem=13824, thr=576, m=1, n=2, ipc=(199.18, 200.58, 199.23, 227.74),
                  threads=4161600, u=756433955, so=760595555),
    "srad2": dict(smem=11520, thr=576, m=1, n=2, ipc=(67.19, 67.39, 66.98, 76.18),
                  threads=4161600, u=450077975, so=454239575),
    "fdtd3d": dict(smem=3840, thr=128, m=4, n=6, ipc=(330.52, 331.96, 328.95, 322.94),
                   threads=144384, u=5549531392, so=5549820160),
    "heartwall": dict(smem=11872, thr=128, m=1, n=2, ipc=(104.92, 104.92, 105.05, 201.62),
                      threads=17920, u=11280920, so=11316760),
    "histogram256": dict(smem=9216, thr=192, m=1, n=2, ipc=(153.46, 153.38, 151.56, 153.19),
                         threads=46080, u=893769168, so=893861328),
    "mc1": dict(smem=9216, thr=32, m=1, n=2, ipc=(44.43, 44.57, 44.15, 58.79),
                threads=3008, u=2881568, so=2887584),
    "nw1": dict(smem=8452, thr=32, m=1, n=2, ipc=(25.34, 25.34, 25.26, 25.94),
                threads=3184, u=5580458, so=5583642),
    "nw2": dict(smem=8452, thr=32, m=1, n=2, ipc=(25.40, 25.40, 25.32, 27.51),
                threads=3168, u=5561919, so=5565087),
}
PAPER_MEANS = {
    # Shared-OWF-OPT's geometric-mean IPC gain (§6.2, §6.6, abstract)
    "gain_lrr": (0.19, "§6.2: +19% over Unshared-LRR (Table 11 gives +19.01%)"),
    "gain_gto": (0.1773, "§6.6: +17.73% over Unshared-GTO"),
    "gain_2lvl": (0.1808, "§6.6: +18.08% over Unshared-2level"),
    # Fig. 17 (§6.3): 1 - geomean of the cycle ratios, and the largest
    "cycles_mean": (0.1542, "§6.3: cycles -15.42% on average"),
    "cycles_max": (0.478, "§6.3: -47.8% at most (heartwall)"),
    # Fig. 21 (§6.7): 16 KB scratchpad, 48 KB L1, mean gain over Unshared-LRR
    "l1_owf": (0.1404, "§6.7, Fig. 21: +14.04% with Shared-OWF"),
    "l1_opt": (0.1871, "§6.7, Fig. 21: +18.71% with Shared-OWF-OPT"),
    "l1_heartwall": (0.86, "§6.7, Fig. 21: heartwall about +86%"),
    # Fig. 22 (§6.7): 48 KB scratchpad, 2048 threads, mean gain over Unshared-LRR
    "s48_owf": (0.0862, "§6.7, Fig. 22: +8.62% with Shared-OWF"),
    "s48_opt": (0.0921, "§6.7, Fig. 22: +9.21% with Shared-OWF-OPT"),
}
# Fig. 27 (§6.9): resident blocks with sharing at 48 KB / 2048 threads where
# the paper states them (the thread limit), and Fig. 22's kernels that get no
# extra block there (§6.7: DCT1-4 not scratchpad-limited, SRAD1/2 thread-capped).
PAPER_48K_N = {"dct1_8k": 8, "dct2_8k": 8, "fdtd3d": 16}
# Table 5's 16 KB kernels (reference §5.4: 4608 B / 576 threads and 3872 B /
# 484 threads): the reference's m -> n derived from the scratchpad alone
# (§2.2 table, [derived]; the paper states none); §6.9 says only that both
# improve with Shared-OWF-OPT over Unshared-LRR, with no number.
PAPER_T5 = {"kmeans": dict(m=3, n=5), "lud": dict(m=4, n=6)}
PAPER_48K_UNSHARED = ["dct1", "dct2", "dct3", "dct4", "srad1", "srad2"]

CONFIGS = ["unshared_lrr", "unshared_gto", "unshared_2level", "shared_lrr", "shared_gto",
           "shared_owf", "shared_owf_reorder", "shared_owf_postdom", "shared_owf_opt"]
LABEL = {"unshared_lrr": "Unsh-LRR", "unshared_gto": "Unsh-GTO", "unshared_2level": "Unsh-2Lvl",
         "shared_lrr": "Sh-LRR", "shared_gto": "Sh-GTO", "shared_owf": "Sh-OWF",
         "shared_owf_reorder": "Sh-OWF-Reorder", "shared_owf_postdom": "Sh-OWF-PostDom",
         "shared_owf_opt": "Sh-OWF-OPT", "shared_lrr_opt": "Sh-LRR-OPT",
         "shared_gto_opt": "Sh-GTO-OPT"}


def launches(row):
    return kernel_records(row)


def threads(row):
    """Threads launched over every launch of a point (grid x block)."""
    n = 0
    for k in launches(row):
        g, b = k.get("grid", [1]), k.get("block", [1])
        n += (g[0] * g[1] * g[2]) * (b[0] * b[1] * b[2])
    return n or None


def per_launch(row, key):
    """A statistic summed over launches (ssp_blocks_*), as a mean per launch."""
    v, ks = num(row, key), launches(row)
    return v / len(ks) if v is not None and ks else None


def smem_per_block(row):
    ks = launches(row)
    return ks[0].get("smem_per_cta") if ks else None


def ratio(a, b):
    return a / b if a is not None and b else None


def same_kernels(ours, paper):
    """The paper's values of the kernels we have a value for (a partial
    run's means compare like with like)."""
    return [p for o, p in zip(ours, paper) if o]


def fmt_n(x):
    if x is None:
        return "-"
    return "%d" % x if float(x).is_integer() else "%.2f" % x


def workloads_section(t1, s3):
    md = ["## Workloads (Table 1, Set-3 of Table 2; thread counts of Table 4)\n",
          "Ours as the Unshared-LRR runs report them (scratchpad per block as "
          "allocated, threads over every launch, thread instructions); paper: Tables "
          "1 and 4.  `x` = ours / paper.\n"]
    rows = []
    for n, w, s in TABLE1:
        r, p = t1.get((w, "unshared_lrr")), PAPER[w]
        th, ti = threads(r), num(r, "thread_insns")
        rows.append([n, w, "Set-%d" % s, fmt_n(smem_per_block(r)), p["smem"],
                     fmt_n(th), "{:,}".format(p["threads"]), fmt(ratio(th, p["threads"]), 2),
                     fmt_n(ti), "{:,}".format(p["u"]), fmt(ratio(ti, p["u"]), 2)])
    for n, w in SET3:
        r = s3.get((w, "unshared_lrr"))
        rows.append([n, w, "Set-3", fmt_n(smem_per_block(r)), "-", fmt_n(threads(r)), "-", "-",
                     fmt_n(num(r, "thread_insns")), "-", "-"])
    md.append(table(["kernel", "workload", "set", "smem/block", "paper", "threads", "paper",
                     "x", "thread insns", "paper", "x"], rows))
    return "\n".join(md)


def blocks_section(t1, res):
    md = ["## Fig. 15: resident blocks per SM, baseline m and with sharing n\n",
          "Ours from Shared-OWF-OPT's `ssp_blocks_baseline`, `ssp_blocks_shared` and "
          "`ssp_pairs` (per launch); paper: §6.1.\n"]
    rows, lab, series = [], [], {"ours m": [], "ours n": [], "paper m": [], "paper n": []}
    agree = run = 0
    for n, w, _ in TABLE1:
        r, p = t1.get((w, "shared_owf_opt")), PAPER[w]
        m_, n_, pr = (per_launch(r, k) for k in ("blocks_baseline", "blocks_shared", "pairs"))
        ok = m_ == p["m"] and n_ == p["n"]
        agree += ok
        run += m_ is not None
        rows.append([n, fmt_n(m_), fmt_n(n_), fmt_n(pr), p["m"], p["n"], p["n"] - p["m"],
                     "-" if m_ is None else "yes" if ok else "no"])
        lab.append(n)
        for k, v in (("ours m", m_), ("ours n", n_), ("paper m", p["m"]), ("paper n", p["n"])):
            series[k].append(v)
    md.append(table(["kernel", "m", "n", "pairs", "paper m", "paper n", "paper pairs",
                     "same"], rows))
    md.append("Same block counts as the paper: %d of the %d kernels run.\n" % (agree, run))
    if bars_png(os.path.join(res, "blocks.png"), lab, series,
                "Seed 000 Fig. 15: resident blocks per SM (kepler-ss)", "blocks per SM"):
        md.append("![blocks](blocks.png)\n")
    return "\n".join(md)


def ipc_section(t1, res):
    md = ["## Table 11 and Fig. 20: IPC, Shared-OWF-OPT over the three baselines\n",
          "IPC = thread instructions per core cycle, whole GPU (`ipc`).  Gains are "
          "IPC(Shared-OWF-OPT) / IPC(baseline) - 1; the mean row is the geometric mean "
          "of the ratios (§7).\n"]
    rows = []
    for n, w, _ in TABLE1:
        rows.append([n] + [fmt(num(t1.get((w, c)), "ipc"), 2) for c in CONFIGS])
    md.append("### IPC under the nine configurations (ours)\n")
    md.append(table(["kernel"] + [LABEL[c] for c in CONFIGS], rows))

    bases = [("unshared_lrr", 0, "gain_lrr"), ("unshared_gto", 1, "gain_gto"),
             ("unshared_2level", 2, "gain_2lvl")]
    head = ["kernel"]
    for c, _, _ in bases:
        head += ["IPC %s" % LABEL[c], "paper"]
    head += ["IPC Sh-OWF-OPT", "paper"]
    for c, _, _ in bases:
        head += ["gain vs %s" % LABEL[c], "paper"]
    rows, ours_r, paper_r = [], {c: [] for c, _, _ in bases}, {c: [] for c, _, _ in bases}
    for n, w, _ in TABLE1:
        p = PAPER[w]["ipc"]
        so = num(t1.get((w, "shared_owf_opt")), "ipc")
        line = [n]
        for c, i, _ in bases:
            line += [fmt(num(t1.get((w, c)), "ipc"), 2), "%.2f" % p[i]]
        line += [fmt(so, 2), "%.2f" % p[3]]
        for c, i, _ in bases:
            g = ratio(so, num(t1.get((w, c)), "ipc"))
            ours_r[c].append(g)
            paper_r[c].append(p[3] / p[i])
            line += [pct(g - 1 if g else None), pct(p[3] / p[i] - 1)]
        rows.append(line)
    mean = ["**geomean** (paper: same kernels)"] + [""] * 8
    for c, _, _ in bases:
        g, pg = gmean(ours_r[c]), gmean(same_kernels(ours_r[c], paper_r[c]))
        mean += [pct(g - 1 if g else None), pct(pg - 1 if pg else None)]
    rows.append(mean)
    md.append("### Shared-OWF-OPT beside the baselines (Table 11)\n")
    md.append(table(head, rows))
    cmp_rows = []
    for c, _, key in bases:
        g, pg = gmean(ours_r[c]), gmean(same_kernels(ours_r[c], paper_r[c]))
        paper, where = PAPER_MEANS[key]
        cmp_rows.append([LABEL[c], "%d" % len([r for r in ours_r[c] if r]),
                         pct(g - 1 if g else None), pct(pg - 1 if pg else None), pct(paper),
                         where])
    md.append(table(["gain of Shared-OWF-OPT over", "kernels run", "ours (geomean)",
                     "paper, same kernels", "paper, all 14", "paper says"], cmp_rows))
    lab = [n for n, _, _ in TABLE1] + ["geomean"]
    so_l = [None if g is None else g - 1 for g in ours_r["unshared_lrr"]]
    pa_l = [g - 1 for g in paper_r["unshared_lrr"]]
    g1 = gmean(ours_r["unshared_lrr"])
    g2 = gmean(same_kernels(ours_r["unshared_lrr"], paper_r["unshared_lrr"]))
    if bars_png(os.path.join(res, "ipc_gain.png"), lab,
                {"ours": so_l + [g1 - 1 if g1 else None],
                 "paper": pa_l + [g2 - 1 if g2 else None]},
                "Seed 000 Table 11: Shared-OWF-OPT IPC gain over Unshared-LRR", "IPC gain",
                baseline=0.0):
        md.append("![IPC gain](ipc_gain.png)\n")
    return "\n".join(md)


def cycles_section(t1, res):
    md = ["## Fig. 17: cycles, Unshared-LRR -> Shared-OWF-OPT\n",
          "Reduction = 1 - cycles(SO) / cycles(U); the mean is 1 - geomean of the "
          "ratios (§6.3).  The paper's per-kernel cycles are derived as Table 4's "
          "instructions / Table 11's IPC (reference §6.3).\n"]
    rows, ours_r, paper_r, lab = [], [], [], []
    for n, w, _ in TABLE1:
        p = PAPER[w]
        cu, cs = num(t1.get((w, "unshared_lrr")), "cycles"), num(t1.get((w, "shared_owf_opt")), "cycles")
        pu, ps = p["u"] / p["ipc"][0], p["so"] / p["ipc"][3]
        r = ratio(cs, cu)
        ours_r.append(r)
        paper_r.append(ps / pu)
        lab.append(n)
        rows.append([n, fmt_n(cu), fmt_n(cs), pct(None if r is None else 1 - r),
                     "{:,.0f}".format(pu), "{:,.0f}".format(ps), pct(1 - ps / pu)])
    g, pg = gmean(ours_r), gmean(same_kernels(ours_r, paper_r))
    rows.append(["**1 - geomean** (paper: same kernels)", "", "", pct(1 - g if g else None), "",
                 "", pct(1 - pg if pg else None)])
    md.append(table(["kernel", "cycles U", "cycles SO", "reduction", "paper U", "paper SO",
                     "paper reduction"], rows))
    red = [1 - r for r in ours_r if r]
    best = max(zip(red, [n for n, r in zip(lab, ours_r) if r])) if red else (None, "-")
    md.append(table(["", "ours", "paper, same kernels", "paper, all 14", "paper says"], [
        ["mean reduction", pct(1 - g if g else None), pct(1 - pg if pg else None),
         pct(PAPER_MEANS["cycles_mean"][0]), PAPER_MEANS["cycles_mean"][1]],
        ["largest reduction", "%s (%s)" % (pct(best[0]), best[1]), "",
         pct(PAPER_MEANS["cycles_max"][0]), PAPER_MEANS["cycles_max"][1]]]))
    if bars_png(os.path.join(res, "cycle_reduction.png"), lab + ["mean"],
                {"ours": [None if r is None else 1 - r for r in ours_r] + [1 - g if g else None],
                 "paper": [1 - r for r in paper_r] + [1 - pg if pg else None]},
                "Seed 000 Fig. 17: cycle reduction, Shared-OWF-OPT over Unshared-LRR",
                "1 - cycles ratio", baseline=0.0):
        md.append("![cycle reduction](cycle_reduction.png)\n")
    return "\n".join(md)


def insns_section(t1):
    md = ["## Table 4: thread instructions and the overhead of relssp and split edges\n",
          "U = Unshared-LRR, S = Shared-OWF (the paper: U = S), SO = Shared-OWF-OPT; "
          "overhead per thread = (SO - U) / threads launched.\n"]
    rows = []
    for n, w, _ in TABLE1:
        p = PAPER[w]
        u, s, so = (num(t1.get((w, c)), "thread_insns")
                    for c in ("unshared_lrr", "shared_owf", "shared_owf_opt"))
        th = threads(t1.get((w, "unshared_lrr")))
        rows.append([n, fmt_n(u), fmt_n(s), "-" if u is None or s is None else
                     "yes" if u == s else "no",
                     fmt_n(so), fmt(ratio(so - u, th) if so is not None and u is not None else None, 4),
                     fmt((p["so"] - p["u"]) / p["threads"], 4)])
    md.append(table(["kernel", "U", "S", "U = S", "SO", "(SO-U)/thread", "paper"], rows))
    return "\n".join(md)


def breakdown_section(t1):
    cfgs = ["shared_lrr", "shared_gto", "shared_owf", "shared_owf_reorder",
            "shared_owf_postdom", "shared_owf_opt"]
    md = ["## Fig. 18: each sharing configuration over Unshared-LRR\n",
          "IPC(configuration) / IPC(Unshared-LRR).  The paper gives Fig. 18 as bars "
          "without numbers (§6.5): NoOpt (Shared-LRR) helps all but FDTD3d and "
          "histogram, OWF adds more, Reorder changes nothing noticeable, PostDom and "
          "OPT help every Set-1 kernel, Set-2 gains little from them.\n"]
    rows, sp = [], {c: [] for c in cfgs}
    for n, w, s in TABLE1:
        b = num(t1.get((w, "unshared_lrr")), "ipc")
        line = [n, "Set-%d" % s]
        for c in cfgs:
            g = ratio(num(t1.get((w, c)), "ipc"), b)
            sp[c].append(g)
            line.append(fmt(g))
        rows.append(line)
    rows.append(["**geomean**", ""] + [fmt(gmean(sp[c])) for c in cfgs])
    md.append(table(["kernel", "set"] + [LABEL[c] for c in cfgs], rows))
    pairs = [(num(t1.get((w, "shared_owf")), "cycles"),
              num(t1.get((w, "shared_owf_reorder")), "cycles")) for _, w, _ in TABLE1]
    pairs = [(a, b) for a, b in pairs if a and b]
    same = sum(1 for a, b in pairs if a == b)
    near = sum(1 for a, b in pairs if abs(a / b - 1) < 0.01)
    md.append("Shared-OWF-Reorder cycle-identical to Shared-OWF on %d of the %d kernels run, "
              "within 1%% on %d (paper: no noticeable change).\n" % (same, len(pairs), near))
    return "\n".join(md)


def other_config_section(rows, title, prefix, owf_key, opt_key, names, extra):
    """A gains table for one other configuration study (Fig. 21 or 22)."""
    base, owf, opt = ("unshared_lrr_" + prefix, "shared_owf_" + prefix,
                      "shared_owf_opt_" + prefix)
    md = [title]
    out, g_owf, g_opt = [], [], []
    for n, w in names:
        b = rows.get((w, opt))
        r1 = ratio(num(rows.get((w, owf)), "ipc"), num(rows.get((w, base)), "ipc"))
        r2 = ratio(num(b, "ipc"), num(rows.get((w, base)), "ipc"))
        g_owf.append(r1)
        g_opt.append(r2)
        out.append([n, fmt_n(per_launch(b, "blocks_baseline")), fmt_n(per_launch(b, "blocks_shared")),
                    pct(None if r1 is None else r1 - 1), pct(None if r2 is None else r2 - 1)] +
                   extra(w, b, r2))
    a, b = gmean(g_owf), gmean(g_opt)
    out.append(["**geomean**", "", "", pct(a - 1 if a else None), pct(b - 1 if b else None)] +
               [""] * (len(out[0]) - 5))
    return md, out, a, b


def l1_section(l1):
    names = [(n, w) for n, w, _ in TABLE1]

    def extra(w, b, r2):
        if w == "heartwall":
            return ["%s (Sh-OWF-OPT)" % pct(PAPER_MEANS["l1_heartwall"][0])]
        return [""]

    md, out, a, b = other_config_section(
        l1, "## Fig. 21: 16 KB scratchpad, 48 KB L1 (configs/000/*-l1-48k.cfg)\n\n"
        "Gains over Unshared-LRR with the same 48 KB L1; m, n per launch under "
        "Shared-OWF-OPT.\n", "l1_48k", "l1_owf", "l1_opt", names, extra)
    md.append(table(["kernel", "m", "n", "Sh-OWF", "Sh-OWF-OPT", "paper"], out))
    k = "%d" % sum(1 for r in out[:-1] if r[4] != "-")
    md.append(table(["mean gain over Unshared-LRR", "kernels run", "ours (geomean)",
                     "paper, all 14", "paper says"], [
        ["Shared-OWF", k, pct(a - 1 if a else None), pct(PAPER_MEANS["l1_owf"][0]),
         PAPER_MEANS["l1_owf"][1]],
        ["Shared-OWF-OPT", k, pct(b - 1 if b else None), pct(PAPER_MEANS["l1_opt"][0]),
         PAPER_MEANS["l1_opt"][1]]]))
    return "\n".join(md)


def smem48_section(s48):
    names = [(n, w) for n, w, _ in TABLE1] + TABLE5_48K

    def extra(w, b, r2):
        if w in PAPER_48K_N:
            return ["n = %d (Fig. 27, thread limit)" % PAPER_48K_N[w]]
        if w in PAPER_48K_UNSHARED:
            return ["no extra block (§6.7)"]
        return [""]

    md, out, _, _ = other_config_section(
        s48, "## Figs. 22 and 27: 48 KB scratchpad, 2048 threads per SM "
        "(configs/000/*-smem-48k-2048thr.cfg)\n\nGains over Unshared-LRR at the same "
        "size; m, n per launch under Shared-OWF-OPT.  Fig. 22's means are over the "
        "Table 1 kernels; Table 5's 8 KB DCT tiles and MC2 are Fig. 27's.\n",
        "smem_48k_2048thr", "s48_owf", "s48_opt", names, extra)
    md.append(table(["kernel", "m", "n", "Sh-OWF", "Sh-OWF-OPT", "paper"], out))
    t1 = [w for _, w, _ in TABLE1]

    def g(cfg):
        rs = [ratio(num(s48.get((w, cfg)), "ipc"),
                    num(s48.get((w, "unshared_lrr_smem_48k_2048thr")), "ipc")) for w in t1]
        v = gmean(rs)
        return (v - 1 if v else None), "%d" % len([r for r in rs if r])
    (o1, k1), (o2, k2) = g("shared_owf_smem_48k_2048thr"), g("shared_owf_opt_smem_48k_2048thr")
    md.append(table(["mean gain over Unshared-LRR (Table 1 kernels)", "kernels run",
                     "ours (geomean)", "paper, all 14", "paper says"], [
        ["Shared-OWF", k1, pct(o1), pct(PAPER_MEANS["s48_owf"][0]), PAPER_MEANS["s48_owf"][1]],
        ["Shared-OWF-OPT", k2, pct(o2), pct(PAPER_MEANS["s48_opt"][0]),
         PAPER_MEANS["s48_opt"][1]]]))
    return "\n".join(md)


def set3_section(s3):
    cfgs = ["unshared_lrr", "shared_lrr", "shared_lrr_opt", "unshared_gto", "shared_gto",
            "shared_gto_opt", "shared_owf", "shared_owf_opt"]
    md = ["## Set-3 (Fig. 25): sharing changes nothing when the scratchpad does not limit\n",
          "Cycles.  Paper (§6.8): Unshared-LRR = Shared-LRR = Shared-LRR-OPT and "
          "Unshared-GTO = Shared-GTO = Shared-GTO-OPT exactly; Shared-OWF = "
          "Shared-OWF-OPT, both about Unshared-GTO; no block paired, no relssp.  "
          "*Shared = Unshared* compares the configurations without compiler passes; "
          "*-OPT = without* compares each -OPT run with the same configuration "
          "without the passes (the passes' code runs only in launches that pair "
          "blocks: docs/compiler.md, \"Only where blocks pair\").\n"]
    rows, same, opt_same, run = [], True, True, 0

    def yn(ok, have):
        return "-" if not have else "yes" if ok else "no"
    for n, w in SET3:
        c = {k: num(s3.get((w, k)), "cycles") for k in cfgs}
        have = all(v is not None for v in c.values())
        run += have
        if not have:
            rows.append([n] + [fmt_n(c[k]) for k in cfgs] + ["-"] * 6)
            continue
        lrr = c["unshared_lrr"] is not None and c["unshared_lrr"] == c["shared_lrr"]
        gto = c["unshared_gto"] is not None and c["unshared_gto"] == c["shared_gto"]
        opt = all(c[a] is not None and c[a] == c[b] for a, b in (
            ("shared_lrr", "shared_lrr_opt"), ("shared_gto", "shared_gto_opt"),
            ("shared_owf", "shared_owf_opt")))
        paired = sum(num(s3.get((w, k)), "pairs") or 0 for k in cfgs)
        releases = sum(num(s3.get((w, k)), "relssp_releases") or 0 for k in cfgs)
        same &= lrr and gto and not paired
        opt_same &= opt
        rows.append([n] + [fmt_n(c[k]) for k in cfgs] +
                    [yn(lrr, have), yn(gto, have), yn(opt, have),
                     fmt(ratio(c["shared_owf"], c["unshared_gto"])), fmt_n(paired),
                     fmt_n(releases)])
    md.append(table(["kernel"] + [LABEL[k] for k in cfgs] +
                    ["LRR: Shared = Unshared", "GTO: Shared = Unshared", "-OPT = without",
                     "OWF / GTO cycles", "pairs", "relssp releases"], rows))
    md.append("Set-3 unchanged (Shared = Unshared under LRR and GTO, no block paired) on "
              "the %d kernels run: %s.  -OPT runs identical to the runs without the passes: "
              "%s.\n" % (run, "-" if not run else "yes" if same else "NO",
                          "-" if not run else "yes" if opt_same else "no"))
    return "\n".join(md)


def table5_section(t5):
    md = ["## Table 5 at 16 KB: kmeans and lud (§6.9)\n",
          "The paper: \"kmeans and lud show improvement with Shared-OWF-OPT-16K when "
          "compared to Unshared-LRR-16K\", no number; m -> n is the reference's "
          "derivation from the scratchpad alone (§2.2).  On kepler-ss both kernels "
          "need at most 20 registers a thread for those n (65536 / (n x threads, "
          "rounded up to warps), rounded down to the allocation unit of 4); with "
          "our allocator's count registers bind first and sharing adds no block.  "
          "*r20* = every configuration with `maxrregcount = 20` (the baseline "
          "too), which spills what does not fit.  Gains are IPC ratios - 1 over "
          "Unshared-LRR with the same registers.\n"]
    rows = []
    for n, w in TABLE5_16K:
        p = PAPER_T5[w]
        so, so20 = t5.get((w, "shared_owf_opt")), t5.get((w, "shared_owf_opt_r20"))
        u, u20 = num(t5.get((w, "unshared_lrr")), "ipc"), num(t5.get((w, "unshared_lrr_r20")), "ipc")

        def mn(r):
            a, b = per_launch(r, "blocks_baseline"), per_launch(r, "blocks_shared")
            return "-" if a is None else "%s -> %s" % (fmt_n(a), fmt_n(b))

        def gain(c, base):
            g = ratio(num(t5.get((w, c)), "ipc"), base)
            return pct(None if g is None else g - 1)
        r20 = ratio(u20, u)
        rows.append([n, mn(so), gain("shared_owf_opt", u), mn(so20),
                     "%d -> %d" % (p["m"], p["n"]), gain("unshared_gto_r20", u20),
                     gain("unshared_owf_r20", u20), gain("shared_lrr_r20", u20),
                     gain("shared_owf_r20", u20), gain("shared_owf_opt_r20", u20),
                     pct(None if r20 is None else r20 - 1), "improves (no number)"])
    md.append(table(["kernel", "m -> n, regs as compiled", "Sh-OWF-OPT",
                     "m -> n, r20", "reference m -> n", "r20: Unsh-GTO", "OWF unshared",
                     "Sh-LRR", "Sh-OWF", "Sh-OWF-OPT", "Unsh-LRR r20 / as compiled",
                     "paper (Sh-OWF-OPT)"], rows))
    md.append("*OWF unshared* is Shared-OWF with `ssp_sharing = 0`: OWF's order with "
              "every CTA unshared, the scheduler's part of Shared-OWF's gain; "
              "Sh-LRR against Unsh-LRR is sharing's part alone.\n")
    return "\n".join(md)


FIG19 = [("shared_lrr", "NoOpt (Sh-LRR)"), ("shared_owf", "Sh-OWF"),
         ("shared_owf_reorder", "Minimize (Sh-OWF-Reorder)"),
         ("shared_owf_postdom", "PostDom"), ("shared_owf_opt", "OPT")]


def progress(row):
    """(pre-acquire, shared, post-release) shares of the paired CTAs'
    cycles, or None when the point did not run or paired no CTA."""
    v = [num(row, k) for k in ("pre_acquire_cycles", "shared_cycles", "post_release_cycles")]
    if any(x is None for x in v) or not sum(v):
        return None
    return [x / sum(v) for x in v]


def fig19_section(t1):
    md = ["## Fig. 19: progress of paired CTAs\n",
          "Each cell: the shares of the paired CTAs' cycles (`ssp_pre_acquire_cycles`, "
          "`ssp_shared_cycles`, `ssp_post_release_cycles`, docs/stats.md) before their "
          "first shared-region access / from it to their relssp release or completion "
          "/ after the release, in %.  The paper's Fig. 19 is bars without numbers "
          "(NoOpt, Minimize, PostDom, OPT; §6.5): every kernel runs unshared before "
          "its first shared access; heartwall's shared blocks never enter the shared "
          "region; Minimize has no effect; PostDom and OPT help only the kernels with "
          "many cycles after their last shared access.  The last column is OPT's IPC "
          "over Minimize's.\n"]
    rows = []
    never, reorder_same, reorder_run = [], 0, 0
    many, few = [], []  # (kernel, OPT / Minimize IPC) by OPT's post-release share
    for n, w, s in TABLE1:
        line = [n, "Set-%d" % s]
        got = {}
        for c, _ in FIG19:
            got[c] = progress(t1.get((w, c)))
            line.append("-" if got[c] is None else
                        " / ".join("%.0f" % (100 * x) for x in got[c]))
        g = ratio(num(t1.get((w, "shared_owf_opt")), "ipc"),
                  num(t1.get((w, "shared_owf_reorder")), "ipc"))
        line.append(pct(None if g is None else g - 1))
        rows.append(line)
        if got["shared_owf_opt"] is not None and g is not None:
            (many if got["shared_owf_opt"][2] >= 0.03 else few).append((n, g))
        have = [got[c] for c, _ in FIG19 if got[c] is not None]
        if have and all(x[1] == 0 for x in have):
            never.append(n)
        a, b = got["shared_owf"], got["shared_owf_reorder"]
        if a is not None and b is not None:
            reorder_run += 1
            reorder_same += all(abs(x - y) < 0.005 for x, y in zip(a, b))
    md.append(table(["kernel", "set"] + [lab for _, lab in FIG19] + ["OPT / Minimize IPC"],
                    rows))
    md.append(table(["paper (§6.5, Fig. 19)", "ours"], [
        ["heartwall's shared blocks never enter the shared region",
         "kernels whose paired CTAs never access it (shared = 0 under every "
         "configuration run): %s" % (", ".join(never) or "none")],
        ["Minimize has no effect",
         "Sh-OWF-Reorder's shares within 0.5 points of Sh-OWF's on %d of the %d "
         "kernels run" % (reorder_same, reorder_run)],
        ["PostDom and OPT help only kernels with many post-last-access cycles",
         "OPT over Minimize, geomean: %s on the %d kernels with >= 3%% of their "
         "paired cycles post-release under OPT (%s), %s on the %d others" % (
             pct(gmean([g for _, g in many]) - 1 if many else None), len(many),
             ", ".join(n for n, _ in many) or "none",
             pct(gmean([g for _, g in few]) - 1 if few else None), len(few))]]))
    return "\n".join(md)


def main():
    a = arguments(__doc__)
    res = results_dir("000", a.size)
    failed = 0
    got = {}
    for s in ("table1", "set3", "l1-48k", "smem-48k-2048thr", "table5-16k"):
        rows, rc = run_study("000", a.simt, s, a.size, a.jobs, res, a.report_only)
        failed |= rc
        got[s] = by_point(rows)
    t1 = got["table1"]
    parts = ["# Seed 000 reproduction: Scratchpad Sharing (kepler-ss, size %s)\n" % a.size,
             "Generated by scripts/repro_000.py from the studies of studies/000/ (each "
             "study's own report, CSVs and charts are in its folder: table1/, set3/, "
             "l1-48k/, smem-48k-2048thr/, table5-16k/).  The paper's numbers are reference/000 §6; "
             "docs/scratchpad-sharing.md, \"Measured here\", explains the differences.\n",
             workloads_section(t1, got["set3"]), blocks_section(t1, res), ipc_section(t1, res),
             cycles_section(t1, res), insns_section(t1), breakdown_section(t1),
             l1_section(got["l1-48k"]), smem48_section(got["smem-48k-2048thr"]),
             set3_section(got["set3"]), table5_section(got["table5-16k"]),
             fig19_section(t1)]
    write_report(res, "\n".join(parts))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
