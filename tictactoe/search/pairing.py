"""Pairing strategies: a proof that one side can no longer complete any line.

A *pairing* for a maker (the side trying to make k in a row) against a
breaker is a set of disjoint pairs of empty cells such that every window the
maker can still fill (no breaker stone in it) holds one of the pairs whole.
The breaker answers each maker stone on a paired cell with its partner, and
plays anywhere otherwise; so every such window receives a breaker stone
before the maker can fill it.  The maker then never completes a line,
whoever moves first, and whatever else the breaker does with its free moves::

    x . . . .      O's pairs for X's windows, drawn as letters:
    a a o . .      every window X can still fill holds a whole pair
    . . . . .      (rows, columns and diagonals alike); X takes one cell
    ...            of a pair, O takes the other.

It is the classic draw argument of k-in-a-row games, and much stronger than
the Erdos-Selfridge count the solver also uses: it proves "cannot win" in
positions where many windows are still open.

Two cells lie together in windows of one geometric line only (a row, a
column or a diagonal), so a pairing is one choice per line: a few pairs of
the line's empty cells covering its live windows (a pair in the middle of a
row covers both of its windows on a 5-wide board).  Each line's choices
depend only on the stones on that line and are kept (``_options``); the
whole test is a small search for one choice per line, with no cell used
twice, and no search at all when the lines left to stop need more pairs
than the empty cells hold.  The search gives up after ``STEP_LIMIT`` steps
and answers False: False means "no pairing found", never "the maker can
win".  Answers are kept by position too: the solver asks of a child what it
asked of each move.
"""

from __future__ import annotations

import functools
import operator

from ..game.rules import Bitboard, Rules, one_bits, per_rules

# The most choices kept for one line (the fewest cells first): more only make failures slower.
MAX_OPTIONS = 12
# The search for one choice per line gives up after this many steps (a missed pairing
# only costs the solver a bigger tree, never a wrong answer).
STEP_LIMIT = 50
# A line's memo of choices is emptied past this many states (only long lines reach it).
MEMO_LIMIT = 200_000
# Bytes of one entry of the memo of known positions, and of a line's memo of choices
# (a tuple of up to MAX_OPTIONS masks), estimated from sys.getsizeof of their objects.
KNOWN_ENTRY_BYTES = 100
CHOICES_ENTRY_BYTES = 200
# Covers tried for one line at most (only long lines with many open windows get near it).
COVER_LIMIT = 500

# A line's choices: masks of the cells of its pairs, or None when it has no live window.
Options = tuple[Bitboard, ...] | None


class Pairings:
    """The pairing test of one board shape; keeps each line's choices by its stones. Not thread-safe.

    The memo of known positions and each line's memo are emptied past
    ``memo_limit`` entries, so they hold at most ``memo_limit + 1`` entries each.
    """

    def __init__(self, rules: Rules, memo_limit: int = MEMO_LIMIT) -> None:
        self.memo_limit = memo_limit
        self.shift = shift = rules.geometry.full.bit_length()
        # Per line: its cells for both sides at once (a position is maker | breaker << shift),
        # its windows, and its memo of choices by the stones on it.
        self.lines: list[tuple[Bitboard, list[Bitboard], dict[int, Options]]] = [
            (cells | (cells << shift), windows, {}) for cells, windows in lines_of(rules)
        ]
        self.known: dict[int, bool] = {}
        self.full = rules.geometry.full

    def exists(self, maker: Bitboard, breaker: Bitboard) -> bool:
        """Whether a pairing stops every window ``maker`` can still fill against ``breaker``.

        True proves that ``maker`` can never complete a line, whoever is to
        move.  False: no pairing was found (there may be none).
        """
        position = maker | (breaker << self.shift)
        known = self.known.get(position)
        if known is not None:
            return known
        if len(self.known) > self.memo_limit:
            self.known.clear()
        found = self.known[position] = self._search(position, maker, breaker)
        return found

    def entry_bytes(self) -> int:
        """The most bytes the memos hold per unit of ``memo_limit``: a known position, a choice per line."""
        return KNOWN_ENTRY_BYTES + CHOICES_ENTRY_BYTES * len(self.lines)

    def footprint(self) -> int:
        """The bytes the memos hold now, by the measured bytes per entry."""
        choices = sum(len(memo) for _, _, memo in self.lines)
        return KNOWN_ENTRY_BYTES * len(self.known) + CHOICES_ENTRY_BYTES * choices

    def _search(self, position: int, maker: Bitboard, breaker: Bitboard) -> bool:
        """``exists`` without the kept answers: each line's choices, then one per line."""
        needs = []
        forced = 0
        # Each line with a window left to stop takes a pair of its own: past
        # the empty cells' count of pairs there is no pairing to search for.
        spare = (self.full ^ maker ^ breaker).bit_count()
        for cells, windows, memo in self.lines:
            state = position & cells
            try:
                options = memo[state]
            except KeyError:
                if len(memo) > self.memo_limit:
                    memo.clear()
                options = memo[state] = _options(windows, maker, breaker)
            if options is None:
                continue
            spare -= 2
            if spare < 0:
                return False
            if len(options) <= 1:  # the line has one choice or none: no search for it
                if not options or options[0] & forced:
                    return False
                forced |= options[0]
            else:
                needs.append(options)
        needs.sort(key=len)
        return _choose(needs, 0, forced, [STEP_LIMIT])


