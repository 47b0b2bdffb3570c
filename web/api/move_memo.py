"""The ``POST /move`` view's memo of repeated bodies: what the body asks, its answer, rendered.

A proven position is a fixed fact, and clients repeat positions: every game
passes through the same openings, a page asks again after a reload.  Once the
view has answered a body from the cache, it keeps (``remember``) what answering
it again needs: the checked request (board, level, seed), the cached result,
and, per move the level has played, the answer's body as ``jsonify`` rendered
it (split where ``ms`` goes).  Answering the same body again (``MoveMemo``)
skips parsing, the cache and rendering; nothing else: the level still chooses
the move (``choose_move``, with the kept result as its analysis, so a level that
chooses otherwise plays its own move), and the answer goes through Flask and
every hook of the app like any other.

Keyed by the body's bytes, which hold everything an answer depends on but the
random draw and ``ms``: the board, ``k``, the level and the seed (a body with
another level or seed is another key).  Only answers known from the cache are
kept: such a position's result never changes.

The memos live in the worker's one memory of answers, ``SolvedPositions``'
(web/cache/solved.py), under the body's bytes beside the entries it keeps under
position keys, within the same budget in bytes.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from web.api.payload import PositionRequest
from web.cache import Answer
from web.runtime.per_process import RANDOM

# Bodies longer than this are never kept: a 15x15 board is about 300 bytes, and
# boards that size are never proven anyway.
MAX_BODY_BYTES = 1024
# What a memo holds besides the text of its body and answers (its objects' headers,
# its fields, the request's board, the result), and what each rendered answer adds
# besides its text (two bytes objects, a tuple, the dict's slot): from
# sys.getsizeof, rounded up.
MEMO_OVERHEAD_BYTES = 2400
ANSWER_OVERHEAD_BYTES = 200
# Stands in for ``ms`` in the answers kept: plain ASCII, so that JSON renders it as
# it is, and no other field of a /move answer can hold it.
MS_MARK = "ms-of-this-answer"
_MS_MARK_JSON = f'"{MS_MARK}"'.encode()
# Unseeded choices draw from the worker's own random source: no state shared by
# forked workers, and no system call per request (web/runtime/per_process.py).
_UNSEEDED = RANDOM

# render(cell): the view's answer playing ``cell``, as JSON, with ``MS_MARK`` as its ms.
Render = Callable[[int], bytes]


class Memory(Protocol):
    """Where memos are kept: ``SolvedPositions``' memory of answers (web/cache/solved.py)."""

    def kept(self, body: bytes) -> object | None:
        """What ``keep`` kept for the request ``body``, or None."""

    def keep(self, body: bytes, answer: object, size: int) -> None:
        """Keep ``answer`` (``size`` bytes) for the request ``body``."""


@dataclass
class MoveMemo:
    """What answering one body again needs.

    ``request``: the body, checked (its board never played on: a memo is shared
    by the worker's requests); ``answer``: the cached result for the board, in
    the posted cells; ``rendered``: per cell played so far, the answer's body
    around ``ms``.
    """

    request: PositionRequest
    answer: Answer
    rendered: dict[int, tuple[bytes, bytes]] = field(default_factory=dict)

    def analysis(self, board: object) -> Answer:
        """The kept result, as ``choose_move``'s analysis of the memo's board."""
        return self.answer

    def body(self, cell: int, render: Render, started: float) -> bytes:
        """The answer playing ``cell`` (rendered by ``render`` the first time), ``ms`` since ``started``."""
        parts = self.rendered.get(cell)
        if parts is None:
            # Two requests may render the same cell at once: each keeps the same bytes.
            parts = self.rendered[cell] = _split(cell, render(cell))
        before, after = parts
        ms = round(1000 * (time.perf_counter() - started), 3)
        return b"%b%r%b" % (before, ms, after)


def draw_source(seed: int | None) -> random.Random:
    """Where a /move request's random choices come from: repeatable with a seed, else the worker's own."""
    return random.Random(seed) if seed is not None else _UNSEEDED


def remember(memory: Memory, body: bytes, memo: MoveMemo) -> None:
    """Keep ``memo`` (with one answer rendered) for ``body``, unless the body is too long to keep."""
    if len(body) > MAX_BODY_BYTES or not memo.rendered:
        return
    before, after = next(iter(memo.rendered.values()))
    # Any empty cell may be played and rendered later (a level that plays at random): budget for all.
    answers = memo.request.board.empties * (ANSWER_OVERHEAD_BYTES + len(before) + len(after))
    memory.keep(body, memo, MEMO_OVERHEAD_BYTES + len(body) + answers)


def recall(memory: Memory, body: bytes) -> MoveMemo | None:
    """The memo kept for ``body`` in ``memory``, or None."""
    memo = memory.kept(body)
    return memo if isinstance(memo, MoveMemo) else None


def _split(cell: int, text: bytes) -> tuple[bytes, bytes]:
    """``text`` around its one ``MS_MARK``; ``ValueError`` if it does not hold it exactly once."""
    if text.count(_MS_MARK_JSON) != 1:
        raise ValueError(f"the answer for cell {cell} must hold {MS_MARK!r} once as ms")
    before, _, after = text.partition(_MS_MARK_JSON)
    return before, after
