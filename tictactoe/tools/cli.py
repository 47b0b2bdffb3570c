"""The command line: play, watch, solve, count and benchmark m,n,k-games in a terminal.

    python -m tictactoe play --size 3x3 --side x --level perfect
    python -m tictactoe selfplay --size 4x4 --k 3 --seed 1
    python -m tictactoe solve x.. .o. ...        (or one argument: x../.o./... or x2/1o1/3)
    python -m tictactoe stats
    python -m tictactoe bench --quick
    python -m tictactoe arena mcts easy --games 20 --seed 1
    python -m tictactoe book build --size 5x5 --k 4 --max-stones 2
    python -m tictactoe puzzles build --size 3x3
    python -m tictactoe table > static/data/solved-3x3k3.json

Cells are shown and read the way people name them: the column as a letter and
the row as a number counted from 1 at the top (``b2``; ``a1`` is the top-left
cell), or ``row col`` counted from 1.  The API counts rows and columns from 0,
so the CLI's ``b2`` is the API's row 1, col 1 (see ``tictactoe.tools.console``)::

        a b c
     1  x . .       x is on a1 = "1 1" (API row 0, col 0); o is on b2 = "2 2"
     2  . o .
     3  . . .

Every function that writes takes the stream to write to, so tests capture
them; ``main(argv)`` returns the exit status (2 for bad input, never a traceback).
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections.abc import Callable, Sequence
from contextlib import redirect_stderr, redirect_stdout
from typing import TextIO

from ..algorithms import UnknownEngineError
from ..algorithms.registry import describe_levels, player_names
from ..game.board import Board
from ..game.errors import BoardFormatError, IllegalPositionError
from ..game.notation import COLUMN_LETTERS, ROW_SEPARATOR
from ..game.rules import Cell
from ..game.version import ENGINE_VERSION
from ..search.analysis import analyse
from ..search.levels import DEFAULT_LEVEL, LEVELS, Decision, choose_move
from ..search.solver import Solver, SolveResult
from .arena import Game, Match, play_match
from .bench import run_bench
from .book_commands import add_book_parser, cmd_book
from .console import (
    COORDINATES_NOTE,
    VALUE_LETTERS,
    Column,
    ProgressLine,
    Table,
    describe_cell,
    draw_board,
    outcome_text,
    plies_text,
    search_text,
    value_text,
)
from .counting import (
    PositionCounts,
    count_games,
    count_games_up_to_symmetry,
    count_positions,
    game_tree_nodes,
)
from .options import (
    K_HELP,
    UsageError,
    add_game_options,
    add_size_options,
    positive_count,
    positive_seconds,
    rules_from,
)
from .puzzle_commands import add_puzzles_parser, cmd_puzzles
from .solved_table import table_json

EXIT_OK = 0
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130  # the shell's convention for a SIGINT
QUIT_WORDS = ("q", "quit", "exit")


# -- reading cells, boards and options --------------------------------------------


def parse_move(text: str, board: Board) -> Cell:
    """The empty cell named by ``text`` (``2 3`` row and column from 1, or ``c2``).

    Raises ``ValueError`` with a reason a player can act on: not a move, off
    the board, or taken.
    """
    rules = board.rules
    words = text.strip().lower()
    numbers = re.fullmatch(r"(\d+)\s*[ ,]\s*(\d+)", words)
    lettered = re.fullmatch(r"([a-z])\s*(\d+)", words)
    if numbers:
        row, col, col_name = int(numbers[1]), int(numbers[2]), numbers[2]
    elif lettered:
        # A letter past the board's last column (or past 'o') is off the board below.
        col, row, col_name = COLUMN_LETTERS.find(lettered[1]) + 1, int(lettered[2]), lettered[1]
    else:
        raise ValueError(
            f"{text.strip()!r} is not a move: type the row and column counted"
            f" from 1 (like '2 3') or a cell like 'c2'"
        )
    if not 1 <= row <= rules.rows:
        raise ValueError(f"row {row} is off the board: rows go from 1 to {rules.rows}")
    if not 1 <= col <= rules.cols:
        raise ValueError(
            f"column {col_name} is off the board: columns go from 1 to {rules.cols}"
            f" (a to {COLUMN_LETTERS[rules.cols - 1]})"
        )
    cell = rules.cell(row - 1, col - 1)
    if not board.empty & board.geometry.bits[cell]:
        raise ValueError(f"{describe_cell(rules, cell)} is taken")
    return cell


def parse_board(rows: Sequence[str], k: int | None) -> Board:
    """The board in any notation the API reads: row arguments (``x.. .o. ...``) or one position text.

    One argument is a position text as ``GET /position`` takes it, rows joined
    by ``/`` with runs of empty cells written out or as numbers (``x../.o./...``
    or ``x2/1o1/3``); several arguments are its rows.  Raises ``UsageError``
    with the engine's reason when it is not a legal board.
    """
    try:
        return Board.from_position_text(ROW_SEPARATOR.join(rows), k=k)
    except (BoardFormatError, IllegalPositionError) as error:
        raise UsageError(f"bad board: {error}") from None


# -- play ------------------------------------------------------------------------------


def ask_move(board: Board, inp: TextIO, out: TextIO) -> Cell | None:
    """Prompt until a legal move is typed; None at the end of input or on ``quit``."""
    mover = board.to_move
    while True:
        out.write(f"your move ({mover}) - row col from 1, or a cell like b2: ")
        out.flush()
        line = inp.readline()
        if not line:
            out.write("\n")
            return None
        if line.strip().lower() in QUIT_WORDS:
            return None
        try:
            return parse_move(line, board)
        except ValueError as reason:
            out.write(f"  {reason}; try again\n")


def cmd_play(args: argparse.Namespace, inp: TextIO, out: TextIO) -> int:
    """A game between a person typing moves on ``inp`` and the engine."""
    rules = rules_from(args)
    board = Board(rules)
    rng = random.Random(args.seed)
    solver = Solver(rules)
    human = args.side
    out.write(
        f"{rules}, {args.level} engine. You play {human}; x moves first."
        f" Type 'quit' or press Ctrl-D to stop.\ncells: {COORDINATES_NOTE}\n"
    )
    while not board.is_over():
        out.write("\n" + draw_board(board) + "\n")
        if board.to_move == human:
            cell = ask_move(board, inp, out)
            if cell is None:
                out.write("game abandoned: no more moves were given\n")
                return EXIT_OK
        else:
            cell = choose_move(board, args.level, rng, args.budget, solver).move
            out.write(f"engine ({board.to_move}) plays {describe_cell(rules, cell)}\n")
        board.play(cell)
    outcome = board.outcome()
    assert outcome is not None, "the loop plays until the game is over"
    winner = outcome.winner
    verdict = "" if winner is None else " - you win!" if winner == human else " - the engine wins"
    out.write("\n" + draw_board(board) + "\n" + outcome_text(board) + verdict + "\n")
    return EXIT_OK


# -- selfplay ----------------------------------------------------------------------------


def decision_text(decision: Decision[SolveResult]) -> str:
    """What a level's search found, or that it did not search."""
    if decision.result is None:
        return "no search"
    return f"{value_text(decision.result)}; {search_text(decision.result)}"


