"""The click classes behind every `sudokucam` command: plain help, one-line usage errors.

Help has the plain layout of git, ruff or uv rather than Typer's rich panels: the usage
line names the arguments (`PHOTO...`), every paragraph is re-flowed to the terminal (at
most 80 columns) so that no paragraph ends in a lone word, options that take a value
name it (`--max-grids N`) and flags show nothing after their name. Help and errors are
never coloured; under NO_COLOR the root context also turns colour off for anything else
echoed (Typer's completion messages). A usage error that click finds
(a missing option, an unknown flag, a bad number) is one "error: ..." line with exit
status 2, like the commands' own refusals. Every command also takes the root's
`--quiet`, so `sudokucam -q solve ...` and `sudokucam solve -q ...` mean the same.

Built on Typer 0.29, which carries its own copy of click (`typer._click`).
"""

from __future__ import annotations

import inspect
import re
import textwrap
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import IO, Any

from typer._click.core import Context, Parameter
from typer._click.exceptions import NoArgsIsHelpError, UsageError
from typer._click.formatting import HelpFormatter
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from .common import error_line, no_color

WIDOW_SHRINK = 4  # a paragraph may wrap up to a quarter narrower to end on two words or more
COLUMN_MAX = 24  # widest name column; a longer name puts its help on the next line
COLUMN_GAP = 2  # spaces between a name and its help
MIN_TEXT_WIDTH = 30  # help text never wraps narrower than this, however narrow the terminal
SHARED_ROOT_OPTIONS = ("quiet",)  # root options every command accepts as well
NBSP = "\u00a0"  # joins words that must stay on one line (textwrap breaks only at ASCII spaces)
# "[default: 1]" and short quoted phrases ('Extremely Difficult') are never split
_UNBREAKABLE = re.compile(r"\[[^\[\]]*\]|(?<!\w)'[^'\s][^']{0,30}'(?!\w)")


def _wrap(text: str, width: int) -> list[str]:
    """Greedy wrap that never breaks a word or an option name at a hyphen."""
    return textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)


def wrap_paragraph(text: str, width: int) -> list[str]:
    """One paragraph in lines of at most ``width``; narrower if that spares a lone last word.

    A bracketed note ("[default: 1]") or a short quoted phrase is never split across lines.
    """
    text = _UNBREAKABLE.sub(lambda m: m.group(0).replace(" ", NBSP), text)
    lines = _wrap(text, width)
    narrower = width
    while len(lines) > 1 and " " not in lines[-1] and narrower > width - width // WIDOW_SHRINK:
        narrower -= 1
        candidate = _wrap(text, narrower)
        if " " in candidate[-1]:
            lines = candidate
            break
    return [line.replace(NBSP, " ") for line in lines]


def flow(text: str, width: int) -> list[str]:
    """Paragraphs (split at blank lines) re-flowed to ``width``, a blank line between them."""
    lines: list[str] = []
    for paragraph in inspect.cleandoc(text).partition("\f")[0].split("\n\n"):
        if paragraph.strip():
            lines.extend([""] if lines else [])
            lines.extend(wrap_paragraph(paragraph, width))
    return lines


def write_text(formatter: HelpFormatter, text: str) -> None:
    """Write re-flowed paragraphs at the formatter's indentation."""
    indent = formatter.current_indent
    for line in flow(text, max(formatter.width - indent, MIN_TEXT_WIDTH)):
        formatter.write(f"{' ' * indent}{line}\n" if line else "\n")


def write_rows(formatter: HelpFormatter, rows: Sequence[tuple[str, str]]) -> None:
    """A definition list: names in one column, their help re-flowed beside them."""
    if not rows:
        return
    indent = formatter.current_indent
    column = min(max(len(name) for name, _ in rows), COLUMN_MAX) + COLUMN_GAP
    pad = " " * (indent + column)
    for name, help_text in rows:
        lines = flow(help_text, max(formatter.width - indent - column, MIN_TEXT_WIDTH))
        head = " " * indent + name
        if not lines:
            formatter.write(f"{head}\n")
            continue
        if len(name) + COLUMN_GAP > column:
            formatter.write(f"{head}\n")
            head = ""
        formatter.write(f"{head.ljust(indent + column)}{lines[0]}\n")
        for line in lines[1:]:
            formatter.write(f"{pad}{line}\n" if line else "\n")


def argument_name(param: Parameter) -> str:
    """An argument as help shows it: its metavar (or NAME), with ... when it takes many."""
    name = param.metavar or (param.name or "arg").upper()
    return name if param.nargs == 1 or name.endswith("...") else f"{name}..."


