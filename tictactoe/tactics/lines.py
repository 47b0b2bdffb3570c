"""Threat shapes line by line: a line's stones are the key into a table of the shapes they make.

A *line* is a whole row, column or diagonal of the board with at least k
cells.  Its stones, as two small masks in the line's own cells (cell i of the
line is bit i), are the key into a table of the shapes they make for each
side, already as board bitboards.  For a side (drawn for k = 5)::

    win      x x . x x      the empty cell of a window with k-1 of its stones
    four     . x x . x      the empty cells of a window with k-2: a stone there makes a four
    three    . x x x . .    a four-maker that wins twice in the line, and both wins
    maker    . x x . . .    a stone there makes a new three in the line
    raiser   . x . . x      the empty cells of a window with k-3

(windows holding a stone of the other side do not count).  The table is
filled as keys are met and shared by every search of the same rules.  A
stone changes the four lines through it and nothing else.  The lines of one
direction share no cell, so a direction's shapes are the XOR of its lines'
shapes, and a stone updates them with one XOR a line: every shape of both
sides is a lane of one integer (``LANE`` bits each).

Shapes across lines come from the directions' lanes: a cell that makes a
four in two directions wins twice (a three across lines); a stone that turns
a cell into a four-maker in one direction where it is one already in
another makes such a three (``makers`` finds those few by their lines).
"""

from __future__ import annotations

import functools

from ..game.rules import Bitboard, Rules, one_bits, per_rules

# The shapes of one side, in this order in its lanes; the second side's follow the first's.
WIN, FOUR, THREE, MAKER, RAISER = range(5)
SHAPES = 5
KEY_BITS = 16  # a line's stones of one side, in a key: longer than any line (MAX_SIZE)
# Cached line keys, past which the table starts again (an entry is about 200 bytes).
TABLE_LIMIT = 200_000


class _Geometry:
    """The lines of one set of rules: their cells, and for each cell its place on each of its lines."""

    def __init__(self, rules: Rules) -> None:
        geometry = rules.geometry
        self.k = rules.k
        self.lane = rules.rows * geometry.stride  # a board bitboard fits below this bit
        self.lane_mask = (1 << self.lane) - 1
        self.lines: list[list[Bitboard]] = []  # each line's cells' bits, in order
        self.directions: list[int] = []  # each line's direction, 0 to 3
        # For each cell's bit: (line, position) on each of its lines (k or more cells).
        self.places: dict[Bitboard, list[tuple[int, int]]] = {bit: [] for bit in geometry.bits}
        steps = ((0, 1), (1, 0), (1, 1), (1, -1))
        for direction, (dr, dc) in enumerate(steps):
            for r in range(rules.rows):
                for c in range(rules.cols):
                    if 0 <= r - dr < rules.rows and 0 <= c - dc < rules.cols:
                        continue  # not the first cell of its line
                    cells = []
                    row, col = r, c
                    while 0 <= row < rules.rows and 0 <= col < rules.cols:
                        cells.append(geometry.bits[row * rules.cols + col])
                        row, col = row + dr, col + dc
                    if len(cells) < self.k:
                        continue
                    for position, bit in enumerate(cells):
                        self.places[bit].append((len(self.lines), position))
                    self.lines.append(cells)
                    self.directions.append(direction)
        # For each side and cell's bit: (line, the cell's bit in the line's key, direction) of each line.
        self.flips: tuple[dict[Bitboard, list[tuple[int, int, int]]], ...] = tuple(
            {
                bit: [(line, 1 << (KEY_BITS * side + place), self.directions[line]) for line, place in places]
                for bit, places in self.places.items()
            }
            for side in (0, 1)
        )
        # A line's key: its stones (the first side's, then the second's, KEY_BITS each), above its number.
        self.table: dict[int, int] = {}
        # The raised cells of a line's key and a position on it (``raised``).
        self.raised_table: dict[tuple[int, int, int], Bitboard] = {}

    def spread(self, line: int, mask: int) -> Bitboard:
        """The board bits of the line's cells set in ``mask``."""
        cells = self.lines[line]
        found = 0
        while mask:
            low = mask & -mask
            found |= cells[low.bit_length() - 1]
            mask ^= low
        return found

    def shapes(self, line: int, first: int, second: int) -> int:
        """Both sides' shapes on the line with these stones (line masks), packed in lanes."""
        key = line << (2 * KEY_BITS) | second << KEY_BITS | first
        packed = self.table.get(key)
        if packed is None:
            if len(self.table) > TABLE_LIMIT:
                self.table.clear()
                self.raised_table.clear()
            length = len(self.lines[line])
            packed = 0
            for side, (mine, theirs) in enumerate(((first, second), (second, first))):
                for shape, mask in enumerate(line_shapes(length, self.k, mine, theirs)):
                    packed |= self.spread(line, mask) << (self.lane * (side * SHAPES + shape))
            self.table[key] = packed
        return packed

    def raised(self, line: int, position: int, mine: int, theirs: int) -> Bitboard:
        """The empty cells whose stone brings a window through ``position`` to k-2 (the cell stays empty)."""
        key = (line, position, mine << KEY_BITS | theirs)
        found = self.raised_table.get(key)
        if found is None:
            found = self.raised_table[key] = self._raised(line, position, mine, theirs)
        return found

    def _raised(self, line: int, position: int, mine: int, theirs: int) -> Bitboard:
        k = self.k
        found = 0
        for start in range(max(0, position - k + 1), min(position, len(self.lines[line]) - k) + 1):
            window = ((1 << k) - 1) << start
            if not window & theirs and (window & mine).bit_count() == k - 3:
                found |= window & ~mine & ~(1 << position)
        return self.spread(line, found)


