"""CACHE_SECRET means something (issue 13): required with Redis, real entropy, rotation.

A secret kept in the Redis it protects let anyone who could write entries sign
them; now Redis mode refuses to start without ``CACHE_SECRET``, a secret must
have at least 32 bytes and 10 different characters, and rotating it makes
every old entry fail its check: ignored, searched again, stored anew.  The
file cache keeps its generated 0600 secret file (the README's command needs
no setting).
"""

from __future__ import annotations

import errno
import json
import os
import re
import secrets
import threading
from pathlib import Path

import pytest
import redis as redis_py

from tests.oracle import optimal_moves
from tests.servers import TEST_SECRET, RedisServer
from tictactoe import Board
from web.assembly import create_app
from web.cache.entries import position_key
from web.cache.signing import Signer, file_secret, fixed_secret
from web.config import ConfigError, load_settings

OLD_SECRET = "old: " + secrets.token_hex(16)
NEW_SECRET = "new: " + secrets.token_hex(16)
#  x | x | .
#  . | o | .      O to move: only the top right corner keeps the draw
#  . | . | .
CELLS = "xx..o...."
BOARD = ["xx.", ".o.", "..."]
#  x | . | .
#  . | o | .      O to move
#  . | . | x
OTHER_BOARD = ["x..", ".o.", "..x"]
HEX_SECRET = re.compile(r"[0-9a-f]{64}")


@pytest.mark.parametrize(
    "secret",
    [
        " " * 16,
        " " * 64,
        "x" * 40,
        "ab" * 20,
        "0123456789",
        "short but varied: 1234",
    ],
)
def test_weak_secrets_are_refused_saying_how_to_make_one(secret):
    with pytest.raises(
        ConfigError,
        match=r"CACHE_SECRET must be at least 32 bytes with at least"
        r" 10 different characters.*secrets\.token_hex",
    ):
        load_settings(env={"CACHE_SECRET": secret})


# Named, not shown: a fresh random secret in a test's name would differ between pytest-xdist's
# workers, which must collect the same tests.
@pytest.mark.parametrize(
    "secret",
    [secrets.token_hex(16), secrets.token_hex(32), TEST_SECRET],
    ids=["token_hex(16)", "token_hex(32)", "TEST_SECRET"],
)
def test_real_secrets_are_taken(secret):
    assert load_settings(env={"CACHE_SECRET": secret}).cache_secret == secret


def test_redis_without_a_secret_refuses_to_start():
    with pytest.raises(ConfigError, match="CACHE_SECRET must be set when the cache is Redis"):
        create_app({"REDIS_URL": "redis://127.0.0.1:1/0"})
    # Only Redis needs one: the file cache generates its own, and no cache needs none.
    assert load_settings(env={"REDIS_URL": "redis://127.0.0.1:1/0", "CACHE_TYPE": "null"})
    assert load_settings(env={}).cache_secret is None


def test_the_file_cache_keeps_a_private_generated_secret(tmp_path):
    client = create_app({"CACHE_DIR": str(tmp_path / "c")}).test_client()
    assert client.post("/move", json={"board": BOARD}).status_code == 200
    secret_file = tmp_path / "c" / "secret"
    assert secret_file.stat().st_mode & 0o777 == 0o600
    assert len(secret_file.read_text().strip()) == 64


def move_of(client) -> tuple[int, dict]:
    body = client.post("/move", json={"board": BOARD}).get_json()
    return body["move"]["row"] * 3 + body["move"]["col"], body


@pytest.mark.redis
def test_rotating_the_secret_ignores_old_entries_and_never_serves_a_forged_one(tmp_path):
    with RedisServer(tmp_path) as redis:

        def app(secret: str):
            return create_app({"REDIS_URL": redis.url, "CACHE_SECRET": secret}).test_client()

        old = app(OLD_SECRET)
        cell, body = move_of(old)
        assert body["cached"] is False and cell in optimal_moves(CELLS)
        store = redis_py.Redis.from_url(redis.url)
        canon, _ = Board.from_text(BOARD).canonical()
        key = position_key(canon)
        stored = json.loads(store.get("ttt:" + key))

        # Someone who had the old secret plants a consistent entry with a losing move.
        forged = {name: value for name, value in stored.items() if name != "mac"}
        losing = sorted(set(canon.legal_moves()) - set(stored["best"]))[0]
        forged["best"] = [losing]
        store.set("ttt:" + key, json.dumps(Signer(fixed_secret(OLD_SECRET)).sign(key, forged)))
        assert move_of(app(OLD_SECRET))[1]["cached"] is True  # the old secret would serve it

        rotated = app(NEW_SECRET)
        for _ in range(20):  # the move among the optimal ones is drawn at random
            cell, body = move_of(rotated)
            assert cell in optimal_moves(CELLS), cell
        first = rotated.get("/stats").get_json()["worker"]
        assert first["invalid"] >= 1 and first["searches"] == 1  # ignored, searched once
        # Stored anew under the new secret: another instance with it is served from Redis.
        cell, body = move_of(app(NEW_SECRET))
        assert body["cached"] is True and body["nodes"] == 0 and cell in optimal_moves(CELLS)
        store.close()


