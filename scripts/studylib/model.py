"""model.py: a study file (TOML) and the grid of points it expands to.

A study is workloads x named configurations x the product of its axes.
Each point is one `simt run`: a workload (by its simt name, with --param
values), a preset with --set overrides, and the axis values, which add to
or override those.  docs/experiments.md documents every field.

Invariants: points come out in a stable order (workloads, then configs,
then axes, as written in the file); two points never share an id; every
name a table or plot uses refers to something that exists.  Bad input is a
StudyError at the position of the offending text in the file.
"""
import itertools
import os
import re
import tomllib

from .errors import StudyError

DIMS = ("workload", "config")  # the two dimensions every study has
TOP_KEYS = {"study", "workload", "configs", "axis", "metrics", "table", "plot", "slurm"}
DEFAULT_METRICS = {"cycles": "gpu_sim_cycle", "ipc": "ipc"}


class Locator:
    """Line and column of text in the study file, for error messages
    (tomllib keeps no positions): the first match of each needle in turn,
    each searched after the previous one."""

    def __init__(self, path, text):
        self.path, self.text = path, text

    def error(self, msg, *needles):
        pos = 0
        for n in needles:
            if n is None:
                continue
            i = self.text.find(n, pos)
            if i >= 0:
                pos = i
        line = self.text.count("\n", 0, pos) + 1
        col = pos - (self.text.rfind("\n", 0, pos) + 1) + 1
        return StudyError(msg, self.path, line, col)


class Point:
    """One run: the workload label and config name, the axis values, and
    what simt is given (workload, params, preset, sets, functional)."""

    def __init__(self, workload, config, axes, wl_name, params, preset, sets, functional):
        self.workload, self.config, self.axes = workload, config, axes
        self.wl_name, self.params, self.preset = wl_name, params, preset
        self.sets, self.functional = sets, functional

    @property
    def id(self):
        parts = [self.workload, self.config] + ["%s=%s" % kv for kv in self.axes.items()]
        return "/".join(parts)

    def dim(self, name):
        """The point's coordinate on a dimension (workload, config or an axis)."""
        if name == "workload":
            return self.workload
        if name == "config":
            return self.config
        return self.axes.get(name)


class Study:
    def __init__(self):
        self.path = self.name = self.description = self.results = self.cache = None
        self.jobs = self.timeout = None
        self.workloads, self.configs, self.axes = [], {}, []
        self.metrics, self.tables, self.plots, self.slurm = {}, [], [], {}
        self.points = []
        self.dims = {}  # dimension -> its values in order: workload, config, each axis


def _value_text(v):
    """An override's text as simt takes it (TOML true -> 1)."""
    if isinstance(v, bool):
        return "1" if v else "0"
    return str(v)


def _table(loc, doc, key, where):
    """doc[key] as a table ({} when absent); a StudyError if it is not one."""
    v = doc.get(key, {})
    if not isinstance(v, dict):
        raise loc.error("%s must be a table (%s)" % (key, where), key)
    return v


def _array(loc, doc, key):
    """doc[key] as a list of tables ([[key]] blocks); [] when absent."""
    v = doc.get(key, [])
    if not isinstance(v, list) or not all(isinstance(x, dict) for x in v):
        raise loc.error("%s must be written as [[%s]] blocks" % (key, key), key)
    return v


def _int(loc, table, key, dflt, lo, where, *needles):
    v = table.get(key, dflt)
    if isinstance(v, bool) or not isinstance(v, int) or v < lo:
        raise loc.error("%s: %s must be a whole number of at least %d" % (where, key, lo),
                        *needles, key)
    return v


def _check_keys(loc, table, allowed, where, *needles):
    for k in table:
        if k not in allowed:
            raise loc.error("unknown field '%s' in %s (known: %s)"
                            % (k, where, ", ".join(sorted(allowed))), *needles, k)


def _scalar_map(loc, value, where, *needles):
    if not isinstance(value, dict):
        raise loc.error("%s must be a table of key = value" % where, *needles)
    out = {}
    for k, v in value.items():
        if isinstance(v, (dict, list)):
            raise loc.error("%s.%s must be a number, string or boolean" % (where, k),
                            *needles, k)
        out[k] = _value_text(v)
    return out


