#!/usr/bin/env python3
"""stats_identity.py: the full statistics JSON of every workload on every
preset, written by one simt binary and compared with another run's, for
changes that must not move any statistic (a speed-up, a refactoring).

  stats_identity.py SIMT DIR [simt run options...]
      runs every workload x preset, writing DIR/<workload>.<preset>.json
  stats_identity.py --compare DIR_A DIR_B
      compares the two sets file by file; "N passed, N failed"

Usage for a speed change: build the old commit, record its set, build the
new one, record again (the run options, e.g. --threads 2, may differ),
compare.  Every field of "stats" (and every per-kernel and per-SM record)
must be equal; the resolved configuration is compared too, except for
keys named on the command line with --ignore-key (a key the new build
adds).  JOBS (default: CPU count) runs in parallel.
"""
import concurrent.futures
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PRESETS = ["fermi-gtx480", "kepler-ss", "g80-dwf", "fermi-cta"]


def record(simt, out, extra):
    os.makedirs(out, exist_ok=True)
    names = [l.split()[0] for l in subprocess.run(
        [simt, "list"], capture_output=True, text=True, check=True).stdout.splitlines()]

    def one(job):
        w, p = job
        path = os.path.join(out, "%s.%s.json" % (w, p))
        r = subprocess.run([simt, "run", w, "--config",
                            os.path.join(ROOT, "configs", p + ".cfg"),
                            "--json", path] + extra, capture_output=True, text=True)
        if r.returncode != 0:
            # a failing run is recorded as its exit status and first line,
            # so that a run that fails the same way on both sides compares equal
            first = (r.stdout + r.stderr).strip().splitlines()
            with open(path, "w") as f:
                json.dump({"exit": r.returncode, "first": first[0] if first else ""}, f)
        return w, p

    jobs = int(os.environ.get("JOBS", os.cpu_count() or 2))
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        done = list(pool.map(one, [(w, p) for w in names for p in PRESETS]))
    print("%d runs recorded in %s" % (len(done), out))


def strip(doc, ignore):
    """The document without the resolved-configuration keys in `ignore`."""
    if isinstance(doc, dict):
        return {k: strip(v, ignore) for k, v in doc.items() if k not in ignore}
    if isinstance(doc, list):
        return [strip(v, ignore) for v in doc]
    return doc


def first_difference(a, b, path=""):
    if type(a) is not type(b):
        return path or "/"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return "%s/%s" % (path, k)
            d = first_difference(a[k], b[k], "%s/%s" % (path, k))
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return path + "[len]"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, "%s[%d]" % (path, i))
            if d:
                return d
        return None
    return None if a == b else path


def compare(da, db, ignore):
    names = sorted(f for f in os.listdir(da) if f.endswith(".json"))
    passed = failed = 0
    for n in names:
        pb = os.path.join(db, n)
        if not os.path.exists(pb):
            print("FAIL %s: missing in %s" % (n, db))
            failed += 1
            continue
        a = strip(json.load(open(os.path.join(da, n))), ignore)
        b = strip(json.load(open(pb)), ignore)
        d = first_difference(a, b)
        if d:
            print("FAIL %s: first difference at %s" % (n, d))
            failed += 1
        else:
            passed += 1
    print("%d passed, %d failed" % (passed, failed))
    return failed


def main():
    args = sys.argv[1:]
    ignore = set()
    while "--ignore-key" in args:
        i = args.index("--ignore-key")
        ignore.add(args[i + 1])
        del args[i:i + 2]
    if len(args) == 3 and args[0] == "--compare":
        sys.exit(1 if compare(args[1], args[2], ignore) else 0)
    if len(args) >= 2 and not args[0].startswith("-"):
        record(os.path.abspath(args[0]), args[1], args[2:])
        return
    sys.stderr.write(__doc__)
    sys.exit(2)


if __name__ == "__main__":
    main()
