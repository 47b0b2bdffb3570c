"""Repeated ``POST /move`` bodies: Flask's own answer, replayed.

A proven position is a fixed fact, and clients repeat positions: every game
passes through the same openings, a page asks again after a reload.  When the
``/move`` view answers a body from the cache at the perfect level, it keeps a
memo (``remember``): for each best move, the body of its own answer as
``jsonify`` rendered it (split where ``ms`` goes), and the best moves
``pick_best`` draws from.  ``Replay``, a WSGI layer around Flask, then captures
the status and headers Flask sent for that body, after every hook of the app
had its say, once the answer's body is seen to be one the memo holds.  A later
request whose body is byte for byte the same is answered with those headers and
a body from the memo, without Flask: only the request id, ``Content-Length``
and ``ms`` differ from what Flask would send (a best move is drawn by
``pick_best`` with the body's seed, as the view draws it).  So a hook
registered on the app marks every answer, the replayed ones with the mark it
gave the captured answer.  The replay counts the cache hit, and has the request
counted and logged by the function the app's own hook calls
(``request_log.register``'s ``Record``).

Anything else (another path or method, another body, a content type or length
it does not know at a glance, a body that stops arriving, a memo whose headers
are not captured yet for this scheme) goes to Flask, with the body it read
handed on; so does every answer to a body whose answer a hook changed, or gave
a cookie or a ``Vary`` header (``UNREPLAYABLE``).

Why a layer in front of Flask: a cached move is held to a speed floor beside a
bare Flask app (docs/benchmarks.md, "The speed floor"), which Flask's request
machinery and the app's hooks alone would not meet.

The memos live in the worker's one memory of answers, ``SolvedPositions``'
(web/cache/solved.py), under the body's bytes beside the entries it keeps under
position keys, within the same budget in bytes.
"""

from __future__ import annotations

import io
import logging
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from flask import Flask, Response

from tictactoe import SolveResult, pick_best
from web.operations.per_process import RANDOM
from web.operations.request_log import ENVIRON_KEY, Record, request_id
from web.operations.throttled_log import ThrottledLog

logger = logging.getLogger(__name__)

PATH = "/move"
# Bodies longer than this are never kept: a 15x15 board is about 300 bytes, and
# boards that size are never proven anyway.
MAX_BODY_BYTES = 1024
# What a memo holds besides the text of its body and answers (its objects' headers,
# its fields, the result's best moves, the headers captured for both schemes), and
# what each answer adds besides its text (two bytes objects, a tuple, the dict's
# slot): from sys.getsizeof, rounded up.
MEMO_OVERHEAD_BYTES = 2400
ANSWER_OVERHEAD_BYTES = 200
# Stands in for ``ms`` in the answers kept: plain ASCII, so that JSON renders it as
# it is, and no other field of a /move answer can hold it.
MS_MARK = "ms-of-this-answer"
_MS_MARK_JSON = f'"{MS_MARK}"'.encode()
# The content types the replay takes as they are written; any other spelling goes
# to Flask, which reads it properly (the two must never disagree).
JSON_TYPES = frozenset(
    ("application/json", "application/json; charset=utf-8", "application/json;charset=utf-8")
)
# The headers a replay sets afresh; every other one is as Flask sent it.
_REQUEST_ID = "x-request-id"
_LENGTH = "content-length"
# An answer with one of these is never replayed: a cookie is one client's, and an
# answer that varies with a request header may not fit the next client's request.
UNREPLAYABLE = frozenset(("set-cookie", "vary"))

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]
Headers = tuple[tuple[str, str], ...]
# Unseeded choices draw from the worker's own random source: no state shared by
# forked workers, and no system call per request (web/operations/per_process.py).
_UNSEEDED = RANDOM


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
    ``seed``: the body's seed, if any (the same seed draws the same move); ``board``
    and ``source``: the log line's fields; ``headers``: by scheme (True for
    HTTPS), the status and headers Flask sent with an answer to this body.
    """

    result: SolveResult
    answers: dict[int, tuple[bytes, bytes]]
    seed: int | None
    board: str
    source: str
    headers: dict[bool, tuple[str, Headers]] = field(default_factory=dict)

    def body(self, rng: random.Random, started: float) -> bytes:
        """An answer's body: a best move drawn by ``pick_best``, ``ms`` since ``started`` (perf_counter)."""
        before, after = self.answers[pick_best(self.result, rng)]
        ms = round(1000 * (time.perf_counter() - started), 3)
        return b"%b%r%b" % (before, ms, after)

    def holds(self, sent: bytes) -> bool:
        """Whether ``sent`` is one of this memo's bodies, with some ``ms``: no hook changed it."""
        for before, after in self.answers.values():
            if sent.startswith(before) and sent.endswith(after):
                ms = sent[len(before) : len(sent) - len(after)]
                return ms.replace(b".", b"", 1).isdigit()
        return False

    def size(self, body: bytes) -> int:
        """The bytes keeping this memo under ``body`` takes, by the measured overheads."""
        text = sum(
            ANSWER_OVERHEAD_BYTES + len(before) + len(after) for before, after in self.answers.values()
        )
        return MEMO_OVERHEAD_BYTES + len(body) + text


