"""The shared cache of solved positions, with single-flight searches.

A solved position never goes stale, so an entry is stored once, without expiry,
and shared by every worker (file system) or every instance (Redis):

- key: ``solved:v<ENGINE_VERSION>:<rows>x<cols>k<k>:<canonical rows>``, so the
  8 (or 4) symmetric images of a position share one entry, and a new engine
  version starts afresh;
- value: the proven result in the canonical position's cells (JSON, see
  ``encode_entry``), mapped back through the symmetry on every request.  The
  random choice among the optimal moves happens after the lookup, so a hit
  still varies the move;
- only proven results are stored; an entry that cannot be read or does not fit
  its schema is ignored, counted and recomputed, never served;
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
import os
import stat
import time
from dataclasses import dataclass
from pathlib import Path

import threading

from cachelib.serializers import JSONSerializer
from flask import Flask
from flask_caching import Cache

from tictactoe import ENGINE_VERSION, Board, MoveValue, SolveResult, Symmetry
from tictactoe.analysis import EXACT_MAX_EMPTIES

from .breaker import Breaker
from .config import Settings
from .engine import Busy, Engine
from .signing import BadSignature, SecretUnavailable, Signer, file_secret, fixed_secret
from .locks import FileLocks, LocalLocks, LockUnavailable, RedisLocks
from .stats import RedisTotals, SlotTotals, Stats
from .throttled_log import ThrottledLog, throttle_library_logs

logger = logging.getLogger(__name__)

cache = Cache()

ENTRY_FORMAT = 2  # 2: entries are signed (web/signing.py)
VALUES = ("win", "draw", "loss")
# A search that ran out of budget leaves a mark for this long, so that the
# requests for that position stop queueing behind each other's searches.
UNPROVEN_MARK_SECONDS = 3600
# Checked entries each worker keeps in memory, in front of the shared store: a
# solved position never changes, so a copy never goes stale, and a hit then
# costs no I/O.  Past this many, the oldest are dropped (the store keeps them).
LOCAL_ENTRIES = 100_000
POLL_FIRST = 0.002
POLL_MAX = 0.025


class InvalidEntry(ValueError):
    """A stored entry that is unreadable or does not fit the schema for its position."""


@dataclass(frozen=True)
class Entry:
    """A proven result in the canonical position's cells (what the cache stores)."""

    value: str
    plies: int
    best: tuple[int, ...]
    moves: dict[int, MoveValue] | None


@dataclass(frozen=True)
class Solution:
    """The answer for a posted position, in its own cells.

    ``value``/``plies`` are for the side to move and set only when ``proven``;
    ``best_moves`` holds every optimal move when proven, else the one move
    found (so ``tictactoe.pick_best`` takes a Solution as it takes a SolveResult);
    ``moves`` (when asked for and proven) maps every legal cell to its value.
    """

    value: str | None
    plies: int | None
    best_moves: list[int]
    moves: dict[int, MoveValue] | None
    proven: bool
    cached: bool
    nodes: int
    seconds: float
    depth: int | None


# -- entries -----------------------------------------------------------------

def encode_entry(result: SolveResult) -> dict:
    """The stored form of a proven result (JSON-ready)."""
    moves = None
    if result.move_values is not None:
        moves = [[cell, mv.value, mv.plies] for cell, mv in sorted(result.move_values.items())]
    return {"format": ENTRY_FORMAT, "value": result.value, "plies": result.plies,
            "best": sorted(result.best_moves), "moves": moves}


def decode_entry(raw: object, canon: Board) -> Entry:
    """Check a stored value against the canonical position it is for.

    Raises ``InvalidEntry`` unless it has exactly the fields of ``encode_entry``,
    values and plies that can occur with this many empty cells, best moves that
    are legal, and (when present) a value for every legal move that agrees with
    the best moves and the position's value.
    """
    if not isinstance(raw, dict):
        raise InvalidEntry(f"not an object but {type(raw).__name__}")
    if set(raw) != {"format", "value", "plies", "best", "moves"}:
        raise InvalidEntry(f"fields {sorted(map(str, raw))}")
    if raw["format"] != ENTRY_FORMAT:
        raise InvalidEntry(f"format {raw['format']!r}")
    legal = canon.legal_moves()
    empties = len(legal)
    position = _move_value(raw["value"], raw["plies"], empties)
    best = raw["best"]
    if (not isinstance(best, list) or not best or not all(_is_int(c) for c in best)
            or best != sorted(set(best)) or not set(best) <= set(legal)):
        raise InvalidEntry("best moves are not distinct legal cells in order")
    moves = raw["moves"]
    if moves is None:
        return Entry(position.value, position.plies, tuple(best), None)
    if not isinstance(moves, list) or not all(isinstance(m, list) and len(m) == 3 for m in moves):
        raise InvalidEntry("moves are not [cell, value, plies] triples")
    cells = [m[0] for m in moves]
    if not all(_is_int(c) for c in cells) or cells != legal:
        raise InvalidEntry("moves do not list every legal cell once, in order")
    values = {m[0]: _move_value(m[1], m[2], empties) for m in moves}
    top = max(values.values(), key=rank)
    if rank(top) != rank(position) or best != [c for c in cells if rank(values[c]) == rank(top)]:
        raise InvalidEntry("move values disagree with the best moves or the position's value")
    return Entry(position.value, position.plies, tuple(best), values)