@per_rules
def lines_of(rules: Rules) -> list[tuple[Bitboard, list[Bitboard]]]:
    """The board's geometric lines that hold a window: each line's cells, and its windows."""
    geometry = rules.geometry
    by_line: dict[tuple[int, int, int], list[Bitboard]] = {}
    for window in geometry.lines:
        first, second = (geometry.cell_of[bit] for bit in geometry.line_bits[window][:2])
        (r0, c0), (r1, c1) = rules.row_col(first), rules.row_col(second)
        dr, dc = r1 - r0, c1 - c0
        # Which line of that direction: the coordinate that stays the same along it.
        along = r0 if dr == 0 else c0 if dc == 0 else c0 - r0 if dc == 1 else c0 + r0
        by_line.setdefault((dr, dc, along), []).append(window)
    return [(functools.reduce(operator.or_, windows), windows) for windows in by_line.values()]


def _options(windows: list[Bitboard], maker: Bitboard, breaker: Bitboard) -> Options:
    """One line's ways to cover its live windows with disjoint pairs of empty cells.

    None when no window of the line is live; an empty tuple when some live
    window has fewer than two empty cells (no pair fits: the maker is one
    stone from it, or has filled it).  Otherwise the minimal covers, fewest
    cells first, at most ``MAX_OPTIONS`` of them.
    """
    live = [window & ~maker for window in windows if not window & breaker]
    if not live:
        return None
    if any(not empty & (empty - 1) for empty in live):
        return ()
    covers: set[Bitboard] = set()
    budget = [COVER_LIMIT]

    def cover(uncovered: list[Bitboard], used: Bitboard) -> None:
        budget[0] -= 1
        if budget[0] < 0:
            return
        if not uncovered:
            covers.add(used)
            return
        cells = list(one_bits(uncovered[0] & ~used))
        for i, first in enumerate(cells):
            for second in cells[i + 1 :]:
                pair = first | second
                cover([empty for empty in uncovered[1:] if empty & pair != pair], used | pair)

    cover(live, 0)
    ranked = sorted(covers, key=lambda used: (used.bit_count(), used))
    minimal: list[Bitboard] = []
    for used in ranked:
        if not any(smaller & used == smaller for smaller in minimal):
            minimal.append(used)
    return tuple(minimal[:MAX_OPTIONS])


def _choose(needs: list[tuple[Bitboard, ...]], index: int, used: Bitboard, steps: list[int]) -> bool:
    """Whether each line from ``index`` on can take one of its choices, no cell used twice."""
    if index == len(needs):
        return True
    steps[0] -= 1
    if steps[0] < 0:
        return False
    for option in needs[index]:
        if not option & used and _choose(needs, index + 1, used | option, steps):
            return True
    return False


__all__ = ["Pairings"]
