"""slurm.py: a study as a Slurm job array, and its results collected.

submit writes, under the study's Slurm folder (RESULTS/slurm by default),
for its N-th submission there:
  manifest-N.json  the points still missing from the cache, with their keys,
                   and the chunks (points_per_task points each);
  job-N.sh         the sbatch script: one array task per chunk, each running
                   `study.py task manifest-N.json $SLURM_ARRAY_TASK_ID`;
  jobs.json        every submission's job id (collect --wait waits for all).
A submission never rewrites an earlier one's files, so tasks of an earlier
job still queued read the manifest they were submitted with.
Each task runs its points one after the other and writes each record
atomically into records/KEY.json (a failure: failed/KEY.txt); logs go to
logs/.  collect (after waiting for the job with --wait) checks every record
against the key its point has now and moves it into the cache, so a record
from an older simulator build or an edited configuration is never taken.

The folder, the simulator and this script must be reachable from the
compute nodes at the same paths (a shared file system, as on clusters).
"""
import json
import os
import shlex
import subprocess
import sys
import time

from .cache import read_record, write_atomic
from .errors import StudyError
from .model import Point
from .point import PointRun

MAX_ARRAY_TASKS = 1000


def _point_doc(p, key):
    return {"key": key, "workload": p.workload, "config": p.config, "axes": p.axes,
            "wl_name": p.wl_name, "params": p.params, "preset": p.preset, "sets": p.sets,
            "functional": p.functional}


def job_script(study, folder, manifest, nchunks, python, script, simt):
    sl = study.slurm
    lines = ["#!/bin/bash",
             "#SBATCH --job-name=simt-%s" % study.name,
             "#SBATCH --array=0-%d%s" % (nchunks - 1, "%%%d" % sl["max_running"]
                                         if "max_running" in sl else ""),
             "#SBATCH --ntasks=1",
             "#SBATCH --cpus-per-task=1",
             "#SBATCH --output=%s/logs/%%A_%%a.out" % folder]
    for field in ("partition", "account", "time", "mem"):
        if field in sl:
            lines.append("#SBATCH --%s=%s" % (field, sl[field]))
    for extra in sl.get("sbatch_args", []):
        lines.append("#SBATCH %s" % extra)
    lines.append("exec %s %s --simt %s task %s \"$SLURM_ARRAY_TASK_ID\"" % (
        shlex.quote(python), shlex.quote(script), shlex.quote(simt),
        shlex.quote(manifest)))
    return "\n".join(lines) + "\n"


def submit(study, todo, simt, script, folder, dry_run=False):
    """Writes the manifest and job script for `todo` [(point, key)] and
    submits it; returns (job id or None, number of array tasks, script)."""
    folder = os.path.abspath(folder)
    # Slurm refuses arrays past MaxArraySize (1001 by default): more points
    # per task rather than a refused job.
    per = max(study.slurm.get("points_per_task", 1), -(-len(todo) // MAX_ARRAY_TASKS))
    chunks = [list(range(i, min(i + per, len(todo)))) for i in range(0, len(todo), per)]
    os.makedirs(os.path.join(folder, "logs"), exist_ok=True)
    n = 1
    while os.path.exists(os.path.join(folder, "manifest-%d.json" % n)):
        n += 1
    for _, k in todo:  # an earlier failure of a point submitted again is old news
        try:
            os.remove(os.path.join(folder, "failed", k + ".txt"))
        except FileNotFoundError:
            pass
    manifest = os.path.join(folder, "manifest-%d.json" % n)
    write_atomic(manifest, json.dumps({"points": [_point_doc(p, k) for p, k in todo],
                                       "chunks": chunks, "folder": folder,
                                       "timeout": study.timeout}, indent=1) + "\n")
    path = os.path.join(folder, "job-%d.sh" % n)
    write_atomic(path, job_script(study, folder, manifest, len(chunks), sys.executable, script,
                                  simt))
    if dry_run:
        return None, len(chunks), path
    try:
        p = subprocess.run(["sbatch", "--parsable", path], capture_output=True, text=True)
    except FileNotFoundError:
        raise StudyError("sbatch not found: is this a Slurm login node? (--dry-run writes "
                         "the job script without submitting it)")
    if p.returncode != 0:
        raise StudyError("sbatch refused %s: %s" % (path, (p.stderr or p.stdout).strip()))
    job = p.stdout.strip().split(";")[0]
    jobs = _jobs(folder)
    jobs.append({"job": job, "script": path, "tasks": len(chunks), "points": len(todo)})
    write_atomic(os.path.join(folder, "jobs.json"), json.dumps(jobs, indent=1) + "\n")
    return job, len(chunks), path


def _jobs(folder):
    try:
        return json.load(open(os.path.join(folder, "jobs.json")))
    except (OSError, ValueError):
        return []


def task(simt, manifest_path, index):
    """One array task: its chunk's points, each record written atomically."""
    m = json.load(open(manifest_path))
    failed = 0
    for i in m["chunks"][index]:
        d = m["points"][i]
        p = Point(d["workload"], d["config"], d["axes"], d["wl_name"], d["params"],
                  d["preset"], d["sets"], d["functional"])
        r = PointRun(simt, p, d["key"])
        r.wait(m.get("timeout"))
        rec, failure = r.result()
        if rec:
            write_atomic(os.path.join(m["folder"], "records", d["key"] + ".json"),
                         json.dumps(rec, indent=1, sort_keys=True) + "\n")
        else:
            failed += 1
            sys.stderr.write(failure)
            write_atomic(os.path.join(m["folder"], "failed", d["key"] + ".txt"), failure)
    return 1 if failed else 0


def _queued(job):
    """The array tasks of job still queued or running (an unknown job id: none)."""
    p = subprocess.run(["squeue", "-h", "-j", job, "-o", "%i %T"], capture_output=True,
                       text=True)
    if p.returncode != 0 and "Invalid job id" not in p.stderr:
        raise StudyError("squeue failed: %s" % p.stderr.strip())
    return [l for l in p.stdout.splitlines() if l.strip()] if p.returncode == 0 else []


def wait(folder, timeout, stream):
    """Waits until every submitted job has left the queue (squeue)."""
    jobs = [j["job"] for j in _jobs(folder)]
    if not jobs:
        raise StudyError("no submitted job in %s (simt study submit writes jobs.json)" % folder)
    t0 = time.monotonic()
    while True:
        try:
            left = sum(len(_queued(j)) for j in jobs)
        except FileNotFoundError:
            raise StudyError("squeue not found: is this a Slurm login node?")
        if not left:
            return
        if time.monotonic() - t0 > timeout:
            raise StudyError("jobs %s still have %d array tasks queued or running after %d s"
                             % (", ".join(jobs), left, timeout))
        stream.write("jobs %s: %d array tasks queued or running\n" % (", ".join(jobs), left))
        stream.flush()
        time.sleep(2)


def collect(points_keys, cache, folder, check):
    """Moves the folder's valid records into the cache (check as for
    local.run); returns (collected, failures, missing ids)."""
    collected, failures, missing = 0, [], []
    for p, key in points_keys:
        if cache.get(key):
            continue
        rec = read_record(os.path.join(folder, "records", key + ".json"), key)
        bad = rec and check(p, rec)
        if bad:
            failures.append(bad)
        elif rec:
            cache.put(rec)
            collected += 1
            continue
        fpath = os.path.join(folder, "failed", key + ".txt")
        if os.path.exists(fpath):
            failures.append(open(fpath).read())
        else:
            missing.append(p.id)
    return collected, failures, missing
