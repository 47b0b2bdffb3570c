"""Threat-space search: forced wins by fours and threes, and the defences against them.

Positions are drawn as rows (``x``, ``o``, ``.``); a ``*`` marks the expected
moves (empty on the board).  Drawings smaller than the board are centred on
15x15.  Every win the search reports is checked by playing it out against
every legal reply (``assert_forced_win``), and on small boards by the exact
solver.  Nothing here asserts a time: searches run without a deadline,
bounded by depth or by nodes.
"""

from __future__ import annotations

import random

import pytest

from tests.diagrams import centred, position
from tictactoe.game.board import Board
from tictactoe.game.clock import THREATS, NodeTime, SearchTimeout
from tictactoe.game.rules import Rules
from tictactoe.game.values import Source, Value
from tictactoe.search.analysis import analyse
from tictactoe.search.solver import Solver
from tictactoe.tactics.threats import (
    FIRST_SLICE,
    ThreatSearch,
    _holders,
    _Searches,
    examine,
    find_win,
    kept_proofs,
)

NO_DEADLINE = float("inf")


def assert_forced_win(board: Board, guard: int = 40) -> None:
    """The side to move wins against every legal reply, playing the moves ``find_win`` gives.

    The replies are the game's, not the search's: every legal move, except
    where the rules alone settle it (the attacker has two winning cells and
    the defender none: one block cannot stop both; one winning cell: any other
    reply loses to it).  ``guard`` bounds the recursion (two plies a level).
    """
    assert guard > 0, "the attack does not end"
    attacker = board.to_move
    win = find_win(board)
    assert win is not None, f"no win found for {attacker} in\n{board}"
    board.play(win.move)
    try:
        outcome = board.outcome()
        if outcome is not None:
            assert outcome.winner == attacker, f"{win.move} does not win in\n{board}"
            return
        geometry = board.geometry
        wins = geometry.winning_cells(board.stones_of(attacker), board.empty)
        assert not geometry.winning_cells(board.stones_of(board.to_move), board.empty), (
            f"the defender makes five first in\n{board}"
        )
        if wins.bit_count() >= 2:
            return
        for reply in geometry.cells_of(wins) if wins else board.legal_moves():
            board.play(reply)
            try:
                assert_forced_win(board, guard - 1)
            finally:
                board.undo()
    finally:
        board.undo()


def winning_first_moves(board: Board, depth: int, vct: bool = True) -> set[int]:
    """The cells whose move starts a threat win of at most ``depth`` threats (for the side to move)."""
    me, opp = (board.x, board.o) if board.to_move == "x" else (board.o, board.x)
    search = ThreatSearch(board.rules, vct=vct)
    return {
        cell
        for cell in board.legal_moves()
        if search.defend(me | board.geometry.bits[cell], opp, depth - 1) is not None
    }


# -- wins by continuous fours (VCF): 3, 5, 7 and 9 fours, x to move ------------------------

VCF_3 = [
    "...o.x...",
    ".o.......",
    "..o...x..",
    ".......o.",
    "....*..o.",
    "...x..xxo",
    "xox...o..",
    "..xx.....",
    ".......o.",
]
VCF_5 = [
    "xoo......",
    "..o.....x",
    "..x......",
    "...*.....",
    "xx.*x....",
    ".........",
    ".......o.",
    "...x.....",
    "o....o..o",
]
VCF_7 = [
    "ox...x..o",
    ".x...oxo.",
    "......oo.",
    ".*..xxo.o",
    ".xo..oo..",
    "...o.....",
    ".x.xox.x.",
    "...x....x",
    ".........",
]
VCF_9 = [
    ".....o...",
    "..x..ox..",
    ".x.......",
    "....*.x.x",
    ".....x*..",
    "..ooo.x..",
    ".o.......",
    ".........",
    "o........",
]


