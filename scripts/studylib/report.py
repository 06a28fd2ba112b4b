"""report.py: a study's tables and charts, from the records in the cache.

Writes under the results folder: report.md (every table in Markdown, every
chart linked, the points that are missing or failed), one CSV per table
(long form: a line per cell, geometric means included), points.csv (every
point and every metric), and one PNG per plot (matplotlib, Agg backend).
Every file is written atomically.

A table or plot is a metric over rows x columns of points (model.py
checked that each cell holds at most one point).  With a baseline column,
cells are ratios to the baseline cell of the same row ("metric/baseline",
or "baseline/metric" for a speedup from times).  The geometric mean row is
over the rows whose value is positive; a paper value beside a cell gives
the relative difference (ours - paper) / paper.
"""
import csv
import io
import json
import math
import os

from . import metrics as M
from .cache import write_atomic
from .errors import StudyError


def point_values(study, records):
    """{point id: {metric: value}} for the points that have a record."""
    out = {}
    for p in study.points:
        rec = records.get(p.id)
        if rec is None:
            continue
        stats = json.loads(rec["output"])["stats"]
        vals = {}
        for name, expr in study.metrics.items():
            try:
                vals[name] = M.evaluate(expr, stats)
            except KeyError as e:
                raise StudyError("metric '%s' names %s, which is not a statistic of simt run "
                                 "--json (docs/stats.md)" % (name, e), study.path)
        out[p.id] = vals
    return out


def pivot(study, view, values):
    """(rows, columns, {(row, column): value or None}) of one view; ratios
    taken when the view has a baseline."""
    rows, cols = study.dims[view["rows"]], study.dims[view["columns"]]
    raw = {}
    for p in study.points:
        if any(p.dim(d) != v for d, v in view["where"].items()):
            continue
        if p.id in values:
            raw[(p.dim(view["rows"]), p.dim(view["columns"]))] = values[p.id][view["metric"]]
    cells = {}
    for r in rows:
        for c in cols:
            v = raw.get((r, c))
            if view["baseline"] is not None and v is not None:
                b = raw.get((r, view["baseline"]))
                num, den = (v, b) if view["ratio"] == "metric/baseline" else (b, v)
                v = num / den if num is not None and den else None
            cells[(r, c)] = v
    return rows, cols, cells, raw


def geomean(vals):
    vals = [v for v in vals if v is not None and v > 0]
    return math.exp(sum(math.log(v) for v in vals) / len(vals)) if vals else None


def fmt(v, prec):
    if v is None:
        return "-"
    if isinstance(v, int) or (float(v).is_integer() and abs(v) < 1e15 and prec == 0):
        return str(int(v))
    return "%.*f" % (prec, v)


def rel(ours, paper):
    return None if ours is None or not paper else (ours - paper) / paper


def table_markdown(study, t, values):
    rows, cols, cells, raw = pivot(study, t, values)
    prec = t["precision"] if t["baseline"] is not None or any(
        isinstance(v, float) for v in raw.values()) else 0
    paper_cols = {c for (_, c) in t["paper"]}
    head = [t["rows"]]
    for c in cols:
        head.append(c)
        if c in paper_cols:
            head += ["%s (paper)" % c, "%s diff" % c]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    body = [(r, {c: cells[(r, c)] for c in cols}, {c: t["paper"].get((r, c)) for c in cols})
            for r in rows]
    if t["geomean"] and len(rows) > 1:
        body.append(("**geomean**", {c: geomean([cells[(r, c)] for r in rows]) for c in cols},
                     {c: geomean([t["paper"].get((r, c)) for r in rows])
                      if all((r, c) in t["paper"] for r in rows) else None for c in cols}))
    csv_rows = []
    for r, ours, paper in body:
        line = [r]
        for c in cols:
            d = rel(ours[c], paper[c])
            line.append(fmt(ours[c], prec))
            if c in paper_cols:
                line += [fmt(paper[c], prec), "-" if d is None else "%+.1f%%" % (100 * d)]
            csv_rows.append([r.strip("*"), c, "" if ours[c] is None else repr(ours[c]),
                             "" if paper[c] is None else repr(paper[c]),
                             "" if d is None else "%.6f" % d])
        lines.append("| " + " | ".join(line) + " |")
    what = t["what"]
    where = ", ".join("%s = %s" % kv for kv in t["where"].items())
    md = "### %s\n\n%s%s.\n\n%s\n" % (t["title"], what, "; " + where if where else "",
                                       "\n".join(lines))
    f = io.StringIO()
    w = csv.writer(f, lineterminator="\n")
    w.writerow([t["rows"], t["columns"], "value", "paper", "rel_diff"])
    w.writerows(csv_rows)
    return md, f.getvalue()


