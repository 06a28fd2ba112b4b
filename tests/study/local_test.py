#!/usr/bin/env python3
"""local_test.py SIMT: the study runner run locally (scripts/study.py,
docs/experiments.md).  Each case prints ok/FAIL; the last line is
"N passed, N failed".

Expected values come from outside the code under test: hand-computed
geometric means and ratios, the cycle counts of direct `simt run` calls,
and counts of files in the cache.
"""
import csv
import glob
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from studylib import metrics, model, report, slurm  # noqa: E402

SIMT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build/bin/simt"))
STUDY = os.path.join(ROOT, "scripts", "study.py")
passed = failed = 0


def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
        print("ok %s" % name)
    else:
        failed += 1
        print("FAIL %s%s" % (name, ": " + detail if detail else ""))


def study(*args, env=None):
    p = subprocess.run([sys.executable, STUDY, "--simt", SIMT] + list(args), capture_output=True,
                       text=True, env=env)
    return p.returncode, p.stdout + p.stderr


def records(cache):
    return sorted(glob.glob(os.path.join(cache, "*", "*.json")))


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


SMALL = """
[study]
name = "small"
[[workload]]
name = "reduction"
[[workload]]
name = "vecadd"
params = { n = 3000 }
[configs.lrr]
preset = "fermi-gtx480"
set = { gpgpu_scheduler = "lrr" }
[configs.gto]
preset = "fermi-gtx480"
[metrics]
cycles = "gpu_sim_cycle"
ipc = "ipc"
[[table]]
name = "speedup"
metric = "cycles"
baseline = "lrr"
ratio = "baseline/metric"
[table.paper]
reduction = { gto = 1.25 }
[[plot]]
name = "bars"
metric = "ipc"
"""

# 2 workloads x 2 configs x 50 sizes = 200 tiny functional points.
BIG = """
[study]
name = "big"
[[workload]]
name = "vecadd"
[[workload]]
name = "reduction"
[configs.a]
functional = true
[configs.b]
functional = true
set = { gpgpu_simd_width = 16 }
[[axis]]
param = "n"
values = [%s]
[metrics]
insns = "thread_insns"
""" % ", ".join(str(60000 + 997 * i) for i in range(50))


def test_pure():
    check("geomean-hand", abs(report.geomean([2.0, 8.0]) - 4.0) < 1e-12)
    check("geomean-skips-missing", abs(report.geomean([None, 9.0, 1.0]) - 3.0) < 1e-12)
    check("rel-diff-hand", abs(report.rel(1.1, 1.0) - 0.1) < 1e-12)
    e = metrics.compile_expr("l1d_hits / l1d_accesses * 100")
    check("metric-expr", metrics.evaluate(e, {"l1d_hits": 3, "l1d_accesses": 4}) == 75.0)
    check("metric-div-zero-is-empty",
          metrics.evaluate(e, {"l1d_hits": 0, "l1d_accesses": 0}) is None)
    try:
        metrics.compile_expr("__import__('os')")
        check("metric-refuses-calls", False)
    except ValueError:
        check("metric-refuses-calls", True)


def test_errors(tmp):
    rc, out = study("run", write(os.path.join(tmp, "bad1.toml"),
                                 "[study]\nname = \"x\"\n[[workload]]\nname = vecadd\n"))
    check("bad-toml-position", rc == 2 and "bad1.toml:4:8: error: not valid TOML" in out, out)
    rc, out = study("run", write(os.path.join(tmp, "bad2.toml"),
                                 SMALL.replace('name = "vecadd"', 'name = "vecad"')))
    check("unknown-workload-position",
          rc == 2 and "bad2.toml:7:8: error: unknown workload 'vecad'" in out, out)
    rc, out = study("run", write(os.path.join(tmp, "bad2m.toml"),
                                 SMALL.replace('name = "vecadd"', 'name = "vecadd+vecad"')))
    check("unknown-mix-member", rc == 2 and "unknown workload 'vecadd+vecad'" in out, out)
    rc, out = study("run", write(os.path.join(tmp, "bad3.toml"),
                                 SMALL.replace('"lrr" }', '"lrx" }')))
    check("bad-config-value", rc == 2 and "configuration 'lrr'" in out and "lrx" in out, out)
    rc, out = study("run", write(os.path.join(tmp, "bad4.toml"),
                                 SMALL.replace('metric = "ipc"', 'metric = "ipc"\nrows = "n"')))
    check("bad-dimension", rc == 2 and "rows = 'n' is not a dimension" in out, out)
    rc, out = study("run", write(os.path.join(tmp, "bad5.toml"), BIG.replace(
        "[metrics]", "[[table]]\nmetric = \"insns\"\n[metrics]")))
    check("ambiguous-cell", rc == 2 and "fix n with where" in out, out)


