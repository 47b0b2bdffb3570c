"""The static evaluation of a position, counted on whole bitboards, and the threat tiers.

A *window* is any k cells in a row.  It is *live* for a side when the
opponent has no stone in it (the side could still complete it), and its
*level* is how many of the side's stones it holds.  A position is worth, to
the side to move, the sum of a steeply rising weight over the levels of its
live windows, minus the same sum for the opponent; the side to move has the
tempo, so its windows weigh more.

Nothing loops over windows.  Along a direction with shift ``d`` a window is
named by the bit of its first cell, and the k shifted copies of a bitboard
line the window's cells up on that bit.  Drawn for a row, k = 3::

    stones             . x x . o |      bit s of copy j holds cell s + j*d
    stones >> 0*d      . x x . o |  ->  the window starting at s:
    stones >> 1*d      x x . o . |
    stones >> 2*d      x . o . . |      s = 0: . x x   level 2
                       ^ ^ ^            s = 1: x x .   level 2
    starts             1 1 1 0 0 |      s = 2: x . o   dead for x
                                        (starts: the windows that fit)

    live for x   = starts & ~(o >> 0*d | o >> 1*d | o >> 2*d)
    at_least[c]  = windows holding c or more stones: a unary counter fed
                   the k copies of (x | o), one AND and OR per level
    value       += step[c] * popcount(live for x & at_least[c])   for each c

In a window live for x every stone is x's, so one counter over both colours
serves both sides, and ``step[c] = weight[c] - weight[c - 1]`` makes the
popcounts of "at least c" add up to the weight of each window's level.

The evaluation counts all four directions in one pass, on a *stacked* board:
the usual layout (``rules.py``) followed by three more lanes, where the
columns, the diagonals and the anti-diagonals each lie along consecutive
bits, a guard bit after each line (lines shorter than k are left out)::

    a b c d          lane 0, rows:      a b c d | e f g h | i j k l |
    e f g h    ->    lane 1, columns:   a e i | b f j | c g k | d h l |
    i j k l          lane 2, diagonals: a f k | b g l |
                     lane 3, anti-diag: c f i | d g j |     (k = 3: e j, c h ... left out)

so d = 1 walks every line of every lane at once.  A move sets one bit in
each lane (``stacked_bits``), and lane 0 alone is the plain bitboard.  The
cells that would complete a line are found there in one pass too
(``completing``); the few that are empty map back to plain cells (``plain``).

The same counts, per direction on the plain board, rank candidate moves
(``move_tiers``): the cells of the windows a stone could raise to a threat.
"""

from __future__ import annotations

from ..game.rules import Bitboard, Cell, Rules, per_rules

# A window missing r stones weighs FACTOR ** (WEIGHTED_MISSING - r): each stone
# nearer to a line multiplies its worth, and windows that far from k weigh 1.
FACTOR = 8
WEIGHTED_MISSING = 5
# The side to move plays next (an open k-2 of its own becomes an unstoppable
# pair of threats), so its windows weigh TEMPO[0] to the opponent's TEMPO[1].
# Self-play on 15x15, k = 5: 2:1 beat 1:1 and 4:1, 3:2 beat 2:1 (38 games to 22), 5:4 drew.
TEMPO = (3, 2)
# Levels below the top few rank moves no better than plain nearness does.
TIER_LEVELS = 2
# The lanes after the plain board, as (row step, column step).
STACKED_STEPS = ((1, 0), (1, 1), (1, -1))


