"""CACHE_SECRET means something (issue 13): required with Redis, real entropy, rotation.

A secret kept in the Redis it protects let anyone who could write entries sign
them; now Redis mode refuses to start without ``CACHE_SECRET``, a secret must
have at least 32 bytes and 10 different characters, and rotating it makes
every old entry fail its check: ignored, searched again, stored anew.  The
file cache keeps its generated 0600 secret file (the README's command needs
no setting).
"""

from __future__ import annotations

import json
import secrets

import pytest
import redis as redis_py

from app import create_app
from tests.oracle import optimal_moves
from tests.servers import TEST_SECRET, RedisServer
from tictactoe import Board
from web.cache.entries import position_key
from web.cache.signing import Signer, fixed_secret
from web.operations.config import ConfigError, load_settings

OLD_SECRET = "old: " + secrets.token_hex(16)
NEW_SECRET = "new: " + secrets.token_hex(16)
#  x | x | .
#  . | o | .      O to move: only the top right corner keeps the draw
#  . | . | .
CELLS = "xx..o...."
BOARD = ["xx.", ".o.", "..."]


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
