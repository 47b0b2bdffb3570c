"""The engine's vocabulary: the sides, the levels, a game's status, what a move is worth and how it is known.

Every layer speaks these words: the solver, the lab's engines, the web layer
and the JSON it answers with.  The enums are ``StrEnum``: a member *is* its
string (``Value.WIN == "win"``), so it goes into JSON as is, byte for byte
the string the API spoke before the enum existed.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

# A side: x always moves first.
Player = Literal["x", "o"]


class Level(StrEnum):
    """How strongly the engine plays (``tictactoe.levels`` says how each one chooses)."""

    EASY = "easy"
    MEDIUM = "medium"
    PERFECT = "perfect"


class Status(StrEnum):
    """Where a game stands: still going, won by one side, or drawn on a full board."""

    IN_PROGRESS = "in_progress"
    X_WON = "x_won"
    O_WON = "o_won"
    DRAW = "draw"

    @classmethod
    def won_by(cls, player: Player) -> Status:
        """The status of a game that ``player`` has won."""
        return cls.X_WON if player == "x" else cls.O_WON


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


__all__ = ["Player", "Level", "Status", "Value", "Source", "MoveValue"]
