#!/usr/bin/env python3
"""bench_suite.py: `make bench-suite`: every workload at --param size=paper
under the timing model, as a researcher reproducing a paper runs it, one
after the other.  Per workload: wall time, thread-instructions and
simulated cycles per second, peak resident memory (the child's own
getrusage); then the aggregate, the issue-15 targets, and the ratio to the
previous recorded run (tests/baseline/bench_suite.tsv).  Rates are given per
wall second and per CPU second (Mti/cs, kcyc/cs): on a machine shared with
other jobs only the CPU figures compare from run to run, and the per-workload
rate target and the ratio to the previous run use them.

  bench_suite.py SIMT [--preset NAME] [--only W1,W2] [--timeout S]
                      [--threads N] [--jobs N] [--record]
  bench_suite.py SIMT --speedup N [--preset NAME] [--only W1,W2] [--reps R]

--preset NAME   every workload on configs/NAME.cfg (default kepler-ss: the
                issue's reference suite); --preset paper: each workload on
                its paper's machine (from its meta's `paper` seed number).
--only          a comma-separated subset.
--timeout S     per workload (default 1800); a run cut off counts as failed.
--threads N     passed to simt run (the deterministic parallel mode) when
                given.
--jobs N        workloads run at once (default: the cores, at most 2: the
                issue's machine), the longest of the previous record first;
                the suite's time is then the whole run's elapsed wall time,
                each workload's rates stay its own CPU time's.  A job's
                CPU time depends on its neighbour (shared caches), so the
                workloads below the rate target are timed again alone
                afterwards, and the target uses those rates.  --jobs 1 is
                the one-after-the-other run of the issue's measurement.
--record        rewrites the previous-run file with this run (the file is
                checked in; record on an idle machine and say so).
--speedup N     instead of the suite: `--threads N` against one thread on
                the compute-heavy workloads (thread-IPC of at least
                COMPUTE_IPC in the previous record; --only picks others),
                one run at a time, one thread and N threads alternated R
                times (--reps, default 3); per workload the best wall time
                of each and their ratio, the statistics of every run
                required identical, and the issue's 1.6x target.  Wall
                time, the quantity threads save; best of R because a
                shared machine only ever slows a run down.  Beside it the
                host's core-to-core round trip (scripts/core_roundtrip.c,
                built on the way) before and after that best N-thread
                run: on a virtual machine it moves between about 100 and
                500 ns from minute to minute, and N threads with it
                (docs/timing-model.md, "When two threads lose").

A benchmark, never part of `make test`: timings on a shared machine vary;
compare runs taken back to back.
"""
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PREVIOUS = os.path.join(ROOT, "tests", "baseline", "bench_suite.tsv")
SEED_PRESET = {"000": "kepler-ss", "001": "fermi-gtx480", "002": "g80-dwf",
               "003": "kepler-ss", "004": "fermi-cta"}
TARGET_TOTAL_S = 3400 / 4      # a quarter of the measured suite
TARGET_MIN_MTIS = 15.0         # M thread-instructions/s, every workload
TARGET_RSS_MIB = 2048
TARGET_SPEEDUP = 1.6           # --threads 2 over one thread, compute-heavy
COMPUTE_IPC = 400              # thread-instructions per cycle: compute-heavy


def workload_sections():
    """Every workload's name: the [section]s of workloads/*/meta."""
    out = []
    for app in sorted(os.listdir(os.path.join(ROOT, "workloads"))):
        meta = os.path.join(ROOT, "workloads", app, "meta")
        if os.path.exists(meta):
            for line in open(meta):
                line = line.split("#")[0].strip()
                if line.startswith("[") and line.endswith("]"):
                    out.append(line[1:-1])
    return out


def paper_presets():
    """workload -> preset, from each meta's [section] and `paper = NNN ...`."""
    out = {}
    for app in sorted(os.listdir(os.path.join(ROOT, "workloads"))):
        meta = os.path.join(ROOT, "workloads", app, "meta")
        if not os.path.exists(meta):
            continue
        section = None
        for line in open(meta):
            line = line.split("#")[0].strip()
            if line.startswith("[") and line.endswith("]"):
                section = line[1:-1]
            elif section and line.startswith("paper ="):
                out[section] = SEED_PRESET.get(line.split("=")[1].split()[0], "kepler-ss")
    return out