def rank(move: MoveValue) -> tuple[int, int]:
    """Order of preference for the side to move: quicker wins, then draws, then slower losses."""
    if move.value == "win":
        return (2, -move.plies)
    if move.value == "draw":
        return (1, 0)
    return (0, move.plies)


def _move_value(value: object, plies: object, empties: int) -> MoveValue:
    """A value and plies that can occur with ``empties`` empty cells, else ``InvalidEntry``.

    The side to move makes plies 1, 3, 5...: it wins on an odd ply, loses on an
    even one, and a draw fills the board.
    """
    if value not in VALUES or not _is_int(plies):
        raise InvalidEntry(f"value {value!r} with plies {plies!r}")
    fits = {"win": 1 <= plies <= empties and plies % 2 == 1,
            "loss": 2 <= plies <= empties and plies % 2 == 0,
            "draw": plies == empties}[value]
    if not fits:
        raise InvalidEntry(f"{value} in {plies} plies with {empties} empty cells")
    return MoveValue(value, plies)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def position_key(canon: Board) -> str:
    """The cache key of a canonical position: engine version, rules and rows."""
    return f"solved:v{ENGINE_VERSION}:{canon.text_key()}"


# -- the cache -----------------------------------------------------------------

class SolvedPositions:
    """Look up, search (once) and store the results of positions."""

    def __init__(self, backend, locks, stats: Stats, engine: Engine, settings: Settings,
                 kind: str, breaker: Breaker, signer: Signer | None = None,
                 failure: str | None = None) -> None:
        self.backend = backend
        self.breaker = breaker
        self.locks = locks
        self.stats = stats
        self.engine = engine
        self.settings = settings
        self.kind = kind
        self.failure = failure  # why a configured backend could not be set up
        self.log = ThrottledLog(logger)
        self.signer = signer
        self.local: dict[str, Entry] = {}  # checked entries, oldest first
        self._local_lock = threading.Lock()

    # -- public ----------------------------------------------------------------

    def solve(self, board: Board, all_moves: bool = False) -> Solution:
        """The result for ``board`` (its every move's value too with ``all_moves``).

        Served from the cache when stored, else searched (once across workers)
        and stored when proven.  Raises ``engine.Busy`` when a search is needed
        and no search slot is free.
        """
        start = time.monotonic()
        if not self.cacheable(board):
            result = self._engine_search(board, all_moves)
            self.stats.add(searches=1, unproven=int(not result.proven))
            return _from_result(result, None, cached=False, start=start)
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

    def peek(self, board: Board) -> Solution | None:
        """The stored result for ``board`` if there is one (never searches)."""
        if self.backend is None or not self.cacheable(board):
            return None
        start = time.monotonic()
        canon, symmetry = board.canonical()
        entry = self._read(position_key(canon), canon, all_moves=False)
        self.stats.add(hits=int(entry is not None), misses=int(entry is None))
        return None if entry is None else _from_entry(entry, symmetry.inverse(), start)

    def cacheable(self, board: Board) -> bool:
        """Whether a result for this board could be proven, and so stored.

        Boards with more empty cells than the engine's exact limit only get its
        heuristic search: never proven, so not worth a lookup or a lock.
        """
        return self.backend is not None and board.empty.bit_count() <= EXACT_MAX_EMPTIES

    # -- internals ----------------------------------------------------------------

    def _single_flight(self, canon: Board, key: str, all_moves: bool, back: Symmetry,
                       start: float) -> Solution:
        """Search under the position's lock, or wait (bounded) for whoever holds it."""
        lock = self.locks.lock(key)
        deadline = time.monotonic() + self.settings.single_flight_wait
        delay = POLL_FIRST
        while self.breaker.allows():
            try:
                acquired = lock.try_acquire()
            except LockUnavailable as error:
                self.breaker.trip()
                self.stats.add(cache_errors=1)
                self.log.warning("lock", "cannot take a search lock, searching without: %s",
                                 error)
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

    def _search(self, canon: Board, key: str, all_moves: bool, back: Symmetry,
                start: float) -> Solution:
        """Search the canonical position, store the result if proven, map it back."""
        result = self._engine_search(canon, all_moves)
        if result.proven:
            encoded = encode_entry(result)
            stored = self._write_signed(key, encoded)
            self._remember(key, decode_entry(encoded, canon))
            self.stats.add(searches=1, stored=int(stored))
        else:
            self._write(_unproven_key(key, all_moves), {"budget": self.settings.search_budget},
                        timeout=UNPROVEN_MARK_SECONDS)
            self.stats.add(searches=1, unproven=1)
        return _from_result(result, back, cached=False, start=start)

    def _engine_search(self, board: Board, all_moves: bool) -> SolveResult:
        """The engine's search, with a refusal for want of a slot counted as ``busy``."""
        try:
            return self.engine.search(board, all_moves)
        except Busy:
            self.stats.add(busy=1)
            raise

    def _read(self, key: str, canon: Board, all_moves: bool) -> Entry | None:
        """The valid entry for ``key`` (with move values if ``all_moves``), or None.

        This worker's own copy first, then the shared store (whose valid
        entries are copied here).
        """
        entry = self.local.get(key)
        if entry is None or (all_moves and entry.moves is None):
            raw = self._get(key)
            if raw is None:
                return None
            try:
                entry = decode_entry(self.signer.check(key, raw), canon)
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
        """Keep a checked entry in this worker, dropping the oldest past ``LOCAL_ENTRIES``."""
        with self._local_lock:  # requests of one worker's threads add at once
            known = self.local.get(key)
            if known is not None and known.moves is not None and entry.moves is None:
                return  # keep the copy that also has the move values
            self.local.pop(key, None)
            self.local[key] = entry
            if len(self.local) > LOCAL_ENTRIES:
                del self.local[next(iter(self.local))]

    def _write_signed(self, key: str, entry: dict) -> bool:
        """Store an entry with its signature; False (logged) when it cannot be signed or stored."""
        try:
            signed = self.signer.sign(key, entry)
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
        if not self.breaker.allows():
            return None
        try:
            return self.backend.get(key)
        except Exception as error:
            self.breaker.trip()
            self.stats.add(cache_errors=1)
            self.log.warning("get", "cache read failed, going on without it: %r", error)
            return None

    def _write(self, key: str, value: object, timeout: int | None = None) -> bool:
        """Store ``value``; False (logged) when the backend fails or is being skipped."""
        if not self.breaker.allows():
            return False
        try:
            ok = bool(self.backend.set(key, value, timeout=timeout))
        except Exception as error:
            self.breaker.trip()
            ok = False
            self.log.warning("set", "cache write failed, going on without it: %r", error)
        if not ok:
            self.stats.add(cache_errors=1)
            self.log.warning("set-false", "the cache did not store %s", key)
        return ok