@pytest.mark.parametrize("drawing, fours", [(VCF_3, 3), (VCF_5, 5), (VCF_7, 7), (VCF_9, 9)])
def test_a_win_by_continuous_fours_is_found_and_holds(drawing, fours):
    board, expected = position(centred(drawing))
    win = find_win(board, vct=False)
    assert win is not None and win.depth == fours
    assert win.move in expected
    assert win.plies == 2 * fours + 1  # every four forces its block; the last wins twice
    # No shorter sequence of fours exists.
    assert find_win(board, vct=False, max_depth=fours - 1) is None
    assert winning_first_moves(board, fours, vct=False) == expected
    assert_forced_win(board)


# -- threes: four-three and three-three, x to move -----------------------------------------

FOUR_THREE = [  # * makes a four along the row (o closes it) and an open three down the column
    "o.......o",
    ".........",
    ".....x...",
    ".....x...",
    ".oxxx*...",
    ".........",
    ".........",
    ".........",
    "o.......o",
]
THREE_THREE = [  # * makes two open threes: o can stop one of them
    "o.......o",
    ".........",
    "....x....",
    "....x....",
    "..xx*....",
    ".........",
    ".........",
    ".........",
    "o.......o",
]


@pytest.mark.parametrize(
    "drawing, by_fours", [(FOUR_THREE, True), (THREE_THREE, False)], ids=["four-three", "three-three"]
)
def test_a_double_threat_is_found_and_holds(drawing, by_fours):
    board, expected = position(centred(drawing))
    # A four-three is two fours (the three's four is open); a three-three needs threes.
    assert (find_win(board, vct=False) is not None) == by_fours
    win = find_win(board)
    assert win is not None and win.depth == 2 and win.move in expected
    assert winning_first_moves(board, 2) == expected
    assert_forced_win(board)


def test_the_proofs_of_one_move_are_kept_for_the_next():
    board, expected = position(centred(VCF_9))
    me, opp = board.sides()
    for table in kept_proofs(board.rules).values():
        table.clear()  # whatever the tests before left in this process
    first = _Searches(board.rules, deadline=None)
    win = first.win(me, opp)
    assert win is not None and win.move in expected
    kept = kept_proofs(board.rules)[False]
    assert (me, opp, True) in kept
    # The next move's searches start from these proofs: the same win, fewer nodes.
    again = _Searches(board.rules, deadline=None)
    assert again.win(me, opp) == win and again.nodes < first.nodes
    assert kept_proofs(Rules(9, 9, 5))[False] == {}  # other rules start new tables


# -- defences, o to move -------------------------------------------------------------------

ONE_END = [  # x's open three must be blocked at *: blocked on the left, x's * makes a four-three
    ".........",
    ".........",
    "...o.....",
    "...o.....",
    "...xxx*..",
    "......x..",
    "......x..",
    "o........",
    ".......o.",
]
COUNTER_FOUR = [  # x has two open threes: only *, a four that also blocks the row, saves o
    "o...........o",
    ".............",
    ".............",
    "..x..........",
    "..*xxx.......",
    "..o..........",
    "..o..........",
    "..o..........",
    "..........x..",
    "..x.......x..",
    "..........x..",
    ".............",
    "o...........o",
]


def opponent_wins_after(board: Board, cell: int, max_depth: int | None = None) -> bool:
    """Whether the opponent, to move after ``cell`` is played, has a threat win (found)."""
    board.play(cell)
    try:
        return find_win(board, max_depth=max_depth) is not None
    finally:
        board.undo()


@pytest.mark.slow
def test_an_open_three_is_blocked_at_the_one_end_that_holds():
    board, expected = position(centred(ONE_END))
    tactics = examine(board, NO_DEADLINE)
    assert tactics.win is None and tactics.threat is not None
    assert set(tactics.defences) == expected
    # Every legal move but the marked one lets x win; after it, x has no threat win at all.
    refuting = {cell for cell in board.legal_moves() if not opponent_wins_after(board, cell)}
    assert refuting == expected
    cols = board.rules.cols
    row, col = divmod(next(iter(expected)), cols)
    for wrong in (col - 4, col - 5, col + 1):  # the other end, the far cells
        board.play(row * cols + wrong)
        assert_forced_win(board)
        board.undo()