def run(simt, workload, preset, timeout, threads, tmp):
    """(wall s, user s, peak RSS KiB, stats or None, error or None)."""
    js = os.path.join(tmp, workload + ".json")
    if os.path.exists(js):
        os.remove(js)
    cmd = [simt, "run", workload, "--param", "size=paper", "--config",
           os.path.join(ROOT, "configs", preset + ".cfg"), "--json", js]
    if threads:
        cmd += ["--threads", str(threads)]
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    status, ru = None, None
    while status is None:
        pid, st, rusage = os.wait4(p.pid, os.WNOHANG)
        if pid:
            status, ru = st, rusage
        elif time.monotonic() - start > timeout:
            p.kill()
            _, _, ru = os.wait4(p.pid, 0)
            return timeout, ru.ru_utime, ru.ru_maxrss, None, "cut off after %d s" % timeout
        else:
            time.sleep(0.05)
    wall = time.monotonic() - start
    p.returncode = os.waitstatus_to_exitcode(status)
    err = p.stderr.read().decode(errors="replace").strip().splitlines()
    if p.returncode != 0:
        return wall, ru.ru_utime, ru.ru_maxrss, None, \
            "exit %d: %s" % (p.returncode, err[0] if err else "")
    return wall, ru.ru_utime, ru.ru_maxrss, json.load(open(js))["stats"], None


def load_record():
    """(workload, preset) -> (CPU seconds, thread-IPC) of the previous record."""
    rec = {}
    if os.path.exists(PREVIOUS):
        for line in open(PREVIOUS):
            f = line.split()
            if len(f) == 7 and not line.startswith("#"):
                rec[(f[0], f[1])] = (float(f[3]), int(f[4]) / max(int(f[5]), 1))
    return rec


def count_opt(opts, name, lo):
    """The option's value, an integer in lo..64, or exit 2 with why."""
    v = opts[name]
    if not v.isdigit() or not lo <= int(v) <= 64:
        sys.stderr.write("bench_suite.py: error: %s takes %d..64, not '%s'\n" % (name, lo, v))
        sys.exit(2)
    return int(v)


def roundtrip_tool(tmp):
    """scripts/core_roundtrip.c built into tmp: its path, or None (no
    compiler, or fewer than two CPUs to pin)."""
    exe = os.path.join(tmp, "core_roundtrip")
    src = os.path.join(ROOT, "scripts", "core_roundtrip.c")
    r = subprocess.run(["cc", "-std=c11", "-O2", "-pthread", src, "-o", exe],
                       capture_output=True)
    if r.returncode != 0 or (os.cpu_count() or 1) < 2:
        return None
    return exe


