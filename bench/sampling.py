"""The positions the proof-cost benchmarks measure: each stone count's positions, or a seeded sample.

``bench/book_depth.py`` and ``bench/proof_nodes.py`` draw the same sample for
the same ``--seed``, so their rows are about the same positions.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from math import comb
from pathlib import Path

# The benchmarks run as scripts (``python bench/proof_nodes.py``): the engine is beside this folder.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tictactoe import Board, Rules
from tictactoe.book.lookup import position_key
from tictactoe.tools.book_build import positions_by_stones

# Past this many positions (before symmetry) a stone count is sampled by drawing
# random positions, not by listing its classes: 6x6 with 6 stones has about 39
# million, more than memory holds as boards.
LISTED_MAX = 5_000_000


def stone_range(text: str) -> range:
    """``3`` or ``0-3`` as a range of stone counts."""
    low, _, high = text.partition("-")
    return range(int(low), int(high or low) + 1)


def sampled_levels(
    rules: Rules, stones: range, sample: int, seed: int
) -> Iterator[tuple[int, int | None, list[Board]]]:
    """``(stones, positions at that count, boards measured)`` for each count in ``stones``.

    The boards are every canonical non-terminal position with that many
    stones, or a ``random.Random(seed)`` sample of ``sample`` of them when there
    are more.  A count is listed only when it and every count below it (the
    levels a listing passes through) have at most ``LISTED_MAX`` positions
    before symmetry; the others' boards are ``drawn_positions`` and their count
    of positions is None.
    """
    listed = [
        count
        for count in stones
        if all(positions_before_symmetry(rules, below) <= LISTED_MAX for below in range(count + 1))
    ]
    if listed:
        for count, level in positions_by_stones(rules, max(listed)):
            if count not in stones:
                continue
            boards = list(level.values())
            if len(boards) > sample:
                boards = random.Random(seed).sample(boards, sample)
            yield count, len(level), boards
    for count in stones:
        if count not in listed:
            yield count, None, drawn_positions(rules, count, sample, seed)


def positions_before_symmetry(rules: Rules, stones: int) -> int:
    """How many ways there are to put ``stones`` stones on the board, x's half rounded up."""
    x_stones = (stones + 1) // 2
    return comb(rules.cells, x_stones) * comb(rules.cells - x_stones, stones - x_stones)


def drawn_positions(rules: Rules, stones: int, sample: int, seed: int) -> list[Board]:
    """``sample`` different canonical non-terminal positions, each stone placed at random.

    Every placement without a line is equally likely, so a class is drawn in
    proportion to its distinct images (symmetric positions a little less often
    than in ``positions_by_stones``'s sample); a placement with a line is drawn again.
    """
    rng = random.Random(seed)
    drawn: dict[str, Board] = {}
    while len(drawn) < sample:
        board = Board(rules)
        for turn, cell in enumerate(rng.sample(range(rules.cells), stones)):
            if turn % 2:
                board.o |= rules.geometry.bits[cell]
            else:
                board.x |= rules.geometry.bits[cell]
        if not board.is_over():
            canonical = board.canonical()[0]
            drawn.setdefault(position_key(canonical), canonical)
    return list(drawn.values())
