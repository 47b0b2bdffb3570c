"""``python -m tictactoe puzzles build|verify|stats``: draw the proven puzzles, prove them again, count them.

    python -m tictactoe puzzles build --size 3x3                      (every 3x3 position)
    python -m tictactoe puzzles build --size 5x5 --k 4 --games 150 --seed 1 --cap 60
    python -m tictactoe puzzles build --size 6x6 --k 4                (the opening book's positions)
    python -m tictactoe puzzles build --size 15x15 --positions bench/data/tactics-15x15k5.jsonl
    python -m tictactoe puzzles verify                                (every shipped file)
    python -m tictactoe puzzles stats                                 (puzzles, and the rule ladder)

``build`` writes ``tictactoe/data/puzzles-<rules>.json.gz`` (or ``--out PATH``);
where its positions come from follows from the board (``puzzle_build``): every
position of 3x3, seeded games of 4x4 and 5x5 with k = 4, the book of 6x6, and
for five in a row the positions of JSON-lines files (a ``position`` or ``id``
field holding a position text, as in ``bench/data``).  Progress goes to
stderr, the summary to stdout.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path
from typing import TextIO

from ..book.lookup import book_for
from ..game.board import Board
from ..game.errors import BoardFormatError, IllegalPositionError
from ..game.rules import Rules
from ..game.version import ENGINE_VERSION
from ..lessons.puzzles import PuzzleFormatError, Task, load_puzzles, puzzle_path, puzzle_set, save_puzzles
from .console import Column, Table, format_seconds
from .options import UsageError, add_size_options, positive_count, rules_from
from .puzzle_build import (
    THREE_BY_THREE,
    Progress,
    every_three_by_three,
    from_book,
    from_games,
    from_threats,
    ladder_agreement,
    proven_values,
    verify,
)

EXIT_PROBLEMS = 1
PROGRESS_EVERY = 2.0  # seconds between progress lines
# The seeded games' boards: k = 4 up to 5x5, where the solver proves a position past the book in a second.
GAME_BOARDS = (Rules(4, 4, 4), Rules(5, 5, 4))
GAME_STONES = range(3, 16)


def add_puzzles_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``puzzles`` command and its ``build``, ``verify`` and ``stats`` subcommands."""
    puzzles = commands.add_parser(
        "puzzles",
        help="draw, verify or count the proven puzzles",
        description="Draw puzzles whose every step has one move that keeps the value, proven by the solver"
        " (or on five in a row by an exhaustive search to the puzzle's horizon); prove them again;"
        " count them.",
    )
    actions = puzzles.add_subparsers(dest="puzzles_command", required=True, metavar="ACTION")
    build = actions.add_parser("build", help="draw the puzzles of one board into tictactoe/data/")
    add_size_options(build)
    build.add_argument(
        "--games", type=positive_count, default=2000, help="seeded games (4x4, 5x5; default 2000)"
    )
    build.add_argument("--seed", type=int, default=1, help="seed of the games (default 1)")
    build.add_argument(
        "--cap", type=positive_count, default=60, help="most puzzles a task (games; default 60)"
    )
    build.add_argument(
        "--positions",
        type=Path,
        nargs="+",
        metavar="FILE",
        help="five in a row: JSON-lines files of positions (a position or id field)",
    )
    build.add_argument("--out", type=Path, metavar="PATH", help="the file (default: tictactoe/data/)")
    check = actions.add_parser("verify", help="prove every step of the shipped puzzles again")
    check.add_argument("--file", type=Path, nargs="+", metavar="PATH", help="these files instead")
    actions.add_parser("stats", help="the puzzles by board and task, and the rule ladder against the solver")


