"""A transposition table that stores bounds, for the alpha-beta family.

Source: Greenblatt, Eastlake & Crocker (1967) introduced the table; storing a
flagged bound rather than a value is the form of Marsland (1986) and of the
textbook negamax-with-table pseudocode::

    alpha0 := alpha
    entry := TABLE[position]
    if entry: if entry is EXACT: return its value
              if entry is LOWER: alpha := max(alpha, value)
              if entry is UPPER: beta  := min(beta, value)
              if alpha >= beta: return its value
    ... search as alpha-beta in the window (alpha, beta) ...
    TABLE[position] := (best, UPPER if best <= alpha0 else LOWER if best >= beta else EXACT)

A fail-soft search's result is only exact inside its window: at or below
alpha it is an upper bound, at or above beta a lower bound, hence the flags.

Why it prunes: the same position is reached by different move orders (X a1
then b2 is the position of X b2 then a1); a stored value or bound answers it,
or narrows its window, without searching it again.  The key is the stones
(X's and O's bitboards): the side to move follows from them.  Mirror images
are separate entries here (the production solver merges them).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..game.board import Board
from .base import Score


class Bound(Enum):
    """What a stored score says about the true score."""

    EXACT = "exact"
    LOWER = "lower"  # the true score is at least this (the search failed high)
    UPPER = "upper"  # the true score is at most this (the search failed low)


@dataclass(frozen=True)
class Entry:
    """A stored search result: a score and what kind of bound it is."""

    score: Score
    bound: Bound


class TranspositionTable:
    """Search results by position, for one search (fresh per search, so counts repeat)."""

    def __init__(self) -> None:
        self.entries: dict[tuple[int, int], Entry] = {}

    def probe(self, board: Board, alpha: float, beta: float) -> tuple[Score | None, float, float]:
        """Look the position up: ``(score, alpha, beta)``.

        ``score`` is set when the entry settles the position in this window
        (then return it); otherwise the window comes back narrowed by the entry.
        """
        entry = self.entries.get((board.x, board.o))
        if entry is None:
            return None, alpha, beta
        if entry.bound is Bound.EXACT:
            return entry.score, alpha, beta
        if entry.bound is Bound.LOWER:
            alpha = max(alpha, entry.score)
        else:
            beta = min(beta, entry.score)
        if alpha >= beta:
            return entry.score, alpha, beta
        return None, alpha, beta

    def store(self, board: Board, best: Score, alpha: float, beta: float) -> None:
        """Store a fail-soft result: ``alpha`` is the window's before the probe, ``beta`` after it.

        (A result between the two alphas is exact: the entry that raised alpha
        was a lower bound, and the search showed the same number is an upper one.)
        """
        if best <= alpha:
            bound = Bound.UPPER
        elif best >= beta:
            bound = Bound.LOWER
        else:
            bound = Bound.EXACT
        self.entries[(board.x, board.o)] = Entry(best, bound)

    def __len__(self) -> int:
        return len(self.entries)


class NoTable(TranspositionTable):
    """A table that remembers nothing: for a search built without one."""

    def probe(self, board: Board, alpha: float, beta: float) -> tuple[Score | None, float, float]:
        """Never settles anything; the window comes back as it was."""
        return None, alpha, beta

    def store(self, board: Board, best: Score, alpha: float, beta: float) -> None:
        """Forgets the result."""
