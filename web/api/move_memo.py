"""Repeated ``POST /move`` bodies: the view's memo of its own finished answers.

A proven position is a fixed fact, and clients repeat positions: every game
passes through the same openings, a page asks again after a reload.  When
``/move`` answers a body from the cache at the perfect level, the view keeps
what any later answer to the same bytes needs: for each best move, the body of
its own answer as ``jsonify`` rendered it (split where ``ms`` goes), and the
best moves ``pick_best`` draws from.  A later request whose body is byte for
byte the same is answered by the view from this memo, without parsing the body,
canonicalising the board or rendering JSON, and goes through Flask and every
hook of the app like any other answer (request id, security headers, log line,
metrics); only the request id, ``Content-Length`` and ``ms`` differ from the
first answer.

The memo lives in the worker's one memory of answers, ``SolvedPositions``'
(web/cache/solved.py), under the body's bytes beside the entries it keeps under
position keys, within the same budget in bytes.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Protocol

from flask import Response

from tictactoe import SolveResult, pick_best

# Bodies longer than this are never kept: a 15x15 board is about 300 bytes, and
# boards that size are never proven anyway.
MAX_BODY_BYTES = 1024
# What a memo holds besides the text of its body and answers (its objects' headers,
# its fields, the result's best moves), and what each answer adds besides its text
# (two bytes objects, a tuple, the dict's slot): from sys.getsizeof, rounded up.
MEMO_OVERHEAD_BYTES = 700
ANSWER_OVERHEAD_BYTES = 200
# Stands in for ``ms`` in the answers kept: plain ASCII, so that JSON renders it as
# it is, and no other field of a /move answer can hold it.
MS_MARK = "ms-of-this-answer"
_MS_MARK_JSON = f'"{MS_MARK}"'.encode()


class Memory(Protocol):
    """Where memos are kept: ``SolvedPositions``' memory of answers (web/cache/solved.py)."""

    def kept(self, body: bytes) -> object | None:
        """What ``keep`` kept for the request ``body``, or None."""

    def keep(self, body: bytes, answer: object, size: int) -> None:
        """Keep ``answer`` (``size`` bytes) for the request ``body``."""


@dataclass(frozen=True)
class MoveMemo:
    """What answering one body again needs.

    ``result``: what ``pick_best`` draws from (proven; its best moves in the posted
    cells); ``answers``: per best move, the body of the view's answer around ``ms``;
    ``content_type``: its header; ``seed``: the body's seed, if any (the same seed
    draws the same move); ``board`` and ``source``: the log line's fields.
    """

    result: SolveResult
    answers: dict[int, tuple[bytes, bytes]]
    content_type: str
    seed: int | None
    board: str
    source: str

    def body(self, rng: random.Random, started: float) -> bytes:
        """An answer's body: a best move drawn by ``pick_best``, ``ms`` since ``started`` (perf_counter)."""
        before, after = self.answers[pick_best(self.result, rng)]
        ms = round(1000 * (time.perf_counter() - started), 3)
        return b"%b%r%b" % (before, ms, after)

    def size(self, body: bytes) -> int:
        """The bytes keeping this memo under ``body`` takes, by the measured overheads."""
        text = sum(
            ANSWER_OVERHEAD_BYTES + len(before) + len(after) for before, after in self.answers.values()
        )
        return MEMO_OVERHEAD_BYTES + len(body) + text


def remember(
    memory: Memory,
    body: bytes,
    result: SolveResult,
    answers: dict[int, Response],
    seed: int | None,
    board: str,
    source: str,
) -> None:
    """Keep the view's ``answers`` to ``body`` (per best move of ``result``, ``MS_MARK`` as ``ms``).

    Raises ``ValueError`` when an answer does not hold the mark exactly once.
    """
    if len(body) > MAX_BODY_BYTES or not answers:
        return
    split = {}
    for cell, answer in answers.items():
        text = answer.get_data()
        if text.count(_MS_MARK_JSON) != 1:
            raise ValueError(f"the answer for cell {cell} must hold {MS_MARK!r} once as ms")
        before, _, after = text.partition(_MS_MARK_JSON)
        split[cell] = (before, after)
    content_type = next(iter(answers.values())).content_type or "application/json"
    memo = MoveMemo(result, split, content_type, seed, board, source)
    memory.keep(body, memo, memo.size(body))


def recall(memory: Memory, body: bytes) -> MoveMemo | None:
    """The memo kept for ``body`` in ``memory``, or None."""
    memo = memory.kept(body)
    return memo if isinstance(memo, MoveMemo) else None
