"""The shared cache of solved positions, with single-flight searches.

A solved position never goes stale, so an entry is stored once, without expiry,
and shared by every worker (file system) or every instance (Redis):

- key: ``solved:v<ENGINE_VERSION>:<rows>x<cols>k<k>:<canonical rows>``, so the
  8 (or 4) symmetric images of a position share one entry, and a new engine
  version starts afresh;
- value: the proven result in the canonical position's cells (``entries``),
  mapped back through the symmetry on every request.  The random choice among
  the optimal moves happens after the lookup, so a hit still varies the move;
- only proven results are stored, and only those whose search took at least
  ``CACHE_MIN_NODES`` nodes (cheaper ones are searched again; each worker still
  keeps them in memory); an entry that cannot be read or does not fit
  its schema is ignored, counted and recomputed, never served;
- each worker keeps the checked entries it read or wrote in memory (``local``,
  bounded in bytes), and in the same memory what the ``/move`` view keeps to
  answer a repeated body (web/api/move_memo.py): one memory of answers;
- single-flight: of N concurrent requests for one unsolved position, one takes
  the position's lock and searches, the others poll the cache for its result
  and give up waiting after ``SINGLE_FLIGHT_WAIT`` seconds (then search
  themselves), so nobody hangs;
- a backend that fails (Redis down, folder unwritable) is logged (rate-limited)
  and skipped for a moment (``breaker``): the request is computed and answered
  all the same.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass

from flask import Flask

from tictactoe import Board, SolveResult, Symmetry, within_proof
from web.cache.backends import Backend, open_backend
from web.cache.byte_budget import ByteBudget
from web.cache.entries import Entry, InvalidEntry, decode_entry, encode_entry, position_key
from web.cache.locks import LockUnavailable
from web.cache.signing import BadSignature, SecretUnavailable
from web.cache.stats import Stats
from web.config import Settings
from web.searches.slots import Busy, SearchSlots
from web.telemetry.metrics import Metrics
from web.telemetry.throttled_log import ThrottledLog

logger = logging.getLogger(__name__)

# A search that ran out of budget leaves a mark for this long, so that the
# requests for that position stop queueing behind each other's searches.
UNPROVEN_MARK_SECONDS = 3600
# The bytes of checked entries each worker keeps in memory, in front of the shared
# store: a solved position never changes, so a copy never goes stale, and a hit
# then costs no I/O.  Past this, the oldest are dropped (the store keeps them).
LOCAL_BYTES = 16 * 1024 * 1024
# What an entry holds in memory: the entry, and per move its value (a MoveValue and
# the dict's slot) and per best move.  Above what tracemalloc finds (an entry with 25
# move values and 25 best moves: 3.7 KB, counted 5.3 KB; one without: 121 B, counted 358 B).
ENTRY_BYTES = 350
MOVE_VALUE_BYTES = 190
BEST_MOVE_BYTES = 8
POLL_FIRST = 0.002
POLL_MAX = 0.025


@dataclass
class Answer(SolveResult):
    """The answer for a posted position: the engine's result, in the posted position's cells.

    A ``SolveResult`` (so ``tictactoe.pick_best`` takes it) whose ``value``,
    ``plies`` and ``move_values`` are set only when proven, ``best_moves`` holds
    every optimal move when proven, else the one move found, and ``depth`` only
    when not proven; ``source`` says how it is known, cached or not.  ``cached``:
    the cache (shared, or this worker's copy of it) gave it, with no search.
    """

    cached: bool = False

    @classmethod
    def posted(cls, result: SolveResult, back: Symmetry | None, cached: bool, seconds: float) -> Answer:
        """``result``, of the position searched, mapped back to the posted cells by ``back``."""

        def to_posted(cell: int) -> int:
            return cell if back is None else back.apply(cell)

        if not result.proven:
            return cls(
                value=None,
                plies=None,
                best_moves=[to_posted(result.best_moves[0])],
                nodes=result.nodes,
                seconds=seconds,
                proven=False,
                depth=result.depth,
                source=result.source,
                cached=cached,
            )
        moves = None
        if result.move_values is not None:
            moves = {to_posted(cell): mv for cell, mv in result.move_values.items()}
        return cls(
            value=result.value,
            plies=result.plies,
            best_moves=sorted(map(to_posted, result.best_moves)),
            nodes=result.nodes,
            seconds=seconds,
            proven=True,
            move_values=moves,
            source=result.source,
            cached=cached,
        )


class SolvedPositions:
    """Look up, search (once) and store the results of positions."""

    def __init__(self, backend: Backend, stats: Stats, slots: SearchSlots, settings: Settings) -> None:
        self.backend = backend
        self.stats = stats
        self.slots = slots
        self.settings = settings
        self.log = ThrottledLog(logger)
        # This worker's one memory of answers, oldest first: checked entries under their
        # position keys (str), and what a view keeps to answer a request body (bytes) again.
        self.local: ByteBudget[str | bytes, object] = ByteBudget(LOCAL_BYTES)
        self._local_lock = threading.Lock()

    # -- public ----------------------------------------------------------------

    def solve(self, board: Board, all_moves: bool = False) -> Answer:
        """The result for ``board`` (its every move's value too with ``all_moves``).

        Served from the cache when stored, else searched (once across workers)
        and stored when proven.  Raises ``Busy`` when a search is needed and no
        search slot is free.
        """
        start = time.monotonic()
        if not self.cacheable(board):
            result = self._engine_search(board, all_moves)
            self.stats.add(searches=1, unproven=int(not result.proven))
            return Answer.posted(result, None, cached=False, seconds=time.monotonic() - start)
        canon, symmetry = board.canonical()
        back = symmetry.inverse()
        key = position_key(canon)
        entry = self._read(key, canon, all_moves)
        if entry is not None:
            self.stats.add(hits=1)
            return _from_entry(entry, back, start)
        self.stats.add(misses=1)
        if self._marked_unproven(key, all_moves):
            return self._search(canon, key, all_moves, back, start)
        return self._single_flight(canon, key, all_moves, back, start)

    def peek(self, board: Board) -> Answer | None:
        """The stored result for ``board`` if there is one (never searches)."""
        if not self.cacheable(board):
            return None
        start = time.monotonic()
        canon, symmetry = board.canonical()
        entry = self._read(position_key(canon), canon, all_moves=False)
        self.stats.add(hits=int(entry is not None), misses=int(entry is None))
        return None if entry is None else _from_entry(entry, symmetry.inverse(), start)

    def kept(self, body: bytes) -> object | None:
        """What ``keep`` kept for the request ``body`` in this worker, or None."""
        return self.local.get(body)

    def keep(self, body: bytes, answer: object, size: int) -> None:
        """Keep ``answer`` (``size`` bytes) for the request ``body``, in the memory the entries share."""
        self.local.put(body, answer, size)

    def cacheable(self, board: Board) -> bool:
        """Whether a result for this board could be proven, and so stored.

        Boards with more empty cells than the engine's exact limit get the book
        (answered at once), threat search (quick to find again) or the
        heuristic search (never proven): not worth a lookup or a lock.
        """
        return self.backend.store is not None and within_proof(board)

    # -- internals ----------------------------------------------------------------

    def _single_flight(self, canon: Board, key: str, all_moves: bool, back: Symmetry, start: float) -> Answer:
        """Search under the position's lock, or wait (bounded) for whoever holds it."""
        lock = self.backend.locks.lock(key)
        deadline = time.monotonic() + self.settings.single_flight_wait
        delay = POLL_FIRST
        while self.backend.breaker.allows():
            try:
                acquired = lock.try_acquire()
            except LockUnavailable as error:
                self.backend.breaker.trip()
                self.stats.add(cache_errors=1)
                self.log.warning("lock", "cannot take a search lock, searching without: %s", error)
                break
            if acquired:
                try:
                    # Another worker may have stored it between our look and our lock.
                    entry = self._read(key, canon, all_moves)
                    if entry is not None:
                        self.stats.add(waited=1)
                        return _from_entry(entry, back, start)
                    return self._search(canon, key, all_moves, back, start)
                finally:
                    lock.release()
            if time.monotonic() >= deadline:
                self.log.warning("wait", "gave up waiting for another search of %s", key)
                break
            time.sleep(delay)  # polling the shared cache: another worker holds the lock
            delay = min(delay * 2, POLL_MAX)
            entry = self._read(key, canon, all_moves)
            if entry is not None:
                self.stats.add(waited=1)
                return _from_entry(entry, back, start)
        return self._search(canon, key, all_moves, back, start)

    def _search(self, canon: Board, key: str, all_moves: bool, back: Symmetry, start: float) -> Answer:
        """Search the canonical position, store the result if proven, map it back."""
        result = self._engine_search(canon, all_moves)
        if result.proven:
            entry = Entry.of(result)
            # A search this cheap is redone rather than stored: the shared
            # store keeps only what is dearer to search than to read.
            worth_keeping = result.nodes >= self.settings.cache_min_nodes
            stored = worth_keeping and self._write_signed(key, entry)
            self._remember(key, entry)
            self.stats.add(searches=1, stored=int(stored))
        else:
            self._write(
                _unproven_key(key, all_moves),
                {"budget": self.settings.search_budget},
                timeout=UNPROVEN_MARK_SECONDS,
            )
            self.stats.add(searches=1, unproven=1)
        return Answer.posted(result, back, cached=False, seconds=time.monotonic() - start)

    def _engine_search(self, board: Board, all_moves: bool) -> SolveResult:
        """The engine's search, with a refusal for want of a slot counted as ``busy``."""
        started = time.monotonic()
        try:
            result = self.slots.search(board, all_moves)
        except Busy:
            self.stats.add(busy=1)
            raise
        self.stats.metrics.observe_search(
            f"{board.rules.rows}x{board.rules.cols}", time.monotonic() - started
        )
        return result

    def _read(self, key: str, canon: Board, all_moves: bool) -> Entry | None:
        """The valid entry for ``key`` (with move values if ``all_moves``), or None.

        This worker's own copy first, then the shared store (whose valid
        entries are copied here).
        """
        entry = self._local_entry(key)
        if entry is None or (all_moves and entry.moves is None):
            raw = self._get(key)
            if raw is None or self.backend.signer is None:
                return None
            try:
                entry = decode_entry(self.backend.signer.check(key, raw), canon)
            except SecretUnavailable as error:
                self.stats.add(cache_errors=1)
                self.log.warning("secret", "cannot check stored entries: %s", error)
                return None
            except (BadSignature, InvalidEntry) as error:
                self.stats.add(invalid=1)
                self.log.warning("invalid", "ignoring the stored entry for %s: %s", key, error)
                return None
            self._remember(key, entry)
        if all_moves and entry.moves is None:
            return None  # stored by /move: it lacks the move values /analyze needs
        return entry

    def _remember(self, key: str, entry: Entry) -> None:
        """Keep a checked entry in this worker, dropping the oldest past ``LOCAL_BYTES``."""
        with self._local_lock:  # requests of one worker's threads add at once
            known = self._local_entry(key)
            if known is not None and known.moves is not None and entry.moves is None:
                return  # keep the copy that also has the move values
            self.local.put(key, entry, entry_bytes(key, entry))

    def _local_entry(self, key: str) -> Entry | None:
        """The checked entry this worker keeps for ``key``, or None."""
        entry = self.local.get(key)
        return entry if isinstance(entry, Entry) else None

    def _write_signed(self, key: str, entry: Entry) -> bool:
        """Store an entry with its signature; False (logged) when it cannot be signed or stored."""
        if self.backend.signer is None:
            return False
        try:
            signed = self.backend.signer.sign(key, encode_entry(entry))
        except SecretUnavailable as error:
            self.stats.add(cache_errors=1)
            self.log.warning("secret", "cannot sign entries, not storing: %s", error)
            return False
        return self._write(key, signed)

    def _marked_unproven(self, key: str, all_moves: bool) -> bool:
        """Whether a search with at least our budget recently failed to prove this position."""
        mark = self._get(_unproven_key(key, all_moves))
        budget = mark.get("budget") if isinstance(mark, dict) else None
        return isinstance(budget, (int, float)) and budget >= self.settings.search_budget

    def _get(self, key: str) -> object:
        """The backend's value for ``key``, or None when absent or the backend fails."""
        store = self.backend.store
        if store is None or not self.backend.breaker.allows():
            return None
        try:
            value: object = store.get(key)
        except Exception as error:
            self.backend.breaker.trip()
            self.stats.add(cache_errors=1)
            self.log.warning("get", "cache read failed, going on without it: %r", error)
            return None
        return value

    def _write(self, key: str, value: object, timeout: int | None = None) -> bool:
        """Store ``value``; False (logged) when the backend fails or is being skipped."""
        store = self.backend.store
        if store is None or not self.backend.breaker.allows():
            return False
        try:
            ok = bool(store.set(key, value, timeout=timeout))
        except Exception as error:
            self.backend.breaker.trip()
            ok = False
            self.log.warning("set", "cache write failed, going on without it: %r", error)
        if not ok:
            self.stats.add(cache_errors=1)
            self.log.warning("set-false", "the cache did not store %s", key)
        return ok


def entry_bytes(key: str, entry: Entry) -> int:
    """What keeping ``entry`` under ``key`` takes in memory, by the measured bytes per part."""
    moves = 0 if entry.moves is None else len(entry.moves)
    return ENTRY_BYTES + len(key) + MOVE_VALUE_BYTES * moves + BEST_MOVE_BYTES * len(entry.best)


def _unproven_key(key: str, all_moves: bool) -> str:
    return f"{key}:unproven{':all' if all_moves else ''}"


def _from_entry(entry: Entry, back: Symmetry, start: float) -> Answer:
    """A stored entry as the answer for the posted position (no search, so no nodes)."""
    return Answer.posted(entry.result(), back, cached=True, seconds=time.monotonic() - start)


def init_app(app: Flask, settings: Settings, slots: SearchSlots, metrics: Metrics) -> SolvedPositions:
    """Bind the cache extension to ``app``, set up its backend and build its ``SolvedPositions``."""
    backend = open_backend(app, settings)
    return SolvedPositions(backend, Stats(metrics), slots, settings)