def points_csv(study, records, values):
    f = io.StringIO()
    w = csv.writer(f, lineterminator="\n")
    axes = [a["key"] for a in study.axes]
    w.writerow(["workload", "config"] + axes + list(study.metrics) + ["key", "status"])
    for p in study.points:
        v = values.get(p.id, {})
        rec = records.get(p.id)
        w.writerow([p.workload, p.config] + [p.axes[a] for a in axes] +
                   ["" if v.get(m) is None else repr(v[m]) for m in study.metrics] +
                   [rec["key"] if rec else "", "ok" if rec else "missing"])
    return f.getvalue()


def plot_png(study, pl, values, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rows, cols, cells, _ = pivot(study, pl, values)
    labels = list(rows)
    series = {c: [cells[(r, c)] for r in rows] for c in cols}
    if pl["kind"] == "bars" and pl["geomean"] and len(rows) > 1:
        labels.append("geomean")
        for c in cols:
            series[c].append(geomean(series[c]))
    width_in = max(6.0, 0.35 * len(labels) * max(1, len(cols)) + 2)
    fig, ax = plt.subplots(figsize=(min(width_in, 18), 4.2))
    nan = float("nan")
    if pl["kind"] == "bars":
        w = 0.8 / len(cols)
        for i, c in enumerate(cols):
            xs = [x + (i - (len(cols) - 1) / 2) * w for x in range(len(labels))]
            ax.bar(xs, [nan if v is None else v for v in series[c]], w, label=c)
        ax.set_xticks(range(len(labels)), labels, rotation=30 if len(labels) > 6 else 0,
                      ha="right" if len(labels) > 6 else "center")
    else:
        try:
            xs = [float(r) for r in rows]
        except ValueError:
            xs = list(range(len(rows)))
        ax.set_xticks(xs, rows)
        for c in cols:
            ax.plot(xs, [nan if v is None else v for v in series[c]], marker="o", label=c)
        ax.set_xlabel(pl["rows"])
    if pl["baseline"] is not None:
        ax.axhline(1.0, color="0.4", linewidth=0.8, linestyle="--")
    ax.set_ylabel(pl["ylabel"])
    where = ", ".join("%s = %s" % kv for kv in pl["where"].items())
    ax.set_title(pl["title"] + (" (%s)" % where if where else ""))
    ax.grid(axis="y", alpha=0.3)
    ax.legend(title=pl["columns"], fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, metadata={"Software": None})
    plt.close(fig)
    write_atomic(path, buf.getvalue())


def write(study, records, out_dir, failures=()):
    """Writes the report; returns the list of files written."""
    values = point_values(study, records)
    os.makedirs(out_dir, exist_ok=True)
    files = []
    missing = [p.id for p in study.points if p.id not in records]
    md = ["# Study %s" % study.name, ""]
    if study.description:
        md += [study.description, ""]
    md += ["Study file `%s`: %d points (%d workloads x %d configurations%s), %d with results, "
           "%d missing." % (os.path.relpath(study.path), len(study.points), len(study.workloads),
                            len(study.configs),
                            "".join(" x %d %s" % (len(a["values"]), a["key"]) for a in study.axes),
                            len(study.points) - len(missing), len(missing)), ""]
    for t in study.tables:
        tmd, tcsv = table_markdown(study, t, values)
        p = os.path.join(out_dir, t["name"] + ".csv")
        write_atomic(p, tcsv)
        files.append(p)
        md += [tmd, "CSV: [%s.csv](%s.csv)" % (t["name"], t["name"]), ""]
    charts_error = None
    for pl in study.plots:
        p = os.path.join(out_dir, pl["name"] + ".png")
        try:
            plot_png(study, pl, values, p)
        except ImportError:
            charts_error = ("charts need matplotlib (make deps installs the pinned version into "
                            "build/venv): no PNG written")
            break
        files.append(p)
        md += ["### %s" % pl["title"], "", "![%s](%s.png)" % (pl["title"], pl["name"]), ""]
    if missing:
        md += ["## Missing points", ""] + ["- %s" % m for m in missing] + [""]
    if failures:
        md += ["## Failures", "", "```"] + [f.rstrip() for f in failures] + ["```", ""]
    p = os.path.join(out_dir, "points.csv")
    write_atomic(p, points_csv(study, records, values))
    files.append(p)
    p = os.path.join(out_dir, "report.md")
    write_atomic(p, "\n".join(md))
    files.append(p)
    if charts_error:
        raise StudyError(charts_error)
    return files
