"""cache.py: the result cache: one JSON record per point, named by its key
(keys.py), under DIR/<first two hex digits>/<key>.json.

A record is written to a temporary file in the same folder, flushed to
disk and renamed over its name, so a reader (or a study killed at any
instant) sees either no record or a whole one, never a torn one.  Records
are only ever added or replaced, never edited in place; a record that is
not the one its name promises (another key, unreadable) counts as missing.
"""
import json
import os

RECORD_VERSION = 1


def write_atomic(path, data):
    """Writes bytes or text to path via a temporary file and a rename."""
    d = os.path.dirname(path) or "."
    os.makedirs(d, exist_ok=True)
    tmp = os.path.join(d, ".%s.%d.tmp" % (os.path.basename(path), os.getpid()))
    with open(tmp, "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def read_record(path, key=None):
    """The record in path, or None if absent, unreadable, or not for key."""
    try:
        with open(path) as f:
            rec = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(rec, dict) or rec.get("version") != RECORD_VERSION:
        return None
    if key is not None and rec.get("key") != key:
        return None
    if not isinstance(rec.get("output"), str):
        return None
    return rec


class Cache:
    def __init__(self, directory):
        self.dir = directory

    def path(self, key):
        return os.path.join(self.dir, key[:2], key + ".json")

    def get(self, key):
        return read_record(self.path(key), key)

    def put(self, rec):
        write_atomic(self.path(rec["key"]), json.dumps(rec, indent=1, sort_keys=True) + "\n")