def cmd_selfplay(args: argparse.Namespace, out: TextIO) -> int:
    """The engine plays both sides, printing every move, its analysis and the board."""
    rules = rules_from(args)
    board = Board(rules)
    rng = random.Random(args.seed)
    levels = {"x": args.x_level, "o": args.o_level}
    solvers = {side: Solver(rules) for side in levels}  # each side keeps its own table
    out.write(f"{rules}: x plays {levels['x']}, o plays {levels['o']}\ncells: {COORDINATES_NOTE}\n")
    while not board.is_over():
        mover = board.to_move
        decision = choose_move(board, levels[mover], rng, args.budget, solvers[mover])
        board.play(decision.move)
        out.write(
            f"\nply {board.stones}: {mover} plays {describe_cell(rules, decision.move)}"
            f" ({levels[mover]}: {decision_text(decision)})\n"
        )
        out.write(draw_board(board) + "\n")
    out.write("\n" + outcome_text(board) + "\n")
    return EXIT_OK


# -- solve -------------------------------------------------------------------------------


def cmd_solve(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Solve a position given on the command line and print its value and best moves."""
    board = parse_board(args.board, args.k)
    rules = board.rules
    status = "game over" if board.is_over() else f"{board.to_move} to move"
    out.write(f"{rules}, {status}\n{draw_board(board)}\ncells: {COORDINATES_NOTE}\n")
    if board.is_over():
        out.write(f"the game is over: {outcome_text(board)}\n")
        return EXIT_OK
    progress = ProgressLine(err, "solving")
    try:
        result = analyse(board, budget=args.budget, all_moves=args.all, progress=progress)
    finally:
        progress.finish()
    mover = board.to_move
    if result.proven and result.plies is not None:
        out.write(f"value for {mover}: {result.value} in {plies_text(result.plies)} (proven)\n")
        label = "best moves"
    else:
        out.write(f"value for {mover}: unknown (depth {result.depth}, not proven within {args.budget} s)\n")
        label = "best move found"
    moves = ", ".join(describe_cell(rules, cell) for cell in result.best_moves)
    out.write(f"{label}: {moves}\n{search_text(result)}\n")
    if args.all:
        write_move_values(board, result, out)
    return EXIT_OK


def write_move_values(board: Board, result: SolveResult, out: TextIO) -> None:
    """Every legal move's value and plies, as a grid and as a list."""
    if not result.move_values:
        out.write("no move values: the position was not proven within the budget\n")
        return
    rules = board.rules
    marks = {cell: f"{VALUE_LETTERS[mv.value]}{mv.plies}" for cell, mv in result.move_values.items()}
    out.write(
        f"\nevery move for {board.to_move} (W win, D draw, L loss;"
        f" the number is plies to the end):\n{draw_board(board, marks)}\n\n"
    )
    for cell, move_value in result.move_values.items():
        out.write(f"  {describe_cell(rules, cell)}: {move_value.value} in {plies_text(move_value.plies)}\n")


# -- stats -----------------------------------------------------------------------------


def cmd_stats(args: argparse.Namespace, out: TextIO) -> int:
    """Print the exhaustive counts of positions and games for a small board."""
    rules = rules_from(args)
    try:
        games = count_games(rules)
    except ValueError as error:
        raise UsageError(str(error)) from None
    positions, classes = count_positions(rules), count_positions(rules, up_to_symmetry=True)
    out.write(f"{rules}, counted by exhaustive enumeration\n\n")

    summary = Table(Column("games", 32, left=True), Column("", 12))
    for name, value in (
        ("complete games", games.total),
        ("  x wins", games.ends.x_wins),
        ("  o wins", games.ends.o_wins),
        ("  draws", games.ends.draws),
        ("games up to symmetry", count_games_up_to_symmetry(rules)),
        ("game tree nodes, root included", game_tree_nodes(rules)),
    ):
        out.write(summary.row(name, value) + "\n")

    by_length = Table(
        Column("ends at ply", 11),
        Column("x wins", 12),
        Column("o wins", 12),
        Column("draws", 12),
        Column("total", 12),
    )
    out.write("\n" + by_length.header() + "\n")
    for ply, tally in enumerate(games.by_ply):
        if tally.total:
            out.write(by_length.row(ply, tally.x_wins, tally.o_wins, tally.draws, tally.total) + "\n")

    table = Table(Column("positions", 16, left=True), Column("all", 10), Column("up to symmetry", 15))
    out.write("\n" + table.header() + "\n")
    for ply, (count, class_count) in enumerate(zip(positions.by_ply, classes.by_ply, strict=False)):
        out.write(table.row(f"  {ply} stones", count, class_count) + "\n")
    fields: tuple[tuple[str, Callable[[PositionCounts], int]], ...] = (
        ("total", lambda p: p.total),
        ("terminal", lambda p: p.terminal.total),
        ("  x won", lambda p: p.terminal.x_wins),
        ("  o won", lambda p: p.terminal.o_wins),
        ("  drawn", lambda p: p.terminal.draws),
        ("non-terminal", lambda p: p.nonterminal),
    )
    for name, field in fields:
        out.write(table.row(name, field(positions), field(classes)) + "\n")
    return EXIT_OK


# -- bench -----------------------------------------------------------------------------


def cmd_bench(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Run the benchmark rows (see ``tictactoe.tools.bench``)."""
    try:
        run_bench(out, err, quick=args.quick, only=args.only)
    except ValueError as error:
        raise UsageError(str(error)) from None
    return EXIT_OK


# -- arena -------------------------------------------------------------------------------


def player_labels(match: Match) -> tuple[str, str]:
    """The two players' names, marked (A) and (B) when a player meets itself."""
    a, b = (standing.name for standing in match.standings)
    return (f"{a} (A)", f"{b} (B)") if a == b else (a, b)


def game_text(game: Game, match: Match) -> str:
    """One finished game in a line: ``game 3/10: x mcts, o easy: x (mcts) wins in 7 plies``."""
    labels = player_labels(match)
    x_name, o_name = labels[game.x_player], labels[1 - game.x_player]
    if game.winner is None:
        ending = f"draw in {plies_text(len(game.moves))}"
    else:
        side = "x" if game.winner == game.x_player else "o"
        ending = f"{side} ({labels[game.winner]}) wins in {plies_text(len(game.moves))}"
    return f"game {game.number}/{match.planned}: x {x_name}, o {o_name}: {ending}"


def cmd_arena(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Play a match between two engines (or levels) and print each one's wins, draws and losses."""
    rules = rules_from(args)

    def progress(game: Game, match: Match) -> None:
        err.write(game_text(game, match) + "\n")
        err.flush()

    try:
        match = play_match(
            args.engine_a,
            args.engine_b,
            args.games,
            rules,
            seed=args.seed,
            budget=args.budget,
            progress=progress,
        )
    except UnknownEngineError as error:
        raise UsageError(str(error)) from None
    labels = player_labels(match)
    seed = "no seed" if args.seed is None else f"seed {args.seed}"
    out.write(
        f"{labels[0]} against {labels[1]}: {rules}, {args.games} games, {seed},"
        f" budget {args.budget} s a move; {labels[0]} is x in the odd-numbered games\n\n"
    )
    table = Table(
        Column("player", max(len(label) for label in (*labels, "player")), left=True),
        Column("wins", 6),
        Column("draws", 6),
        Column("losses", 6),
        Column("nodes a move", 13),
        Column("ms a move", 10),
        Column("stopped at the deadline", 24),
    )
    out.write(table.header() + "\n")
    for label, standing in zip(labels, match.standings, strict=False):
        moves = max(standing.moves, 1)
        out.write(
            table.row(
                label,
                standing.wins,
                standing.draws,
                standing.losses,
                round(standing.nodes / moves),
                f"{standing.seconds / moves * 1000:.1f}",
                standing.stopped,
            )
            + "\n"
        )
    return EXIT_OK


def cmd_table(out: TextIO) -> int:
    """Print the table of every 3x3 position's value (``solved_table.table_json``)."""
    out.write(table_json())
    return EXIT_OK


# -- the parser and main -----------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``python -m tictactoe`` and its subcommands."""
    parser = argparse.ArgumentParser(
        prog="python -m tictactoe",
        description=f"A perfect m,n,k-game engine (tic-tac-toe and bigger), version {ENGINE_VERSION}.",
        epilog=f"Coordinates: {COORDINATES_NOTE}.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    play = commands.add_parser(
        "play",
        help="play a game against the engine",
        description="Play a game against the engine: type a move as a cell like b2 or as 'row col' (2 2).",
        epilog=f"Coordinates: {COORDINATES_NOTE}.",
    )
    add_size_options(play)
    play.add_argument("--side", choices=("x", "o"), default="x", help="your side (x moves first)")
    play.add_argument(
        "--level", choices=LEVELS, default=DEFAULT_LEVEL, help=f"the engine's level: {_levels_help()}"
    )
    add_game_options(play)

    selfplay = commands.add_parser(
        "selfplay", help="watch the engine play itself", epilog=f"Coordinates: {COORDINATES_NOTE}."
    )
    add_size_options(selfplay)
    selfplay.add_argument(
        "--x-level", choices=LEVELS, default=DEFAULT_LEVEL, help=f"x's level (default {DEFAULT_LEVEL})"
    )
    selfplay.add_argument(
        "--o-level", choices=LEVELS, default=DEFAULT_LEVEL, help=f"o's level: {_levels_help()}"
    )
    add_game_options(selfplay)

    solve = commands.add_parser(
        "solve",
        help="solve a position",
        description="Solve a position given as rows (x.. .o. ...) or as one position text,"
        " as the API reads it (x../.o./... or x2/1o1/3); the board's size is the rows' size.",
        epilog=f"Coordinates: {COORDINATES_NOTE}.",
    )
    solve.add_argument("board", nargs="+", help="the rows, top first: x, o and . for empty")
    solve.add_argument("--k", type=int, help=K_HELP)
    solve.add_argument("--all", action="store_true", help="the value of every legal move too")
    solve.add_argument(
        "--budget", type=positive_seconds, help="give up proving after this many seconds (default: no limit)"
    )

    stats = commands.add_parser("stats", help="exhaustive counts of positions and games")
    add_size_options(stats)

    bench = commands.add_parser("bench", help="time the solver on a set of positions")
    bench.add_argument("--quick", action="store_true", help="skip the slow rows")
    bench.add_argument("--only", action="append", metavar="NAME", help="run only this row (repeatable)")

    arena = commands.add_parser(
        "arena",
        help="play two engines against each other",
        description="Play a match between two engines or levels, taking turns to be x;"
        " the tally goes to stdout, one line a game to stderr."
        f" Players: {', '.join(player_names())}.",
    )
    arena.add_argument("engine_a", metavar="ENGINE_A", help="the first player (x in game 1)")
    arena.add_argument("engine_b", metavar="ENGINE_B", help="the second player")
    arena.add_argument("--games", type=positive_count, default=10, help="number of games (default 10)")
    add_size_options(arena)
    add_game_options(arena)

    add_book_parser(commands)
    add_puzzles_parser(commands)

    commands.add_parser(
        "table",
        help="every 3x3 position's value, as JSON (what the game page plays offline from)",
        description="Print the value of every reachable 3x3 position as one JSON document:"
        " the table the game page plays from offline (tictactoe/tools/solved_table.py says its layout).",
    )
    return parser


def _levels_help() -> str:
    """Every level and what it does, for --help (the registry's words)."""
    return "; ".join(f"{entry['name']}: {entry['description']}" for entry in describe_levels())


def main(
    argv: Sequence[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the command line on ``argv`` (default ``sys.argv[1:]``) and return the exit status.

    Bad input prints its reason to ``stderr`` and returns 2; Ctrl-C returns 130.
    """
    inp, out, err = stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr
    try:
        # argparse writes usage errors and --help to sys.stderr/sys.stdout itself.
        with redirect_stdout(out), redirect_stderr(err):
            args = build_parser().parse_args(argv)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else EXIT_BAD_INPUT
    commands: dict[str, Callable[[], int]] = {
        "play": lambda: cmd_play(args, inp, out),
        "selfplay": lambda: cmd_selfplay(args, out),
        "solve": lambda: cmd_solve(args, out, err),
        "stats": lambda: cmd_stats(args, out),
        "bench": lambda: cmd_bench(args, out, err),
        "arena": lambda: cmd_arena(args, out, err),
        "book": lambda: cmd_book(args, out, err),
        "puzzles": lambda: cmd_puzzles(args, out, err),
        "table": lambda: cmd_table(out),
    }
    try:
        return commands[args.command]()
    except UsageError as error:
        err.write(f"error: {error}\n")
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        out.flush()
        err.write("\ninterrupted: stopped\n")
        return EXIT_INTERRUPTED
