"""progress.py: the progress line of a running study.

  [ 37/200] 2 failed, elapsed 0:12, about 0:52 left

On a terminal the line is redrawn in place (at most ten times a second);
elsewhere (a log, CI) a line is printed every 5 seconds, less often as the
study goes on (a tenth of the time elapsed, at most a minute apart), and
at the end, so a log of a long study shows progress without thousands of
lines.  The estimate is
the mean time per finished point so far times the points left, divided by
nothing more: points run in parallel, and the mean over finished points
already reflects that.
"""
import sys
import time


def clock(seconds):
    s = int(seconds + 0.5)
    return "%d:%02d:%02d" % (s // 3600, s // 60 % 60, s % 60) if s >= 3600 else \
        "%d:%02d" % (s // 60, s % 60)


class Progress:
    def __init__(self, total, stream=None):
        self.total, self.done, self.failed = total, 0, 0
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.t0 = time.monotonic()
        self.last = -1e9

    def line(self):
        el = time.monotonic() - self.t0
        w = len(str(self.total))
        text = "[%*d/%d] %d failed, elapsed %s" % (w, self.done, self.total, self.failed,
                                                   clock(el))
        if 0 < self.done < self.total:
            text += ", about %s left" % clock(el / self.done * (self.total - self.done))
        return text

    def update(self, done=0, failed=0, force=False):
        self.done += done
        self.failed += failed
        now = time.monotonic()
        gap = 0.1 if self.tty else min(60.0, max(5.0, (now - self.t0) / 10))
        if not force and now - self.last < gap:
            return
        self.last = now
        if self.tty:
            self.stream.write("\r\033[K" + self.line())
        else:
            self.stream.write(self.line() + "\n")
        self.stream.flush()

    def message(self, text):
        """A message (a failure report) above the progress line."""
        if self.tty:
            self.stream.write("\r\033[K")
        self.stream.write(text if text.endswith("\n") else text + "\n")
        self.update(force=True)

    def finish(self):
        self.update(force=True)
        if self.tty:
            self.stream.write("\n")
        self.stream.flush()
