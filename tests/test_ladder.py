"""The rule ladder children learn, held against the solver on every 3x3 position; a move's reason in words.

The sweep is exhaustive: every non-terminal position a game reaches (4,520 of
them, each counted, not one per symmetry class), the ladder's moves against
every move's value from the solver.
"""

from __future__ import annotations

import pytest

from tests.diagrams import centred, position
from tictactoe import Board, Value, move_reasons, rule_advice, solve
from tictactoe.lessons.ladder import Rung, advice
from tictactoe.lessons.reasons import Deed, places
from tictactoe.tools.puzzle_build import ladder_agreement


@pytest.fixture(scope="module")
def agreement():
    """The ladder against the solver over every non-terminal 3x3 position (one sweep for the module)."""
    return ladder_agreement()


def test_every_non_terminal_position_is_counted_once(agreement):
    assert agreement.positions == 4_520
    # The published count of the same positions: not lost, and exactly one move that does not lose.
    assert agreement.one_not_losing == 1_838


def test_every_move_the_ladder_names_keeps_the_value_in_4472_positions(agreement):
    # The figure was 4,456 of 4,520; this ladder's rule 4 is Crowley and Siegler's refined
    # form (block all forks while making two in a row, else a two in a row whose answer makes no fork).
    assert agreement.every == 4_472
    assert agreement.some == 4_484
    assert sum(agreement.failures.values()) == agreement.positions - agreement.every == 48
    assert agreement.failures == {Rung.CENTRE: 20, Rung.BLOCK_FORK: 16, Rung.FORCE: 12}


def values_of(board: Board) -> dict[int, Value]:
    result = solve(board, all_moves=True)
    assert result.move_values is not None
    return {cell: value.value for cell, value in result.move_values.items()}


def test_the_ladder_blocks_the_corner_fork_by_two_in_a_row_and_holds():
    # X's two corners threaten forks at a3 and c1; an edge makes two in a row whose answer
    # makes no fork, a corner loses:
    #   x . .
    #   . o .
    #   . . x
    board, _ = position(["x..", ".o.", "..x"])
    said = advice(board)
    assert said.rung == Rung.FORCE
    assert sorted(board.rules.row_col(cell) for cell in said.moves) == [(0, 1), (1, 0), (1, 2), (2, 1)]
    words = rule_advice(board, values_of(board))
    assert words is not None and words.holds
    assert words.words == "The rule says make two in a row at b1, a2, c2 or b3, and it keeps the draw."


def test_the_ladder_is_shown_wrong_where_the_centre_gives_up_the_win():
    # X to move: the centre is the rule's move, yet only c2, a3 or c3 keeps the win.
    #   o . x
    #   . . .
    #   . . .
    board, _ = position(["o.x", "...", "..."])
    words = rule_advice(board, values_of(board))
    assert words is not None and words.holds is False
    assert words.words == "The rule says take the centre; here only c2, a3 or c3 keeps the win."


def test_a_move_s_reason_follows_the_ladders_order():
    #   x x *      c1 wins; for the same position's O, c1 blocks the win
    #   . o .
    #   . . .
    board, _ = position(["xx.", ".o.", "o.."])
    reasons = move_reasons(board)
    assert reasons[2] is not None and (reasons[2].deed, reasons[2].words) == (Deed.WIN, "wins the game")
    board, _ = position(["xx.", ".o.", "..."])
    reasons = move_reasons(board)
    assert reasons[2] is not None and reasons[2].words == "blocks the win at c1"
    assert {reasons[cell].deed for cell in (3, 6)} == {Deed.BLOCK_FORK}
    assert reasons[8] is not None and reasons[8].words == "takes the opposite corner"
    assert reasons[7] is not None and reasons[7].words == "takes an empty edge"


def test_five_in_a_row_moves_are_named_by_their_threats():
    # X to move: three in a column with both ends open (h6, h7, h8 in the middle of 15x15).
    rows = centred(["*", "x", "x", "x", "*"], 15)
    rows[7] = rows[7][:8] + "o" + rows[7][9:]
    rows[6] = rows[6][:8] + "o" + rows[6][9:]
    rows[12] = "o" + rows[12][1:]
    board, ends = position(rows, k=5)
    reasons = move_reasons(board)
    assert {reasons[cell].words for cell in ends} == {"makes a double threat"}
    # Seen from O (one move later): the same cells block it.
    board.play(0)
    for cell in ends:
        reason = move_reasons(board)[cell]
        assert reason is not None and reason.deed == Deed.BLOCK_FORK
        assert reason.words.startswith("blocks the double threat at ")


def test_threats_on_four_in_a_row_are_named_by_their_stones():
    # 5x5, four in a row: X to move; d2 makes three in a row (e2 to win; a2 is O's), e3 an open two.
    #   . . . . .
    #   o x x * .
    #   . . . . .
    #   . . . o .
    #   . . . . .
    board, marked = position([".....", "oxx*.", ".....", "...o.", "....."], k=4)
    (cell,) = marked
    reason = move_reasons(board)[cell]
    assert reason is not None and (reason.deed, reason.words) == (Deed.THREAT, "makes three in a row")


@pytest.mark.parametrize(
    ("cells", "words"),
    [
        ([4], "the centre"),
        ([1], "the edge b1"),
        ([1, 7], "an edge (b1 or b3)"),
        ([0, 8], "a corner (a1 or c3)"),
        ([0, 4], "a1 or b2"),
    ],
)
def test_places_name_3x3_cells_by_their_kind(cells, words):
    assert places(cells) == words


def test_the_ladder_speaks_of_3x3_alone():
    assert rule_advice(Board.from_text(["....", "....", "....", "...."], k=3)) is None
    with pytest.raises(ValueError):
        advice(Board.from_text(["....", "....", "....", "...."], k=3))
