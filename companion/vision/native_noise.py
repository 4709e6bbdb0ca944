"""Keeping FFmpeg's and libjpeg's own lines off the terminal.

OpenCV's decoders write straight to the process's standard error ("moov atom not found",
"Premature end of JPEG file"), around Python's ``sys.stderr``: a command's one-line error would
come with a line of another program's. The companion says what is wrong in its own words."""

import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: file descriptor 2 is the whole process's: the first of overlapping uses (threads) silences
#: it and the last puts it back, so it is never left pointing at the null device
_lock = threading.Lock()
_users = 0
_saved: int | None = None


@contextmanager
def native_stderr_silenced() -> Iterator[None]:
    """Send what native code writes to file descriptor 2 to the null device meanwhile."""
    global _users, _saved
    with _lock:
        if _users == 0:
            try:
                sys.stderr.flush()
                saved = os.dup(2)
            except (OSError, ValueError, AttributeError):  # no standard error to guard
                saved = None
            if saved is not None:
                with open(os.devnull, "wb") as null:
                    os.dup2(null.fileno(), 2)
            _saved = saved
        _users += 1
    try:
        yield
    finally:
        with _lock:
            _users -= 1
            if _users == 0 and _saved is not None:
                os.dup2(_saved, 2)
                os.close(_saved)
                _saved = None