def load(path, root, known_workloads):
    """The study in `path`; presets are looked up in ROOT/configs/, and
    workload names checked against `known_workloads` (simt list)."""
    try:
        raw = open(path, "rb").read()
    except OSError as e:
        raise StudyError("cannot read the study file: %s" % e.strerror, path)
    text = raw.decode("utf-8", "replace")
    loc = Locator(path, text)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(e))
        msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(e))
        raise StudyError("not valid TOML: %s" % msg, path,
                         int(m.group(1)) if m else 1, int(m.group(2)) if m else 1)
    _check_keys(loc, doc, TOP_KEYS, "the study file")
    s = Study()
    s.path = path
    base = os.path.dirname(os.path.abspath(path))

    head = _table(loc, doc, "study", "[study]")
    _check_keys(loc, head, {"name", "description", "results", "cache", "jobs", "timeout"},
                "[study]", "[study]")
    s.name = str(head.get("name", os.path.splitext(os.path.basename(path))[0]))
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", s.name):
        raise loc.error("study name '%s' may hold only letters, digits, '_', '.', '-'"
                        % s.name, "[study]", "name")
    s.description = str(head.get("description", ""))
    s.results = head.get("results", os.path.join("results", s.name))
    s.cache = head.get("cache")
    s.jobs = _int(loc, head, "jobs", None, 1, "[study]", "[study]") if "jobs" in head else None
    s.timeout = _int(loc, head, "timeout", None, 1, "[study]", "[study]") \
        if "timeout" in head else None
    for k in ("results", "cache", "description"):
        if k in head and not isinstance(head[k], str):
            raise loc.error("[study] %s must be a string" % k, "[study]", k)

    _load_workloads(s, loc, doc, known_workloads)
    _load_configs(s, loc, doc, root, base)
    _load_axes(s, loc, doc)
    _load_metrics(s, loc, doc)
    s.slurm = _table(loc, doc, "slurm", "[slurm]")
    _check_keys(loc, s.slurm, {"partition", "account", "time", "mem", "points_per_task",
                               "max_running", "sbatch_args"}, "[slurm]", "[slurm]")
    for k in ("points_per_task", "max_running"):
        if k in s.slurm:
            _int(loc, s.slurm, k, 1, 1, "[slurm]", "[slurm]")
    extra = s.slurm.get("sbatch_args", [])
    if not isinstance(extra, list) or not all(isinstance(x, str) for x in extra):
        raise loc.error("[slurm] sbatch_args must be a list of strings", "[slurm]", "sbatch_args")
    _expand(s)
    dims = {"workload": [w["label"] for w in s.workloads],
            "config": list(s.configs)}
    for a in s.axes:
        dims[a["key"]] = a["values"]
    s.dims = dims
    for i, t in enumerate(_array(loc, doc, "table")):
        s.tables.append(_load_view(s, loc, t, i, "table", dims))
    for i, p in enumerate(_array(loc, doc, "plot")):
        s.plots.append(_load_view(s, loc, p, i, "plot", dims))
    names = [v["name"] for v in s.tables + s.plots]
    for n in names:
        if names.count(n) > 1:
            raise loc.error("two tables or plots are named '%s' (their files would collide)"
                            % n, 'name = "%s"' % n)
    return s


def _load_workloads(s, loc, doc, known):
    wls = _array(loc, doc, "workload")
    if not wls:
        raise loc.error("a study needs at least one [[workload]] with a name")
    seen = set()
    for i, w in enumerate(wls):
        _check_keys(loc, w, {"name", "label", "params"}, "[[workload]]", "[[workload]]")
        if "name" not in w:
            raise loc.error("[[workload]] number %d has no name" % (i + 1), "[[workload]]")
        name = str(w["name"])
        if name not in known:
            close = [k for k in known if k.startswith(name[:3])]
            raise loc.error("unknown workload '%s' (simt list shows them%s)"
                            % (name, "; did you mean %s?" % ", ".join(close[:4]) if close else ""),
                            "[[workload]]", '"%s"' % name)
        label = str(w.get("label", name))
        if not re.fullmatch(r"[A-Za-z0-9_.+-]+", label):
            raise loc.error("workload label '%s' may hold only letters, digits, '_', '.', '+', "
                            "'-'" % label, '"%s"' % label)
        if label in seen:
            raise loc.error("two workloads are labelled '%s': give each a distinct label"
                            % label, '"%s"' % label)
        seen.add(label)
        params = _scalar_map(loc, w.get("params", {}), "params", '"%s"' % name, "params")
        s.workloads.append({"name": name, "label": label, "params": params})


