"""errors.py: the runner's one error type.

A StudyError is bad input (a study file, a command line): it prints as
`file:line:col: error: what, why` and the runner exits with status 2, as
the simulator does for its own bad input.
"""


class StudyError(Exception):
    def __init__(self, msg, path=None, line=1, col=1):
        super().__init__(msg)
        self.msg, self.path, self.line, self.col = msg, path, line, col

    def __str__(self):
        if self.path is None:
            return "simt study: error: %s" % self.msg
        return "%s:%d:%d: error: %s" % (self.path, self.line, self.col, self.msg)