def roundtrip(exe):
    """The host's core-to-core round trip now, in ns, as text ("-": none)."""
    if not exe:
        return "-"
    r = subprocess.run([exe], capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else "-"


def speedup(simt, names, preset_of, nthreads, reps, timeout):
    """The --speedup table; 1 when a run failed or differed."""
    print("--threads %d against one thread, best wall of %d alternated runs each, "
          "one run at a time; core round trip (ns) before/after the best %d-thread run"
          % (nthreads, reps, nthreads))
    print("%-14s %-13s %7s %9s %9s %8s  %s" % ("workload", "preset", "IPC", "1 thr s",
                                               "%d thr s" % nthreads, "speedup", "round trip"))
    bad, ratios = 0, []
    with tempfile.TemporaryDirectory() as tmp:
        tool = roundtrip_tool(tmp)
        for w in names:
            best, ref, err, rt = {1: None, nthreads: None}, None, None, "-"
            for _ in range(reps):
                for t in (1, nthreads):
                    before = roundtrip(tool) if t > 1 else None
                    wall, _, _, st, e = run(simt, w, preset_of[w], timeout, t, tmp)
                    if e or (ref is not None and st != ref):
                        err = e or "--threads %d: other statistics than one thread" % t
                        break
                    ref = st
                    if best[t] is None or wall < best[t]:
                        best[t] = wall
                        if t > 1:
                            rt = "%s/%s" % (before, roundtrip(tool))
                if err:
                    break
            if err:
                bad += 1
                print("%-14s %-13s FAILED: %s" % (w, preset_of[w], err), flush=True)
                continue
            r = best[1] / max(best[nthreads], 1e-9)
            ratios.append((w, r))
            print("%-14s %-13s %7.0f %9.2f %9.2f %7.2fx  %s" % (
                w, preset_of[w], ref["thread_insns"] / max(ref["gpu_sim_cycle"], 1),
                best[1], best[nthreads], r, rt), flush=True)
    if ratios:
        gm = 1.0
        for _, r in ratios:
            gm *= r
        gm **= 1.0 / len(ratios)
        low = [(w, r) for w, r in ratios if r < TARGET_SPEEDUP]
        print("geometric mean %.2fx over %d workloads, min %.2fx (%s)" % (
            gm, len(ratios), min(r for _, r in ratios), min(ratios, key=lambda x: x[1])[0]))
        print("target: --threads %d >= %.1fx on each: %s%s" % (
            nthreads, TARGET_SPEEDUP, "met" if not low and not bad else "NOT met",
            "" if not low else " (%s)" % ", ".join("%s %.2fx" % x for x in low)))
    return 1 if bad else 0


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        sys.stderr.write(__doc__)
        sys.exit(2)
    simt = os.path.abspath(args.pop(0))
    opts = {"--preset": "kepler-ss", "--only": "", "--timeout": "1800", "--threads": "",
            "--jobs": str(min(2, os.cpu_count() or 1)), "--speedup": "", "--reps": "3"}
    record = False
    while args:
        a = args.pop(0)
        if a == "--record":
            record = True
        elif a in opts and args:
            opts[a] = args.pop(0)
        else:
            sys.stderr.write("bench_suite.py: error: unknown or incomplete option '%s'\n" % a)
            sys.exit(2)
    # the suite is the workloads (workloads/*/meta), not the test kernels
    # `simt list` also shows: those have no size knob
    suite = set(workload_sections())
    names = [l.split()[0] for l in subprocess.run(
        [simt, "list"], capture_output=True, text=True, check=True).stdout.splitlines()]
    names = [n for n in names if n in suite]
    if opts["--only"]:
        want = opts["--only"].split(",")
        unknown = [w for w in want if w not in names]
        if unknown:
            sys.stderr.write("bench_suite.py: error: unknown workload %s\n" % unknown[0])
            sys.exit(2)
        names = want
    jobs = count_opt(opts, "--jobs", 1)
    papers = paper_presets()
    record_before = load_record()
    prev = {k: cpu for k, (cpu, _) in record_before.items()}
    preset_of = {w: papers.get(w, "kepler-ss") if opts["--preset"] == "paper" else opts["--preset"]
                 for w in names}
    if opts["--speedup"]:
        nthreads, reps = count_opt(opts, "--speedup", 2), count_opt(opts, "--reps", 1)
        if not opts["--only"]:
            names = [w for w in names
                     if record_before.get((w, preset_of[w]), (0, 0))[1] >= COMPUTE_IPC]
        sys.exit(speedup(simt, names, preset_of, nthreads, reps, float(opts["--timeout"])))
    # longest first (the previous record's CPU seconds; a workload it lacks
    # may be long, so it goes first too): the last to finish is a short one
    order = sorted(names, key=lambda w: -prev.get((w, preset_of[w]), float("inf")))
    results, failed, lock = {}, 0, threading.Lock()
    hdr = "%-14s %-13s %8s %8s %12s %7s %7s %12s %7s %7s %7s" % (
        "workload", "preset", "wall s", "CPU s", "thread-insns", "Mti/s", "Mti/cs",
        "cycles", "kcyc/cs", "RSS MiB", "vs prev")
    print(hdr)
    def one(w, tmp):
        nonlocal failed
        preset = preset_of[w]
        wall, user, rss, st, err = run(simt, w, preset, float(opts["--timeout"]),
                                       opts["--threads"], tmp)
        with lock:  # a row as each finishes
            if err:
                failed += 1
                print("%-14s %-13s %9.1f FAILED: %s" % (w, preset, wall, err), flush=True)
                return
            ti, cyc = st["thread_insns"], st["gpu_sim_cycle"]
            p = prev.get((w, preset))
            cpu = max(user, 1e-3)
            ratio = "%6.2fx" % (p / cpu) if p else "    new"
            results[w] = (w, preset, wall, user, ti, cyc, rss)
            print("%-14s %-13s %8.2f %8.2f %12d %7.1f %7.1f %12d %7.0f %7.0f %7s" % (
                w, preset, wall, user, ti, ti / wall / 1e6, ti / cpu / 1e6, cyc,
                cyc / cpu / 1e3, rss / 1024, ratio), flush=True)

    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for f in [pool.submit(one, w, tmp) for w in order]:
            f.result()
    elapsed = time.monotonic() - start
    rows = [results[w] for w in names if w in results]
    tw = elapsed  # the suite's time: one after the other, or --jobs at once
    tti = sum(r[4] for r in rows)
    tcyc = sum(r[5] for r in rows)
    both = [r for r in rows if (r[0], r[1]) in prev]
    tu = sum(r[3] for r in rows)
    pw = sum(prev[(r[0], r[1])] for r in both)
    bw = sum(r[3] for r in both)
    print("total: %d workloads, %d failed, %.1f s wall (%d at once), %.1f s CPU, "
          "%d thread-instructions (%.1f M/s wall, %.1f M/s CPU), %d cycles (%.0f k per CPU s)%s" % (
              len(rows), failed, tw, jobs, tu, tti, tti / max(tw, 1e-9) / 1e6,
              tti / max(tu, 1e-9) / 1e6, tcyc, tcyc / max(tu, 1e-9) / 1e3,
              ", %.2fx the previous run's speed on the %d workloads it has" % (pw / bw, len(both))
              if both and bw else ""))
    rate = {r[0]: r[4] / max(r[3], 1e-3) / 1e6 for r in rows}
    slow = [r for r in rows if rate[r[0]] < TARGET_MIN_MTIS]
    if jobs > 1 and slow:
        # with jobs at once a workload's CPU time depends on what runs
        # beside it (the cores share caches and memory): the ones below the
        # rate target are timed again alone, and the target takes that
        # rate (the record keeps the suite's)
        print("below %.0f M ti/s per CPU second beside another job, again alone:" %
              TARGET_MIN_MTIS)
        with tempfile.TemporaryDirectory() as tmp:
            for r in slow:
                wall, user, _, st, err = run(simt, r[0], r[1], float(opts["--timeout"]),
                                             opts["--threads"], tmp)
                if err:
                    failed += 1
                    print("%-14s %-13s %9.1f FAILED: %s" % (r[0], r[1], wall, err), flush=True)
                    continue
                rate[r[0]] = st["thread_insns"] / max(user, 1e-3) / 1e6
                print("%-14s %-13s %8.2f %8.2f %12d %7.1f %7.1f (alone)" % (
                    r[0], r[1], wall, user, st["thread_insns"],
                    st["thread_insns"] / wall / 1e6, rate[r[0]]), flush=True)
        slow = [r for r in slow if rate[r[0]] < TARGET_MIN_MTIS]
    big = [r for r in rows if r[6] / 1024 > TARGET_RSS_MIB]
    print("targets: suite <= %.0f s: %s (%.0f s); every workload >= %.0f M ti/s: %s%s; "
          "peak memory <= %d MiB: %s (max %.0f MiB)" % (
              TARGET_TOTAL_S, "met" if tw <= TARGET_TOTAL_S and not failed else "NOT met", tw,
              TARGET_MIN_MTIS, "met" if not slow else "NOT met",
              "" if not slow else " (%s)" % ", ".join(
                  "%s %.1f" % (r[0], rate[r[0]]) for r in slow),
              TARGET_RSS_MIB, "met" if not big else "NOT met",
              max((r[6] / 1024 for r in rows), default=0)))
    if record:
        with open(PREVIOUS + ".tmp", "w") as f:
            f.write("# workload preset wall_s user_s thread_insns gpu_sim_cycle peak_rss_kib "
                    "(scripts/bench_suite.py --record)\n")
            for w, preset, wall, user, ti, cyc, rss in rows:
                f.write("%s %s %.2f %.2f %d %d %d\n" % (w, preset, wall, user, ti, cyc, rss))
        os.replace(PREVIOUS + ".tmp", PREVIOUS)
        print("recorded in %s" % os.path.relpath(PREVIOUS, ROOT))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
