"""The command line, run as a real ``python -m tictactoe`` process (plus a few pure helpers).

Expected values come from the reference facts of tic-tac-toe (the empty 3x3
board is a draw in 9, after a corner opening only the centre draws...), not
from a recorded run.
"""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tictactoe import Board
from tictactoe.tools.bench import GOMOKU_MIDDLE_GAME, select_rows
from tictactoe.tools.cli import ProgressLine, draw_board, main, parse_board, parse_move

ROOT = Path(__file__).resolve().parent.parent
# Every cell of a 3x3 board, in order: whatever the engine plays, the taken
# ones are refused and the game still reaches its end.
ALL_3X3_MOVES = "".join(f"{row} {col}\n" for row in (1, 2, 3) for col in (1, 2, 3))
RESULT_LINE = re.compile(r"^(?:[xo] wins with(?: [a-o]\d+)+|draw: the board is full)", re.M)


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    """Run ``python -m tictactoe ARGS`` from the project root; a generous guard, not a timing."""
    return subprocess.run(
        [sys.executable, "-m", "tictactoe", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def move_values(stdout: str) -> dict[str, str]:
    """The ``--all`` list as {label: value}, from its ``b2 (row 2, col 2): draw in 8`` lines."""
    return dict(re.findall(r"^  ([a-o]\d+) \(row \d+, col \d+\): (win|draw|loss) in", stdout, re.M))


def assert_clean_failure(proc: subprocess.CompletedProcess) -> None:
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip()


# -- solve ------------------------------------------------------------------------


def test_solve_empty_3x3_is_a_draw_in_9_and_every_move_is_best():
    proc = run("solve", "...", "...", "...")
    assert proc.returncode == 0, proc.stderr
    assert "value for x: draw in 9 plies (proven)" in proc.stdout
    best = re.search(r"^best moves: (.*)$", proc.stdout, re.M)[1]
    assert re.findall(r"[a-c][1-3]", best) == [f"{c}{r}" for r in "123" for c in "abc"]


def test_solve_empty_4x4_k3_is_a_win_in_5_from_the_centre():
    proc = run("solve", "....", "....", "....", "....", "--k", "3")
    assert proc.returncode == 0, proc.stderr
    assert "value for x: win in 5 plies (proven)" in proc.stdout
    best = re.search(r"^best moves: (.*)$", proc.stdout, re.M)[1]
    assert set(re.findall(r"[a-d][1-4]", best)) == {"b2", "c2", "b3", "c3"}


def without_timing(stdout: str) -> list[str]:
    """The output's lines but the progress and node counts, which vary from run to run."""
    return [line for line in stdout.splitlines() if "nodes" not in line]


# The same position in every notation the API reads: the rows of POST bodies'
# ``board`` list, and GET /position's text with empty cells one by one or as runs.
SAME_POSITION_NOTATIONS = [
    pytest.param(["x..", ".o.", "..."], id="rows"),
    pytest.param(["x../.o./..."], id="rows-joined-by-slash"),
    pytest.param(["x2/1o1/3"], id="position-text-runs"),
    pytest.param(["X2/1O1/3"], id="position-text-upper-case"),
    pytest.param(["x.1/.o./2."], id="position-text-mixed"),
    pytest.param(["x2", "1o1", "3"], id="rows-with-runs"),
]


@pytest.mark.parametrize("notation", SAME_POSITION_NOTATIONS)
def test_solve_reads_every_notation_the_api_reads(notation):
    reference = run("solve", "x..", ".o.", "...")
    proc = run("solve", *notation)
    assert proc.returncode == 0, proc.stderr
    assert without_timing(proc.stdout) == without_timing(reference.stdout)
    assert "value for x: draw in 7 plies (proven)" in proc.stdout


def test_solve_reads_a_position_text_with_runs_on_a_4x4_board():
    proc = run("solve", "x3/4/4/3o", "--k", "3")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("4x4 k=3, x to move\n")


def test_parse_board_gives_the_same_board_as_the_api_for_each_notation():
    api_board = Board.from_position_text("x2/1o1/3")
    for notation in SAME_POSITION_NOTATIONS:
        board = parse_board(notation.values[0], k=None)
        assert (board.x, board.o, board.rules) == (api_board.x, api_board.o, api_board.rules)


@pytest.mark.parametrize(
    "opening, draws",
    [
        # x . .
        # . . .     after a corner opening only the centre draws
        # . . .
        (["x..", "...", "..."], {"b2"}),
        # after a centre opening only the four corners draw
        (["...", ".x.", "..."], {"a1", "c1", "a3", "c3"}),
        # . x .
        # . . .     after an edge opening: the centre, the two adjacent corners
        # . . .     and the opposite edge draw
        ([".x.", "...", "..."], {"b2", "a1", "c1", "b3"}),
    ],
)
def test_solve_all_gives_every_reply_its_value(opening, draws):
    proc = run("solve", *opening, "--all")
    assert proc.returncode == 0, proc.stderr
    values = move_values(proc.stdout)
    assert len(values) == 8
    assert {label for label, value in values.items() if value == "draw"} == draws
    assert {value for label, value in values.items() if label not in draws} == {"loss"}
    # The grid view marks the same draws: D8 in the cells, L-something elsewhere.
    assert proc.stdout.count("D8") == len(draws)


def test_solve_of_a_finished_game_names_the_winner_and_line():
    proc = run("solve", "xxx", "oo.", "...")
    assert proc.returncode == 0, proc.stderr
    assert "the game is over: x wins with a1 b1 c1" in proc.stdout


@pytest.mark.parametrize(
    "board, reason",
    [
        (["x..", ".o", "..."], "same length"),
        (["x..", ".q.", "..."], "bad character"),
        (["xx.", "...", "..."], "impossible counts"),
        (["xxx", "ooo", "x.."], "both x and o"),
        (["x........"], "rows must be between"),
        (["x../.o./...", "--k", "4"], "k must be between"),
        (["x2/1o/3"], "same length"),
        (["x2/1o1/03"], "without leading zeros"),
        (["x2/1o1/16"], "longer than the largest board"),
        (["x2//3"], "row 1 is empty"),
    ],
)
def test_solve_rejects_bad_boards_with_status_2_and_no_traceback(board, reason):
    proc = run("solve", *board)
    assert_clean_failure(proc)
    assert reason in proc.stderr
    assert proc.stdout == ""


# -- play -------------------------------------------------------------------------


def test_play_reprompts_on_bad_input_then_plays_a_game_to_its_end():
    bad = "hello\n4 1\n1 9\nz1\n\n"
    proc = run("play", "--seed", "7", "--level", "perfect", stdin=bad + ALL_3X3_MOVES)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "'hello' is not a move" in out
    assert "row 4 is off the board" in out
    assert "column 9 is off the board" in out
    assert "column z is off the board" in out
    assert "'' is not a move" in out
    assert "is taken" in out  # the moves in order soon meet the engine's stones
    assert "Traceback" not in proc.stderr
    results = RESULT_LINE.findall(out)
    assert len(results) == 1
    # The perfect engine plays o here and never loses.
    assert not results[0].startswith("x wins")


def test_play_as_o_lets_the_engine_open():
    proc = run("play", "--side", "o", "--level", "easy", "--seed", "1", stdin=ALL_3X3_MOVES)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.index("engine (x) plays") < proc.stdout.index("your move (o)")
    assert len(RESULT_LINE.findall(proc.stdout)) == 1


@pytest.mark.parametrize("stdin", ["", "2 2\n", "quit\n"])
def test_play_stops_cleanly_at_the_end_of_input_or_on_quit(stdin):
    proc = run("play", "--seed", "1", stdin=stdin)
    assert proc.returncode == 0
    assert "game abandoned" in proc.stdout
    assert "Traceback" not in proc.stderr
    assert not RESULT_LINE.search(proc.stdout)


# ``python -m tictactoe play`` with Python's Ctrl-C handler put back: a test run
# started as a background job (``cmd &`` in a script) hands its children SIGINT
# ignored, and Python then leaves it ignored, as a terminal's process would not.
PLAY_WITH_CTRL_C = (
    "import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler);"
    " runpy.run_module('tictactoe', run_name='__main__', alter_sys=True)"
)


def test_play_exits_cleanly_on_ctrl_c_at_the_prompt():
    proc = subprocess.Popen(
        [sys.executable, "-c", PLAY_WITH_CTRL_C, "play"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    seen = b""
    while b"your move" not in seen:  # the prompt is flushed before input is read
        chunk = os.read(proc.stdout.fileno(), 4096)
        assert chunk, "the game ended before asking for a move"
        seen += chunk
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    proc.stdin.close()
    assert proc.returncode == 130
    assert b"interrupted" in err
    assert b"Traceback" not in err


@pytest.mark.parametrize(
    "options, reason",
    [
        (["--size", "3by3"], "is not a size"),
        (["--k", "7"], "k must be between"),
        (["--budget", "0"], "more than 0 seconds"),
        (["--size", "3x4", "--rows", "5"], "disagree"),
        (["--level", "godlike"], "invalid choice"),
    ],
)
def test_play_rejects_bad_options_with_status_2(options, reason):
    proc = run("play", *options)
    assert_clean_failure(proc)
    assert reason in proc.stderr


# -- selfplay, stats, bench ----------------------------------------------------------


def test_selfplay_perfect_against_perfect_on_3x3_is_a_draw():
    proc = run("selfplay", "--seed", "3")
    assert proc.returncode == 0, proc.stderr
    plies = re.findall(r"^ply (\d): ([xo]) plays ([a-c][1-3]) .*proven; [\d,]+ nodes", proc.stdout, re.M)
    assert [int(ply) for ply, _, _ in plies] == list(range(1, 10))
    assert [side for _, side, _ in plies] == list("xoxoxoxox")
    assert len({cell for _, _, cell in plies}) == 9
    assert proc.stdout.rstrip().endswith("draw: the board is full")


def test_selfplay_reports_levels_that_do_not_search():
    proc = run(
        "selfplay", "--size", "4x4", "--k", "3", "--x-level", "easy", "--o-level", "medium", "--seed", "2"
    )
    assert proc.returncode == 0, proc.stderr
    assert "(easy: no search)" in proc.stdout
    assert "(medium: no search)" in proc.stdout
    assert len(RESULT_LINE.findall(proc.stdout)) == 1


def test_stats_prints_the_reference_counts():
    proc = run("stats")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for label, figure in [
        ("complete games", "255,168"),
        ("  x wins", "131,184"),
        ("  o wins", "77,904"),
        ("  draws", "46,080"),
        ("games up to symmetry", "26,830"),
        ("game tree nodes, root included", "549,946"),
        ("total", "5,478 +765"),
        ("terminal", "958 +138"),
        ("non-terminal", "4,520 +627"),
    ]:
        assert re.search(rf"^{label} +{figure}$", out, re.M), label
    assert re.search(r"^ +9 +81,792 +0 +46,080 +127,872$", out, re.M)


def test_stats_refuses_a_board_too_big_to_enumerate():
    proc = run("stats", "--size", "4x4")
    assert_clean_failure(proc)
    assert "cells" in proc.stderr


def test_bench_runs_one_row_and_names_the_machine():
    proc = run("bench", "--only", "3x3")
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^python: \w+ \d+\.\d+", proc.stdout, re.M)
    assert re.search(r"^3x3 +[\d,]+ +[\d.]+ s +draw in 9$", proc.stdout, re.M)
    assert "5x5k4" in proc.stdout  # listed as not run


def test_bench_rejects_an_unknown_row():
    proc = run("bench", "--only", "chess")
    assert_clean_failure(proc)
    assert "3x3-selfplay" in proc.stderr


# -- helpers, in process ---------------------------------------------------------------


@pytest.mark.parametrize(
    "text, cell", [("2 3", 5), ("c2", 5), ("B1", 1), (" 1,1 ", 0), ("3 1", 6), ("a3", 6)]
)
def test_parse_move_reads_rows_and_columns_from_1_or_cell_names(text, cell):
    assert parse_move(text, Board()) == cell


@pytest.mark.parametrize(
    "text, reason",
    [("b", "not a move"), ("1 2 3", "not a move"), ("0 1", "row 0"), ("d1", "column d"), ("2 2", "taken")],
)
def test_parse_move_explains_what_is_wrong(text, reason):
    # . . .
    # . x .
    # . . .
    board = Board.from_text(["...", ".x.", "..."])
    with pytest.raises(ValueError, match=reason):
        parse_move(text, board)


def test_draw_board_labels_rows_and_columns_on_a_big_board():
    lines = draw_board(Board.from_text(["x" + "." * 9] + ["." * 10] * 9, k=5)).splitlines()
    assert lines[0].split() == list("abcdefghij")
    assert lines[1].split() == ["1", "x"] + ["."] * 9
    assert lines[10].startswith("10  .")
    # Row labels are right-aligned, so the cells line up.
    assert lines[1].index("x") == lines[10].index(".")


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_rewrites_one_line_on_a_terminal_and_appends_lines_elsewhere():
    tty, log = FakeTerminal(), io.StringIO()
    for stream in (tty, log):
        progress = ProgressLine(stream, "solving")
        progress(10, 0.1)  # too early to show
        progress(1_000_000, 1.0)
        progress(2_000_000, 2.0)
        progress.finish()
    assert "\r" not in log.getvalue()
    assert log.getvalue().splitlines() == [
        "solving: 1,000,000 nodes, 1,000,000 nodes/s, 1.0 s",
        "solving: 2,000,000 nodes, 1,000,000 nodes/s, 2.0 s",
    ]
    assert tty.getvalue().count("\r") == 2
    assert tty.getvalue().count("\n") == 1 and tty.getvalue().endswith("\n")


def test_main_writes_to_the_streams_it_is_given():
    out, err = io.StringIO(), io.StringIO()
    assert main(["solve", "x..", ".o", "..."], stdout=out, stderr=err) == 2
    assert out.getvalue() == "" and err.getvalue().startswith("error: bad board")
    assert main(["play", "--seed", "1"], stdin=io.StringIO("q\n"), stdout=out, stderr=err) == 0
    assert "game abandoned" in out.getvalue()


def test_bench_quick_leaves_out_only_the_slow_rows_and_only_selects():
    names = [row.name for row in select_rows()]
    assert {"3x3", "4x4k4", "4x5k4", "5x4k4", "5x5k4", "3x3-all", "3x3-selfplay", "gomoku"} == set(names)
    assert [row.name for row in select_rows(quick=True)] == [n for n in names if n != "5x5k4"]
    assert [row.name for row in select_rows(only=["gomoku", "3x3"])] == ["3x3", "gomoku"]


def test_bench_gomoku_position_is_a_live_middle_game():
    board = Board.from_text(GOMOKU_MIDDLE_GAME.split(), k=5)
    assert (board.rules.rows, board.rules.cols) == (15, 15)
    assert board.stones == 20 and board.to_move == "x"
    assert not board.is_over()
    # No side can win at once, so the row measures a search, not a forced reply.
    for stones in (board.x, board.o):
        assert not board.geometry.winning_cells(stones, board.empty)
