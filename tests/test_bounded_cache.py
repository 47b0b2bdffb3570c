"""A bounded cache: the file cache's cap and sweep, no stray temp files, what is worth storing,
and Redis evicting entries under `maxmemory` (issue 13, point 3).

Floods go through the real code path (``/move`` and ``/analyze``, in process
or on real gunicorn) with seeded random positions; every answer checked is
compared with a cold search (``check_answer``).
"""

from __future__ import annotations

import errno
import os
import random
import secrets
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from cachelib.file import FileSystemCache

from bench.flood_cache import post_move, random_position
from tests.servers import Gunicorn, RedisServer, wait_for_workers, wait_until
from tictactoe import Board, solve
from web.assembly import create_app
from web.cache.entries import position_key
from web.cache.eviction import LOW_WATER, STALE_TEMP_SECONDS, SWEEP_SHARE, TEMP_SUFFIX, BoundedFileCache
from web.config import ConfigError, load_settings
from web.parts import parts


def entry_files(folder: Path) -> list[Path]:
    return [path for path in folder.iterdir() if not path.name.endswith(TEMP_SUFFIX)]


def temp_files(folder: Path) -> list[Path]:
    return [path for path in folder.iterdir() if path.name.endswith(TEMP_SUFFIX)]


def check_answer(board: Board, body: dict) -> None:
    """``body`` (a /move answer) has the value of a cold search and plays one of its best moves.

    A cold search (a fresh solver, no cache) is the oracle here: what is under
    test is the cache, and the engine equals minimax on these boards
    (tests/test_properties.py; minimax itself takes about 0.2 s a board).
    """
    truth = solve(board)
    assert (body["value"], body["plies"]) == (str(truth.value), truth.plies)
    assert body["move"]["row"] * board.rules.cols + body["move"]["col"] in truth.best_moves


def positions(count: int, seed: int, stones: int = 8) -> list[Board]:
    """``count`` random 4x4 k=4 positions (distinct up to symmetry)."""
    rng = random.Random(seed)
    found: dict[str, Board] = {}
    while len(found) < count:
        board = random_position(rng, stones=stones)
        found.setdefault(board.canonical_key(), board)
    return list(found.values())


# -- the cap -------------------------------------------------------------------


