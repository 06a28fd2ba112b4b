"""local.py: the points of a study run here, `jobs` at a time.

Each finished point's record goes into the cache at once (atomically), so
a study stopped in any way loses at most the points in flight.  A failing
point prints its report (command line and output tail) and the others go
on.  Ctrl-C (SIGINT) or SIGTERM stops cleanly: no new points start, the
running ones are killed, their temporary files removed, and the runner
says how far it got; a rerun continues from the cache.
"""
import signal
import time

from .point import PointRun
from .progress import Progress


def run(todo, simt, cache, jobs, check, timeout=None, stream=None):
    """Runs [(point, key)]; check(point, record) is None for a record to
    cache, else a failure report; a point running longer than `timeout`
    seconds is killed and fails.  Returns (computed, failures, the signal
    that stopped it or None)."""
    if not todo:
        return 0, [], None
    progress = Progress(len(todo), stream)
    stop = []  # the handler only notes the signal: the loop acts on it between steps

    def note(signum, frame):
        stop.append(signal.Signals(signum).name)

    old = {s: signal.signal(s, note) for s in (signal.SIGINT, signal.SIGTERM)}
    running, queue = [], list(reversed(todo))
    computed, failures = 0, []
    try:
        progress.update(force=True)
        while (queue or running) and not stop:
            while queue and len(running) < jobs and not stop:
                point, key = queue.pop()
                running.append(PointRun(simt, point, key))
            still = []
            for r in running:
                if (r.poll() if timeout is None else r.stop_late(timeout)) is None:
                    still.append(r)
                    continue
                rec, failure = r.result()
                failure = failure or check(r.point, rec)
                if not failure:
                    cache.put(rec)
                    computed += 1
                    progress.update(done=1)
                else:
                    failures.append(failure)
                    progress.update(done=1, failed=1, force=True)
                    progress.message(failure)
            running = still
            if running:
                time.sleep(0.005 if len(running) < jobs or queue else 0.02)
    finally:
        for r in running:
            r.kill()
        for s, h in old.items():
            signal.signal(s, h)
        progress.finish()
    return computed, failures, stop[0] if stop else None