def test_small(tmp):
    f = write(os.path.join(tmp, "small.toml"), SMALL)
    cache, res = os.path.join(tmp, "c-small"), os.path.join(tmp, "r-small")
    rc, out = study("run", f, "--cache", cache, "--results", res, "-j", "2")
    check("small-run", rc == 0 and "4 points, 0 cached, 4 to run" in out and
          "[4/4] 0 failed" in out, out)
    check("small-4-records", len(records(cache)) == 4)
    # The speedup table against direct simt runs.
    cyc = {}
    for w, extra in (("reduction", []), ("vecadd", ["--param", "n=3000"])):
        for c, sets in (("lrr", ["--set", "gpgpu_scheduler=lrr"]), ("gto", [])):
            j = os.path.join(tmp, "direct.json")
            subprocess.run([SIMT, "run", w, "--config", os.path.join(ROOT, "configs",
                            "fermi-gtx480.cfg"), "--json", j] + sets + extra,
                           capture_output=True, check=True)
            cyc[(w, c)] = json.load(open(j))["stats"]["gpu_sim_cycle"]
    rows = {(r["workload"], r["config"]): r for r in csv.DictReader(open(os.path.join(
        res, "speedup.csv")))}
    want = {w: cyc[(w, "lrr")] / cyc[(w, "gto")] for w in ("reduction", "vecadd")}
    ok = all(abs(float(rows[(w, "gto")]["value"]) - want[w]) < 1e-9 for w in want)
    ok = ok and abs(float(rows[("geomean", "gto")]["value"]) -
                    (want["reduction"] * want["vecadd"]) ** 0.5) < 1e-9
    ok = ok and abs(float(rows[("reduction", "gto")]["rel_diff"]) -
                    (want["reduction"] - 1.25) / 1.25) < 1e-6
    check("small-speedup-vs-direct-runs", ok, str(rows))
    md = open(os.path.join(res, "report.md")).read()
    check("small-report-md", "| workload | lrr | gto | gto (paper) | gto diff |" in md and
          "**geomean**" in md and "![bars](bars.png)" in md, md[:800])
    png = open(os.path.join(res, "bars.png"), "rb").read(8) if os.path.exists(
        os.path.join(res, "bars.png")) else b""
    check("small-png", png == b"\x89PNG\r\n\x1a\n", "no PNG (make deps installs matplotlib)")
    # The same result: a --set that repeats the preset's value keeps the key.
    f2 = write(os.path.join(tmp, "small2.toml"), SMALL.replace(
        '[configs.gto]\npreset = "fermi-gtx480"',
        '[configs.gto]\npreset = "fermi-gtx480"\nset = { gpgpu_scheduler = "gto" }'))
    rc, out = study("run", f2, "--cache", cache, "--results", res, "--no-report")
    check("key-from-resolved-config", rc == 0 and "4 cached, 0 to run" in out, out)
    rc, out = study("run", f, "--cache", cache, "--dry-run")
    check("dry-run-lists-points", rc == 0 and "cached  vecadd/gto\n" in out and
          "--param n=3000 --json OUT.json" in out and "4 points, 4 cached, 0 to run" in out, out)
    # A damaged record (truncated by hand) counts as missing and is computed again.
    victim = records(cache)[0]
    with open(victim, "r+") as fh:
        fh.truncate(100)
    rc, out = study("run", f, "--cache", cache, "--results", res, "--no-report")
    check("damaged-record-recomputed", rc == 0 and "3 cached, 1 to run" in out and
          json.load(open(victim))["key"] == os.path.basename(victim)[:-5], out)
    # A changed value moves the key: only the changed points run.
    f3 = write(os.path.join(tmp, "small3.toml"), SMALL.replace(
        '[configs.gto]\npreset = "fermi-gtx480"',
        '[configs.gto]\npreset = "fermi-gtx480"\nset = { gpgpu_l1d_latency = 21 }'))
    rc, out = study("run", f3, "--cache", cache, "--results", res, "--no-report")
    check("changed-config-reruns", rc == 0 and "2 cached, 2 to run" in out, out)


