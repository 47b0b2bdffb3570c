"""Settings of the web app: read from environment variables once at startup, checked, frozen.

Every setting is named after its environment variable (see docs/deploy.md).
``create_app(config)`` accepts the same names as overrides, as strings (as the
environment gives them) or as ready values (as tests give them).  A bad value
stops the app at startup with a message naming the variable: a misconfigured
server should not come up half-working.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from tictactoe import DEFAULT_BUDGET
from web.environment import ConfigError, int_between, number, trusted_proxies

__all__ = ["ConfigError", "Settings", "load_settings", "trusted_proxies"]

# The cache backends (the CACHE_TYPE setting): see web/cache/backends.py.
BACKENDS = ("filesystem", "redis", "null")
MAX_SEARCH_BUDGET = 2.0
# The engine's own: a search for a request thinks as long as the command line's by default.
DEFAULT_SEARCH_BUDGET = DEFAULT_BUDGET
# Searches one worker runs at once; the engine is pure Python, so threads of one
# worker only share its one core: more would only make each of them slower.
DEFAULT_MAX_CONCURRENT_SEARCHES = 2
# The longest a request waits, for another worker's search or for a search slot:
# waiting and then searching (or tracing) stays below a platform router's 30 s.
MAX_WAIT = 10.0
# Seconds a search may wait for a slot (web/searches/slots.py): enough for a queue of
# a few searches of the default budget, or the lab's traces, to be served in turn.
DEFAULT_SEARCH_QUEUE_WAIT = 10.0
# Transposition-table entries a solver keeps at most (fewer when its byte budget is
# smaller: web/searches/slots.py, SOLVER_BYTES_PER_THREAD).
DEFAULT_SOLVER_TABLE_LIMIT = 200_000
DEFAULT_REDIS_TIMEOUT = 1.0
DEFAULT_STATIC_MAX_AGE = 3600
DEFAULT_KEY_PREFIX = "ttt:"
# CACHE_SECRET: an HMAC-SHA256 key worth the name (web/cache/signing.py).
MIN_SECRET_BYTES = 32
MIN_SECRET_DISTINCT = 10
MAKE_A_SECRET = "python3 -c 'import secrets; print(secrets.token_hex(32))'"
# METRICS_TOKEN: long enough not to be guessed, in the characters a Bearer header carries.
MIN_METRICS_TOKEN = 16
_TOKEN68 = re.compile(r"[A-Za-z0-9._~+/-]+=*")
# Seconds of search one client (address) may spend a minute (web/searches/rate_limit.py):
# a quarter of what a 2-worker server on 2 cores can search, so one address
# flooding it with 15x15 boards leaves the rest to everybody else.  A person
# playing a big board with hints spends about 10 s a minute; 3x3 positions and
# cache hits are free.
DEFAULT_SEARCH_SECONDS_PER_MINUTE = 30.0
MAX_SEARCH_SECONDS_PER_MINUTE = 3600.0
# Entries the file cache keeps (a file of about 4 KiB on disk each, so about
# 200 MiB); past it the least recently used go (web/cache/eviction.py).
DEFAULT_CACHE_MAX_ENTRIES = 50_000
# Results whose search took fewer nodes are not stored: searching them again
# (about 0.1-0.3 ms) costs about what reading and checking an entry does, and
# less than writing one (docs/reliability.md, "A bounded cache").
DEFAULT_CACHE_MIN_NODES = 16
# Rooms one address may make a minute (at once, then that many a minute: web/rooms/service.py):
# a class of thirty pairing up behind one school address makes fifteen.
DEFAULT_ROOMS_PER_MINUTE = 20
# Rooms live at once (a day after their last move); a room holds at most 96 KiB in the store
# (a 3x3 room 16 KiB): ROOM_BYTES_15X15 and ROOM_BYTES_3X3 in web/rooms/store.py.
DEFAULT_ROOMS_MAX = 10_000
# Live rooms one address may hold at once: a class of thirty behind one school address, each
# pupil making a room, and as many again.
DEFAULT_ROOMS_PER_ADDRESS = 60
# Seat tokens (or invites) one address may get wrong a minute (web/rooms/service.py).
DEFAULT_WRONG_TOKENS_PER_MINUTE = 30
# Event streams one address may hold in a worker (web/rooms/budget.py): a class of thirty
# playing, and their teacher watching, even if every stream lands on the same worker.
DEFAULT_ROOM_STREAMS_PER_ADDRESS = 40
# A worker's connections (gunicorn.conf.py reads GUNICORN_CONNECTIONS too); streams may hold at
# most 60% of them by default, so the other 400 always answer everything else (and 1,000 streams
# spread unevenly over the 2 workers of the default deploy still fit: bench/rooms.py).
DEFAULT_WORKER_CONNECTIONS = 1000
STREAMS_SHARE_PERCENT = 60
# Seconds a stream lasts before the server ends it and the browser reconnects (missing nothing).
DEFAULT_ROOM_STREAM_SECONDS = 600.0

# One source of a CSP frame-ancestors list: a keyword, a scheme, or a host
# source such as https://*.example.com:8443.  Nothing that could end the header
# value or start another directive (; , quotes other than the keywords, spaces).
_SOURCE = re.compile(
    r"""^(?:\*|'self'|'none'|[a-z][a-z0-9+.-]*:|
         (?:[a-z][a-z0-9+.-]*://)?(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::(?:\d{1,5}|\*))?/?)$""",
    re.IGNORECASE | re.VERBOSE,
)


@dataclass(frozen=True)
class Settings:
    """The checked settings of one app.

    ``backend`` is the one exception to the naming rule: it is the CACHE_TYPE
    setting, called by what it chooses (as /healthz and /stats call it).
    """

    backend: str
    cache_dir: Path
    cache_dir_is_default: bool
    redis_url: str | None
    redis_timeout: float
    cache_key_prefix: str
    search_budget: float
    single_flight_wait: float
    max_concurrent_searches: int
    solver_table_limit: int
    frame_ancestors: str
    static_max_age: int
    cache_secret: str | None
    search_seconds_per_minute: float | None
    trusted_proxies: int
    cache_max_entries: int = DEFAULT_CACHE_MAX_ENTRIES
    cache_min_nodes: int = DEFAULT_CACHE_MIN_NODES
    metrics_token: str | None = None
    rooms_per_minute: int = DEFAULT_ROOMS_PER_MINUTE
    rooms_max: int = DEFAULT_ROOMS_MAX
    search_queue_wait: float = DEFAULT_SEARCH_QUEUE_WAIT
    rooms_per_address: int = DEFAULT_ROOMS_PER_ADDRESS
    wrong_tokens_per_minute: int = DEFAULT_WRONG_TOKENS_PER_MINUTE
    room_streams_per_address: int = DEFAULT_ROOM_STREAMS_PER_ADDRESS
    room_streams_per_worker: int = DEFAULT_WORKER_CONNECTIONS * STREAMS_SHARE_PERCENT // 100
    room_stream_seconds: float = DEFAULT_ROOM_STREAM_SECONDS


def default_cache_dir() -> Path:
    """The cache folder used when CACHE_DIR is not set: per user, under the system temp dir."""
    return Path(tempfile.gettempdir()) / f"tictactoe-cache-{os.geteuid()}"


def load_settings(
    env: Mapping[str, str] | None = None, overrides: Mapping[str, object] | None = None
) -> Settings:
    """Settings from ``env`` (default ``os.environ``) with ``overrides`` on top.

    Raises ``ConfigError`` for a value out of range or of the wrong form.
    """
    source: dict[str, object] = {}
    for name, value in (os.environ if env is None else env).items():
        if value != "":  # an empty variable counts as unset, as on most platforms
            source[name] = value
    source.update(overrides or {})

    redis_url = source.get("REDIS_URL") or None
    if redis_url is not None and not isinstance(redis_url, str):
        raise ConfigError(f"REDIS_URL must be a string, not {redis_url!r}")
    if redis_url and not redis_url.startswith(("redis://", "rediss://", "unix://")):
        raise ConfigError("REDIS_URL must start with redis://, rediss:// or unix://")
    backend = str(source.get("CACHE_TYPE") or ("redis" if redis_url else "filesystem")).lower()
    if backend not in BACKENDS:
        raise ConfigError(f"CACHE_TYPE must be one of {', '.join(BACKENDS)}, not {backend!r}")
    if backend == "redis" and not redis_url:
        raise ConfigError("CACHE_TYPE=redis needs REDIS_URL")

    cache_dir_value = source.get("CACHE_DIR")
    cache_dir = Path(str(cache_dir_value)) if cache_dir_value else default_cache_dir()

    budget = number(source, "SEARCH_BUDGET", DEFAULT_SEARCH_BUDGET, float)
    if not 0 < budget <= MAX_SEARCH_BUDGET:
        raise ConfigError(
            f"SEARCH_BUDGET must be more than 0 and at most {MAX_SEARCH_BUDGET} seconds, not {budget}"
        )
    # The search that holds a position's lock ends within its budget; a waiter
    # gives it that long and a margin for storing the result, then searches itself.
    wait = number(source, "SINGLE_FLIGHT_WAIT", budget + 1.0, float)
    # A request may wait this long and then search for SEARCH_BUDGET: both
    # bounded, so no request comes near a platform router's 30 s limit.
    if not 0 <= wait <= MAX_WAIT:
        raise ConfigError(f"SINGLE_FLIGHT_WAIT must be between 0 and {MAX_WAIT:g} seconds, not {wait}")
    queue_wait = number(source, "SEARCH_QUEUE_WAIT", DEFAULT_SEARCH_QUEUE_WAIT, float)
    if not 0 <= queue_wait <= MAX_WAIT:
        raise ConfigError(f"SEARCH_QUEUE_WAIT must be between 0 and {MAX_WAIT:g} seconds, not {queue_wait}")

    searches = int_between(source, "MAX_CONCURRENT_SEARCHES", DEFAULT_MAX_CONCURRENT_SEARCHES, 1, 64)
    table_limit = int_between(source, "SOLVER_TABLE_LIMIT", DEFAULT_SOLVER_TABLE_LIMIT, 1_000, 50_000_000)
    redis_timeout = number(source, "REDIS_TIMEOUT", DEFAULT_REDIS_TIMEOUT, float)
    if not 0 < redis_timeout <= 30:
        raise ConfigError(f"REDIS_TIMEOUT must be more than 0 and at most 30 s, not {redis_timeout}")
    static_max_age = int_between(source, "STATIC_MAX_AGE", DEFAULT_STATIC_MAX_AGE, 0, 31_536_000)

    given_secret = source.get("CACHE_SECRET") or None
    cache_secret = None if given_secret is None else check_secret(given_secret)
    if cache_secret is None and backend == "redis":
        raise ConfigError(
            "CACHE_SECRET must be set when the cache is Redis: entries are signed with it, and"
            " a secret kept in the Redis itself would let whoever can write there sign entries."
            f" Make one with: {MAKE_A_SECRET}"
        )

    max_entries = int_between(source, "CACHE_MAX_ENTRIES", DEFAULT_CACHE_MAX_ENTRIES, 100, 100_000_000)
    min_nodes = int_between(source, "CACHE_MIN_NODES", DEFAULT_CACHE_MIN_NODES, 0, 1_000_000_000)

    prefix = str(source.get("CACHE_KEY_PREFIX", DEFAULT_KEY_PREFIX))
    if not re.fullmatch(r"[A-Za-z0-9_.:-]{0,40}", prefix):
        raise ConfigError("CACHE_KEY_PREFIX may hold up to 40 letters, digits and _ . : -")

    if "SEARCH_RATE_LIMIT" in source:
        raise ConfigError(
            "SEARCH_RATE_LIMIT (searches a minute) is gone: a client is now charged what its searches"
            " cost, set as SEARCH_SECONDS_PER_MINUTE (seconds of search a minute, default"
            f" {DEFAULT_SEARCH_SECONDS_PER_MINUTE:g}, or off); unset SEARCH_RATE_LIMIT"
        )
    search_seconds = _search_seconds_per_minute(source)
    proxies = trusted_proxies(source)
    rooms_per_minute = int_between(source, "ROOMS_PER_MINUTE", DEFAULT_ROOMS_PER_MINUTE, 1, 10_000)
    rooms_max = int_between(source, "ROOMS_MAX", DEFAULT_ROOMS_MAX, 1, 10_000_000)
    rooms_per_address = int_between(source, "ROOMS_PER_ADDRESS", DEFAULT_ROOMS_PER_ADDRESS, 1, 10_000_000)
    wrong_tokens = int_between(source, "WRONG_TOKENS_PER_MINUTE", DEFAULT_WRONG_TOKENS_PER_MINUTE, 1, 10_000)
    connections = int_between(source, "GUNICORN_CONNECTIONS", DEFAULT_WORKER_CONNECTIONS, 2, 1_000_000)
    default_streams = max(1, connections * STREAMS_SHARE_PERCENT // 100)
    streams_per_worker = int_between(source, "ROOM_STREAMS_PER_WORKER", default_streams, 1, connections - 1)
    streams_per_address = int_between(
        source,
        "ROOM_STREAMS_PER_ADDRESS",
        min(DEFAULT_ROOM_STREAMS_PER_ADDRESS, streams_per_worker),
        1,
        streams_per_worker,
    )
    stream_seconds = number(source, "ROOM_STREAM_SECONDS", DEFAULT_ROOM_STREAM_SECONDS, float)
    if not 0 < stream_seconds <= 24 * 3600:
        raise ConfigError(f"ROOM_STREAM_SECONDS must be more than 0 and at most 86400, not {stream_seconds}")

    return Settings(
        backend=backend,
        cache_dir=cache_dir,
        cache_dir_is_default=not cache_dir_value,
        redis_url=redis_url if backend == "redis" else None,
        redis_timeout=redis_timeout,
        cache_key_prefix=prefix,
        search_budget=budget,
        single_flight_wait=wait,
        max_concurrent_searches=searches,
        solver_table_limit=table_limit,
        frame_ancestors=frame_ancestors(str(source.get("FRAME_ANCESTORS", "*"))),
        static_max_age=static_max_age,
        cache_secret=cache_secret,
        search_seconds_per_minute=search_seconds,
        trusted_proxies=proxies,
        cache_max_entries=max_entries,
        cache_min_nodes=min_nodes,
        metrics_token=metrics_token(source.get("METRICS_TOKEN")),
        rooms_per_minute=rooms_per_minute,
        rooms_max=rooms_max,
        search_queue_wait=queue_wait,
        rooms_per_address=rooms_per_address,
        wrong_tokens_per_minute=wrong_tokens,
        room_streams_per_address=streams_per_address,
        room_streams_per_worker=streams_per_worker,
        room_stream_seconds=stream_seconds,
    )


def check_secret(secret: object) -> str:
    """``secret`` if it could be a real key, else ``ConfigError``.

    At least ``MIN_SECRET_BYTES`` bytes and ``MIN_SECRET_DISTINCT`` different
    characters: that refuses short words and repeated characters, not every
    weak secret, so the message says how to make a good one.
    """
    if not isinstance(secret, str):
        raise ConfigError(f"CACHE_SECRET must be a string, not {type(secret).__name__}")
    size, distinct = len(secret.encode()), len(set(secret))
    if size < MIN_SECRET_BYTES or distinct < MIN_SECRET_DISTINCT:
        raise ConfigError(
            f"CACHE_SECRET must be at least {MIN_SECRET_BYTES} bytes with at least"
            f" {MIN_SECRET_DISTINCT} different characters (this one: {size} bytes,"
            f" {distinct} different). Make one with: {MAKE_A_SECRET}"
        )
    return secret


def metrics_token(value: object) -> str | None:
    """METRICS_TOKEN: None when unset (GET /metrics is open), else the Bearer token it needs.

    Raises ``ConfigError`` unless it is at least ``MIN_METRICS_TOKEN`` characters that an
    ``Authorization: Bearer`` header can carry as they are (RFC 6750's token68).
    """
    if value is None:
        return None
    if not isinstance(value, str) or not _TOKEN68.fullmatch(value) or len(value) < MIN_METRICS_TOKEN:
        raise ConfigError(
            f"METRICS_TOKEN must be at least {MIN_METRICS_TOKEN} letters, digits or - . _ ~ + /"
            f" (a Bearer token). Make one with: {MAKE_A_SECRET}"
        )
    return value


def frame_ancestors(value: str) -> str:
    """The CSP frame-ancestors source list, checked; raises ``ConfigError`` for a bad source."""
    sources = value.split()
    if not sources:
        raise ConfigError("FRAME_ANCESTORS must name at least one source (or 'none')")
    for source in sources:
        if not _SOURCE.match(source):
            raise ConfigError(
                f"FRAME_ANCESTORS: {source!r} is not a CSP source (use *, 'self', 'none',"
                " or origins like https://example.com, separated by spaces)"
            )
    return " ".join(sources)


def _search_seconds_per_minute(source: Mapping[str, object]) -> float | None:
    """SEARCH_SECONDS_PER_MINUTE: None when ``off``, else a number of seconds; ``ConfigError`` otherwise."""
    value = source.get("SEARCH_SECONDS_PER_MINUTE")
    if isinstance(value, str) and value.strip().lower() == "off":
        return None
    seconds = number(source, "SEARCH_SECONDS_PER_MINUTE", DEFAULT_SEARCH_SECONDS_PER_MINUTE, float)
    if not 0 < seconds <= MAX_SEARCH_SECONDS_PER_MINUTE:
        raise ConfigError(
            f"SEARCH_SECONDS_PER_MINUTE must be more than 0 and at most {MAX_SEARCH_SECONDS_PER_MINUTE:g}"
            f" (seconds of search a client may spend a minute), or off, not {value!r}"
        )
    return seconds
