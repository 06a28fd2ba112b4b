#!/usr/bin/env python3
"""timing_baseline.py: every workload on every preset under the timing
model, checked against its CPU reference and against the checked-in cycle
counts (tests/baseline/cycles.tsv).

  timing_baseline.py SIMT            run and compare; "N passed, N failed"
  timing_baseline.py SIMT --update   run and rewrite the baseline

A change that moves a cycle count updates the baseline in the same commit
and says why in its message (DESIGN.md §7): timing drift is deliberate.
"""
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASELINE = os.path.join(ROOT, "tests", "baseline", "cycles.tsv")
PRESETS = ["fermi-gtx480", "kepler-ss", "g80-dwf", "fermi-cta"]


def run_one(simt, workload, preset, tmp):
    out = os.path.join(tmp, "%s.%s.json" % (workload, preset))
    p = subprocess.run([simt, "run", workload, "--config",
                        os.path.join(ROOT, "configs", preset + ".cfg"),
                        "--json", out], capture_output=True, text=True)
    if p.returncode != 0:
        first = (p.stdout + p.stderr).strip().splitlines()
        return workload, preset, None, first[0] if first else "exit %d" % p.returncode
    return workload, preset, json.load(open(out))["stats"]["gpu_sim_cycle"], None


def main():
    if len(sys.argv) < 2 or sys.argv[2:] not in ([], ["--update"]):
        sys.stderr.write("usage: timing_baseline.py SIMT [--update]\n")
        sys.exit(2)
    simt = os.path.abspath(sys.argv[1])
    update = sys.argv[2:] == ["--update"]
    names = [l.split()[0] for l in subprocess.run([simt, "list"], capture_output=True,
                                                   text=True, check=True).stdout.splitlines()]
    want = {}
    if os.path.exists(BASELINE):
        for line in open(BASELINE):
            f = line.split()
            if len(f) == 3 and not line.startswith("#"):
                want[(f[0], f[1])] = int(f[2])
    jobs = int(os.environ.get("JOBS", os.cpu_count() or 2))
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        results = list(pool.map(lambda a: run_one(simt, a[0], a[1], tmp),
                                [(w, p) for w in names for p in PRESETS]))
    passed = failed = 0
    for w, p, cycles, error in results:
        if error:
            print("FAIL %s on %s: %s" % (w, p, error))
            failed += 1
        elif not update and want.get((w, p)) != cycles:
            print("FAIL %s on %s: %d cycles, the baseline has %s (update it with "
                  "scripts/timing_baseline.py build/bin/simt --update if the change "
                  "is meant)" % (w, p, cycles, want.get((w, p), "none")))
            failed += 1
        else:
            passed += 1
    if update and not failed:
        tmpf = BASELINE + ".tmp"
        with open(tmpf, "w") as f:
            f.write("# workload preset gpu_sim_cycle (scripts/timing_baseline.py)\n")
            for w, p, cycles, _ in results:
                f.write("%s %s %d\n" % (w, p, cycles))
        os.replace(tmpf, BASELINE)
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