def test_mix(tmp):
    """A mix A+B (simt run A+B) is a workload of a study: its point runs both
    members, and its record is the same run's statistics."""
    f = write(os.path.join(tmp, "mix.toml"), """
[study]
name = "mix"
[[workload]]
name = "vecadd+reduction"
[configs.mcke]
preset = "fermi-cta"
set = { gpgpu_cta_policy = "mcke" }
""")
    cache, res = os.path.join(tmp, "c-mix"), os.path.join(tmp, "r-mix")
    rc, out = study("run", f, "--cache", cache, "--results", res, "--no-report")
    recs = records(cache)
    j = os.path.join(tmp, "mix.json")
    subprocess.run([SIMT, "run", "vecadd+reduction", "--config",
                    os.path.join(ROOT, "configs", "fermi-cta.cfg"), "--set",
                    "gpgpu_cta_policy=mcke", "--json", j], capture_output=True, check=True)
    want = json.load(open(j))["stats"]["gpu_sim_cycle"]
    got = json.loads(json.load(open(recs[0]))["output"])["stats"]["gpu_sim_cycle"] if recs else None
    check("mix-point-runs-both", rc == 0 and len(recs) == 1 and got == want,
          "%s %s %s" % (out, got, want))


def test_failure(tmp):
    f = write(os.path.join(tmp, "fail.toml"), """
[[workload]]
name = "vecadd"
[configs.f]
functional = true
[[axis]]
param = "n"
values = [1000, 0, 2000]
""")
    cache = os.path.join(tmp, "c-fail")
    rc, out = study("run", f, "--cache", cache, "--results", os.path.join(tmp, "r-fail"))
    check("failure-reported-others-go-on",
          rc == 1 and "FAIL vecadd/f/n=0: exit 2 (bad input)" in out and
          "command: " in out and "--param n=0" in out and len(records(cache)) == 2 and
          "1 of 3 points failed" in out, out)


def test_submit_dry_run(tmp):
    """The job script, without Slurm: 200 points, 7 per task -> 29 tasks."""
    f = write(os.path.join(tmp, "big-slurm.toml"), BIG + """
[slurm]
points_per_task = 7
time = "0:10:00"
max_running = 4
""")
    rc, out = study("submit", f, "--cache", os.path.join(tmp, "c-none"), "--dir",
                    os.path.join(tmp, "sl"), "--dry-run")
    script = os.path.join(tmp, "sl", "job-1.sh")
    text = open(script).read() if os.path.exists(script) else ""
    man = json.load(open(os.path.join(tmp, "sl", "manifest-1.json"))) if text else {}
    check("submit-dry-run-script", rc == 0 and "200 points to run as 29 array tasks" in out and
          "#SBATCH --array=0-28%4\n" in text and "#SBATCH --time=0:10:00\n" in text and
          len(man["chunks"]) == 29 and sum(len(c) for c in man["chunks"]) == 200, out + text)
    # Past Slurm's default MaxArraySize, points per task grow instead.
    class Stub:
        slurm, name, timeout = {}, "stub", None
    pts = [(model.Point("w", "c", {"n": str(i)}, "vecadd", {}, None, {}, True), "%064x" % i)
           for i in range(2500)]
    _, tasks, _ = slurm.submit(Stub(), pts, SIMT, STUDY, os.path.join(tmp, "sl2"), True)
    check("submit-array-within-1000", tasks == 834, "%d tasks" % tasks)


def test_timeout(tmp):
    f = write(os.path.join(tmp, "slow.toml"), """
[study]
timeout = 1
[[workload]]
name = "lu"
[configs.g80]
preset = "g80-dwf"
""")
    t0 = time.monotonic()
    rc, out = study("run", f, "--cache", os.path.join(tmp, "c-slow"), "--results",
                    os.path.join(tmp, "r-slow"))
    secs = time.monotonic() - t0
    check("timeout-kills-point", rc == 1 and "FAIL lu/g80: timed out after 1 s" in out and
          secs < 8, "%.1f s: %s" % (secs, out[-400:]))