def full_disk_under(folder: Path):
    """``os.write`` failing with ENOSPC on files under ``folder``, as a full disk does (the
    secret's write; the cache's entries are written through file objects, not ``os.write``)."""
    write = os.write

    def full(fd: int, data) -> int:
        if os.readlink(f"/proc/self/fd/{fd}").startswith(f"{folder}/"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return write(fd, data)

    return full


def test_a_full_disk_at_the_secret_s_first_write_still_answers_and_the_cache_comes_back_with_room(
    tmp_path, monkeypatch
):
    folder = tmp_path / "c"
    client = create_app({"CACHE_DIR": str(folder)}).test_client()
    monkeypatch.setattr(os, "write", full_disk_under(folder))
    cell, body = move_of(client)
    assert body["cached"] is False and cell in optimal_moves(CELLS)
    # Written whole or not at all: no empty secret to be trusted later, no temporary file left.
    assert sorted(path.name for path in folder.iterdir()) == ["locks", "rooms", "solved", "sweep.lock"]
    assert list((folder / "locks").iterdir()) == []
    health = client.get("/healthz")
    assert health.status_code == 503
    assert health.get_json()["cache"] == {
        "backend": "filesystem",
        "ok": False,
        "detail": "the cache can neither store nor read entries: "
        "cannot write the signing secret file: No space left on device",
    }
    assert client.get("/stats").get_json()["worker"]["stored"] == 0

    monkeypatch.undo()  # room again: the next search stores its result, with no restart
    assert client.post("/move", json={"board": OTHER_BOARD}).get_json()["cached"] is False
    assert client.get("/stats").get_json()["worker"]["stored"] == 1
    assert HEX_SECRET.fullmatch((folder / "secret").read_text())
    assert client.get("/healthz").get_json()["cache"]["detail"] == "read and write ok"
    # A restart on the folder reads the same secret: the entry stored is served.
    restarted = create_app({"CACHE_DIR": str(folder)}).test_client()
    assert restarted.post("/move", json={"board": OTHER_BOARD}).get_json()["cached"] is True


@pytest.mark.parametrize(
    "leftover", [b"", b"0123456789abcdef\n", b"\0" * 64], ids=["empty", "short", "zeros"]
)
def test_a_secret_file_without_a_whole_secret_is_replaced_not_trusted(tmp_path, leftover):
    # What earlier versions left on a full disk (their first write went straight into the file).
    folder = tmp_path / "c"
    folder.mkdir(mode=0o700)
    (folder / "secret").write_bytes(leftover)
    client = create_app({"CACHE_DIR": str(folder)}).test_client()
    assert move_of(client)[1]["cached"] is False
    assert client.get("/stats").get_json()["worker"]["stored"] == 1
    assert HEX_SECRET.fullmatch((folder / "secret").read_text())
    assert (folder / "secret").stat().st_mode & 0o777 == 0o600


def test_workers_making_the_secret_at_once_all_get_the_one_written(tmp_path):
    # Each thread stands for a worker: a fetch of its own, its own open lock file.
    path, lock = tmp_path / "secret", tmp_path / "secret.lock"
    path.write_bytes(b"")  # every one of them finds no whole secret, and would write one
    start = threading.Barrier(8)
    got: list[bytes] = []

    def fetch() -> None:
        start.wait()
        got.append(file_secret(path, lock)())

    threads = [threading.Thread(target=fetch) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(got) == 8 and set(got) == {path.read_bytes()}
    assert sorted(item.name for item in tmp_path.iterdir()) == ["secret"]
