"""Writing a file whole or not at all: what the batch and the command line write.

A write goes to a temporary file beside the target (created afresh, never through a link
left there), is flushed to disk, then renamed over the target: a reader sees the old file
or the whole new one, and a full disk leaves the old one as it was.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from .errors import SudokucamError

NO_SPACE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})  # disk full, quota exceeded
NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)  # open a file, never what a link there points to


class WriteError(SudokucamError):
    """A file could not be written; ``path`` names it."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{reason} writing {path}")
        self.path = path
        self.reason = reason


class OutOfSpaceError(WriteError):
    """The disk (or the person's quota) is full."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, "no space left on device")


def write_error(path: Path, error: OSError) -> WriteError:
    """The error to raise for a system refusal to write ``path``."""
    if error.errno in NO_SPACE_ERRNOS:
        return OutOfSpaceError(path)
    return WriteError(path, error.strerror or str(error))


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the whole new one.

    When the write fails (a full disk, an interrupt) the temporary file is removed and
    ``path`` keeps its old content; a full disk raises OutOfSpaceError, any other system
    refusal WriteError.
    """
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.unlink(missing_ok=True)  # a leftover (or a planted link) is never followed
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NO_FOLLOW, 0o644)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException as error:
        temporary.unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise write_error(path, error) from error
        raise
