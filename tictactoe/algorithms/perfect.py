"""The production engine behind the teaching interface: ``analyse`` (the solver, then deepening).

Not a textbook algorithm but all of them at once: negamax alpha-beta with
distance-to-end scores, a transposition table keyed by the symmetry class,
win/block detection, bounds from the empty cells, Erdos-Selfridge draws and
null windows (see ``tictactoe.search.solver``).  Within the deadline it proves the
position; past it (big boards) it returns the heuristic deepening's best move,
unproven.  Node: one call of the solver's (or the deepening's) negamax.
"""

from __future__ import annotations

import random
import time

from ..game.board import Board
from ..game.notation import cell_label
from ..game.phrase import Phrase
from ..game.values import SOURCE_WORDS, VALUE_WORDS, Level
from ..search.analysis import analyse
from ..search.levels import choose_move
from .base import EngineResult

# With a deadline already past, the analysis still gets this long, so that it
# returns a move (its static choice) instead of nothing.
MIN_BUDGET = 0.001


class Perfect:
    """The production solver: exact within the deadline, the fastest win and the slowest loss."""

    name = "perfect"
    description: str = Phrase("the production solver (analyse): proven value, fastest win, slowest loss")
    threats = True  # threat-space search before the heuristic search (k >= 4)

    def search(
        self,
        board: Board,
        deadline: float | None = None,
        rng: random.Random | None = None,
        max_nodes: int | None = None,
    ) -> EngineResult:
        """The perfect level's move (``choose_move``), analysing ``board`` until ``deadline``.

        A random best move with ``rng``, else the first; raises ``GameOverError`` when the game is over.
        ``max_nodes`` does not stop it: its proof does.  Without a deadline it proves the position,
        which on the lab's boards (up to 4x4: every one within proof) takes a few hundred nodes.
        """
        budget = None if deadline is None else max(deadline - time.monotonic(), MIN_BUDGET)
        decision = choose_move(
            board, Level.PERFECT, rng, analyst=lambda b: analyse(b, budget=budget, threats=self.threats)
        )
        move, result = decision.move, decision.result
        assert result is not None  # the perfect level always analyses
        if result.proven and result.value is not None:
            note = Phrase(
                "proven ({source}): {value} in {count} ply; best moves {moves}",
                "proven ({source}): {value} in {count} plies; best moves {moves}",
                source=SOURCE_WORDS[result.source],
                value=VALUE_WORDS[result.value],
                count=result.plies,
                # Cells in the project's one coordinate language (a1 top left), as the lab shows them.
                moves=", ".join(cell_label(board.rules, cell) for cell in result.best_moves),
            )
        else:
            note = Phrase("not proven by the deadline: heuristic search to depth {depth}", depth=result.depth)
        # The solver reports its best moves, not a line: the variation is the move alone.
        return EngineResult(
            move,
            result.value if result.proven else None,
            result.nodes,
            result.seconds,
            result.proven,
            [move],
            note,
        )


class Baseline(Perfect):
    """The production engine without threat-space search: what the strength matches measure against."""

    name = "baseline"
    description: str = Phrase(
        "the production solver without threat-space search (as before issue 10):"
        " the yardstick of the strength matches"
    )
    threats = False
