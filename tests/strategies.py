"""Hypothesis settings and strategies shared by the property tests."""

from __future__ import annotations

from hypothesis import HealthCheck
from hypothesis import strategies as st

from tictactoe import Board, Rules

# Reproducible and bounded: derandomized, no example database, no deadline.
SETTINGS = {
    "derandomize": True,
    "database": None,
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow],
}

# -- positions by random play --------------------------------------------------


@st.composite
def positions(
    draw, sizes=st.integers(3, 15), max_moves: int = 60, min_moves: int = 0, rules: Rules | None = None
) -> Board:
    """A position reached by drawn legal moves, whose game is not over.

    A drawn move that would end the game is taken back and another drawn, so
    the position has the drawn number of stones unless every move ends it.
    """
    if rules is None:
        rows, cols = draw(sizes), draw(sizes)
        rules = Rules(rows, cols, draw(st.integers(3, max(rows, cols))))
    board = Board(rules)
    for _ in range(draw(st.integers(min_moves, min(max_moves, rules.cells - 1)))):
        candidates = board.legal_moves()
        while candidates:
            cell = draw(st.sampled_from(candidates))
            board.play(cell)
            if not board.is_over():
                break
            board.undo()
            candidates.remove(cell)
        if not candidates:
            break
    return board