def _unproven_key(key: str, all_moves: bool) -> str:
    return f"{key}:unproven{':all' if all_moves else ''}"


def _from_entry(entry: Entry, back: Symmetry, start: float) -> Solution:
    moves = None
    if entry.moves is not None:
        moves = {back.apply(cell): mv for cell, mv in entry.moves.items()}
    return Solution(value=entry.value, plies=entry.plies,
                    best_moves=sorted(back.apply(cell) for cell in entry.best), moves=moves,
                    proven=True, cached=True, nodes=0, seconds=time.monotonic() - start,
                    depth=None)


def _from_result(result: SolveResult, back: Symmetry | None, cached: bool,
                 start: float) -> Solution:
    def to_posted(cell: int) -> int:
        return cell if back is None else back.apply(cell)

    moves = None
    if result.proven and result.move_values is not None:
        moves = {to_posted(cell): mv for cell, mv in result.move_values.items()}
    best = sorted(map(to_posted, result.best_moves)) if result.proven else \
        [to_posted(result.best_moves[0])]
    return Solution(value=result.value if result.proven else None,
                    plies=result.plies if result.proven else None,
                    best_moves=best, moves=moves, proven=result.proven, cached=cached,
                    nodes=result.nodes, seconds=time.monotonic() - start,
                    depth=None if result.proven else result.depth)


# -- setup ---------------------------------------------------------------------

