"""The position text (tictactoe/game/notation.py): round trips, both spellings, clear refusals.

x . .
. o .    <->   "x2/1o1/3"   and   "x../.o./..."
. . .
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.strategies import SETTINGS, positions
from tictactoe import Board, BoardFormatError
from tictactoe.game.notation import MAX_TEXT_LENGTH, position_text, rows_from_position_text

# A cell for each byte value modulo 10: mostly empty, so that runs form; a zero byte (what
# Hypothesis shrinks towards) is empty.
CELL_OF_DIGIT = ".xXoO" + "." * 5


@st.composite
def grids(draw) -> list[str]:
    """Rows of x, o and . in either case, 3 to 15 of them, 3 to 15 cells each (legal or not)."""
    rows, cols = draw(st.integers(3, 15)), draw(st.integers(3, 15))
    # The whole grid in one draw (up to 225 bytes): drawing its cells one by one made the
    # examples cost about four times as much.
    drawn = draw(st.binary(min_size=rows * cols, max_size=rows * cols))
    cells = "".join(CELL_OF_DIGIT[byte % 10] for byte in drawn)
    return [cells[row * cols : (row + 1) * cols] for row in range(rows)]


@settings(max_examples=500, **SETTINGS)
@given(grids())
def test_the_text_reads_back_as_the_rows_it_was_written_from(rows):
    text = position_text(rows)
    assert rows_from_position_text(text) == [row.lower() for row in rows]
    assert len(text) <= MAX_TEXT_LENGTH


@settings(max_examples=500, **SETTINGS)
@given(grids())
def test_the_rows_joined_by_slashes_read_as_the_same_position(rows):
    assert rows_from_position_text("/".join(rows)) == rows
    assert position_text(rows_from_position_text("/".join(rows))) == position_text(rows)


@settings(max_examples=300, **SETTINGS)
@given(grids())
def test_the_normal_form_has_no_dots_no_capitals_and_no_touching_runs(rows):
    text = position_text(rows)
    assert set(text) <= set("xo/0123456789")
    # Each run is one number: touching runs would read as one bigger number.
    assert all(1 <= int(run) <= 15 and run[0] != "0" for run in re.findall(r"[0-9]+", text))


@settings(max_examples=300, **SETTINGS)
@given(positions())
def test_a_board_survives_its_position_text(board):
    again = Board.from_position_text(board.position_text(), k=board.rules.k)
    assert again.to_text() == board.to_text() and again.rules == board.rules


@pytest.mark.parametrize(
    ("text", "rows"),
    [
        ("3/3/3", ["...", "...", "..."]),
        ("x2/1o1/3", ["x..", ".o.", "..."]),
        ("x.1/.o./2x", ["x..", ".o.", "..x"]),
        ("15/" * 14 + "7x7", ["." * 15] * 14 + ["." * 7 + "x" + "." * 7]),
        ("10xo3/15/15", ["." * 10 + "xo" + "...", "." * 15, "." * 15]),
    ],
)
def test_examples_read_as_drawn(text, rows):
    assert rows_from_position_text(text) == rows


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x2/1q1/3", "row 1, character 1: bad character 'q'"),
        ("x2/1o1/3 ", "row 2, character 1: bad character ' '"),
        ("0/3/3", "row 0, character 0: a run of empty cells is 1 to 15"),
        ("03/3/3", "written without leading zeros"),
        ("16/3/3", "row 0: a run of 16 empty cells is longer than the largest board's rows (15)"),
        ("x15/3/3", "row 0 has more than 15 cells"),
        ("3//3", "row 1 is empty"),
        ("", "row 0 is empty"),
        ("/".join(["3"] * 16), "the position has 16 rows, more than 15"),
        ("x" * (MAX_TEXT_LENGTH + 1), f"more than the {MAX_TEXT_LENGTH} of the largest board"),
    ],
)
def test_text_that_is_not_a_position_is_refused_saying_where(text, message):
    with pytest.raises(BoardFormatError) as raised:
        rows_from_position_text(text)
    assert message in str(raised.value)
