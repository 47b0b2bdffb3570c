"""The engine's vocabulary: the sides, the levels, a game's status, what a move is worth and how it is known.

Every layer speaks these words: the solver, the lab's engines, the web layer
and the JSON it answers with.  The enums are ``StrEnum``: a member *is* its
string (``Value.WIN == "win"``), so it goes into JSON as is, byte for byte
the string the API spoke before the enum existed.
``SolveResult`` is a search's answer in these words, and ``score_to_value``
reads a score of the solver's scale (a book entry's too) as one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

from .phrase import Phrase
from .rules import Cell

# A side: x always moves first.
Player = Literal["x", "o"]


class Level(StrEnum):
    """How strongly the engine plays (``tictactoe.search.levels`` says how each one chooses)."""

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


# The values and the sources in a sentence's words (a note on a search says "draw", "proof"):
# their names above are the API's, these are what a reader of another language gets instead.
VALUE_WORDS = {
    # Translators: a position's value, as in "proven (proof): draw in 9 plies".
    Value.WIN: Phrase("win"),
    Value.DRAW: Phrase("draw"),
    Value.LOSS: Phrase("loss"),
}
SOURCE_WORDS = {
    # Translators: how a value is known, as in "proven (proof): draw in 9 plies".
    Source.PROOF: Phrase("proof"),
    Source.BOOK: Phrase("book"),
    Source.THREATS: Phrase("threats"),
    Source.HEURISTIC: Phrase("heuristic"),
}


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


@dataclass
class SolveResult:
    """The answer of a search, for the side to move in the searched position.

    ``value`` and ``plies`` are set only when ``proven``; an unproven result
    (the budget ran out) still has ``best_moves`` (the best move found first)
    and the ``depth`` its heuristic search reached.  ``source`` says how the
    answer is known (a proof, the book, a threat sequence, or a heuristic search).
    """

    value: Value | None
    plies: int | None
    best_moves: list[Cell]
    nodes: int
    seconds: float
    proven: bool
    move_values: dict[Cell, MoveValue] | None = None
    depth: int | None = None
    score: int | None = field(default=None, repr=False)
    source: Source = Source.PROOF


def score_to_value(score: int, empties: int) -> MoveValue:
    """Turn a score of a position with ``empties`` empty cells into its value and plies.

    A higher score is a higher ``MoveValue.rank()``: comparing scores is
    comparing ranks, which is how the search orders moves.
    """
    if score > 0:
        return MoveValue(Value.WIN, empties - score + 1)
    if score < 0:
        return MoveValue(Value.LOSS, empties + score + 1)
    return MoveValue(Value.DRAW, empties)


__all__ = ["Player", "Level", "Status", "Value", "Source", "MoveValue", "SolveResult", "score_to_value"]
