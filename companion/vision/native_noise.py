"""Keeping FFmpeg's and libjpeg's own lines off the terminal.

OpenCV's decoders write straight to the process's standard error ("moov atom not found",
"Premature end of JPEG file"), around Python's ``sys.stderr``: a command's one-line error would
come with a line of another program's. The companion says what is wrong in its own words."""

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def native_stderr_silenced() -> Iterator[None]:
    """Send what native code writes to file descriptor 2 to the null device meanwhile."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError, AttributeError):  # no standard error to guard
        yield
        return
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