def init_app(app: Flask, settings: Settings, engine: Engine) -> SolvedPositions:
    """Bind the cache extension to ``app`` and build its ``SolvedPositions``.

    A cache folder that cannot be created or is not safe to use does not stop
    the app: it runs without a shared cache, says so in the log and in /healthz.
    """
    throttle_library_logs(f"{os.sep}cachelib{os.sep}")
    serializer = EntrySerializer  # never pickle: whoever can write the store could run code
    # Only a remote store is worth skipping after a failure: a folder fails at once.
    breaker = Breaker() if settings.cache_type == "redis" else Breaker(cooldown=0)
    stats_log = ThrottledLog(logging.getLogger("web.stats"))
    if settings.cache_type == "redis":
        client = redis_client(settings)
        cache.init_app(app, config={
            "CACHE_TYPE": "RedisCache", "CACHE_REDIS_HOST": client,
            "CACHE_KEY_PREFIX": settings.cache_key_prefix, "CACHE_DEFAULT_TIMEOUT": 0,
            "CACHE_SERIALIZER": serializer})
        stats = Stats(RedisTotals(client, f"{settings.cache_key_prefix}stats"), stats_log,
                      breaker)
        # The lock outlives the longest search it guards, then frees itself.
        locks = RedisLocks(client, settings.cache_key_prefix,
                           ttl=settings.search_budget * 2 + 5)
        signer = Signer(fixed_secret(settings.cache_secret))  # required with Redis (config.py)
        return SolvedPositions(app.extensions["cache"][cache], locks, stats, engine, settings,
                               "redis", breaker, signer)
    if settings.cache_type == "filesystem":
        try:
            folders = prepare_cache_dir(settings.cache_dir, settings.cache_dir_is_default)
            cache.init_app(app, config={
                "CACHE_TYPE": "FileSystemCache", "CACHE_DIR": str(folders["solved"]),
                "CACHE_THRESHOLD": 0,  # cachelib: 0 means no limit, so nothing is ever evicted
                "CACHE_DEFAULT_TIMEOUT": 0,  # cachelib: 0 means entries never expire
                "CACHE_SERIALIZER": serializer})
        except (OSError, UnsafeCacheDir) as error:
            logger.error("cache folder %s cannot be used (%s): running without a shared cache",
                         settings.cache_dir, error)
            _init_null(app)
            return SolvedPositions(None, LocalLocks(), Stats(None, stats_log, breaker), engine,
                                   settings, "filesystem", breaker,
                                   failure="cache folder unusable")
        stats = Stats(SlotTotals(folders["stats"]), stats_log, breaker)
        signer = Signer(fixed_secret(settings.cache_secret) if settings.cache_secret
                        else file_secret(folders["secret"]))
        return SolvedPositions(app.extensions["cache"][cache], FileLocks(folders["locks"]), stats,
                               engine, settings, "filesystem", breaker, signer)
    _init_null(app)
    return SolvedPositions(None, LocalLocks(), Stats(None, stats_log, breaker), engine, settings,
                           "null", breaker)


class EntrySerializer(JSONSerializer):
    """JSON, with a missing Redis key read as a miss (cachelib would log a warning for it)."""

    def loads(self, bvalue, *args, **kwargs):
        if bvalue is None:
            return None
        return super().loads(bvalue, *args, **kwargs)


def _init_null(app: Flask) -> None:
    cache.init_app(app, config={"CACHE_TYPE": "NullCache", "CACHE_NO_NULL_WARNING": True})


class UnsafeCacheDir(Exception):
    """The default cache folder exists but another user could write to it."""


def prepare_cache_dir(root: Path, is_default: bool) -> dict[str, Path]:
    """Create the cache folder's parts: ``solved/`` (entries), ``locks/``, ``stats.slots``, ``secret``.

    The default folder lives in the shared temp dir, so it must belong to us and
    be writable by nobody else (else others could plant entries).  Raises
    ``OSError`` or ``UnsafeCacheDir``.
    """
    root.mkdir(mode=0o700, parents=True, exist_ok=True)
    if is_default:
        info = root.lstat()
        if (not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid()
                or info.st_mode & 0o022):
            raise UnsafeCacheDir(f"{root} is not a private folder of this user")
    folders = {"solved": root / "solved", "locks": root / "locks"}
    for folder in folders.values():
        folder.mkdir(mode=0o700, exist_ok=True)
    folders["stats"] = root / "stats.slots"
    folders["secret"] = root / "secret"  # see web/signing.py
    return folders


def redis_client(settings: Settings):
    """A Redis client that fails fast: short timeouts and one immediate retry.

    redis-py retries ten times with backoff by default: with Redis down, every
    request would stall for seconds before going on without the cache.
    """
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    return redis.Redis.from_url(
        settings.redis_url, socket_timeout=settings.redis_timeout,
        socket_connect_timeout=settings.redis_timeout,
        retry=Retry(NoBackoff(), 1), health_check_interval=30)
