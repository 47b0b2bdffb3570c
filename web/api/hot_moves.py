"""Repeated ``POST /move`` bodies answered before Flask: the move server's hot path.

A proven position is a fixed fact, and clients repeat positions: every game
passes through the same openings, a page asks again after a reload.  When
``/move`` answers a body from the cache at the perfect level, the view hands
``HotMoves`` what any later answer to the same bytes needs: for each best
move, the answer's JSON, rendered by the app's own JSON provider.  A later
request whose body is byte for byte the same is answered by ``HotPath``, a
WSGI layer in front of Flask, without building a Flask request: the same JSON
(a best move drawn as ``pick_best`` draws it, the seed included; ``ms`` the
time of the lookup), the same headers, the same log line, the same metrics and
cache counters.  Anything else (another path or method, another body, a
content type or length it does not know at a glance, a body that stops
arriving) goes to the app as before, with the body it read handed on.

Why: Flask's request machinery and hooks cost more than the answer itself; the
figures are in docs/benchmarks.md ("The speed floor").  ``tests/test_hot_moves.py``
checks that both paths answer alike, byte for byte.
"""

from __future__ import annotations

import io
import logging
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask import Flask, current_app

from web.cache.byte_budget import ByteBudget
from web.operations.request_log import Observe, log_request, request_id
from web.operations.throttled_log import ThrottledLog

logger = logging.getLogger(__name__)

PATH = "/move"
# Bodies longer than this are never kept: a 15x15 board is about 300 bytes, and
# boards that size are never proven anyway.
MAX_BODY_BYTES = 1024
# The bytes of records kept per worker (oldest dropped first): a record is its body
# and a few hundred bytes per best move, so a 15x15 board with every move best
# takes about 12 KB.
RECORDS_BYTES = 16 * 1024 * 1024
# What a record holds besides the text of its body and answers (its objects' headers,
# its fields), and what each answer adds besides its text (two bytes objects, a tuple).
RECORD_OVERHEAD_BYTES = 400
ANSWER_OVERHEAD_BYTES = 130
# The content types the hot path takes as they are written; any other spelling
# goes through Flask, which reads it properly (the two must never disagree).
JSON_TYPES = frozenset(
    ("application/json", "application/json; charset=utf-8", "application/json;charset=utf-8")
)
# Stands in for the ``ms`` field while an answer is rendered once for all.
_MS_MARK = "\x00ms\x00"

Dumps = Callable[[object], str]
StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]
_UNSEEDED = random.SystemRandom()


@dataclass(frozen=True)
class Record:
    """What answering one body again needs: per best move (``pick_best``'s order), its JSON around ``ms``.

    ``seeded``: the body's seed, if it has one (the same seed draws the same move).
    ``fields``: the log line's and the metrics' fields (``cache``, ``board``, ``source``).
    """

    answers: tuple[tuple[bytes, bytes], ...]
    seed: int | None
    fields: dict[str, str]

    def render(self, ms: float) -> bytes:
        """The body of one answer: a best move drawn as ``tictactoe.pick_best`` draws it."""
        rng = random.Random(self.seed) if self.seed is not None else _UNSEEDED
        before, after = rng.choice(self.answers)
        return before + repr(round(ms, 3)).encode() + after


class HotMoves:
    """The records of one worker, by request body; ``dumps`` renders JSON as the app's answers do."""

    def __init__(self, dumps: Dumps, budget: int = RECORDS_BYTES) -> None:
        self._dumps = dumps
        self._records: ByteBudget[bytes, Record] = ByteBudget(budget)
        self._mark = dumps(_MS_MARK).strip()  # the mark as the JSON text holds it

    def remember(
        self, body: bytes, answers: Sequence[Mapping[str, object]], seed: int | None, board: str, source: str
    ) -> None:
        """Keep the answers to ``body``: one per best move in ``pick_best``'s order, each with ``ms``."""
        if len(body) > MAX_BODY_BYTES or not answers:
            return
        rendered = []
        for fields in answers:
            before, _, after = self._dumps({**fields, "ms": _MS_MARK}).partition(self._mark)
            rendered.append((before.encode(), after.encode()))
        record = Record(tuple(rendered), seed, {"cache": "hit", "board": board, "source": source})
        size = (
            RECORD_OVERHEAD_BYTES
            + len(body)
            + sum(ANSWER_OVERHEAD_BYTES + len(before) + len(after) for before, after in rendered)
        )
        self._records.put(body, record, size)

    def get(self, body: bytes) -> Record | None:
        """The record for ``body``, or None."""
        return self._records.get(body)

    def __len__(self) -> int:
        return len(self._records)

    @property
    def bytes(self) -> int:
        """The bytes the records count for (at most the budget)."""
        return self._records.bytes


class HotPath:
    """WSGI: answer ``POST /move`` from ``moves`` when the body is known, else hand it to ``app``.

    ``count_hit()`` counts a cache hit as the cache does; ``observe`` and the log
    line see the request as the app's own hooks would; ``headers(secure)`` are
    the headers every response gets.
    """

    def __init__(
        self,
        app: WSGIApp,
        moves: HotMoves,
        count_hit: Callable[[], None],
        observe: Observe,
        headers: Callable[[bool], list[tuple[str, str]]],
    ) -> None:
        self.app = app
        self.moves = moves
        self.count_hit = count_hit
        self.observe = observe
        self.headers = headers
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
        record = self.moves.get(body) if len(body) == length else None
        if record is None:
            environ["wsgi.input"] = io.BytesIO(body)  # the app reads what was read, short or whole
            return self.app(environ, start_response)
        try:
            return self._answer(environ, start_response, record, started)
        except Exception as error:  # never a 500 from the shortcut: the app answers instead
            self.log.warning("answer", "the hot path failed (%r); the app answers instead", error)
            environ["wsgi.input"] = io.BytesIO(body)
            return self.app(environ, start_response)

    def _answer(
        self, environ: dict[str, Any], start_response: StartResponse, record: Record, started: float
    ) -> list[bytes]:
        payload = record.render(1000 * (time.perf_counter() - started))
        rid = request_id(environ.get("HTTP_X_REQUEST_ID"))
        headers = [
            ("Content-Type", "application/json"),
            ("Content-Length", str(len(payload))),
            ("X-Request-ID", rid),
            *self.headers(environ.get("wsgi.url_scheme") == "https"),
            ("Cache-Control", "no-store"),
        ]
        self.count_hit()
        seconds = time.perf_counter() - started
        self.observe("POST", PATH, 200, seconds, record.fields)
        log_request("POST", PATH, 200, seconds, rid, record.fields)
        # Last: once it is called, the app could no longer answer in the shortcut's place.
        start_response("200 OK", headers)
        return [payload]


def _plain_length(environ: dict[str, Any]) -> int | None:
    """The body length of a ``POST /move`` the hot path may take: JSON, a small stated length; else None."""
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


def init_app(app: Flask, observe: Observe, headers: Callable[[bool], list[tuple[str, str]]]) -> HotMoves:
    """Put ``HotPath`` in front of ``app`` (before any middleware that must see requests first)."""
    moves = HotMoves(lambda document: app.json.dumps(document, separators=(",", ":")) + "\n")
    app.extensions["hot_moves"] = moves

    def count_hit() -> None:
        app.extensions["solved_positions"].stats.add(hits=1)

    app.wsgi_app = HotPath(app.wsgi_app, moves, count_hit, observe, headers)  # type: ignore[method-assign]
    return moves


def hot_moves() -> HotMoves:
    """The current app's records."""
    moves: HotMoves = current_app.extensions["hot_moves"]
    return moves