def _windows(length: int, k: int, mine: int, theirs: int) -> list[tuple[int, int]]:
    """The line's windows free of ``theirs``, as (cells, stones of ``mine``)."""
    full = (1 << k) - 1
    return [
        (full << start, ((full << start) & mine).bit_count())
        for start in range(length - k + 1)
        if not (full << start) & theirs
    ]


def _levels(length: int, k: int, mine: int, theirs: int) -> tuple[int, int, int, int]:
    """Line masks: winning cells, four-makers, three cells (in-line double wins and their wins), raisers."""
    empty = ((1 << length) - 1) & ~(mine | theirs)
    win = four = raiser = 0
    won: dict[int, int] = {}
    for window, held in _windows(length, k, mine, theirs):
        cells = window & empty
        if held == k - 1:
            win |= cells
        elif held == k - 2:
            four |= cells
            low = cells & -cells
            high = cells ^ low
            won[low] = won.get(low, 0) | high
            won[high] = won.get(high, 0) | low
        elif held == k - 3:
            raiser |= cells
    three = 0
    for maker, wins in won.items():
        if wins & (wins - 1):
            three |= maker | wins
    return win, four, three, raiser


def _bits(mask: int) -> list[int]:
    """The one-bit masks of ``mask``, lowest first."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low)
        mask ^= low
    return found


@functools.lru_cache(maxsize=1 << 16)
def line_shapes(length: int, k: int, mine: int, theirs: int) -> tuple[int, int, int, int, int]:
    """The shapes of ``mine`` on a line of ``length`` cells, as line masks, in ``WIN``... order.

    A maker is an empty cell, not a four-maker, after whose stone the line has
    a three cell it did not have.  The same stones make the same shapes on
    every line of a length: the answers are kept for all of them.
    """
    win, four, three, raiser = _levels(length, k, mine, theirs)
    maker = 0
    for cell in _bits(raiser & ~four):
        if _levels(length, k, mine | cell, theirs)[2] & ~three:
            maker |= cell
    return win, four, three, maker, raiser


@per_rules
def _geometry(rules: Rules) -> _Geometry:
    return _Geometry(rules)


class Lines:
    """Two sides' stones (sides 0 and 1) and their shapes by direction; not thread-safe.

    ``stones[side]`` are the side's stones; ``side`` moves them to any
    position by the stones that differ: the threat search, going from a node
    to its child or sibling, pays for one or two stones, not for the board.
    """

    def __init__(self, rules: Rules) -> None:
        self.geometry = geometry = _geometry(rules)
        self.lane = geometry.lane
        self.mask = geometry.lane_mask
        self.places = geometry.places
        self.directions = geometry.directions
        self.full = rules.geometry.full
        self.stones = [0, 0]
        self.table = geometry.table
        self.flips = geometry.flips
        # Each line's key: its number, then both sides' stones as line masks (``_Geometry.shapes``).
        self.keys = [line << (2 * KEY_BITS) for line in range(len(geometry.lines))]
        self.packed = [geometry.shapes(line, 0, 0) for line in range(len(geometry.lines))]
        self.by_direction = [0, 0, 0, 0]
        for line, packed in enumerate(self.packed):
            self.by_direction[self.directions[line]] ^= packed
        self.total: int | None = None  # the directions' lanes ORed, while no stone has moved

    def _flip(self, bit: Bitboard, side: int) -> None:
        """Put a stone of ``side`` on the empty cell ``bit``, or take it off: update its lines."""
        table, keys, packed, by_direction = self.table, self.keys, self.packed, self.by_direction
        for line, flip, direction in self.flips[side][bit]:
            key = keys[line] ^ flip
            keys[line] = key
            new = table.get(key)
            if new is None:
                new = self._shapes_of(key)
            by_direction[direction] ^= packed[line] ^ new
            packed[line] = new
        self.stones[side] ^= bit
        self.total = None

    def _move(self, side: int, target: Bitboard) -> None:
        """Move the stones of ``side`` to ``target`` (the other side's stones are not on it)."""
        flip = self._flip
        changed = self.stones[side] ^ target
        while changed:
            bit = changed & -changed
            flip(bit, side)
            changed ^= bit

    def _shapes_of(self, key: int) -> int:
        """The shapes of a line's key not in the table yet."""
        mask = (1 << KEY_BITS) - 1
        return self.geometry.shapes(key >> (2 * KEY_BITS), key & mask, (key >> KEY_BITS) & mask)

    def side(self, mine: Bitboard, theirs: Bitboard) -> int:
        """Move the stones to the position ``mine`` against ``theirs``; return the side that is ``mine``.

        Either side may play ``mine``: the one needing fewer stones changed does.
        """
        first, second = self.stones
        # The search's steps change one side's stones: that side's alone are moved.
        if first == mine:
            if second != theirs:
                self._move(1, theirs)
            return 0
        if second == mine:
            if first != theirs:
                self._move(0, theirs)
            return 1
        if second == theirs:
            self._move(0, mine)
            return 0
        if first == theirs:
            self._move(1, mine)
            return 1
        as_first = (first ^ mine).bit_count() + (second ^ theirs).bit_count()
        as_second = (second ^ mine).bit_count() + (first ^ theirs).bit_count()
        side = 0 if as_first <= as_second else 1
        target = (mine, theirs) if side == 0 else (theirs, mine)
        flip = self._flip
        for index in (0, 1):
            # Stones off first, then on: a cell never holds both sides' stones.
            gone = self.stones[index] & ~target[index]
            while gone:
                bit = gone & -gone
                flip(bit, index)
                gone ^= bit
        for index in (0, 1):
            new = target[index] & ~self.stones[index]
            while new:
                bit = new & -new
                flip(bit, index)
                new ^= bit
        return side

    def cells(self, side: int, shape: int) -> Bitboard:
        """The side's cells of one shape (``WIN``, ``FOUR``, ``RAISER``...) in any line."""
        total = self.total
        if total is None:
            first, second, third, fourth = self.by_direction
            total = self.total = first | second | third | fourth
        return (total >> (self.lane * (side * SHAPES + shape))) & self.mask

    def _fours(self, side: int) -> list[Bitboard]:
        """The side's four-makers in each direction."""
        shift, mask = self.lane * (side * SHAPES + FOUR), self.mask
        return [(packed >> shift) & mask for packed in self.by_direction]

    def three_cells(self, side: int) -> Bitboard:
        """The side's four-makers that make two winning cells at once, and those winning cells.

        In one line (the table's threes), or across two: a cell that makes a four
        in two directions.  For a side with no winning cell.
        """
        cells = self.cells(side, THREE)
        fours = self._fours(side)
        twice = 0
        seen = 0
        for four in fours:
            twice |= seen & four
            seen |= four
        for maker in one_bits(twice):
            cells |= maker | self._wins_after(maker, side)
        return cells

    def _wins_after(self, bit: Bitboard, side: int) -> Bitboard:
        """The winning cells a stone of ``side`` on ``bit`` would make on its lines."""
        shift, mask = self.lane * (side * SHAPES + WIN), self.mask
        wins = 0
        for line, flip, _ in self.flips[side][bit]:
            before = (self.packed[line] >> shift) & mask
            after = self.table.get(self.keys[line] | flip)
            if after is None:
                after = self._shapes_of(self.keys[line] | flip)
            wins |= ((after >> shift) & mask) & ~before
        return wins

    def makers(self, side: int) -> Bitboard:
        """The empty cells where a stone of ``side`` makes a new three, in one line or across two.

        Across two: the stone makes a cell a four-maker in one direction where it
        is one in another already.  Four-makers themselves are not listed.
        """
        found = self.cells(side, MAKER)
        fours = self._fours(side)
        raiser_shift, mask = self.lane * (side * SHAPES + RAISER), self.mask
        mine_index, theirs_index = side, 1 - side
        for direction, packed in enumerate(self.by_direction):
            others = 0
            for other, four in enumerate(fours):
                if other != direction:
                    others |= four
            hubs = others & (packed >> raiser_shift) & mask & ~fours[direction]
            for hub in one_bits(hubs):
                for line, position in self.places[hub]:
                    if self.directions[line] == direction:
                        key = self.keys[line] >> (KEY_BITS * mine_index)
                        mine = key & ((1 << KEY_BITS) - 1)
                        theirs = (self.keys[line] >> (KEY_BITS * theirs_index)) & ((1 << KEY_BITS) - 1)
                        found |= self.geometry.raised(line, position, mine, theirs)
        return found & ~self.cells(side, FOUR) & self.full & ~(self.stones[0] | self.stones[1])


__all__ = ["FOUR", "MAKER", "RAISER", "THREE", "WIN", "Lines", "line_shapes"]
