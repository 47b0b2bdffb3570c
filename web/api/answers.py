"""What the API says about a position: the analysis that /analyze and GET /position share.

Both endpoints read the shared cache (``web.parts.current().solved``), refuse a finished
game the same way (``Board.require_moves``) and describe the moves in the same JSON fields.
"""

from __future__ import annotations

from tictactoe import Board, MoveValue
from web.api.shapes import MoveValueAnswer, PositionFields
from web.cache import Answer


def analysis_fields(board: Board, answer: Answer, best_first: bool = False) -> PositionFields:
    """board, k, player, best and moves of ``answer`` for ``board``.

    ``moves`` is row by row, or with ``best_first`` by ``MoveValue.rank`` (row
    by row among equals, moves of unknown value last).
    """
    best = set(answer.best_moves)
    cols = board.rules.cols
    values = answer.move_values or {}
    cells = board.legal_moves()
    if best_first:
        cells.sort(key=lambda cell: _preference(values.get(cell)))
    moves: list[MoveValueAnswer] = []
    for cell in cells:
        known = values.get(cell)
        moves.append(
            {
                "row": cell // cols,
                "col": cell % cols,
                "value": known.value if known else None,
                "plies": known.plies if known else None,
                "best": cell in best,
            }
        )
    return {
        "board": board.to_text(),
        "k": board.rules.k,
        "player": board.to_move,
        "best": [{"row": c // cols, "col": c % cols} for c in answer.best_moves],
        "moves": moves,
    }


def _preference(known: MoveValue | None) -> tuple[int, int]:
    """Sort key, lowest first: the best rank first, a move of unknown value last."""
    if known is None:
        return (1, 0)
    wins, length = known.rank()
    return (-2 - wins, -length)