def test_when_only_a_counter_four_defends_it_is_the_defence():
    board, expected = position(centred(COUNTER_FOUR, size=15))
    me, opp = board.o, board.x
    fours = ThreatSearch(board.rules).four_makers(me, opp)
    assert all(board.geometry.bits[cell] & fours for cell in expected)
    tactics = examine(board, NO_DEADLINE)
    assert tactics.threat is not None and set(tactics.defences) == expected
    # The threat (x's double three, two threats deep) is refuted by * and by nothing else.
    refuting = {cell for cell in board.legal_moves() if not opponent_wins_after(board, cell, max_depth=2)}
    assert refuting == expected
    row, col = divmod(next(iter(expected)), board.rules.cols)
    plain_block = row * board.rules.cols + col + 4  # the row's other end
    board.play(plain_block)
    assert_forced_win(board)
    board.undo()


def test_analyse_plays_the_defence_and_reports_threat_wins_proven():
    board, expected = position(centred(ONE_END))
    assert analyse(board, budget=2.0).best_moves[0] in expected
    board, expected = position(centred(VCF_5))
    result = analyse(board, budget=2.0)
    assert result.proven and result.value == Value.WIN and result.source == Source.THREATS
    assert result.best_moves[0] in expected and result.plies == find_win(board).plies
    baseline = analyse(board, budget=0.2, threats=False)
    assert not baseline.proven and baseline.source == Source.HEURISTIC


def holders_under_a_stopped_clock(moves, verdicts):
    """``_holders`` of ``moves`` with the clock stopped at 0 (no node is searched), each test answering
    the next of its verdicts.

    A verdict is True (a win found: the move loses), False (the search ended
    without one) or None (the search ran out of its time).  Returns the result
    and the tests made, as (move, time given).
    """
    searches = _Searches(Rules(15, 15, 5), deadline=1e9, timer=NodeTime({THREATS: 1.0}))
    answers = {move: iter(answers) for move, answers in verdicts.items()}
    calls = []

    def loses(move):
        calls.append((move, searches.deadline))
        verdict = next(answers[move])
        if verdict is None:
            raise SearchTimeout()
        return verdict

    return _holders(moves, loses, searches), calls, searches


def test_a_defence_that_holds_does_not_leave_the_others_untested():
    """1 and 2 lose at once; 4's search ends without a win in round 3; 8 is found to lose in round 4.

    Every move is tested in the first round before any is tested again, each
    round giving twice the time; the moves found to lose are dropped.
    """
    verdicts = {8: [None, None, None, True], 1: [True], 4: [None, None, False], 2: [True]}
    found, calls, searches = holders_under_a_stopped_clock([8, 1, 4, 2], verdicts)
    assert found == ([4], [])
    first = FIRST_SLICE
    assert calls == [
        (8, first),
        (1, first),
        (4, first),
        (2, first),
        (8, 2 * first),
        (4, 2 * first),
        (8, 4 * first),
        (4, 4 * first),
        (8, 8 * first),
    ]
    assert searches.deadline == 1e9  # given back as it was


def test_a_move_still_searching_is_kept_unproven_when_it_is_the_last_one_left():
    found, calls, _ = holders_under_a_stopped_clock([8, 1, 2], {8: [None], 1: [True], 2: [True]})
    assert found == ([], [8]) and len(calls) == 3  # nothing left to choose: no second round


# o to move (k=4): whichever two o blocks, x's other makes .xxx. and wins.  On 7x7,
# 42 empty cells: past the solver's limit, so analyse's answer is the threat search's.
LOST_TO_TWO_TWOS = [
    "o....o.",
    ".......",
    "..xx...",
    ".......",
    "..xx...",
    "o......",
    ".......",
]


def test_when_every_move_lets_the_opponent_win_by_threats_the_loss_is_proven():
    board, _ = position(LOST_TO_TWO_TWOS, k=4)
    tactics = examine(board, NO_DEADLINE)
    assert tactics.lost is not None and set(tactics.lost) == set(board.legal_moves())
    result = analyse(board, budget=2.0, all_moves=True)
    assert result.proven and result.value == Value.LOSS and result.source == Source.THREATS
    exact = Solver(board.rules).solve(board, all_moves=True)
    # Here the sequences found are the quickest wins, so the plies are exact too.
    assert (result.value, result.plies) == (exact.value, exact.plies) == (Value.LOSS, 4)
    assert result.move_values == exact.move_values