def cmd_puzzles(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Run ``puzzles build``, ``verify`` or ``stats``; 1 when verify finds a problem."""
    if args.puzzles_command == "build":
        return _build(args, out, err)
    if args.puzzles_command == "verify":
        return _verify(args.file, out, err)
    return _stats(out)


def _build(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    rules = rules_from(args)
    start = time.monotonic()
    shown = {"at": -PROGRESS_EVERY}

    def report(progress: Progress) -> None:
        now = time.monotonic() - start
        if now - shown["at"] < PROGRESS_EVERY and progress.tried != progress.total:
            return
        shown["at"] = now
        of = "" if progress.total is None else f"/{progress.total:,}"
        err.write(
            f"puzzles {rules}: {progress.tried:,}{of} positions, {progress.found:,} puzzles;"
            f" {format_seconds(now)}\n"
        )
        err.flush()

    if rules == THREE_BY_THREE:
        puzzles = every_three_by_three(report)
    elif rules in GAME_BOARDS:
        puzzles = from_games(rules, args.games, args.seed, GAME_STONES, args.cap, report)
    elif book_for(rules) is not None:
        puzzles = from_book(rules, report)
    elif rules.k >= 5:
        if not args.positions:
            raise UsageError(f"{rules}: give the positions to start from with --positions FILE")
        puzzles = from_threats(rules, _positions(args.positions, rules), report)
    else:
        raise UsageError(
            f"no puzzles are drawn for {rules}: 3x3, 4x4 and 5x5 k=4, the books' boards, or k >= 5"
        )
    path = args.out or puzzle_path(rules)
    size = save_puzzles(rules, puzzles, path, ENGINE_VERSION)
    tasks = Counter(str(p.task) for p in puzzles)
    out.write(
        f"puzzles {rules}: {len(puzzles):,} ({tasks['win']:,} win, {tasks['draw']:,} draw),"
        f" {size:,} bytes, {path}; {format_seconds(time.monotonic() - start)}\n"
    )
    return 0


def _positions(files: list[Path], rules: Rules) -> list[Board]:
    """The positions of JSON-lines files, once each, in order; ``UsageError`` for a line that is none."""
    boards: dict[str, Board] = {}
    for path in files:
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError as error:
            raise UsageError(f"cannot read {path}: {error.strerror}") from None
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
                board = Board.from_position_text(str(entry.get("position") or entry["id"]), k=rules.k)
            except (
                json.JSONDecodeError,
                KeyError,
                AttributeError,
                BoardFormatError,
                IllegalPositionError,
            ) as error:
                raise UsageError(f"{path}:{number}: not a position of {rules} ({error})") from None
            if board.rules == rules and not board.is_over():
                boards.setdefault(board.position_text(), board)
    return list(boards.values())


def _verify(files: list[Path] | None, out: TextIO, err: TextIO) -> int:
    try:
        sets = [load_puzzles(path) for path in files] if files else [list(puzzle_set())]
    except (OSError, PuzzleFormatError) as error:
        raise UsageError(f"cannot read the puzzles: {error}") from None
    start = time.monotonic()
    checked = failed = 0
    values = {}
    for puzzles in sets:
        for puzzle in puzzles:
            if puzzle.rules not in values:
                values[puzzle.rules] = proven_values(puzzle.rules)
            problems = verify(puzzle, values[puzzle.rules])
            checked += 1
            failed += bool(problems)
            out.writelines(f"PROBLEM {puzzle.id}: {problem}\n" for problem in problems)
            if checked % 50 == 0:
                err.write(f"verify: {checked:,} puzzles; {format_seconds(time.monotonic() - start)}\n")
                err.flush()
    out.write(
        f"{checked:,} puzzles proven again, {failed} with a problem,"
        f" {format_seconds(time.monotonic() - start)}\n"
    )
    return EXIT_PROBLEMS if failed else 0


def _stats(out: TextIO) -> int:
    puzzles = puzzle_set()
    table = Table(
        Column("board", 12, left=True),
        Column("win", 6),
        Column("save the draw", 14),
        Column("moves to find (1/2/3+)", 24),
        Column("difficulty 1-5", 24, left=True),
    )
    out.write(table.header() + "\n")
    for rules in puzzles.rules():
        chosen = [p for p in puzzles if p.rules == rules]
        tasks = Counter(p.task for p in chosen)
        steps = Counter(min(len(p.steps), 3) for p in chosen)
        levels = Counter(p.difficulty for p in chosen)
        out.write(
            table.row(
                rules.label(),
                tasks[Task.WIN],
                tasks[Task.DRAW],
                f"{steps[1]} / {steps[2]} / {steps[3]}",
                " ".join(str(levels[level]) for level in range(1, 6)),
            )
            + "\n"
        )
    out.write(
        table.row(
            "all", sum(p.task == Task.WIN for p in puzzles), sum(p.task == Task.DRAW for p in puzzles), "", ""
        )
        + "\n"
    )
    agreement = ladder_agreement()
    failures = ", ".join(f"{rung} {count}" for rung, count in sorted(agreement.failures.items()))
    out.write(
        f"\nthe rule ladder on every non-terminal 3x3 position ({agreement.positions:,}):"
        f" every move it names keeps the value in {agreement.every:,}"
        f" ({agreement.every / agreement.positions:.1%}), some move it names in {agreement.some:,}"
        f" ({agreement.some / agreement.positions:.1%}); where it fails, by rule: {failures}\n"
        f"the positions not lost with exactly one move that does not lose: {agreement.one_not_losing:,}\n"
    )
    return 0
