"""Checking a person's progress: which written entries the reading is sure are wrong, which
it is unsure of, and which candidate notes leave out the answer."""

from .judge import (
    DEFAULT_CHECK_CONFIG,
    CheckConfig,
    UnsureEntry,
    answer_rests_on_sure_digits,
    entry_is_sure,
    judge_entries,
    notes_missing_answer,
)

__all__ = [
    "DEFAULT_CHECK_CONFIG",
    "CheckConfig",
    "UnsureEntry",
    "answer_rests_on_sure_digits",
    "entry_is_sure",
    "judge_entries",
    "notes_missing_answer",
]
