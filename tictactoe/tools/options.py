"""The command line's shared options: board size, k, seed and budget, and the types that read them.

The ``python -m tictactoe`` commands (``cli``) and the book commands
(``book_commands``) both take them, so both import them from here and
neither imports the other back.
"""

from __future__ import annotations

import argparse
import re

from ..game.errors import BoardFormatError
from ..game.rules import Rules
from ..search.analysis import DEFAULT_BUDGET

K_HELP = "stones in a row to win (default: 3 on 3x3, else the smallest of rows, cols and 5)"


class UsageError(Exception):
    """The user's input (a board, a size, an option) cannot be used; the message says why."""


def parse_size(text: str) -> tuple[int, int]:
    """``RxC`` (``3x4``) as (rows, cols), for argparse; raises ``ArgumentTypeError``."""
    match = re.fullmatch(r"\s*(\d+)\s*[xX*]\s*(\d+)\s*", text)
    if not match:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size: write rows x cols, like 3x4")
    return int(match[1]), int(match[2])


def positive_seconds(text: str) -> float:
    """A budget in seconds, for argparse; raises ``ArgumentTypeError`` unless it is > 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"the budget must be more than 0 seconds, not {text}")
    return value


def positive_count(text: str) -> int:
    """A whole number of at least 1, for argparse; raises ``ArgumentTypeError`` otherwise."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def rules_from(args: argparse.Namespace) -> Rules:
    """The rules from ``--size``/``--rows``/``--cols``/``--k``; raises ``UsageError``."""
    size_rows, size_cols = args.size or (None, None)
    for name, given, from_size in (("rows", args.rows, size_rows), ("cols", args.cols, size_cols)):
        if given is not None and from_size is not None and given != from_size:
            raise UsageError(f"--size {size_rows}x{size_cols} and --{name} {given} disagree")
    rows = _first_given(args.rows, size_rows, default=3)
    cols = _first_given(args.cols, size_cols, default=3)
    try:
        k = args.k if args.k is not None else Rules.default_k(rows, cols)
        return Rules(rows, cols, k)
    except BoardFormatError as error:
        raise UsageError(str(error)) from None


def _first_given(*values: int | None, default: int) -> int:
    return next((value for value in values if value is not None), default)


def add_size_options(parser: argparse.ArgumentParser) -> None:
    """--size RxC, --rows, --cols and --k (default 3x3; k from ``Rules.default_k``)."""
    parser.add_argument("--size", type=parse_size, metavar="RxC", help="board size, like 3x4")
    parser.add_argument("--rows", type=int, help="number of rows (default 3)")
    parser.add_argument("--cols", type=int, help="number of columns (default 3)")
    parser.add_argument("--k", type=int, help=K_HELP)


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """--seed and --budget, for the commands where the engine plays."""
    parser.add_argument("--seed", type=int, help="seed for the engine's random choices")
    parser.add_argument(
        "--budget",
        type=positive_seconds,
        default=DEFAULT_BUDGET,
        help=f"seconds the engine may think per move (default {DEFAULT_BUDGET})",
    )


__all__ = [
    "K_HELP",
    "UsageError",
    "add_game_options",
    "add_size_options",
    "parse_size",
    "positive_count",
    "positive_seconds",
    "rules_from",
]