def _preset_path(loc, preset, root, base, cname):
    cands = [preset] if os.path.isabs(preset) else [
        os.path.join(base, preset), os.path.join(root, preset),
        os.path.join(root, "configs", preset + ".cfg")]
    for c in cands:
        if os.path.isfile(c):
            return os.path.abspath(c)
    raise loc.error("configuration '%s': preset '%s' not found (a name in configs/, "
                    "or a .cfg path relative to the study file)" % (cname, preset),
                    "[configs.%s]" % cname, '"%s"' % preset)


def _load_configs(s, loc, doc, root, base):
    cfgs = _table(loc, doc, "configs", "[configs.NAME] blocks")
    if not cfgs:
        raise loc.error("a study needs at least one named configuration ([configs.NAME])")
    for cname, c in cfgs.items():
        hdr = "[configs.%s]" % cname
        if not re.fullmatch(r"[A-Za-z0-9_.+-]+", cname):
            raise loc.error("configuration name '%s' may hold only letters, digits, '_', '.', "
                            "'+', '-'" % cname, cname)
        if not isinstance(c, dict):
            raise loc.error("configs.%s must be a table" % cname, cname)
        _check_keys(loc, c, {"preset", "set", "functional"}, hdr, hdr)
        if not isinstance(c.get("functional", False), bool):
            raise loc.error("configs.%s.functional must be true or false" % cname, hdr,
                            "functional")
        preset = _preset_path(loc, str(c["preset"]), root, base, cname) if "preset" in c else None
        sets = _scalar_map(loc, c.get("set", {}), "set", hdr, "set")
        s.configs[cname] = {"preset": preset, "set": sets,
                            "functional": bool(c.get("functional", False))}


def _load_axes(s, loc, doc):
    for i, a in enumerate(_array(loc, doc, "axis")):
        _check_keys(loc, a, {"set", "param", "values"}, "[[axis]]", "[[axis]]")
        kinds = [k for k in ("set", "param") if k in a]
        if len(kinds) != 1:
            raise loc.error("[[axis]] number %d needs exactly one of set = KEY (a configuration "
                            "key) or param = NAME (a workload parameter)" % (i + 1), "[[axis]]")
        key = str(a[kinds[0]])
        vals = a.get("values")
        if not isinstance(vals, list) or not vals or any(isinstance(v, (list, dict))
                                                         for v in vals):
            raise loc.error("axis '%s' needs a non-empty list of numbers, strings or booleans"
                            % key, key)
        vals_text = [_value_text(v) for v in vals]
        if len(set(vals_text)) != len(vals_text):
            raise loc.error("axis '%s' lists a value twice" % key, key, "values")
        if key in DIMS or any(x["key"] == key for x in s.axes):
            raise loc.error("axis '%s' is given twice or shadows a dimension name" % key, key)
        s.axes.append({"kind": kinds[0], "key": key, "values": vals_text})


def _load_metrics(s, loc, doc):
    from .metrics import compile_expr
    m = _table(loc, doc, "metrics", "name = \"expression\"") if "metrics" in doc \
        else DEFAULT_METRICS
    if not m:
        raise loc.error("[metrics] must name at least one metric", "[metrics]")
    for name, expr in m.items():
        try:
            s.metrics[name] = compile_expr(str(expr))
        except ValueError as e:
            raise loc.error("metric '%s': %s" % (name, e), "[metrics]", name)


