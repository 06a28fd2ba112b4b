"""keys.py: the cache key of a point: a SHA-256 over everything that
decides its result.

  - the workload's simt name and its parameters (--param, sorted);
  - the resolved configuration as `simt config` prints it (origin comments
    dropped), so a --set that repeats the preset's value, or a preset edit
    that changes nothing, keeps the key, and any real change moves it;
  - the bytes of the workload's PTX and of the meta file beside it (the
    ptxas -v register counts it applies);
  - the bytes of the simt binary (the simulator build: the timing model and
    the workload's host driver both live in it).

Each of these is asked of simt once per distinct value (memoised), so a
study of thousands of points costs a few simt calls per configuration.
KEY_VERSION changes when the key's recipe or the record format does.
"""
import hashlib
import json
import os
import subprocess

from .errors import StudyError

KEY_VERSION = 1


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class WorkloadIndex(dict):
    """{name: PTX path} of `simt list`.  A mix "A+B" (`simt run A+B`, two
    workloads at once, docs/workloads.md) is a known name when both
    members are."""

    def __contains__(self, name):
        parts = str(name).split("+")
        return len(parts) <= 2 and all(dict.__contains__(self, p) for p in parts)

    def ptxs(self, name):
        """The PTX paths behind a name, one per member."""
        return [self[p] for p in name.split("+")]


class Keys:
    def __init__(self, simt, root):
        self.simt, self.root = simt, root
        self.build = sha256_file(simt)
        self.workloads = self._list()
        self._configs = {}
        self._files = {}

    def _list(self):
        """{name: PTX path} from `simt list` (the PTX path is its last field)."""
        p = subprocess.run([self.simt, "list"], capture_output=True, text=True)
        if p.returncode != 0:
            raise StudyError("'%s list' failed: %s" % (self.simt, p.stderr.strip()))
        out = WorkloadIndex()
        for line in p.stdout.splitlines():
            f = line.split()
            if len(f) >= 2:
                out[f[0]] = os.path.join(self.root, f[-1])
        return out

    def config_text(self, point):
        """The resolved configuration of a point; a StudyError if simt refuses it."""
        args = []
        if point.preset:
            args += ["--config", point.preset]
        for k, v in point.sets.items():
            args += ["--set", "%s=%s" % (k, v)]
        if point.functional:
            args.append("--functional")
        memo = tuple(args)
        if memo not in self._configs:
            p = subprocess.run([self.simt, "config"] + args, capture_output=True, text=True)
            if p.returncode != 0:
                raise StudyError("configuration '%s' of point %s: %s"
                                 % (point.config, point.id, p.stderr.strip()))
            lines = [l.split("#")[0].rstrip() for l in p.stdout.splitlines()]
            self._configs[memo] = "\n".join(l for l in lines if l) + "\n"
        return self._configs[memo]

    def check(self, point, rec):
        """None when the configuration a run reports (its --json "config")
        is the one its key was made from, else why not.  Guards the key:
        if `simt run` ever resolved a configuration differently from
        `simt config`, records would be filed under wrong keys."""
        # `key = value` lines; a text key may be empty (`cke_quota =`)
        want = {k.strip(): v.strip() for k, _, v in
                (l.partition("=") for l in self.config_text(point).splitlines())}
        got = {k: str(v) for k, v in json.loads(rec["output"]).get("config", {}).items()}
        diff = sorted(k for k in set(want) | set(got) if want.get(k) != got.get(k))
        if not diff:
            return None
        k = diff[0]
        return ("FAIL %s: the run used %s = %s but simt config resolved %s (%d keys differ): "
                "not cached\n  command: %s\n" % (point.id, k, got.get(k, "nothing"),
                                                   want.get(k, "nothing"), len(diff),
                                                   rec["command"]))

    def _file_hash(self, path):
        if path not in self._files:
            self._files[path] = sha256_file(path) if os.path.exists(path) else None
        return self._files[path]

    def key(self, point):
        ptxs = self.workloads.ptxs(point.wl_name)
        metas = [os.path.join(os.path.dirname(p), "meta") for p in ptxs]
        ptx_h = [self._file_hash(p) for p in ptxs]
        meta_h = [self._file_hash(m) for m in metas]
        doc = {"version": KEY_VERSION, "workload": point.wl_name,
               "params": sorted(point.params.items()), "config": self.config_text(point),
               # one workload: its hashes as they always were; a mix: a list
               "ptx": ptx_h[0] if len(ptx_h) == 1 else ptx_h,
               "meta": meta_h[0] if len(meta_h) == 1 else meta_h,
               "simt": self.build}
        return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()
