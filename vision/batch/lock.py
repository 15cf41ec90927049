"""One batch at a time per output folder: an advisory lock on ``OUT/.batch/lock``.

Two batches writing the same folder would read the same pages twice and rebuild
results.jsonl over each other. The second one is refused with the first one's process
id. The lock is the kernel's (``flock``), so it goes with the process that holds it, even
one killed with SIGKILL: a killed batch never leaves a stale lock that blocks the resume.
Where ``fcntl`` does not exist (Windows), batches are not locked.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from ...errors import SudokucamError
from ...files import NO_FOLLOW
from ...files import write_error as store_error
from .store import refuse_link

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

LOCK_NAME = Path(".batch") / "lock"


class BatchLockedError(SudokucamError):
    """Another batch is writing to the same output folder."""


@contextmanager
def batch_lock(out: Path) -> Iterator[None]:
    """Hold the output folder's lock while the block runs; raise BatchLockedError if taken."""
    path = Path(out) / LOCK_NAME
    refuse_link(path.parent)
    path.parent.mkdir(parents=True, exist_ok=True)
    refuse_link(path)
    try:  # O_NOFOLLOW: a link planted there between the look and the open is not followed
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | NO_FOLLOW, 0o644)
    except OSError as error:
        raise store_error(path, error) from error
    with os.fdopen(descriptor, "r+", encoding="utf-8") as handle:
        if fcntl is not None:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                handle.seek(0)
                holder = handle.read().strip() or "unknown"
                raise BatchLockedError(
                    f"another sudokucam batch (process {holder}) is writing to {out}; "
                    "wait for it to finish or choose another --out"
                ) from None
        _note_holder(handle, path)
        yield


def _note_holder(handle: IO[str], path: Path) -> None:
    """Write this process's id into the held lock file (a full disk: OutOfSpaceError)."""
    try:
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
    except OSError as error:
        raise store_error(path, error) from error
