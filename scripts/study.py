#!/usr/bin/env python3
"""study.py: the study runner (`simt study ...` execs it; docs/experiments.md).

  study.py [--simt SIMT] run FILE [-j N] [--results DIR] [--cache DIR] [--no-report]
                                 [--dry-run]
      run the points missing from the cache here, in parallel, then report
      (--dry-run: list the points, cached or to run, and their commands)
  study.py [--simt SIMT] report FILE [--results DIR] [--cache DIR]
      tables and charts from what the cache holds
  study.py [--simt SIMT] submit FILE [--dir DIR] [--dry-run] [--cache DIR]
      the missing points as a Slurm job array
  study.py [--simt SIMT] collect FILE [--dir DIR] [--wait SECONDS] [--cache DIR] [--no-report]
      the job array's results into the cache, then report
  study.py [--simt SIMT] task MANIFEST INDEX
      one array task (the job script runs it)

Exit status: 0 every point has a result; 1 some point failed or is
missing; 2 bad input (the study file, the command line); 130 interrupted.
"""
import argparse
import os
import shlex
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, "build", "venv")

# The pinned matplotlib lives in build/venv (scripts/deps.sh): run there.
_venv_python = os.path.join(VENV, "bin", "python3")
if os.path.exists(_venv_python) and os.path.realpath(sys.prefix) != os.path.realpath(VENV):
    os.execv(_venv_python, [_venv_python] + sys.argv)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from studylib import cache as C  # noqa: E402
from studylib import local, model, point, report, slurm  # noqa: E402
from studylib.errors import StudyError  # noqa: E402
from studylib.keys import Keys  # noqa: E402


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise StudyError("%s (simt study --help)" % message)


def parse(argv):
    ap = Parser(prog="simt study", description="workloads x configurations x sweeps: run, "
                "cache, report (docs/experiments.md)")
    ap.add_argument("--simt", default=os.path.join(ROOT, "build", "bin", "simt"),
                    help="the simulator binary (default: build/bin/simt)")
    sub = ap.add_subparsers(dest="cmd", required=True, parser_class=Parser)
    for name, hlp in (("run", "run missing points here, then report"),
                      ("report", "tables and charts from the cache"),
                      ("submit", "submit missing points as a Slurm job array"),
                      ("collect", "gather a job array's results into the cache")):
        p = sub.add_parser(name, help=hlp)
        p.add_argument("file", help="the study file (TOML)")
        p.add_argument("--cache", help="result cache folder (default: the study's cache, "
                       "else build/study-cache)")
        p.add_argument("--results", help="report folder (default: the study's results, "
                       "else results/NAME)")
        if name == "run":
            p.add_argument("-j", "--jobs", type=int, help="points at once (default: all cores)")
        if name in ("submit", "collect"):
            p.add_argument("--dir", help="the Slurm folder (default: RESULTS/slurm)")
        if name == "submit":
            p.add_argument("--dry-run", action="store_true",
                           help="write the job script and manifest, submit nothing")
        if name == "run":
            p.add_argument("--dry-run", action="store_true",
                           help="list the points, cached or to run, with their commands")
        if name == "collect":
            p.add_argument("--wait", type=float, metavar="SECONDS",
                           help="first wait up to SECONDS for the job to leave the queue")
        if name in ("run", "collect"):
            p.add_argument("--no-report", action="store_true", help="write no report")
    t = sub.add_parser("task", help="one Slurm array task (used by the job script)")
    t.add_argument("manifest")
    t.add_argument("index", type=int)
    return ap.parse_args(argv)


def cores():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def prepare(args):
    """The study, its points' keys, the cache, the results folder."""
    if not os.access(args.simt, os.X_OK):
        raise StudyError("no simulator at %s (make builds it; --simt names another)" % args.simt)
    keys = Keys(os.path.abspath(args.simt), ROOT)
    study = model.load(args.file, ROOT, keys.workloads)
    pk = [(p, keys.key(p)) for p in study.points]
    cache = C.Cache(args.cache or study.cache or os.path.join(ROOT, "build", "study-cache"))
    results = args.results or study.results
    return study, pk, cache, results, keys


def records_of(pk, cache):
    return {p.id: r for p, r in ((p, cache.get(k)) for p, k in pk) if r}


def write_report(study, pk, cache, results, failures=()):
    files = report.write(study, records_of(pk, cache), results, failures)
    print("report: %s" % os.path.join(results, "report.md"))
    return files


def main(argv):
    args = parse(argv)
    if args.cmd == "task":
        return slurm.task(os.path.abspath(args.simt), args.manifest, args.index)
    study, pk, cache, results, keys = prepare(args)
    todo = [(p, k) for p, k in pk if not cache.get(k)]
    if args.cmd == "run" and args.dry_run:
        waiting = {k for _, k in todo}
        for p, k in pk:
            print("%-7s %s\n        %s" % ("to run" if k in waiting else "cached", p.id,
                                           shlex.join(point.command(args.simt, p, "OUT.json"))))
        print("study %s: %d points, %d cached, %d to run" % (study.name, len(pk),
                                                             len(pk) - len(todo), len(todo)))
        return 0
    if args.cmd == "run":
        jobs = args.jobs or study.jobs or cores()
        print("study %s: %d points, %d cached, %d to run, %d at a time"
              % (study.name, len(pk), len(pk) - len(todo), len(todo), jobs), flush=True)
        done, failures, stopped = local.run(todo, os.path.abspath(args.simt), cache, jobs,
                                             keys.check, study.timeout)
        if stopped:
            print("interrupted (%s): %d of %d points computed and cached; run the study again "
                  "to go on" % (stopped, done, len(todo)), file=sys.stderr)
            return 130
        if not args.no_report:
            write_report(study, pk, cache, results, failures)
        if failures:
            print("%d of %d points failed (reports above)" % (len(failures), len(pk)),
                  file=sys.stderr)
        return 1 if failures else 0
    if args.cmd == "report":
        write_report(study, pk, cache, results)
        return 0 if not todo else 1
    folder = args.dir or os.path.join(results, "slurm")
    if args.cmd == "submit":
        if not todo:
            print("study %s: all %d points are cached: nothing to submit" % (study.name, len(pk)))
            return 0
        job, tasks, script = slurm.submit(study, todo, os.path.abspath(args.simt),
                                          os.path.abspath(__file__), folder, args.dry_run)
        print("study %s: %d points to run as %d array tasks; %s" % (
            study.name, len(todo), tasks, "job script %s (not submitted)" % script
            if job is None else "submitted job %s (%s)" % (job, script)))
        return 0
    # collect
    if args.wait is not None:
        slurm.wait(folder, args.wait, sys.stderr)
    got, failures, missing = slurm.collect(pk, cache, folder, keys.check)
    for f in failures:
        sys.stderr.write(f)
    print("study %s: %d collected, %d were cached, %d failed, %d missing" % (
        study.name, got, len(pk) - len(todo), len(failures), len(missing)))
    if not args.no_report:
        write_report(study, pk, cache, results, failures)
    return 0 if not failures and not missing else 1


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except StudyError as e:
        print(e, file=sys.stderr)
        sys.exit(2)
    except OSError as e:  # a folder not writable, a disk full: say which, no traceback
        print("simt study: error: %s%s" % (e.strerror or e, ": %s" % e.filename
                                           if e.filename else ""), file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
