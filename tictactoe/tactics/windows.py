"""Per-window stone counts of two sides, kept up to date as stones come and go.

A *window* is any k cells in a row (``Geometry.lines``).  It is *live* for a
side when the other side has no stone in it, and its *level* is how many of
the side's stones it holds.  ``Windows`` keeps, for each side and level, the
set of its live windows, so that the threat search's questions are a union
over a few windows instead of a scan of the board::

    level k-1   its empty cell wins                 (winning cells)
    level k-2   a stone on either empty cell
                makes a four                         (four-makers)
    level k-3   a stone there brings a window to
                k-2, where threes are made           (raisers)

A stone changes the counts of the windows through its cell only (at most 4k
of them), and adding and removing stones commute, so ``side`` moves the
counts from one position to any other by the difference of their stones: the
threat search, going from a node to its child or sibling, pays for one or two
stones, not for the board.
"""

from __future__ import annotations

from ..game.rules import Bitboard, Rules, per_rules


@per_rules
def _tables(rules: Rules) -> tuple[list[Bitboard], dict[Bitboard, list[int]]]:
    """The windows' cells, and for each cell's bit the indices of the windows through it."""
    geometry = rules.geometry
    masks = list(geometry.lines)
    through: dict[Bitboard, list[int]] = {bit: [] for bit in geometry.bits}
    for index, mask in enumerate(masks):
        for bit in geometry.line_bits[mask]:
            through[bit].append(index)
    return masks, through


class Windows:
    """Two sides' stones (sides 0 and 1) and their live windows by level; not thread-safe.

    ``stones[side]`` are the side's stones; ``live[side][c]`` the indices of
    the windows holding c of them (k-3 <= c <= k, c >= 1) and none of the
    other side's.  Lower levels are counted but not listed: nothing asks for them.
    """

    def __init__(self, rules: Rules) -> None:
        self.k = rules.k
        self.full = rules.geometry.full
        self.masks, self.through = _tables(rules)
        self.counts = ([0] * len(self.masks), [0] * len(self.masks))
        self.live: tuple[list[set[int]], list[set[int]]] = tuple(  # type: ignore[assignment]
            [set() for _ in range(self.k + 1)] for _ in range(2)
        )
        self.stones = [0, 0]
        self.low = max(1, self.k - 3)  # the lowest level listed

    def add(self, bit: Bitboard, side: int) -> None:
        """Put a stone of ``side`` on the empty cell ``bit``."""
        mine, theirs = self.counts[side], self.counts[1 - side]
        live_mine, live_theirs = self.live[side], self.live[1 - side]
        low = self.low
        for window in self.through[bit]:
            held = mine[window]
            if not theirs[window]:
                if held >= low:
                    live_mine[held].remove(window)
                if held + 1 >= low:
                    live_mine[held + 1].add(window)
            elif not held and theirs[window] >= low:
                live_theirs[theirs[window]].remove(window)  # now dead for them
            mine[window] = held + 1
        self.stones[side] |= bit

    def remove(self, bit: Bitboard, side: int) -> None:
        """Take the stone of ``side`` off the cell ``bit``."""
        mine, theirs = self.counts[side], self.counts[1 - side]
        live_mine, live_theirs = self.live[side], self.live[1 - side]
        low = self.low
        for window in self.through[bit]:
            held = mine[window]
            if not theirs[window]:
                if held >= low:
                    live_mine[held].remove(window)
                if held - 1 >= low:
                    live_mine[held - 1].add(window)
            elif held == 1 and theirs[window] >= low:
                live_theirs[theirs[window]].add(window)  # live for them again
            mine[window] = held - 1
        self.stones[side] ^= bit

    def side(self, mine: Bitboard, theirs: Bitboard) -> int:
        """Move the counts to the position ``mine`` against ``theirs``; return the side that is ``mine``.

        Either side may play ``mine``: the one needing fewer stones changed does.
        """
        first, second = self.stones
        if first == mine and second == theirs:
            return 0
        if second == mine and first == theirs:
            return 1
        as_first = (first ^ mine).bit_count() + (second ^ theirs).bit_count()
        as_second = (second ^ mine).bit_count() + (first ^ theirs).bit_count()
        side = 0 if as_first <= as_second else 1
        self._become((mine, theirs) if side == 0 else (theirs, mine))
        return side

    def _become(self, target: tuple[Bitboard, Bitboard]) -> None:
        """Remove the stones not in ``target``, then add the missing ones."""
        for side in (0, 1):
            gone = self.stones[side] & ~target[side]
            while gone:
                bit = gone & -gone
                self.remove(bit, side)
                gone ^= bit
        for side in (0, 1):
            new = target[side] & ~self.stones[side]
            while new:
                bit = new & -new
                self.add(bit, side)
                new ^= bit

    def cells(self, side: int, level: int) -> Bitboard:
        """The empty cells of the side's live windows at ``level`` (k-1: wins, k-2: four-makers)."""
        masks = self.masks
        found = 0
        for window in self.live[side][level]:
            found |= masks[window]
        return found & ~(self.stones[0] | self.stones[1])

    def three_cells(self, side: int) -> Bitboard:
        """The side's four-makers that make two winning cells at once, and those winning cells.

        Each live window at level k-2 has two empty cells, and a stone on either
        wins at the other; a cell that wins at two or more cells this way makes a
        three's double threat.  For a side with no winning cell.
        """
        empty = self.full & ~(self.stones[0] | self.stones[1])
        masks = self.masks
        wins: dict[Bitboard, Bitboard] = {}
        for window in self.live[side][self.k - 2]:
            pair = masks[window] & empty
            low = pair & -pair
            high = pair ^ low
            wins[low] = wins.get(low, 0) | high
            wins[high] = wins.get(high, 0) | low
        cells = 0
        for maker, won in wins.items():
            if won & (won - 1):
                cells |= maker | won
        return cells


__all__ = ["Windows"]
