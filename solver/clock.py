"""The search's clock: a node counter that looks at the time now and then."""

from __future__ import annotations

import time

from .errors import SearchTimeoutError

# Search nodes between two looks at the clock: a 9×9 node takes about 50 µs, a 25×25
# probing step a few ms, so a deadline is noticed within ~1 ms (9×9) to ~0.1 s (25×25).
CHECK_EVERY = 16


class Clock:
    """Counts a search's nodes and looks at the time every CHECK_EVERY of them.

    deadline: a `time.monotonic()` time, or None for a search without a time limit.
    The search decrements `left` at each node and calls `check` when it reaches zero.
    """

    __slots__ = ("deadline", "left")

    def __init__(self, deadline: float | None = None) -> None:
        """A clock for one search; its first look comes after CHECK_EVERY nodes."""
        self.deadline = deadline
        self.left = CHECK_EVERY

    def check(self) -> None:
        """Raise SearchTimeoutError when the deadline has passed; else count anew."""
        self.left = CHECK_EVERY
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise SearchTimeoutError