def test_a_flood_through_move_never_grows_the_cache_past_its_cap(tmp_path):
    cap = 100
    client = create_app(
        {"CACHE_DIR": str(tmp_path), "CACHE_MAX_ENTRIES": cap, "CACHE_MIN_NODES": 0}
    ).test_client()
    solved = tmp_path / "solved"
    most = 0
    boards = positions(500, seed=1)
    for board in boards:
        response = client.post("/move", json={"board": board.to_text(), "k": 4})
        assert response.status_code == 200
        check_answer(board, response.get_json())
        most = max(most, len(entry_files(solved)))
    # One worker: it sweeps after every cap // SWEEP_SHARE of its writes.
    assert most <= cap + max(1, cap // SWEEP_SHARE)
    assert client.get("/stats").get_json()["worker"]["stored"] == len(boards)  # all written
    assert len(entry_files(solved)) >= int(cap * LOW_WATER)  # trimmed, not emptied


@pytest.mark.slow
def test_a_flood_on_two_gunicorn_workers_stays_within_the_cap_and_answers_right(tmp_path):
    cap, clients = 100, 4
    env = {"CACHE_DIR": str(tmp_path), "CACHE_MAX_ENTRIES": str(cap), "CACHE_MIN_NODES": "0"}
    boards = positions(400, seed=2)
    with Gunicorn(workers=2, env=env) as server:
        wait_for_workers(server.url, 2)
        with ThreadPoolExecutor(clients) as pool:
            answers = list(pool.map(lambda board: post_move(server.url, board), boards))
        for board, (status, body) in zip(boards, answers, strict=True):
            assert status == 200
            check_answer(board, body)
        # The slack: each worker may be one sweep interval behind, plus the writes in flight.
        assert len(entry_files(tmp_path / "solved")) <= cap + 2 * max(1, cap // SWEEP_SHARE) + clients
        # The early positions, long evicted, are searched again and still right.
        for board in boards[:20]:
            status, body = post_move(server.url, board)
            assert status == 200
            check_answer(board, body)


@pytest.mark.slow
def test_a_sweep_runs_off_the_event_loop_so_the_worker_answers_others_meanwhile(tmp_path):
    # The sweep is held at a gate without yielding, as its file calls are (tests/gated_sweep_app.py):
    # on the event loop, /livez on another connection of the one worker would wait for it.
    env = {
        "CACHE_DIR": str(tmp_path / "cache"),
        "CACHE_MAX_ENTRIES": "100",  # a sweep every 2 writes of the worker
        "CACHE_MIN_NODES": "0",
        "SEARCH_SECONDS_PER_MINUTE": "off",
        "SWEEP_GATE": str(tmp_path),
    }
    # Up once /livez answers: /healthz writes a probe key, and its second write would sweep.
    with (
        Gunicorn(workers=1, env=env, app="tests.gated_sweep_app:app", ready_path="/livez") as server,
        ThreadPoolExecutor(1) as writer,
    ):
        writes = writer.submit(lambda: [post_move(server.url, board) for board in positions(2, seed=3)])
        try:
            wait_until((tmp_path / "sweeping").exists, what="a sweep")
            assert not writes.done()  # the write that swept waits for its sweep
            with urllib.request.urlopen(server.url + "/livez", timeout=5) as answer:  # a hang guard
                assert answer.status == 200
        finally:
            (tmp_path / "open").touch()
        assert [status for status, _ in writes.result(timeout=30)] == [200, 200]


def make_store(folder: Path, cap: int = 100) -> BoundedFileCache:
    (folder / "solved").mkdir(parents=True, exist_ok=True)
    return BoundedFileCache(
        str(folder / "solved"), max_entries=cap, sweep_lock=str(folder / "sweep.lock"), default_timeout=0
    )


def test_the_least_recently_used_entries_go_first(tmp_path):
    store = make_store(tmp_path, cap=100)
    past = time.time() - 3600
    for i in range(100):
        store.set(f"k{i}", i)
        # File times are coarse (a kernel tick): spread them out so the order is known.
        os.utime(store.path_of(f"k{i}"), (past + i, past + i))
    assert store.get("k0") == 0  # used: now the most recent
    store.set("k100", 100)
    store.set("k101", 101)  # the second write of the interval: a sweep, 102 > 100
    assert len(entry_files(tmp_path / "solved")) == int(100 * LOW_WATER)
    assert store.get("k0") == 0
    gone = [i for i in range(1, 102) if store.get(f"k{i}") is None]
    assert gone == list(range(1, 13))  # the 12 oldest, k0 spared by its read


def test_only_one_worker_sweeps_at_a_time_and_a_skipped_sweep_is_retried(tmp_path):
    import fcntl

    store = make_store(tmp_path, cap=100)  # a sweep every 2 writes
    with open(tmp_path / "sweep.lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # another worker is sweeping
        assert store.sweep() is None
        for i in range(110):
            store.set(f"k{i}", i)
        assert len(entry_files(tmp_path / "solved")) == 110  # nobody swept
    store.set("k110", 110)  # the lock is free: this write's sweep runs at once
    assert len(entry_files(tmp_path / "solved")) == int(100 * LOW_WATER)


# -- temp files ----------------------------------------------------------------


class DiskFull:
    """A serializer that writes part of an entry, then fails as a full disk does."""

    def dump(self, value, file):
        file.write(b'{"format": 3, "val')
        raise OSError(errno.ENOSPC, "No space left on device")


def test_cachelib_alone_leaves_the_temp_file_of_a_failed_write(tmp_path):
    plain = FileSystemCache(str(tmp_path), threshold=0)
    plain.serializer = DiskFull()
    assert plain.set("key", 1) is False
    assert len(temp_files(tmp_path)) == 1  # what filled a full disk's cache folder


def test_a_failed_write_leaves_no_temp_file(tmp_path):
    store = make_store(tmp_path)
    store.serializer = DiskFull()
    for i in range(20):
        assert store.set(f"key{i}", i) is False
    assert list((tmp_path / "solved").iterdir()) == []


def test_a_write_interrupted_by_any_exception_leaves_no_temp_file(tmp_path):
    class Interrupted:
        def dump(self, value, file):
            file.write(b"partial")
            raise KeyboardInterrupt

    store = make_store(tmp_path)
    store.serializer = Interrupted()
    with pytest.raises(KeyboardInterrupt):
        store.set("key", 1)
    assert list((tmp_path / "solved").iterdir()) == []


def test_failed_writes_through_move_still_answer_and_leave_nothing(tmp_path, monkeypatch):
    app = create_app({"CACHE_DIR": str(tmp_path), "CACHE_MIN_NODES": 0})
    store = parts(app).solved.backend.store
    monkeypatch.setattr(store, "serializer", DiskFull())
    client = app.test_client()
    for board in positions(10, seed=3):
        response = client.post("/move", json={"board": board.to_text(), "k": 4})
        assert response.status_code == 200
        check_answer(board, response.get_json())
    assert list((tmp_path / "solved").iterdir()) == []


def test_stale_temp_files_are_swept_at_start_up(tmp_path):
    solved = tmp_path / "solved"
    solved.mkdir()
    stale, fresh = solved / f"tmpold{TEMP_SUFFIX}", solved / f"tmpnew{TEMP_SUFFIX}"
    stale.write_bytes(b"")
    fresh.write_bytes(b"")  # a write in progress in another worker: left alone
    old = time.time() - STALE_TEMP_SECONDS - 60
    os.utime(stale, (old, old))
    create_app({"CACHE_DIR": str(tmp_path)})
    assert not stale.exists() and fresh.exists()


# -- what is worth storing -----------------------------------------------------


def test_cheap_positions_are_searched_again_and_dear_ones_stored(tmp_path):
    # x o x / o x o / . . .: X wins at once; the search takes a handful of nodes.
    cheap = ["xox", "oxo", "..."]
    dear = ["...", "...", "..."]  # about 100 nodes
    settings = {"CACHE_DIR": str(tmp_path), "CACHE_MIN_NODES": 50}
    first = create_app(settings).test_client()
    answers = {
        name: first.post("/move", json={"board": board}).get_json()
        for name, board in (("cheap", cheap), ("dear", dear))
    }
    assert 0 < answers["cheap"]["nodes"] < 50 <= answers["dear"]["nodes"]
    # this worker keeps both in memory ...
    assert first.post("/move", json={"board": cheap}).get_json()["cached"] is True
    # ... but only the dear one was stored for the others
    other = create_app(settings).test_client()
    again = other.post("/move", json={"board": cheap}).get_json()
    assert again["cached"] is False and again["value"] == "win" and again["plies"] == 1
    assert other.post("/move", json={"board": dear}).get_json()["cached"] is True
    key = position_key(Board.from_text(cheap).canonical()[0])
    assert parts(other.application).solved.backend.store.get(key) is None


@pytest.mark.parametrize(
    "name, value",
    [
        ("CACHE_MAX_ENTRIES", "99"),
        ("CACHE_MAX_ENTRIES", "lots"),
        ("CACHE_MAX_ENTRIES", 1.5),
        ("CACHE_MIN_NODES", "-1"),
        ("CACHE_MIN_NODES", "many"),
    ],
)
def test_bad_cache_bounds_stop_the_app(name, value):
    with pytest.raises(ConfigError, match=name):
        load_settings({}, {name: value})


def test_cache_bounds_have_documented_defaults():
    settings = load_settings({})
    assert (settings.cache_max_entries, settings.cache_min_nodes) == (50_000, 16)


# -- Redis under maxmemory -----------------------------------------------------


@pytest.mark.redis
@pytest.mark.slow
def test_redis_evicting_entries_under_maxmemory_keeps_every_answer_right(tmp_path):
    import redis as redis_py

    args = ["--maxmemory", "1500kb", "--maxmemory-policy", "volatile-lru"]
    with RedisServer(tmp_path, args=args) as server:
        settings = {
            "REDIS_URL": server.url,
            "CACHE_DIR": str(tmp_path / "unused"),
            "CACHE_MIN_NODES": 0,
            "CACHE_SECRET": secrets.token_hex(32),
        }
        client = redis_py.Redis.from_url(server.url)
        client.set("ttt:no-ttl", "kept")  # as the app's keys without a TTL
        writer = create_app(settings).test_client()
        early = positions(40, seed=4, stones=6)
        for board in early:
            writer.post("/move", json={"board": board.to_text(), "k": 4})
        # Flood with /analyze (bigger entries: every move's value) until Redis evicts.
        rng = random.Random(5)
        flooded = 0
        while int(client.info("stats")["evicted_keys"]) < 200:
            assert flooded < 20_000, "Redis never evicted: is maxmemory set?"
            board = random_position(rng, stones=6)
            response = writer.post("/analyze", json={"board": board.to_text(), "k": 4})
            assert response.status_code == 200
            flooded += 1
        # Redis evicts before each write, so the last write may stand a little above the limit.
        assert int(client.info("memory")["used_memory"]) <= 1500 * 1024 + 64 * 1024
        # A key without a TTL is never chosen by volatile-lru.
        assert client.get("ttt:no-ttl") == b"kept"
        # A fresh instance (nothing in memory) asks the early positions again.
        reader = create_app(settings).test_client()
        cached = []
        for board in early:
            response = reader.post("/move", json={"board": board.to_text(), "k": 4})
            assert response.status_code == 200
            check_answer(board, response.get_json())
            cached.append(response.get_json()["cached"])
        assert not all(cached)  # some were evicted, and searched again
