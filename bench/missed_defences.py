"""Missed defences: the move of a lost game that let the opponent's forced win through.

A missed defence is a move of the loser after which the winner had a forced
win that threat search (``threat_win``: VCF, then VCT) finds within
``seconds``, played where threat search would have seen that win coming
and another move refused it:

1. walking back from the end over the loser's moves, while the winner (to
   move after each) has a threat win found in ``seconds``, the earliest such
   move is the one that let the win through; the game was not lost by
   threats before it, as far as ``seconds`` of search can tell;
2. before that move, the winner, were it to move, had a threat win found in
   ``seconds``: the threat could be seen (the null-move question ``examine``
   asks);
3. some other move (tried: the cells of that win, then the loser's
   four-makers) leaves the winner no threat win found in ``seconds``: a
   threat search could have refused it.

So a lost game has at most one missed defence; a game lost to a win no
threat search saw in time, or lost before threat search could tell, has
none.  Opening stones are not the players' moves and are never counted.
``seconds`` is a deadline per search (wall clock), so a slower machine
sees a little less.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from tictactoe.game.board import Board
from tictactoe.game.rules import Bitboard, Cell, Rules, one_bits
from tictactoe.tactics.threats import ThreatSearch, threat_win


@dataclass(frozen=True)
class LostGame:
    """A finished game to audit: its rules, every move (opening first), the opening's length, the winner."""

    rules: Rules
    moves: tuple[Cell, ...]
    opening: int
    winner: str  # "x" or "o"


def _wins(rules: Rules, attacker: Bitboard, defender: Bitboard, seconds: float) -> bool:
    """Whether threat search finds a forced win for ``attacker`` (as if to move) within ``seconds``."""
    return threat_win(rules, attacker, defender, deadline=time.monotonic() + seconds) is not None


def missed_defence(game: LostGame, seconds: float) -> int | None:
    """The index in ``game.moves`` of the loser's missed defence (see the module), or None."""
    rules = game.rules
    if rules.k < 4:
        return None  # no threats to search
    board = Board(rules)
    for cell in game.moves:
        board.play(cell)
    loser_parity = 1 if game.winner == "x" else 0  # x plays the even-numbered moves
    losers_moves = [i for i in range(game.opening, len(game.moves)) if i % 2 == loser_parity]
    culprit = None
    for index in reversed(losers_moves):
        while len(board.history) > index + 1:
            board.undo()
        winner, loser = board.sides()  # the winner is to move after the loser's move
        if not _wins(rules, winner, loser, seconds):
            break
        culprit = index
    if culprit is None:
        return None
    while len(board.history) > culprit:
        board.undo()
    loser, winner = board.sides()
    threat = threat_win(rules, winner, loser, deadline=time.monotonic() + seconds)
    if threat is None:
        return None  # not seen from before the move
    played = board.geometry.bits[game.moves[culprit]]
    fours = ThreatSearch(rules).four_makers(loser, winner)
    candidates = (threat.cells | fours) & board.empty & ~played
    for move in [*one_bits(threat.cells & candidates), *one_bits(fours & candidates & ~threat.cells)]:
        if not _wins(rules, winner, loser | move, seconds):
            return culprit
    return None


__all__ = ["LostGame", "missed_defence"]
