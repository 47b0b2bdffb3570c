"""The shipped puzzles: each step's move proven the only one that keeps the value; judged moves in words.

One sweep proves every shipped puzzle again (``verify``): on 3x3, 4x4 and 5x5
with k = 4 by the solver, on 6x6 by the opening book (the solver's proofs,
kept), on five in a row by an exhaustive search of every move to the puzzle's
horizon.  3x3's set is checked to be every puzzle there is.
"""

from __future__ import annotations

import datetime
from collections import Counter

import pytest

from tests.diagrams import position
from tictactoe import IllegalMoveError, Rules, Task, judge, puzzle_boards, puzzle_goal, puzzle_set
from tictactoe.lessons.puzzles import PuzzleSet, load_puzzles, puzzle_id, puzzle_path, save_puzzles
from tictactoe.tactics.horizon import Horizon
from tictactoe.tools.puzzle_build import (
    book_values,
    every_three_by_three,
    horizon_puzzle,
    proven_values,
    solver_puzzle,
    verify,
)

PUZZLES = puzzle_set()
THREE = Rules(3, 3, 3)
# The boards with shipped puzzles and where their positions come from.
BOARDS = {
    Rules(3, 3, 3): "every 3x3 position",
    Rules(4, 4, 4): "seeded games, seed 1",
    Rules(5, 5, 4): "seeded games, seed 1",
    Rules(6, 6, 4): "the opening book",
    Rules(15, 15, 5): "a forced win the threat search proves",
}


def test_every_board_the_engine_proves_has_puzzles_of_its_source():
    assert PUZZLES.rules() == list(BOARDS)
    for puzzle in PUZZLES:
        assert puzzle.source == BOARDS[puzzle.rules]
    # The boards named by the files alone (the API's list of them) are the set's, in its order.
    assert puzzle_boards() == [rules.key() for rules in BOARDS]


@pytest.mark.parametrize("rules", list(BOARDS), ids=str)
def test_every_shipped_puzzle_is_proven_again(rules):
    # Each step's move the only one that keeps the value, every wrong move worth what the file says,
    # the answers best ones.  The wrong moves' own refutations are proven again here on every board
    # but 5x5 (minutes there: `python -m tictactoe puzzles verify` proves them).
    values = book_values if rules == Rules(6, 6, 4) else proven_values(rules)
    replies = rules != Rules(5, 5, 4)
    problems = {p.id: verify(p, values, replies=replies) for p in PUZZLES if p.rules == rules}
    assert problems and not any(problems.values()), {k: v for k, v in problems.items() if v}


def test_3x3_has_a_puzzle_for_every_position_with_one_move_that_keeps_its_result():
    # Every non-terminal position a game reaches, one per symmetry class (627): 328 are won or
    # drawn with exactly one move keeping that; 294 of them have a choice (two legal moves or more).
    # (The 229, 166 + 63, is not what the solver counts.)
    drawn = every_three_by_three()
    assert Counter(p.task for p in drawn) == {Task.WIN: 209, Task.DRAW: 85}
    assert sorted(p.id for p in drawn) == sorted(p.id for p in PUZZLES if p.rules == THREE)


def test_a_position_with_two_moves_that_keep_the_draw_is_no_puzzle():
    # O to move: every edge keeps the draw.
    board, _ = position(["x..", ".o.", "..x"])
    assert solver_puzzle(board, proven_values(THREE), "test") is None


# The two-step save used below, drawn with its solution:
#   . . x     O to move (X: c1, a2); only b2 keeps the draw.  X answers b1 (blocking b1-b2-b3),
#   x . .     then O must take a1 (X threatens a1-b1-c1), X answers c3, and O's c2 saves it.
#   . o .
SAVE = "2x/x2/1o1"


@pytest.fixture(scope="module")
def save():
    puzzle = next(p for p in PUZZLES if p.position == SAVE)
    assert puzzle.task == Task.DRAW and len(puzzle.steps) == 3
    return puzzle


def test_a_right_move_brings_the_answer_and_the_next_move_to_find(save):
    rules = save.rules
    first = judge(save, [rules.cell(1, 1)])
    assert first.correct and not first.solved and first.reply == rules.cell(0, 1)
    assert first.board.to_text() == [".xx", "xo.", ".o."]
    assert first.words == (
        "Right: b2 blocks the fork at b2. The rule says make two in a row at b2 or a3; here only the"
        " centre keeps the draw. X answers b1, which blocks the win at b1. Find the next move."
    )
    moves = [step.move for step in save.steps]
    last = judge(save, moves)
    assert last.correct and last.solved and last.words.endswith("Solved: the draw is safe from here.")