def draw_source(seed: int | None) -> random.Random:
    """Where a /move request's random choices come from: repeatable with a seed, else the worker's own."""
    return random.Random(seed) if seed is not None else _UNSEEDED


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
    memo = MoveMemo(result, split, seed, board, source)
    memory.keep(body, memo, memo.size(body))


def recall(memory: Memory, body: bytes) -> MoveMemo | None:
    """The memo kept for ``body`` in ``memory``, or None."""
    memo = memory.kept(body)
    return memo if isinstance(memo, MoveMemo) else None


class Replay:
    """WSGI: answer a known ``POST /move`` body with Flask's captured answer, else hand it to ``app``.

    ``memory()``: the worker's memory of answers; ``count_hit()`` counts a cache
    hit as the cache does; ``record`` counts and logs an answered request as the
    app's own hook does.
    """

    def __init__(
        self, app: WSGIApp, memory: Callable[[], Memory], count_hit: Callable[[], None], record: Record
    ) -> None:
        self.app = app
        self.memory = memory
        self.count_hit = count_hit
        self.record = record
        self.log = ThrottledLog(logger)

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        started = time.perf_counter()
        length = _plain_length(environ)
        if length is None:
            return self.app(environ, start_response)
        stream = environ["wsgi.input"]
        try:
            body = stream.read(length)
        except Exception as error:  # the app meets the same error when it reads (408 for a timeout)
            environ["wsgi.input"] = _Failing(error)
            return self.app(environ, start_response)
        environ["wsgi.input"] = io.BytesIO(body)  # Flask reads what was read, short or whole
        if len(body) != length:
            return self.app(environ, start_response)
        secure = environ.get("wsgi.url_scheme") == "https"
        memo = recall(self.memory(), body)
        if memo is not None and secure in memo.headers:
            try:
                return self._replay(environ, start_response, memo, memo.headers[secure], started)
            except Exception as error:  # never a 500 from a replay: Flask answers instead
                self.log.warning("replay", "a replay failed (%r); Flask answers instead", error)
                environ["wsgi.input"] = io.BytesIO(body)
        return self._capture(environ, start_response, body, secure)

    def _replay(
        self,
        environ: dict[str, Any],
        start_response: StartResponse,
        memo: MoveMemo,
        captured: tuple[str, Headers],
        started: float,
    ) -> list[bytes]:
        status, headers = captured
        payload = memo.body(draw_source(memo.seed), started)
        rid = request_id(environ.get(ENVIRON_KEY))
        length = str(len(payload))
        fresh = [
            (name, rid if lower == _REQUEST_ID else length if lower == _LENGTH else value)
            for name, value in headers
            for lower in (name.lower(),)
        ]
        self.count_hit()
        fields = {"cache": "hit", "board": memo.board, "source": memo.source}
        self.record("POST", PATH, PATH, int(status[:3]), time.perf_counter() - started, rid, fields)
        # Last: once it is called, Flask could no longer answer in the replay's place.
        start_response(status, fresh)
        return [payload]

    def _capture(
        self, environ: dict[str, Any], start_response: StartResponse, body: bytes, secure: bool
    ) -> Iterable[bytes]:
        """Flask's answer; its status and headers kept on the body's memo when its body is the memo's."""
        sent: list[tuple[str, Headers]] = []

        def capture(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            if exc_info is None:
                sent.append((status, tuple(headers)))
            return start_response(status, headers, exc_info)

        answer = self.app(environ, capture)
        memo = recall(self.memory(), body)
        if memo is None or secure in memo.headers or not sent or not sent[0][0].startswith("200 "):
            return answer
        try:
            chunks = list(answer)
        finally:
            close = getattr(answer, "close", None)
            if close is not None:
                close()
        status, headers = sent[0]
        if memo.holds(b"".join(chunks)) and not any(name.lower() in UNREPLAYABLE for name, _ in headers):
            memo.headers[secure] = (status, headers)
        return chunks


def _plain_length(environ: dict[str, Any]) -> int | None:
    """The body length of a ``POST /move`` a replay may take: JSON, a small stated length; else None."""
    if environ.get("PATH_INFO") != PATH or environ.get("REQUEST_METHOD") != "POST":
        return None
    if environ.get("CONTENT_TYPE") not in JSON_TYPES or "HTTP_TRANSFER_ENCODING" in environ:
        return None
    text = environ.get("CONTENT_LENGTH")
    if not text or not text.isascii() or not text.isdigit() or len(text) > 4:
        return None
    length = int(text)
    return length if 0 < length <= MAX_BODY_BYTES else None


class _Failing(io.RawIOBase):
    """A body stream whose every read raises ``error``: what the original stream did."""

    def __init__(self, error: Exception) -> None:
        super().__init__()
        self.error = error

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        raise self.error


def init_app(app: Flask, record: Record) -> None:
    """Put ``Replay`` around ``app``'s WSGI callable; ``record`` counts and logs as the app's hook does."""

    def memory() -> Memory:
        positions: Memory = app.extensions["solved_positions"]
        return positions

    def count_hit() -> None:
        app.extensions["solved_positions"].stats.add(hits=1)

    app.wsgi_app = Replay(app.wsgi_app, memory, count_hit, record)  # type: ignore[method-assign]