# -- properties on random positions --------------------------------------------------------


def random_position(rules: Rules, stones: int, rng: random.Random, near: int | None = None) -> Board:
    """A position with ``stones`` random stones (x first), no line made, within ``near`` of the centre."""
    while True:
        board = Board(rules)
        centre_row, centre_col = rules.rows // 2, rules.cols // 2
        cells = [
            cell
            for cell in range(rules.cells)
            for row, col in [rules.row_col(cell)]
            if near is None or max(abs(row - centre_row), abs(col - centre_col)) <= near
        ]
        for cell in rng.sample(cells, stones):
            board.play(cell)
            if board.is_over():
                break
        else:
            return board


@pytest.mark.slow
def test_every_reported_win_holds_on_random_gomoku_positions():
    rng = random.Random(10)
    rules = Rules(15, 15, 5)
    checked = 0
    for _ in range(30):
        board = random_position(rules, rng.randrange(14, 30), rng, near=5)
        win = find_win(board, max_nodes=3000)
        if win is not None:
            assert_forced_win(board)
            checked += 1
    assert checked >= 5  # the sample holds enough wins to mean something


@pytest.mark.parametrize("rules, stones", [(Rules(5, 5, 4), 10), (Rules(6, 6, 4), 20), (Rules(6, 6, 5), 20)])
def test_threat_wins_agree_with_the_exact_solver(rules, stones):
    rng = random.Random(stones + rules.k)
    wins = 0
    for _ in range(40):
        board = random_position(rules, stones + rng.randrange(3), rng)
        win = find_win(board)
        if win is None:
            continue
        wins += 1
        exact = Solver(rules).solve(board, all_moves=True)
        assert exact.value == Value.WIN
        move_value = exact.move_values[win.move]
        assert move_value.value == Value.WIN and move_value.plies <= win.plies
    assert wins >= 5


@pytest.mark.parametrize("rules, stones", [(Rules(5, 5, 4), 8), (Rules(6, 6, 4), 16)])
def test_threat_loss_proofs_agree_with_the_exact_solver(rules, stones):
    rng = random.Random(stones + rules.k)
    losses = 0
    for _ in range(40):
        board = random_position(rules, stones + rng.randrange(3), rng)
        lost = examine(board, NO_DEADLINE).lost
        if lost is None:
            continue
        losses += 1
        assert set(lost) == set(board.legal_moves())
        exact = Solver(rules).solve(board, all_moves=True)
        assert exact.value == Value.LOSS, f"a loss reported where the solver finds {exact.value}:\n{board}"
        for cell, refutation in lost.items():
            # The opponent wins within the sequence found (perhaps sooner).
            assert exact.move_values[cell].plies <= 1 + refutation.plies
    assert losses >= 5  # the sample holds enough losses to mean something


def test_the_three_cells_are_the_four_makers_that_win_twice_and_their_wins():
    rng = random.Random(3)
    rules = Rules(15, 15, 5)
    search = ThreatSearch(rules)
    for _ in range(80):
        board = random_position(rules, rng.randrange(8, 40), rng, near=5)
        for mine, theirs in ((board.x, board.o), (board.o, board.x)):
            if search.winning_cells(mine, theirs):
                continue  # three_cells is asked only of a side without a four
            expected = 0
            for bit in board.geometry.bits:
                if search.four_makers(mine, theirs) & bit:
                    wins = search.winning_cells(mine | bit, theirs)
                    if wins.bit_count() >= 2:
                        expected |= bit | wins
            assert search.three_cells(mine, theirs) == expected


def test_boards_with_k_below_4_are_refused():
    with pytest.raises(ValueError, match="k >= 4"):
        ThreatSearch(Rules(3, 3, 3))
