"""The two kinds of error the engine raises, both ``ValueError``s.

``BoardFormatError``: the input is not a board at all (ragged rows, a bad
character, a size or k out of range, not a list of strings).  A web layer maps
it to 400.

``IllegalPositionError``: the input is a board, but not one that can arise in
a game or be played on (impossible counts, two winners, a finished game asked
for a move, a move on an occupied cell).  A web layer maps it to 409.
"""

from __future__ import annotations

from .phrase import Phrase


class BoardFormatError(ValueError):
    """The text is not a board of the supported form."""


class IllegalPositionError(ValueError):
    """The board is well formed, but it cannot arise in a game or be played on."""


class GameOverError(IllegalPositionError):
    """The game on this board is already over, so there is no move to make.

    The one refusal of a finished game, in the same words wherever it is
    raised (the engine, the searches, the API's 409): ``GameOverError()``.
    """

    MESSAGE = Phrase("the game is over: there is no move to make")

    def __init__(self) -> None:
        super().__init__(self.MESSAGE)

    def __reduce__(self) -> tuple[type[GameOverError], tuple[()]]:
        # Rebuilt without arguments when it crosses a process boundary (pickle).
        return (type(self), ())


class IllegalMoveError(IllegalPositionError):
    """The move is off the board or onto an occupied cell."""
