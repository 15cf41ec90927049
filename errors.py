"""The project's exception base class."""


class SudokucamError(Exception):
    """Base class for every error sudokucam raises on purpose."""
