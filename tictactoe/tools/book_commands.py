"""``python -m tictactoe book build|verify``: make an opening book, and check it against the solver.

    python -m tictactoe book build --size 5x5 --k 4 --max-stones 3 --jobs 2
    python -m tictactoe book verify --size 5x5 --k 4 --sample 20 --seed 1
    python -m tictactoe book transpose --size 4x6 --k 4     (writes the 6x4 book from the 4x6 one)

A build writes ``tictactoe/data/book-5x5k4.json.gz`` (or ``--book PATH``) as
it goes; killed and started again, it goes on from its last save.  It proves
the positions games against the engine reach first, then the rest, level by
level (``build_book``).  Progress goes to stderr, the summary to stdout.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import TextIO

from ..book.lookup import Book, BookFormatError, book_path, load_book, save_book
from ..game.rules import Rules
from ..game.version import ENGINE_VERSION
from .book_build import BuildProgress, build_book, transposed_book, verify_book
from .console import format_seconds
from .options import UsageError, add_size_options, positive_count, rules_from

EXIT_MISMATCH = 1
PROGRESS_EVERY = 2.0  # seconds between progress lines


def add_book_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``book`` command and its ``build`` and ``verify`` subcommands."""
    book = commands.add_parser(
        "book",
        help="build or verify an opening book",
        description="Build an opening book of proven positions, or prove its entries again with the solver.",
    )
    actions = book.add_subparsers(dest="book_command", required=True, metavar="ACTION")
    build = actions.add_parser("build", help="prove every position up to a number of stones")
    add_size_options(build)
    build.add_argument(
        "--max-stones",
        type=int,
        required=True,
        metavar="N",
        help="prove every non-terminal position with at most N stones",
    )
    build.add_argument(
        "--jobs",
        type=positive_count,
        default=1,
        metavar="N",
        help="prove N positions at a time in N processes (default 1; the book is the same)",
    )
    verify = actions.add_parser("verify", help="prove book entries again and report mismatches")
    add_size_options(verify)
    verify.add_argument(
        "--sample",
        type=positive_count,
        metavar="N",
        help="check a seeded random sample of N entries (default: all)",
    )
    verify.add_argument("--seed", type=int, default=0, help="seed of the sample (default 0)")
    transpose = actions.add_parser("transpose", help="write the book of the turned board (6x4 from 4x6)")
    add_size_options(transpose)
    for action in (build, verify, transpose):
        action.add_argument(
            "--book",
            type=Path,
            metavar="PATH",
            help="the book file (default: the one shipped in tictactoe/data/)",
        )
    transpose.add_argument(
        "--out", type=Path, metavar="PATH", help="the turned book's file (default: shipped beside the other)"
    )


def cmd_book(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Run ``book build`` or ``book verify``; 1 when verify finds a mismatch."""
    rules = rules_from(args)
    path = args.book or book_path(rules)
    if args.book_command == "build":
        return _build(rules, args.max_stones, path, args.jobs, out, err)
    if args.book_command == "transpose":
        return _transpose(path, args.out, out)
    return _verify(path, args.sample, args.seed, out, err)


def _build(rules: Rules, max_stones: int, path: Path, jobs: int, out: TextIO, err: TextIO) -> int:
    if max_stones < 0:
        raise UsageError(f"--max-stones must be 0 or more, not {max_stones}")
    shown = {"at": -PROGRESS_EVERY}

    def progress(state: BuildProgress) -> None:
        if state.seconds - shown["at"] < PROGRESS_EVERY and state.done < state.total:
            return
        shown["at"] = state.seconds
        err.write(
            f"book {rules}: {_stones(state.stones)}{', positions games reach' if state.games_first else ''},"
            f" {state.done:,}/{state.total:,} positions;"
            f" {state.entries:,} entries; {format_seconds(state.seconds)}\n"
        )
        err.flush()

    start = time.monotonic()
    try:
        book = build_book(rules, max_stones, path, ENGINE_VERSION, progress, jobs=jobs)
    except BookFormatError as error:
        raise UsageError(str(error)) from None
    out.write(
        f"book {rules}: every position up to {_stones(book.max_stones)},"
        f" {len(book.entries):,} entries, {path.stat().st_size:,} bytes, {path};"
        f" this run {format_seconds(time.monotonic() - start)}\n"
    )
    return 0


def _read(path: Path) -> Book:
    try:
        return load_book(path)
    except (OSError, BookFormatError) as error:
        raise UsageError(f"cannot read the book: {error}") from None


def _transpose(path: Path, out_path: Path | None, out: TextIO) -> int:
    turned = transposed_book(_read(path))
    out_path = out_path or book_path(turned.rules)
    size = save_book(turned, out_path)
    out.write(
        f"book {turned.rules}: every position up to {_stones(turned.max_stones)},"
        f" {len(turned.entries):,} entries, {size:,} bytes, {out_path} (turned from {path})\n"
    )
    return 0


def _verify(path: Path, sample: int | None, seed: int, out: TextIO, err: TextIO) -> int:
    book = _read(path)

    def progress(done: int, total: int) -> None:
        err.write(f"verify {book.rules}: {done:,}/{total:,}\n")
        err.flush()

    start = time.monotonic()
    checked, mismatches = verify_book(book, sample, seed, progress)
    out.writelines(
        f"MISMATCH {mismatch.key}: book {mismatch.book}, solver {mismatch.solver}\n"
        for mismatch in mismatches
    )
    which = "all" if sample is None or checked == len(book.entries) else f"a sample (seed {seed}) of"
    out.write(
        f"book {book.rules} (engine {book.engine}, up to {_stones(book.max_stones)}):"
        f" {which} {checked:,} of {len(book.entries):,} entries proven again,"
        f" {len(mismatches)} mismatches, {format_seconds(time.monotonic() - start)}\n"
    )
    return EXIT_MISMATCH if mismatches else 0


def _stones(count: int) -> str:
    """``count`` stones in words: "1 stone", "3 stones"."""
    return f"{count} stone" if count == 1 else f"{count} stones"
