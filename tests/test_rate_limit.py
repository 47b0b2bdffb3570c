"""Fairness per client: searches are limited per client address, cache hits are free."""

from __future__ import annotations

import pytest

from app import create_app
from servers import TEST_SECRET, RedisServer
from web.config import ConfigError, load_settings

# Three 3x3 positions of different symmetry classes, each needing a search the first time:
#
#   x . .      . x .      . . .
#   . . .      . . .      . x .
#   . . .      . . .      . . .
FIRST, SECOND, THIRD = ["x..", "...", "..."], [".x.", "...", "..."], ["...", ".x.", "..."]


def limited_client(tmp_path, limit="2 per minute", **settings):
    app = create_app({"CACHE_DIR": str(tmp_path / "cache"), "SEARCH_RATE_LIMIT": limit, **settings})
    return app, app.test_client()


def test_searches_past_the_limit_get_429_with_retry_after_and_hits_stay_free(tmp_path):
    _, client = limited_client(tmp_path)
    assert client.post("/move", json={"board": FIRST}).get_json()["cached"] is False
    assert client.post("/analyze", json={"board": SECOND}).status_code == 200  # one budget
    refused = client.post("/move", json={"board": THIRD})
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert "too many searches" in refused.get_json()["error"]
    # What is already solved costs nothing, however often it is asked.
    for _ in range(10):
        hit = client.post("/move", json={"board": FIRST})
        assert hit.status_code == 200 and hit.get_json()["cached"] is True
    assert client.post("/state", json={"board": THIRD}).status_code == 200
    metrics = client.get("/metrics").get_data(as_text=True)
    assert 'tictactoe_refused_total{reason="rate_limited"} 1.0' in metrics


def statuses(client, *requests: tuple[list[str], dict]) -> list[int]:
    """The status of each (board, request options) posted to /move, in turn."""
    return [client.post("/move", json={"board": board}, **options).status_code for board, options in requests]


def peer(address: str) -> dict:
    return {"environ_base": {"REMOTE_ADDR": address}}


def forwarded(chain: str) -> dict:
    return {"headers": {"X-Forwarded-For": chain}}


def test_each_client_address_has_its_own_budget(tmp_path):
    _, client = limited_client(tmp_path, limit="1 per minute")
    assert statuses(
        client, (FIRST, peer("192.0.2.1")), (SECOND, peer("192.0.2.1")), (SECOND, peer("192.0.2.2"))
    ) == [200, 429, 200]


def test_x_forwarded_for_is_ignored_unless_proxies_are_trusted(tmp_path):
    _, untrusting = limited_client(tmp_path, limit="1 per minute")
    # A client cannot buy a fresh budget by writing the header itself.
    assert statuses(untrusting, (FIRST, forwarded("198.51.100.1")), (SECOND, forwarded("198.51.100.2"))) == [
        200,
        429,
    ]
    _, behind_router = limited_client(tmp_path / "b", limit="1 per minute", TRUSTED_PROXIES="1")
    # The router appends the address it saw; whatever the client wrote comes before it.
    assert statuses(
        behind_router,
        (FIRST, forwarded("203.0.113.9, 198.51.100.1")),
        (SECOND, forwarded("203.0.113.9, 198.51.100.2")),
        (THIRD, forwarded("203.0.113.9, 198.51.100.1")),
    ) == [200, 200, 429]


def test_off_turns_the_limit_off(tmp_path):
    _, client = limited_client(tmp_path, limit="off")
    for board in (FIRST, SECOND, THIRD):
        assert client.post("/move", json={"board": board}).status_code == 200


@pytest.mark.parametrize(
    "setting, value",
    [
        ("SEARCH_RATE_LIMIT", "lots"),
        ("SEARCH_RATE_LIMIT", "0 per second"),
        ("SEARCH_RATE_LIMIT", "2 per fortnight"),
        ("TRUSTED_PROXIES", "-1"),
        ("TRUSTED_PROXIES", "6"),
        ("TRUSTED_PROXIES", "one"),
    ],
)
def test_bad_limit_settings_stop_the_app(setting, value):
    with pytest.raises(ConfigError, match=setting):
        load_settings(env={setting: value})


def test_the_default_limit_applies_when_unset():
    settings = load_settings(env={})
    assert settings.search_rate_limit == "60 per minute"
    assert settings.trusted_proxies == 0


@pytest.mark.redis
def test_instances_sharing_a_redis_share_each_clients_budget(tmp_path):
    with RedisServer(tmp_path) as redis:
        apps = [
            limited_client(tmp_path / name, REDIS_URL=redis.url, CACHE_SECRET=TEST_SECRET)[1] for name in "ab"
        ]
        assert apps[0].post("/move", json={"board": FIRST}).status_code == 200
        assert apps[1].post("/move", json={"board": SECOND}).status_code == 200
        assert apps[0].post("/move", json={"board": THIRD}).status_code == 429
        assert apps[1].post("/move", json={"board": THIRD}).status_code == 429
        redis.stop()  # a store that fails lets searches through
        answer = apps[0].post("/move", json={"board": THIRD})
        assert answer.status_code == 200 and answer.get_json()["proven"] is True
