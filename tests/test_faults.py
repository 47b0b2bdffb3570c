"""Faults injected into real processes: Redis killed and restarted, a gunicorn worker killed,
the cache folder gone, cache entries replaced by garbage or by a wrong but well-formed result.

Every server binds 127.0.0.1 (tests/servers.py) and is stopped by the test.
Requests come from a few client threads looping over a fixed set of
positions; the test waits for counts of answers (polled with a timeout),
never for a time.  Every answer is checked against the plain minimax of
tests/test_api.py.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis as redis_py

from tests.oracle import move_values, optimal_moves, position_value, reachable_positions, rows
from tests.servers import SLOW, TEST_SECRET, Gunicorn, RedisServer, wait_for_workers, wait_until
from tictactoe import Board
from web.assembly import create_app
from web.cache import locks
from web.cache.entries import position_key
from web.parts import parts

pytestmark = pytest.mark.slow

# 3x3 positions with the game going on, one of each symmetry class (so no two
# share a cache entry), in a seeded order.  A stream asks about each once, so
# every request meets the shared cache, not a worker's own copy of an entry.
POSITIONS = random.Random(5).sample(
    sorted({Board.from_text(rows(cells)).canonical_key(): cells for cells in reachable_positions()}.values()),
    600,
)


@dataclass
class Answer:
    """One request of a stream: what was asked, when, and what came back."""

    path: str
    cells: str | None  # the 3x3 position asked about, None for other boards
    started: float
    ended: float
    status: int | None  # None: no HTTP answer at all (connection reset or refused)
    body: dict | None


def ask(url: str, path: str, payload: dict, timeout: float = 30) -> tuple[int | None, dict | None]:
    """POST JSON; (status, body), or (None, None) when the connection fails."""
    request = urllib.request.Request(
        url + path,
        data=json.dumps(payload).encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        with error:  # an error answer holds its connection open until closed
            return error.code, json.loads(error.read() or b"null")
    except (OSError, ValueError, http.client.HTTPException):  # reset, refused, cut short
        return None, None


def health(url: str) -> tuple[int | None, dict | None]:
    """GET /healthz: (status, body); (None, None) when nothing answers."""
    try:
        with urllib.request.urlopen(url + "/healthz", timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        with error:  # an error answer holds its connection open until closed
            return error.code, json.loads(error.read())
    except OSError:
        return None, None


class Stream:
    """Client threads sending requests in a loop until stopped; a context manager.

    ``requests`` is a list of (path, payload, cells); thread i sends items
    i, i + threads, ... round the list.  At most ``limit`` requests in all.
    """

    def __init__(
        self, url: str, requests: list[tuple[str, dict, str | None]], threads: int = 3, limit: int = 20_000
    ) -> None:
        self.url = url
        self.requests = requests
        self.answers: list[Answer] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._sent = 0
        self._limit = limit
        self._threads = [threading.Thread(target=self._run, daemon=True) for _ in range(threads)]

    def _run(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                if self._sent >= self._limit:
                    return
                path, payload, cells = self.requests[self._sent % len(self.requests)]
                self._sent += 1
            started = time.monotonic()
            status, body = ask(self.url, path, payload)
            with self._lock:
                self.answers.append(Answer(path, cells, started, time.monotonic(), status, body))

    def count(self) -> int:
        with self._lock:
            return len(self.answers)

    def wait_for(self, more: int, timeout: float = 60) -> None:
        """Wait until ``more`` answers beyond the present count have come back."""
        target = self.count() + more
        wait_until(lambda: self.count() >= target, timeout, what=f"{target} answers")

    def __enter__(self) -> Stream:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=60)


def position_requests() -> list[tuple[str, dict, str]]:
    """/move or /analyze, in turn, on each stream position."""
    return [
        (("/move", "/analyze")[i % 2], {"board": rows(cells)}, cells)
        for i, cells in enumerate(POSITIONS[100:])
    ]  # the first 100 are for the tests


def store(cache: Path):
    """(app, backend): an app of this process on the cache folder ``cache``, and its
    backend, which read and write what the workers read and write.
    """
    app = create_app({"CACHE_DIR": str(cache)})
    return app, parts(app).solved.backend.store


def key_of(cells: str) -> str:
    """The cache key of a 3x3 position."""
    return position_key(Board.from_text(rows(cells)).canonical()[0])


def check_correct(path: str, cells: str, body: dict) -> None:
    """The answer is the perfect one for the 3x3 position ``cells``."""
    assert (body["value"], body["plies"]) == position_value(cells), (path, cells, body)
    if path == "/move":
        assert body["move"]["row"] * 3 + body["move"]["col"] in optimal_moves(cells), (cells, body)
    else:
        assert {m["row"] * 3 + m["col"] for m in body["best"]} == optimal_moves(cells), cells
        assert {m["row"] * 3 + m["col"]: (m["value"], m["plies"]) for m in body["moves"]} == move_values(
            cells
        ), cells


def check_all_correct(answers: list[Answer]) -> None:
    """Every answer of a stream is a 200 with the perfect answer."""
    bad = [(a.path, a.status) for a in answers if a.status != 200]
    assert bad == [], bad
    for answer in answers:
        check_correct(answer.path, answer.cells, answer.body)


# -- Redis killed -------------------------------------------------------------------


@pytest.mark.redis
def test_redis_killed_mid_stream_costs_no_request_and_the_cache_comes_back(tmp_path):
    with (
        RedisServer(tmp_path) as redis,
        Gunicorn(
            workers=2,
            env={"REDIS_URL": redis.url, "CACHE_DIR": str(tmp_path / "c"), "CACHE_SECRET": TEST_SECRET},
        ) as server,
    ):
        wait_for_workers(server.url, 2)
        with Stream(server.url, position_requests()) as stream:
            stream.wait_for(60)  # the cache fills and serves
            redis.process.send_signal(signal.SIGKILL)  # no shutdown, no goodbye to clients
            redis.process.wait()
            redis.process = None
            outage = stream.count()
            stream.wait_for(60)  # answered with Redis gone
            assert health(server.url)[0] == 503
            redis.start()  # the same port, empty (no persistence)
            # each worker's successful probe closes its breaker (only 200s count here)
            wait_for_workers(server.url, 2)
            stream.wait_for(60)
        check_all_correct(stream.answers)
        # new positions while Redis was gone: computed, not served from a cache
        assert all(not a.body["cached"] for a in stream.answers[outage : outage + 60])
        # Once back (both breakers closed by the probes), Redis is used again: a
        # new position is stored there ...
        cells = POSITIONS[0]
        status, body = ask(server.url, "/move", {"board": rows(cells)})
        assert status == 200 and body["cached"] is False
        client = redis_py.Redis.from_url(redis.url)
        assert client.exists("ttt:" + key_of(cells)) == 1
        client.close()
        # ... and the other worker, which never solved it, gets it from there.
        hit = answer_from_another_worker(server.url, {"board": rows(cells)}, body["worker"])
        assert hit["cached"] is True and hit["nodes"] == 0
        check_correct("/move", cells, hit)


def answer_from_another_worker(url: str, payload: dict, worker: int) -> dict:
    """POST /move in concurrent pairs (so both workers take some) until another answers."""
    found = []

    def pair() -> bool:
        with ThreadPoolExecutor(2) as pool:
            for status, body in pool.map(lambda _: ask(url, "/move", payload), range(2)):
                assert status == 200
                if body["worker"] != worker:
                    found.append(body)
        return bool(found)

    wait_until(pair, 30, what="an answer from the other worker")
    return found[0]


# -- a worker killed ------------------------------------------------------------------


def test_a_killed_worker_costs_at_most_the_requests_in_flight_and_is_replaced(tmp_path):
    # No cache: every request searches (about 0.1 s on 5x5), so workers are busy
    # when one is killed; enough search slots that none is refused as busy.
    env = {
        "CACHE_TYPE": "null",
        "MAX_CONCURRENT_SEARCHES": "8",
        "SEARCH_BUDGET": "2",
        "CACHE_DIR": str(tmp_path / "c"),
    }
    with Gunicorn(workers=2, env=env) as server:
        workers = wait_for_workers(server.url, 2)
        with Stream(server.url, [("/move", SLOW, None)], threads=4) as stream:
            stream.wait_for(8)
            victim = stream.answers[-1].body["worker"]
            assert victim in workers
            before = time.monotonic()
            os.kill(victim, signal.SIGKILL)
            after = time.monotonic()
            # the arbiter starts a new worker, which answers
            wait_until(
                lambda: any(a.body and a.body["worker"] not in workers for a in stream.answers[-8:]),
                30,
                what="a new worker",
            )
            stream.wait_for(16)
        in_flight = [a for a in stream.answers if a.started < after and a.ended > before]
        failed = [a for a in stream.answers if a.status != 200]
        assert in_flight  # the kill met a busy server
        assert all(a.started < after for a in failed)  # nothing sent after the kill failed
        assert len(failed) <= len(in_flight)
        assert all(a.status is None for a in failed)  # a dropped connection, never a 5xx
        late = [a for a in stream.answers if a.started > after and a.status == 200]
        assert len(late) >= 16 and all(a.body["worker"] != victim for a in late)
        assert all(a.body["proven"] and a.body["value"] for a in stream.answers if a.body)


# -- the cache folder unusable -----------------------------------------------------------


class AnyHealthGunicorn(Gunicorn):
    """Gunicorn that counts as up once /healthz answers at all (a 503 included)."""

    def _answers(self) -> bool:
        if self.process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with code {self.process.returncode}")
        return health(self.url)[0] is not None


def test_a_cache_folder_that_cannot_be_created_leaves_a_working_server(tmp_path):
    # Its parent is a regular file: no mkdir can succeed, root or not.
    (tmp_path / "file").write_text("not a folder")
    with AnyHealthGunicorn(workers=2, env={"CACHE_DIR": str(tmp_path / "file" / "cache")}) as server:
        status, body = health(server.url)
        assert status == 503 and body["cache"]["detail"] == "cache folder unusable"
        answers = [
            (path, cells, *ask(server.url, path, {"board": rows(cells)}))
            for cells in POSITIONS[:8]
            for path in ("/move", "/analyze")
        ]
    for path, cells, status, body in answers:
        assert status == 200, (path, cells, body)
        check_correct(path, cells, body)


def test_the_cache_folder_replaced_by_a_file_while_serving(tmp_path):
    cache = tmp_path / "cache"
    with Gunicorn(workers=2, env={"CACHE_DIR": str(cache)}) as server:
        wait_for_workers(server.url, 2)
        with Stream(server.url, position_requests(), limit=500) as stream:
            stream.wait_for(40)
            # Works as root too (chmod would not stop root): the folder is moved
            # away and a regular file takes its place, so every path under it fails.
            cache.rename(tmp_path / "moved")
            cache.write_text("not a folder any more")
            broken = stream.count()
            stream.wait_for(60)
            assert health(server.url)[0] == 503
            cache.unlink()
            (tmp_path / "moved").rename(cache)
            wait_until(lambda: health(server.url)[0] == 200, 30, what="healthz 200")
            stream.wait_for(40)
        check_all_correct(stream.answers)
        assert all(not a.body["cached"] for a in stream.answers[broken : broken + 60])
        # the folder back, a new position is stored in it again
        assert ask(server.url, "/move", {"board": rows(POSITIONS[1])})[0] == 200
        assert store(cache)[1].get(key_of(POSITIONS[1])) is not None


def test_a_lock_folder_replaced_while_a_lock_is_taken_is_unavailable_not_a_crash(tmp_path, monkeypatch):
    # The race the test above meets now and then, made certain: the folder is
    # swapped for a file between opening the lock file and checking it is still
    # the one at its path.  The lock must report itself unavailable (the request
    # then searches without it), not let NotADirectoryError through as a 500.
    folder = tmp_path / "locks"
    folder.mkdir()
    real_flock = locks.fcntl.flock

    def flock_then_swap(fd, operation):
        real_flock(fd, operation)
        folder.rename(tmp_path / "moved")
        folder.write_text("not a folder any more")

    monkeypatch.setattr(locks.fcntl, "flock", flock_then_swap)
    lock = locks.FileLocks(folder).lock("solved:v1:3x3k3:x../.../...")
    with pytest.raises(locks.LockUnavailable):
        lock.try_acquire()


# -- bad entries in the cache -------------------------------------------------------------


def solved_files(cache: Path) -> list[Path]:
    """The stored entries (cachelib's files) under the cache folder."""
    return sorted(p for p in (cache / "solved").iterdir() if p.is_file() and not p.name.startswith("__"))


def test_garbage_entries_are_never_served(tmp_path):
    cache = tmp_path / "cache"
    rng = random.Random(11)
    # Stored by this process, damaged, then read by workers that never saw them
    # (a worker keeps the entries it checked in memory, and would not read them again).
    client = store(cache)[0].test_client()
    for cells in POSITIONS[:12]:
        assert client.post("/analyze", json={"board": rows(cells)}).status_code == 200
    files = solved_files(cache)
    assert len(files) == 12
    damages = [  # each file gets one kind of damage, in turn
        lambda data: rng.randbytes(len(data)),  # noise of the same length
        lambda data: b"",  # empty
        lambda data: data[: len(data) // 2],  # cut short
        lambda data: data[:4] + b"\x00\xff{not json",  # header, then garbage
        lambda data: data[:4] + b'["a", "list"]',  # header, then JSON of another shape
        lambda data: data[:4] + json.dumps({"format": 1, "value": "win"}).encode(),
    ]
    for i, path in enumerate(files):
        path.write_bytes(damages[i % len(damages)](path.read_bytes()))
    with Gunicorn(workers=2, env={"CACHE_DIR": str(cache)}) as server:
        answers = [
            (cells, path, *ask(server.url, path, {"board": rows(cells)}))
            for cells in POSITIONS[:12]
            for path in ("/analyze", "/move")
        ]
    for cells, path, status, body in answers:
        assert status == 200, (cells, path, body)
        check_correct(path, cells, body)
        if path == "/analyze":  # the first request after the damage: not served from it
            assert body["cached"] is False


# Positions where a wrong move costs the game or the win, with a cell that is not optimal.
# xx. / .o. / ...: O must block at 2; elsewhere it loses in 2.
# xo. / ... / ...: X wins in 5 through 3, 4 or 6; 2 only draws.
FORGERIES = [("xx..o....", 3), ("xo.......", 2)]


@pytest.mark.parametrize("kind", ["with-move-values", "best-only"])
def test_a_well_formed_entry_with_a_wrong_move_is_never_served(tmp_path, kind):
    """A consistent entry that names a losing move must not make the server play it.

    Every entry written here passes today's schema check (its value, plies,
    best moves and move values agree with each other); only its claim is false.
    """
    cache = tmp_path / "cache"
    app, backend = store(cache)
    client = app.test_client()
    for cells, wrong in FORGERIES:
        assert wrong not in optimal_moves(cells) and cells[wrong] == "."
        assert Board.from_text(rows(cells)).canonical()[0].to_text() == rows(cells)
        assert client.post("/analyze", json={"board": rows(cells)}).status_code == 200
        entry = backend.get(key_of(cells))  # the real entry, in the position's own cells
        assert isinstance(entry, dict) and entry["moves"]
        value, plies = position_value(cells)
        wrong_value = move_values(cells)[wrong]
        # The wrong cell takes the position's value, every truly best cell the
        # wrong one's; any other field of the entry is left as it was.
        entry["best"] = [wrong]
        if kind == "with-move-values":
            entry["moves"] = [
                [cell, value, plies]
                if cell == wrong
                else [cell, *wrong_value]
                if cell in optimal_moves(cells)
                else [cell, v, p]
                for cell, v, p in entry["moves"]
            ]
        else:
            entry["moves"] = None
        assert backend.set(key_of(cells), entry)
    # Workers that never saw the true entries read the forged ones.
    with Gunicorn(workers=2, env={"CACHE_DIR": str(cache)}) as server:
        for cells, wrong in FORGERIES:
            for seed in range(6):
                status, body = ask(server.url, "/move", {"board": rows(cells), "seed": seed})
                assert status == 200, body
                played = body["move"]["row"] * 3 + body["move"]["col"]
                assert played != wrong, f"played the forged entry's move {wrong} on {cells}"
                check_correct("/move", cells, body)
            status, body = ask(server.url, "/analyze", {"board": rows(cells)})
            assert status == 200
            check_correct("/analyze", cells, body)


def test_an_entry_naming_an_occupied_cell_is_never_served(tmp_path):
    cache = tmp_path / "cache"
    cells = "xx..o...."
    app, backend = store(cache)
    assert app.test_client().post("/move", json={"board": rows(cells)}).status_code == 200
    entry = backend.get(key_of(cells))
    entry["best"] = [0]  # x's own stone
    assert backend.set(key_of(cells), entry)
    with Gunicorn(workers=2, env={"CACHE_DIR": str(cache)}) as server:
        for seed in range(4):
            status, body = ask(server.url, "/move", {"board": rows(cells), "seed": seed})
            assert status == 200
            check_correct("/move", cells, body)
