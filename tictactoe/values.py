"""What a position or a move is worth, and how the engine knows it: the engine's vocabulary.

Every layer speaks these words: the solver, the lab's engines, the web layer
and the JSON it answers with.  Both enums are ``StrEnum``: a member *is* its
string (``Value.WIN == "win"``), so it goes into JSON as is.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Value(StrEnum):
    """The game-theoretic value of a position or a move, for the side to move (or moving)."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


class Source(StrEnum):
    """How an answer is known.

    ``PROOF``: a full search proved it.  ``BOOK``: proven offline and stored in
    the opening book.  ``THREATS``: a forced sequence of threats was found (a
    found sequence is a proof of the win).  ``HEURISTIC``: the best move of a
    search that ran out of time; its value is a guess and is not reported.
    """

    PROOF = "proof"
    BOOK = "book"
    THREATS = "threats"
    HEURISTIC = "heuristic"


@dataclass(frozen=True)
class MoveValue:
    """What one move (or position) is worth to the side making it: the value and the plies to the end."""

    value: Value
    plies: int

    def rank(self) -> tuple[int, int]:
        """The one order of preference: quicker wins, then draws, then slower losses (higher is better)."""
        if self.value == Value.WIN:
            return (2, -self.plies)
        if self.value == Value.DRAW:
            return (1, 0)
        return (0, self.plies)


__all__ = ["Value", "Source", "MoveValue"]
