"""Analyse a position within a time budget: a proof when there is time, else the best guess.

Positions in the opening book of their rules (``tictactoe.book.lookup``) are
answered from it at once.  Otherwise the exact solver gets the first try.
When the budget runs out before it finishes (or the board is far too big for
it to finish), iterative deepening
with a heuristic evaluation spends what is left and returns the best move it
found, marked not proven.  Nothing is reported as proven without a proof.

On boards with k >= 4 the heuristic search is preceded by threat-space search
(``threats.examine``), within shares of what is left of the budget, by
continuous fours, then threes and fours (``THREAT_VCT``): a forced win found
there is played and reported proven (a found sequence is a proof); an
opponent's forced win limits the heuristic search to the moves that refute it,
and when every legal move lets the opponent win by threats, the loss is
reported proven too (the move chosen is one whose refutation is longest).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..book.lookup import book_answer
from ..game.board import Board
from ..game.clock import WALL_TIME, Timer
from ..game.rules import Rules
from ..game.values import MoveValue, Source, Value
from ..tactics.threats import Tactics, examine
from .deepening import deepen
from .solver import SearchTimeout, Solver, SolveResult

DEFAULT_BUDGET = 1.0
# Boards with more empty cells than this are not given to the exact solver at
# all: it could not finish, and the heuristic search needs the whole budget.
EXACT_MAX_EMPTIES = 25
# With k = 4 lines are short and proofs end early: five more, so that 6x6 is
# tried from 6 stones on (and every 5x6 position).  On 40 random 6x6 positions
# with 6, 7 and 8 stones, the best moves proven in the budget went from 33, 31
# and 37 to 38, 39 and 40; every move's values from 2, 8 and 7 to 17, 30 and 30.
# Further (6x6 with 3 to 5 stones) the solver proved nothing more than threat
# search did (docs/benchmarks.md, "Where the solver is tried").
EXACT_MAX_EMPTIES_K4 = 30
# On boards the solver may not finish, it gets this share of the budget: most of it,
# because a proof is the answer these boards (up to 25 empty cells, 30 with k = 4) are meant to get,
# and the heuristic search's last fifth is enough for its guess where none comes
# (docs/benchmarks.md, "Where the solver is tried": 0.8 proved every /analyze of 30 sampled
# 4x6 k=4 positions with 4 stones where 0.5 proved 25).
EXACT_SHARE = 0.8
# Boards this small are always proven quickly: the solver gets the whole budget.
ALWAYS_EXACT_MAX_EMPTIES = 16
THREAT_MIN_K = 4  # below this, "fours" and "threes" are not a game's tactics
# Threes too in the threat search?  Yes since it keeps window counts (now tictactoe/tactics/lines.py,
# about 3x the nodes a second): on 15x15 it then scored at least level with the baseline
# and lasted longer as o, where the slower VCT search had cost the heuristic search the
# plies that decide games and lost (docs/benchmarks.md).
THREAT_VCT = True
RETURN_MARGIN = 0.02  # seconds kept back from the budget for the search to unwind


def exact_max_empties(rules: Rules) -> int:
    """The most empty cells a position may have for ``analyse`` to try the exact solver on it."""
    return EXACT_MAX_EMPTIES_K4 if rules.k == 4 else EXACT_MAX_EMPTIES


def within_proof(board: Board) -> bool:
    """Whether ``analyse`` tries the exact solver on ``board``: whether its answer may be proven."""
    return board.empties <= exact_max_empties(board.rules)


def analyse(
    board: Board,
    budget: float | None = DEFAULT_BUDGET,
    all_moves: bool = False,
    solver: Solver | None = None,
    progress: Callable[[int, float], None] | None = None,
    threats: bool = True,
    timer: Timer = WALL_TIME,
) -> SolveResult:
    """Solve the position if that fits in ``budget`` seconds, else return the best move found.

    ``budget=None`` means no limit (the exact solver runs to the end).  A
    position in the opening book is answered from it (``source`` is
    ``Source.BOOK``).  ``threats=False`` leaves out the threat search and the
    heuristic search's forcing extensions (the baseline engine of the strength
    matches: the engine as it was before issue 10).  ``timer`` is the clock the
    budget is counted on past the exact solver (which always runs on the wall
    clock): a ``NodeTime`` makes it a budget of nodes.  Raises ``GameOverError``
    when the game is over.
    """
    board.require_moves()
    # The clock starts before the book is read: the first lookup of a process reads
    # its book from disk (0.1 s for 4x6), and that is part of the answer's time.
    start = time.monotonic()
    booked = book_answer(board, all_moves)
    if booked is not None:
        return booked
    empties = board.empty.bit_count()
    if budget is None or empties <= exact_max_empties(board.rules):
        solver = solver or Solver(board.rules)
        if budget is None:
            return solver.solve(board, all_moves=all_moves, progress=progress)
        share = 1.0 if empties <= ALWAYS_EXACT_MAX_EMPTIES else EXACT_SHARE
        try:
            return solver.solve(
                board, deadline=start + budget * share, all_moves=all_moves, progress=progress
            )
        except SearchTimeout:
            pass
    # The deepening search notices its deadline between batches of nodes and
    # then unwinds: aim a little early so the answer is back within the budget.
    margin = min(RETURN_MARGIN, budget * 0.05)
    # On another timer the budget counts from here: the book and the solver ran on the wall clock.
    begun = start if timer is WALL_TIME else timer.now()
    deadline = begun + budget - margin
    root_moves = None
    if threats and board.rules.k >= THREAT_MIN_K:
        tactics = examine(board, deadline=deadline, vct=THREAT_VCT, timer=timer)
        if tactics.win is not None and not all_moves:
            return SolveResult(
                value=Value.WIN,
                plies=tactics.win.plies,
                best_moves=[tactics.win.move],
                nodes=tactics.nodes,
                seconds=time.monotonic() - start,
                proven=True,
                source=Source.THREATS,
            )
        if tactics.lost is not None:
            return _threat_loss(tactics, all_moves, start)
        root_moves = tactics.defences
    result = deepen(
        board, deadline=deadline, progress=progress, root_moves=root_moves, forcing=threats, timer=timer
    )
    result.seconds = time.monotonic() - start
    return result


def _threat_loss(tactics: Tactics, all_moves: bool, start: float) -> SolveResult:
    """The answer when every move lets the opponent win by threats (``tactics.lost`` is set).

    Each move's plies are one more than its refutation's: they count the
    found sequences, so they are what the proof shows, not necessarily the
    longest resistance there is.  The best moves are those of
    ``tactics.defences``, the ones whose refutation is longest.
    """
    assert tactics.lost is not None and tactics.defences
    values = {cell: MoveValue(Value.LOSS, 1 + refutation.plies) for cell, refutation in tactics.lost.items()}
    return SolveResult(
        value=Value.LOSS,
        plies=values[tactics.defences[0]].plies,
        best_moves=tactics.defences,
        nodes=tactics.nodes,
        seconds=time.monotonic() - start,
        proven=True,
        move_values=values if all_moves else None,
        source=Source.THREATS,
    )
