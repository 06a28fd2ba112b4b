"""point.py: one point as one `simt run`, started, watched and turned into
a record (cache.py) or a failure report.

The run writes its statistics with --json into a private temporary
folder; the record holds that file's text verbatim ("output"), so two
runs of the same point can be compared bit for bit.  Its stdout and stderr
go to files (a pipe could fill and stall the run) and only the failure
report reads them.  The run is started in a session of its own and killed
with the runner (PR_SET_PDEATHSIG on Linux), so neither a Ctrl-C at the
terminal nor a runner killed outright leaves runs going on behind it.
"""
import ctypes
import os
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile
import time

from .cache import RECORD_VERSION

EXIT_MEANING = {1: "the result check against the CPU reference failed",
                2: "bad input", 3: "a fault inside the simulated kernel",
                4: "a co-simulation mismatch"}


def command(simt, point, json_path):
    cmd = [simt, "run", point.wl_name]
    if point.preset:
        cmd += ["--config", point.preset]
    for k, v in point.sets.items():
        cmd += ["--set", "%s=%s" % (k, v)]
    for k, v in point.params.items():
        cmd += ["--param", "%s=%s" % (k, v)]
    if point.functional:
        cmd.append("--functional")
    return cmd + ["--json", json_path]


def _die_with_parent():
    """In the child: be killed when the runner dies, whatever kills it."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class PointRun:
    def __init__(self, simt, point, key):
        self.point, self.key = point, key
        self.tmp = tempfile.mkdtemp(prefix="simt-point-")
        self.json = os.path.join(self.tmp, "stats.json")
        self.cmd = command(simt, point, self.json)
        self.shown = shlex.join(command(simt, point, "OUT.json"))
        self.start = time.monotonic()
        self.timed_out = None  # the limit, once stop_late() killed the run
        self.log = open(os.path.join(self.tmp, "log"), "w+")
        self.proc = subprocess.Popen(self.cmd, stdout=self.log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, start_new_session=True,
                                     preexec_fn=_die_with_parent)

    def poll(self):
        return self.proc.poll()

    def wait(self, limit=None):
        """Waits for the run; past `limit` seconds (None: none) kills it."""
        try:
            return self.proc.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            return self.stop_late(limit, force=True)

    def stop_late(self, limit, force=False):
        """Kills a run that has taken more than `limit` seconds; its
        result() then says so.  The exit status, or None if still in time."""
        if self.proc.poll() is None and (force or time.monotonic() - self.start > limit):
            self.timed_out = limit
            self.proc.kill()
        return self.proc.wait() if self.timed_out else self.proc.poll()

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.close()

    def close(self):
        self.log.close()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def result(self):
        """(record, None) after a clean run, else (None, failure text).
        Cleans up the temporary folder."""
        rc = self.proc.returncode
        seconds = time.monotonic() - self.start
        try:
            output = open(self.json).read() if rc == 0 else None
        except OSError:
            output = None
        if output is not None:
            rec = {"version": RECORD_VERSION, "key": self.key, "id": self.point.id,
                   "command": self.shown, "output": output, "seconds": round(seconds, 3),
                   "host": socket.gethostname()}
            self.close()
            return rec, None
        why = ("timed out after %g s (the study's timeout)" % self.timed_out if self.timed_out
               else "killed by signal %d" % -rc if rc < 0 else
               "exit %d (%s)" % (rc, EXIT_MEANING.get(rc, "unexpected status")) if rc else
               "exit 0 but no statistics file")
        self.log.seek(0)
        tail = self.log.read().strip().splitlines()[-8:]
        self.close()
        return None, "FAIL %s: %s\n  command: %s\n%s" % (
            self.point.id, why, self.shown, "".join("  | %s\n" % l for l in tail))