def test_config_guard(tmp):
    """A simt whose run resolves a configuration other than simt config's
    (a wrapper adding a --set) has its records refused, not filed under a
    wrong key."""
    fake = write(os.path.join(tmp, "fake-simt"), '#!/bin/sh\nif [ "$1" = run ]; then '
                 'exec "%s" "$@" --set gpgpu_l1d_latency=99; fi\nexec "%s" "$@"\n' % (SIMT, SIMT))
    os.chmod(fake, 0o755)
    f = write(os.path.join(tmp, "guard.toml"), SMALL)
    cache = os.path.join(tmp, "c-guard")
    p = subprocess.run([sys.executable, STUDY, "--simt", fake, "run", f, "--cache", cache,
                        "--results", os.path.join(tmp, "r-guard")], capture_output=True,
                       text=True)
    out = p.stdout + p.stderr
    check("config-guard", p.returncode == 1 and "the run used gpgpu_l1d_latency = 99 but simt "
          "config resolved 20" in out and not records(cache), out[-500:])


def wait_records(cache, n, proc, limit=60):
    t0 = time.monotonic()
    while len(records(cache)) < n and proc.poll() is None and time.monotonic() - t0 < limit:
        time.sleep(0.02)
    return len(records(cache))


def children_of(pid):
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True,
                         text=True).stdout
    return [int(x) for x in out.split()]


def test_big(tmp):
    f = write(os.path.join(tmp, "big.toml"), BIG)
    cache = os.path.join(tmp, "c-big")
    env = dict(os.environ, TMPDIR=os.path.join(tmp, "t"))
    os.makedirs(env["TMPDIR"])
    args = [sys.executable, STUDY, "--simt", SIMT, "run", f, "--cache", cache, "--results",
            os.path.join(tmp, "r-big"), "-j", "2", "--no-report"]
    # Killed outright (SIGKILL) part-way: every record left is whole.
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    got = wait_records(cache, 40, p)
    p.kill()
    p.wait()
    before = {r: os.stat(r).st_mtime_ns for r in records(cache)}
    whole = all(json.load(open(r))["key"] == os.path.basename(r)[:-5] for r in before)
    check("kill-leaves-whole-records", 0 < len(before) < 200 and whole,
          "%d records (waited for %d)" % (len(before), got))
    # Ctrl-C (SIGINT): a clean stop, no run or temporary file left behind.
    env["TMPDIR"] = os.path.join(tmp, "t2")
    os.makedirs(env["TMPDIR"])
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                         text=True)
    wait_records(cache, len(before) + 20, p)
    kids = children_of(p.pid)
    p.send_signal(signal.SIGINT)
    out = p.communicate(timeout=30)[0]
    time.sleep(0.2)
    alive = [k for k in kids if os.path.exists("/proc/%d" % k) and
             "simt" in open("/proc/%d/cmdline" % k).read()]
    check("sigint-stops-cleanly", p.returncode == 130 and "interrupted (SIGINT)" in out and
          not alive and not glob.glob(os.path.join(env["TMPDIR"], "simt-point-*")),
          "rc %s, alive %s: %s" % (p.returncode, alive, out[-400:]))
    mid = {r: os.stat(r).st_mtime_ns for r in records(cache)}
    # The rerun computes only the missing points and leaves the others untouched.
    t0 = time.monotonic()
    p = subprocess.run(args, capture_output=True, text=True, env=env)
    secs = time.monotonic() - t0
    out = p.stdout + p.stderr
    check("resume-runs-only-missing",
          p.returncode == 0 and "200 points, %d cached, %d to run" % (len(mid), 200 - len(mid))
          in out and len(records(cache)) == 200, out[-600:])
    check("resume-keeps-finished-records",
          all(os.stat(r).st_mtime_ns == t for r, t in mid.items()))
    check("progress-line", "[200/200] 0 failed, elapsed" in out or
          "[%d/%d] 0 failed, elapsed" % (200 - len(mid), 200 - len(mid)) in out, out[-300:])
    print("   200-point study: %d points resumed in %.1f s on 2 jobs" % (200 - len(mid), secs))


def main():
    with tempfile.TemporaryDirectory() as tmp:
        test_pure()
        test_errors(tmp)
        test_small(tmp)
        test_mix(tmp)
        test_failure(tmp)
        test_config_guard(tmp)
        test_timeout(tmp)
        test_submit_dry_run(tmp)
        test_big(tmp)
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