def test_a_wrong_move_is_refused_with_the_answer_that_refutes_it(save):
    rules = save.rules
    wrong = judge(save, [rules.cell(0, 0)])
    assert not wrong.correct and wrong.refutation == rules.cell(1, 1)
    assert wrong.board.to_text() == ["..x", "x..", ".o."]  # the position as it was: try again
    assert wrong.words == (
        "Not a1: it blocks the fork at a1, but X answers b2, which makes a fork, and X wins. Try again."
    )
    # The rule's own move, wrong here, says what the rule says and what holds instead.
    rule_move = judge(save, [rules.cell(2, 0)])
    assert rule_move.words == (
        "Not a3: it blocks the fork at a3, but X answers c3, which blocks the win at c3, and X wins."
        " The rule says make two in a row at b2 or a3; here only the centre keeps the draw. Try again."
    )


def test_reveal_gives_the_next_move_and_moves_off_the_solution_are_refused(save):
    rules = save.rules
    shown = judge(save, [], reveal=True)
    assert shown.correct and shown.revealed and shown.move == rules.cell(1, 1)
    assert shown.words.startswith("The move is b2: it blocks the fork at b2.")
    with pytest.raises(IllegalMoveError, match="move 1 \\(a1\\) is not the puzzle's"):
        judge(save, [rules.cell(0, 0), rules.cell(2, 2)])
    with pytest.raises(IllegalMoveError, match="c1 is taken"):
        judge(save, [rules.cell(0, 2)])
    with pytest.raises(IllegalMoveError, match="solved after 3 moves"):
        judge(save, [step.move for step in save.steps], reveal=True)
    with pytest.raises(IllegalMoveError, match="moves is empty"):
        judge(save, [])


def test_a_win_within_two_moves_on_15x15_is_one_move_only():
    # X to move (row 8 of 15x15): f8 makes an open four, both ends free; j8 makes a four that O's
    # k8 leaves one end, and no other move wins within two.
    #   . . . . . * x x x . o . . . .
    rows = ["." * 15 for _ in range(15)]
    rows[7] = "......xxx.o...."
    rows[0] = "o.o............"
    board, _ = position(rows, k=5)
    puzzle = horizon_puzzle(board, Horizon(board.rules), "test")
    assert puzzle is not None and puzzle.within == 2 and len(puzzle.steps) == 1
    assert puzzle.rules.row_col(puzzle.steps[0].move) == (7, 5)
    assert puzzle_goal(puzzle) == "X to play and win within 2 moves"
    assert verify(puzzle) == []


def test_two_moves_that_each_win_within_the_horizon_make_no_puzzle():
    # An open three in the open: f8 and j8 both make an open four.
    rows = ["." * 15 for _ in range(15)]
    rows[7] = "......xxx......"
    rows[0] = "o.o.o.........."
    board, _ = position(rows, k=5)
    assert horizon_puzzle(board, Horizon(board.rules), "test") is None


def test_a_file_reads_back_as_it_was_written(tmp_path, save):
    path = puzzle_path(THREE, tmp_path)
    save_puzzles(THREE, [save], path, "1")
    assert load_puzzles(path) == [save]
    assert save.id == puzzle_id(THREE, save.position, save.task, save.within)


def test_pages_in_id_order_and_the_daily_puzzle():
    page = PUZZLES.select(THREE, Task.DRAW, limit=10)
    ids = [p.id for p in page.puzzles]
    assert ids == sorted(ids) and page.total == 85 and page.next == ids[-1]
    following = PUZZLES.select(THREE, Task.DRAW, after=page.next, limit=100)
    assert following.puzzles[0].id > page.next and following.next is None
    assert len(ids) + len(following.puzzles) == 85
    day = datetime.date(2026, 11, 29)
    assert PUZZLES.daily(day) == PUZZLES.daily(day)
    days = {PUZZLES.daily(day + datetime.timedelta(days=n)).id for n in range(7)}
    assert len(days) == 7 and all(PUZZLES.get(i).difficulty >= 2 for i in days)
    assert PuzzleSet([]).select().total == 0
