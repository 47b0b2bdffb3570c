"""Wins within a horizon, proven by searching every move: "X to play wins within n of its moves".

The threat search (``threats``) proves a win by the sequence it finds, but
says nothing of the moves it does not try.  A puzzle's claim that one move
*only* wins needs every move searched, so this search plays them all, to a
horizon of n moves of the attacker, with only these cuts, each a fact of
the rules (k in a row wins; drawn for k = 5)::

    x x x x .     the attacker has a winning cell: it wins at once
    o o o o .     the defender has one: the attacker must block it (two: no win)
    x x x . .     with one move left, only a winning cell wins; with two, only
                  a move that makes two winning cells (no reply blocks both)
    . x x . .     with three, only a move after which the attacker has a
                  winning cell or a cell that would make two (a four, a three)

and on the defender's side: a reply that leaves the attacker a winning cell
loses at once unless it is that cell, so with one winning cell the block is
the only reply searched; with two, the defender has lost.  Every other reply
is searched.  The horizon is kept small (``MAX_HORIZON``): three moves of the
attacker search a few thousand positions on 15x15.
"""

from __future__ import annotations

from ..game.rules import Bitboard, Rules, one_bits
from .threats import ThreatSearch

# Past three moves the attacker's quiet moves can no longer be left out, and the search grows
# by the board's cells at every level.
MAX_HORIZON = 3


class Horizon:
    """Exhaustive win-within-n search for one set of rules (k >= 4); not thread-safe."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.full = rules.geometry.full
        self.shapes = ThreatSearch(rules)  # its line tables read winning cells and four-makers
        self.known: dict[tuple[Bitboard, Bitboard, int, bool], bool] = {}
        self.nodes = 0

    def wins(self, attacker: Bitboard, defender: Bitboard, moves: int) -> bool:
        """Whether the attacker (to move) wins within ``moves`` of its moves, whatever the defender plays."""
        if not 1 <= moves <= MAX_HORIZON:
            raise ValueError(f"the horizon is 1 to {MAX_HORIZON} moves, not {moves}")
        return self._attack(attacker, defender, moves)

    def winning_moves(self, attacker: Bitboard, defender: Bitboard, moves: int) -> list[Bitboard]:
        """Every move of the attacker (to move) that wins within ``moves``, as one-bit boards."""
        wins = self._wins(attacker, defender)
        if wins:
            return list(one_bits(wins))
        return [
            m
            for m in self._candidates(attacker, defender, moves)
            if self._after(attacker | m, defender, moves - 1)
        ]

    def refutation(self, attacker: Bitboard, defender: Bitboard, moves: int) -> Bitboard | None:
        """A reply of the defender (to move) after which the attacker has no win within ``moves``, or None."""
        own = self._wins(defender, attacker)
        if own:
            return own & -own  # the defender makes k in a row first
        for reply in self.replies(attacker, defender):
            if not self._attack(attacker, defender | reply, moves):
                return reply
        return None

    def line(self, attacker: Bitboard, defender: Bitboard, moves: int) -> list[Bitboard]:
        """A game from here to the attacker's k in a row (the defender to move, the attacker winning
        within ``moves``): the first reply searched, the first winning move, and so on."""
        found: list[Bitboard] = []
        geometry = self.rules.geometry
        while not geometry.has_line(attacker) and moves > 0:
            # With two winning cells of the attacker's nothing holds: the defender blocks one.
            reply = next(iter(self.replies(attacker, defender)), None)
            if reply is None:
                wins = self._wins(attacker, defender) or self.full & ~(attacker | defender)
                reply = wins & -wins
            defender |= reply
            move = self.winning_moves(attacker, defender, moves)[0]
            attacker |= move
            found += [reply, move]
            moves -= 1
        return found

    # -- the search ------------------------------------------------------------------

    def _after(self, attacker: Bitboard, defender: Bitboard, moves: int) -> bool:
        """The attacker has moved; ``moves`` more are left to it (0: its move had to win)."""
        if self.rules.geometry.has_line(attacker):
            return True
        if moves == 0:
            return False
        return self._defend(attacker, defender, moves)

    def _attack(self, attacker: Bitboard, defender: Bitboard, moves: int) -> bool:
        key = (attacker, defender, moves, True)
        found = self.known.get(key)
        if found is None:
            self.nodes += 1
            found = self.known[key] = bool(self._wins(attacker, defender)) or any(
                self._after(attacker | move, defender, moves - 1)
                for move in self._candidates(attacker, defender, moves)
            )
        return found

    def _defend(self, attacker: Bitboard, defender: Bitboard, moves: int) -> bool:
        key = (attacker, defender, moves, False)
        found = self.known.get(key)
        if found is None:
            self.nodes += 1
            empty = self.full & ~(attacker | defender)
            if not empty or self._wins(defender, attacker):
                found = False  # a full board, or the defender makes k in a row first
            else:
                found = all(
                    self._attack(attacker, defender | reply, moves)
                    for reply in self.replies(attacker, defender)
                )
            self.known[key] = found
        return found

    def _candidates(self, attacker: Bitboard, defender: Bitboard, moves: int) -> list[Bitboard]:
        """The attacker's moves that can win within ``moves`` (see the module docstring); none with one."""
        threats = self._wins(defender, attacker)
        if threats:
            # One winning cell of the defender's: the block is the only move; two: no move stops both.
            return [] if threats & (threats - 1) or moves < 2 else [threats]
        empty = self.full & ~(attacker | defender)
        if moves <= 1:
            return []
        fours = self._fours(attacker, defender)
        if moves == 2:
            return list(one_bits(fours))
        # Three moves: after a move that leaves neither a winning cell nor a cell that would make two,
        # no reply of the defender's can give the attacker either, so no win within two is left.
        return [move for move in one_bits(empty) if move & fours or self._forks(attacker | move, defender)]

    def replies(self, attacker: Bitboard, defender: Bitboard) -> list[Bitboard]:
        """The defender's (to move) replies the search tries, in its order: the block of the attacker's
        one winning cell, else every empty cell, the attacker's four-makers first; none when the
        attacker has two winning cells."""
        wins = self._wins(attacker, defender)
        if wins:
            return [] if wins & (wins - 1) else [wins]
        empty = self.full & ~(attacker | defender)
        # The likeliest refutations first: the cells where the attacker would make a four, then the rest.
        fours = self._fours(attacker, defender) & empty
        return [*one_bits(fours), *one_bits(empty & ~fours)]

    def _wins(self, mine: Bitboard, theirs: Bitboard) -> Bitboard:
        return self.shapes.winning_cells(mine, theirs)

    def _fours(self, mine: Bitboard, theirs: Bitboard) -> Bitboard:
        return self.shapes.four_makers(mine, theirs)

    def _forks(self, mine: Bitboard, theirs: Bitboard) -> Bitboard:
        """The cells where a stone of ``mine`` makes two winning cells or more."""
        found = 0
        empty = self.full & ~(mine | theirs)
        for bit in one_bits(self._fours(mine, theirs)):
            made = self._wins(mine | bit, theirs) & empty & ~bit
            if made & (made - 1):
                found |= bit
        return found
