#!/usr/bin/env python3
"""plot_cta_trace.py: draws a CTA-count trace (simt run --trace-ctas FILE)
as a PNG: resident CTAs per SM over core cycles, one step line per SM
(the first --sms SMs, default 8, so that the lines stay readable) and the
mean over all SMs in black.

  plot_cta_trace.py TRACE.tsv OUT.png [--sms N] [--title TEXT]

The trace format is cmodel/src/cli/cta_trace.h's: a header
`cycle<TAB>sm<TAB>ctas`, then one row per change of one SM's count; a
count holds until the SM's next row.  Needs matplotlib (scripts/deps.sh
installs the pinned version into build/venv: run this with
build/venv/bin/python3).  Exit status 2 on a malformed trace.
"""
import argparse
import sys


def read_trace(path):
    """{sm: [(cycle, ctas), ...]} in file order, and the last cycle."""
    series, last = {}, 0
    with open(path) as f:
        header = f.readline().rstrip("\n").split("\t")
        if header != ["cycle", "sm", "ctas"]:
            raise ValueError("%s: not a CTA trace (header %r)" % (path, header))
        for n, line in enumerate(f, 2):
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 3 or not all(p.isdigit() for p in parts):
                raise ValueError("%s:%d: expected cycle, sm, ctas" % (path, n))
            cycle, sm, ctas = map(int, parts)
            series.setdefault(sm, []).append((cycle, ctas))
            last = max(last, cycle)
    return series, last


def mean_series(series, last):
    """The mean resident count over SMs, as steps at every change."""
    events = sorted((c, sm, k) for sm, pts in series.items() for c, k in pts)
    now = {sm: 0 for sm in series}
    xs, ys = [], []
    for c, sm, k in events:
        now[sm] = k
        if xs and xs[-1] == c:
            ys[-1] = sum(now.values()) / len(now)
        else:
            xs.append(c)
            ys.append(sum(now.values()) / len(now))
    if xs and xs[-1] < last:
        xs.append(last)
        ys.append(ys[-1])
    return xs, ys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trace")
    ap.add_argument("png")
    ap.add_argument("--sms", type=int, default=8)
    ap.add_argument("--title", default=None)
    a = ap.parse_args()
    try:
        series, last = read_trace(a.trace)
    except (OSError, ValueError) as e:
        print("plot_cta_trace: error: %s" % e, file=sys.stderr)
        return 2
    if not series:
        print("plot_cta_trace: error: %s: no rows (a functional run?)" % a.trace,
              file=sys.stderr)
        return 2
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(9, 4.5))
    for sm in sorted(series)[:max(a.sms, 0)]:
        pts = series[sm]
        xs = [c for c, _ in pts] + [last]
        ys = [k for _, k in pts] + [pts[-1][1]]
        ax.step(xs, ys, where="post", linewidth=0.9, alpha=0.7, label="SM %d" % sm)
    mx, my = mean_series(series, last)
    ax.step(mx, my, where="post", color="black", linewidth=1.6,
            label="mean of %d SMs" % len(series))
    ax.set_xlabel("core cycle")
    ax.set_ylabel("resident CTAs")
    ax.set_title(a.title or a.trace)
    ax.legend(fontsize="small", ncol=2)
    fig.tight_layout()
    fig.savefig(a.png, dpi=110)
    print("plot_cta_trace: wrote %s" % a.png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
