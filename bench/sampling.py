"""The positions the proof-cost benchmarks measure: each stone count's positions, or a seeded sample.

``bench/book_depth.py`` and ``bench/proof_nodes.py`` draw the same sample for
the same ``--seed``, so their rows are about the same positions.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path

# The benchmarks run as scripts (``python bench/proof_nodes.py``): the engine is beside this folder.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tictactoe import Board, Rules
from tictactoe.book import positions_by_stones


def stone_range(text: str) -> range:
    """``3`` or ``0-3`` as a range of stone counts."""
    low, _, high = text.partition("-")
    return range(int(low), int(high or low) + 1)


def sampled_levels(
    rules: Rules, stones: range, sample: int, seed: int
) -> Iterator[tuple[int, int, list[Board]]]:
    """``(stones, positions at that count, boards measured)`` for each count in ``stones``.

    The boards are every canonical non-terminal position with that many
    stones, or a ``random.Random(seed)`` sample of ``sample`` of them when there are more.
    """
    for count, level in positions_by_stones(rules, max(stones)):
        if count not in stones:
            continue
        boards = list(level.values())
        if len(boards) > sample:
            boards = random.Random(seed).sample(boards, sample)
        yield count, len(level), boards