def usage_piece(param: Parameter) -> str:
    """An argument in the usage line: NAME, NAME... or [NAME] when it may be left out."""
    name = argument_name(param)
    return name if param.required else f"[{name}]"


def option_record(param: TyperOption) -> tuple[str, str] | None:
    """An option as help shows it: `-o, --output FILE` (flags bare) and its help, default."""
    if param.hidden:
        return None
    names = ", ".join(sorted([*param.opts, *param.secondary_opts], key=lambda o: o[:2] == "--"))
    if not param.is_flag:
        names += f" {param.metavar or (param.name or 'value').upper()}"
    notes = []
    if param.required:
        notes.append("required")
    elif param.show_default and not param.is_flag and param.default is not None:
        notes.append(f"default: {param.default}")
    help_text = param.help or ""
    return names, f"{help_text}  [{'; '.join(notes)}]" if notes else help_text


def format_params(formatter: HelpFormatter, params: Sequence[Parameter]) -> None:
    """The Arguments and Options sections."""
    arguments = [(argument_name(p), p.help or "") for p in params if isinstance(p, TyperArgument)]
    options = [
        record
        for p in params
        if isinstance(p, TyperOption) and (record := option_record(p)) is not None
    ]
    for title, rows in (("Arguments", arguments), ("Options", options)):
        if rows:
            with formatter.section(title):
                write_rows(formatter, rows)


class OneLineUsageError(UsageError):
    """A click usage error shown as one "error: ..." line on stderr (exit status 2)."""

    def show(self, file: IO[Any] | None = None) -> None:
        """Print the message and where to find help, on one line."""
        message = self.format_message().rstrip(".")
        if message[:1].isupper() and message[1:2].islower():
            message = message[0].lower() + message[1:]
        where = f" (see '{self.ctx.command_path} --help')" if self.ctx is not None else ""
        error_line(f"{message}{where}")


@contextmanager
def one_line_usage_errors() -> Iterator[None]:
    """Turn click's usage errors (not the no-arguments help) into `OneLineUsageError`."""
    try:
        yield
    except (NoArgsIsHelpError, OneLineUsageError):
        raise
    except UsageError as error:
        raise OneLineUsageError(error.format_message(), error.ctx) from None


def write_description(command: TyperCommand | TyperGroup, formatter: HelpFormatter) -> None:
    """A command's docstring, re-flowed, below the usage line."""
    if command.help:
        formatter.write_paragraph()
        with formatter.indentation():
            write_text(formatter, command.help)


class Command(TyperCommand):
    """A sudokucam command: plain help (see the module docstring)."""

    def collect_usage_pieces(self, ctx: Context) -> list[str]:
        """[OPTIONS] and the arguments by name: `[OPTIONS] PHOTO...`."""
        pieces = [usage_piece(p) for p in self.get_params(ctx) if isinstance(p, TyperArgument)]
        return [self.options_metavar, *pieces] if self.options_metavar else pieces

    def format_help_text(self, ctx: Context, formatter: HelpFormatter) -> None:
        """The docstring, re-flowed."""
        write_description(self, formatter)

    def format_options(self, ctx: Context, formatter: HelpFormatter) -> None:
        """Arguments, then options."""
        format_params(formatter, self.get_params(ctx))


class Group(TyperGroup):
    """The `sudokucam` app: plain help, one-line usage errors, options shared with commands."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        shared = [p for p in self.params if p.name in SHARED_ROOT_OPTIONS]
        for command in self.commands.values():
            command.params.extend(p for p in shared if p not in command.params)

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: Context | None = None,
        **extra: Any,
    ) -> Context:
        """The root context (colour off under NO_COLOR, inherited by every command)."""
        if no_color():
            extra.setdefault("color", False)
        with one_line_usage_errors():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: Context) -> Any:
        """Run the command; a usage error found on the way (bad flag, value) is one line."""
        with one_line_usage_errors():
            return super().invoke(ctx)

    def format_help_text(self, ctx: Context, formatter: HelpFormatter) -> None:
        """The app's description, re-flowed."""
        write_description(self, formatter)

    def format_options(self, ctx: Context, formatter: HelpFormatter) -> None:
        """Options, then every command with its first sentence (never cut short)."""
        format_params(formatter, self.get_params(ctx))
        rows = [
            (name, command.get_short_help_str(limit=formatter.width * 2))
            for name, command in self.commands.items()
            if not command.hidden
        ]
        with formatter.section("Commands"):
            write_rows(formatter, rows)