class Evaluator:
    """The static evaluation and move ranking for one set of rules (build with ``evaluator``).

    Attributes:
        stacked_bits: from a cell's plain one-bit board to its bits in every lane.
    """

    def __init__(self, rules: Rules) -> None:
        geometry = rules.geometry
        self.k = k = rules.k
        full = geometry.full
        self.directions = [(d, starts) for d in geometry.directions if (starts := _window_starts(full, d, k))]
        stacked = _stack_lanes(rules)
        self.stacked_bits = {geometry.bits[cell]: bits for cell, bits in enumerate(stacked)}
        self.stacked_full = sum(stacked)
        self.stacked_starts = _window_starts(self.stacked_full, 1, k)
        self.plain_full = full
        # Each bit of a stacked board, to the plain bit of its cell.
        self.plain_bits = {}
        for cell, bits in enumerate(stacked):
            while bits:
                bit = bits & -bits
                self.plain_bits[bit] = geometry.bits[cell]
                bits ^= bit
        weight = [0] + [FACTOR ** max(0, WEIGHTED_MISSING - (k - c)) for c in range(1, k)]
        steps = [weight[c] - weight[c - 1] for c in range(k)]
        self.my_steps = [TEMPO[0] * step for step in steps]
        self.their_steps = [TEMPO[1] * step for step in steps]
        self.tier_levels = [c for c in range(k - 2, k - 2 - TIER_LEVELS, -1) if c >= 1]
        # raised[j]: the counter levels the j-th copy can raise, top down (j + 1 stones at most).
        self.raised = [range(min(j + 1, k - 1), 1, -1) for j in range(k)]

    def stack(self, plain: Bitboard) -> Bitboard:
        """The stacked board of a plain bitboard."""
        stacked = 0
        for bit, bits in self.stacked_bits.items():
            if plain & bit:
                stacked |= bits
        return stacked

    def plain(self, stacked: Bitboard) -> Bitboard:
        """The plain bitboard of the cells set in any lane of a stacked board (fast when few)."""
        plain = stacked & self.plain_full
        rest = stacked ^ plain
        plain_bits = self.plain_bits
        while rest:
            bit = rest & -rest
            plain |= plain_bits[bit]
            rest ^= bit
        return plain

    def completing(self, stones: Bitboard) -> Bitboard:
        """The stacked bits of the cells (empty or not) that complete k of these stacked stones."""
        k = self.k
        # ahead[j]: bits with stones on the next j bits; behind[j]: on the previous j.
        ahead = [-1]
        behind = [-1]
        for j in range(1, k):
            ahead.append(ahead[-1] & (stones >> j))
            behind.append(behind[-1] & (stones << j))
        found = 0
        for j in range(k):
            found |= ahead[j] & behind[k - 1 - j]
        return found & self.stacked_full

    def count_windows(
        self, me: Bitboard, opp: Bitboard, d: int, starts: Bitboard
    ) -> tuple[Bitboard, Bitboard, list[Bitboard]]:
        """The windows along ``d`` live for each side, and the windows by stones held.

        Returns ``(live_me, live_opp, at_least)`` as bitboards of window starts;
        ``at_least[c]`` (1 <= c < k) holds the windows with c or more stones of
        either colour.  A window with k stones counts as k - 1.
        """
        at_least = [0] * self.k
        blocked_me = blocked_opp = 0
        for j, raised in enumerate(self.raised):
            mine = me >> (j * d)
            theirs = opp >> (j * d)
            blocked_me |= theirs
            blocked_opp |= mine
            stones = mine | theirs
            # Raise the counter from the top down, so that a copy adds one stone.
            for c in raised:
                at_least[c] |= at_least[c - 1] & stones
            at_least[1] |= stones
        return starts & ~blocked_me, starts & ~blocked_opp, at_least

    def evaluate(self, me: Bitboard, opp: Bitboard) -> int:
        """The heuristic worth to the side to move (``me``); stacked boards, no line made yet."""
        live_me, live_opp, at_least = self.count_windows(me, opp, 1, self.stacked_starts)
        my_steps, their_steps = self.my_steps, self.their_steps
        score = 0
        for c in range(1, self.k):
            level = at_least[c]
            if not level:
                break  # the counts only shrink as c grows
            score += (
                my_steps[c] * (live_me & level).bit_count() - their_steps[c] * (live_opp & level).bit_count()
            )
        return score

    def move_tiers(self, me: Bitboard, opp: Bitboard) -> list[Bitboard]:
        """Plain cells ranked by the windows a stone there would raise or spoil, most urgent first.

        For each of the top levels c (k-2 first: a stone there makes a
        threat), the tiers are: the cells of two or more of my live windows
        holding c or more stones, the same for the opponent's, then the cells of
        one such window of mine, then of theirs.  ``me`` and ``opp`` are plain
        bitboards; tiers may overlap and include occupied cells.
        """
        levels = self.tier_levels
        covers = [[0, 0, 0, 0] for _ in levels]  # mine once, twice; theirs once, twice
        for d, starts in self.directions:
            live_me, live_opp, at_least = self.count_windows(me, opp, d, starts)
            for cover, c in zip(covers, levels, strict=False):
                cover[0], cover[1] = self._cover(live_me & at_least[c], d, cover[0], cover[1])
                cover[2], cover[3] = self._cover(live_opp & at_least[c], d, cover[2], cover[3])
        tiers = []
        for mine_once, mine_twice, theirs_once, theirs_twice in covers:
            tiers += [mine_twice, theirs_twice, mine_once, theirs_once]
        return tiers

    def _cover(self, windows: Bitboard, d: int, once: Bitboard, twice: Bitboard) -> tuple[Bitboard, Bitboard]:
        """Add the cells of these windows (starts along ``d``) to the once/twice-covered masks."""
        if windows:
            for j in range(self.k):
                cells = windows << (j * d)
                twice |= once & cells
                once |= cells
        return once, twice


def _window_starts(cells: Bitboard, d: int, k: int) -> Bitboard:
    """The cells that start k of ``cells`` in a row along shift ``d`` (guard bits break rows)."""
    starts = cells
    for j in range(1, k):
        starts &= cells >> (j * d)
    return starts


def _stack_lanes(rules: Rules) -> list[Bitboard]:
    """Each cell's bits on the stacked board: its plain bit, then one bit per further lane."""
    geometry = rules.geometry
    rows, cols, k = rules.rows, rules.cols, rules.k
    stacked = list(geometry.bits)
    offset = rows * geometry.stride  # the lanes start above the plain board
    for dr, dc in STACKED_STEPS:
        for line in _lines(rows, cols, dr, dc):
            if len(line) < k:
                continue  # no window fits: the cells need no bit in this lane
            for i, cell in enumerate(line):
                stacked[cell] |= 1 << (offset + i)
            offset += len(line) + 1  # and a guard bit
    return stacked


def _lines(rows: int, cols: int, dr: int, dc: int) -> list[list[Cell]]:
    """The maximal lines of cells along (dr, dc), each from its first cell on."""
    lines = []
    for r in range(rows):
        for c in range(cols):
            if 0 <= r - dr < rows and 0 <= c - dc < cols:
                continue  # not the first cell of its line
            line = []
            row, col = r, c
            while 0 <= row < rows and 0 <= col < cols:
                line.append(row * cols + col)
                row, col = row + dr, col + dc
            lines.append(line)
    return lines


@per_rules
def evaluator(rules: Rules) -> Evaluator:
    """The shared evaluator of these rules (its tables are built once)."""
    return Evaluator(rules)


__all__ = ["Evaluator", "evaluator", "FACTOR", "TEMPO"]