def _load_view(s, loc, v, i, kind, dims):
    """A [[table]] or [[plot]]: a metric over rows x columns of points."""
    hdr = "[[%s]]" % kind
    allowed = {"name", "title", "metric", "rows", "columns", "where", "baseline", "ratio"}
    allowed |= {"geomean"}
    allowed |= {"precision", "paper"} if kind == "table" else {"kind", "ylabel"}
    _check_keys(loc, v, allowed, hdr, hdr)
    name = str(v.get("name", "%s%d" % (kind, i + 1)))
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
        raise loc.error("%s name '%s' may hold only letters, digits, '_', '.', '-'"
                        % (kind, name), name)
    out = {"name": name, "title": str(v.get("title", name)), "kind": str(v.get("kind", "bars"))}
    if kind == "plot" and out["kind"] not in ("bars", "lines"):
        raise loc.error("plot '%s': kind must be bars (grouped bars) or lines (over an axis)"
                        % name, name, "kind")
    metric = v.get("metric")
    if not isinstance(metric, str) or metric not in s.metrics:
        raise loc.error("%s '%s': metric '%s' is not in [metrics] (known: %s)"
                        % (kind, name, metric, ", ".join(s.metrics)), name, "metric")
    out["metric"] = metric
    for f, dflt in (("rows", "workload"), ("columns", "config")):
        d = str(v.get(f, dflt))
        if d not in dims:
            raise loc.error("%s '%s': %s = '%s' is not a dimension (workload, config, or an "
                            "axis key: %s)" % (kind, name, f, d, ", ".join(dims)), name, f)
        out[f] = d
    if out["rows"] == out["columns"]:
        raise loc.error("%s '%s': rows and columns are both '%s'" % (kind, name, out["rows"]),
                        name)
    if kind == "plot" and out["kind"] == "lines" and out["rows"] in ("workload", "config"):
        raise loc.error("plot '%s': a lines plot runs over a swept axis: set rows to one of "
                        "the axis keys (%s)" % (name, ", ".join(a["key"] for a in s.axes) or
                                                "none: add an [[axis]]"), name, "rows")
    where = _scalar_map(loc, v.get("where", {}), "where", name)
    for d, val in where.items():
        if d not in dims or val not in dims[d]:
            raise loc.error("%s '%s': where %s = %s matches no point" % (kind, name, d, val),
                            name, "where")
    free = [d for d in dims if d not in (out["rows"], out["columns"]) and d not in where
            and len(dims[d]) > 1]
    if free:
        raise loc.error("%s '%s': several points would share a cell: fix %s with "
                        "where = { %s = ... }" % (kind, name, ", ".join(free), free[0]),
                        name)
    out["where"] = where
    base = v.get("baseline")
    if base is not None and str(base) not in dims[out["columns"]]:
        raise loc.error("%s '%s': baseline '%s' is not a column (%s)"
                        % (kind, name, base, ", ".join(dims[out["columns"]])), name, "baseline")
    out["baseline"] = None if base is None else str(base)
    ratio = str(v.get("ratio", "metric/baseline"))
    if ratio not in ("metric/baseline", "baseline/metric"):
        raise loc.error("%s '%s': ratio must be \"metric/baseline\" or \"baseline/metric\" "
                        "(a speedup from times)" % (kind, name), name, "ratio")
    out["ratio"] = ratio
    out["geomean"] = bool(v.get("geomean", True))
    out["precision"] = _int(loc, v, "precision", 3, 0, "%s '%s'" % (kind, name), name)
    out["what"] = (metric if base is None else "%s / %s of %s" % (metric, metric, base)
                   if ratio == "metric/baseline" else
                   "speedup over %s: %s of %s / %s" % (base, metric, base, metric))
    out["ylabel"] = str(v.get("ylabel", out["what"]))
    paper = v.get("paper", {})
    if not isinstance(paper, dict):
        raise loc.error("table '%s': paper must be a table row = { column = value }" % name,
                        name, "paper")
    out["paper"] = {}
    for r, cols in paper.items():
        if r not in dims[out["rows"]] or not isinstance(cols, dict):
            raise loc.error("table '%s': paper row '%s' is not a row (%s) with "
                            "{ column = value }" % (name, r, ", ".join(dims[out["rows"]])),
                            name, "paper", r)
        for c, val in cols.items():
            if c not in dims[out["columns"]] or not isinstance(val, (int, float)):
                raise loc.error("table '%s': paper value %s.%s must be a number under a "
                                "column (%s)" % (name, r, c, ", ".join(dims[out["columns"]])),
                                name, "paper", r)
            out["paper"][(r, c)] = float(val)
    return out


def _expand(s):
    """workloads x configs x product(axes), in file order."""
    combos = list(itertools.product(*[a["values"] for a in s.axes]))
    for w in s.workloads:
        for cname, c in s.configs.items():
            for combo in combos:
                params, sets = dict(w["params"]), dict(c["set"])
                axes = {}
                for a, val in zip(s.axes, combo):
                    (sets if a["kind"] == "set" else params)[a["key"]] = val
                    axes[a["key"]] = val
                s.points.append(Point(w["label"], cname, axes, w["name"], params,
                                      c["preset"], sets, c["functional"]))
