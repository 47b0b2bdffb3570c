"""Two gunicorn instances sharing a real redis-server: shared entries, one search, outages."""

from __future__ import annotations

import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.event_stream import EventStream
from tests.oracle import position_value
from tests.room_clients import ROOMS_MAX, flood_of_rooms
from tests.search_gate import SearchGate
from tests.servers import (
    FOUR_BY_FOUR,
    TEST_SECRET,
    Gunicorn,
    RedisServer,
    get,
    post,
    wait_for_workers,
    wait_until,
)

pytestmark = [pytest.mark.redis, pytest.mark.slow]


def instance(
    redis: RedisServer,
    tmp_path,
    name: str,
    threads: int = 1,
    workers: int = 2,
    gate: SearchGate | None = None,
    settings: dict[str, str] | None = None,
) -> Gunicorn:
    """An instance of the app on ``redis`` with ``settings`` on top; with ``gate``, its searches wait
    there (tests/search_gate.py)."""
    # A CACHE_DIR of its own proves nothing comes through the file system.
    env = {
        "REDIS_URL": redis.url,
        "SEARCH_BUDGET": "2",
        "CACHE_SECRET": TEST_SECRET,
        "CACHE_DIR": str(tmp_path / name),
        **(settings or {}),
    }
    return Gunicorn(
        workers=workers,
        env=env if gate is None else {**env, "SEARCH_GATE": str(gate.folder)},
        extra_args=["--threads", str(threads)] if threads > 1 else [],
        app="app:app" if gate is None else "tests.gated_search_app:app",
    )


def both_totals(a: Gunicorn, b: Gunicorn) -> dict[str, int]:
    """The /stats totals of two instances, added (each counts its own workers)."""
    first, second = get(a.url + "/stats")["total"], get(b.url + "/stats")["total"]
    return {name: first[name] + second[name] for name in first}


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    """A redis-server and two instances of the app on it (2 workers each), for the tests that only
    play through them (solved positions, rooms: neither counts the other's work)."""
    folder = tmp_path_factory.mktemp("pair")
    with RedisServer(folder) as redis, instance(redis, folder, "a") as a, instance(redis, folder, "b") as b:
        yield redis, a, b


def test_two_instances_share_solved_positions(pair):
    _, a, b = pair
    board = {"board": ["x..", ".o.", "..x"]}
    status, solved = post(a.url + "/move", board)
    assert status == 200 and solved["cached"] is False and solved["proven"] is True
    status, hit = post(b.url + "/move", board)
    assert status == 200 and hit["cached"] is True and hit["nodes"] == 0
    assert (hit["value"], hit["plies"]) == position_value("x...o...x")
    # /analyze on B computes the move values once; A then has them too
    assert post(b.url + "/analyze", board)[1]["cached"] is False
    assert post(a.url + "/analyze", board)[1]["cached"] is True
    totals = both_totals(a, b)
    assert (totals["searches"], totals["hits"], totals["stored"]) == (2, 2, 2)


# A drawn game (X b2, O a1, X c1, O a3, X a2, O c2, X b3, O b1, X c3):
#
#   o o x
#   x x o
#   o x x
DRAWN = [(1, 1), (0, 0), (0, 2), (2, 0), (1, 0), (1, 2), (2, 1), (0, 1), (2, 2)]


def test_two_instances_on_one_redis_play_a_whole_room_game_one_player_on_each(pair):
    redis, a, b = pair
    status, host = post(a.url + "/rooms", {"side": "x"})
    assert status == 201
    room = host["room"]
    invite = host["links"]["invite"].split("#invite=")[1]
    status, guest = post(f"{b.url}/rooms/{room}/seats", {"invite": invite})
    assert status == 201 and guest["side"] == "o"
    players = {"x": (a, host), "o": (b, guest)}
    path = f"/rooms/{room}/events?token="
    with (
        EventStream(a.url, path + host["token"]) as on_a,
        EventStream(b.url, path + guest["token"]) as on_b,
    ):
        for stream in (on_a, on_b):
            assert stream.next_event().type == "state"
        for ply, (row, col) in enumerate(DRAWN):
            server, seat = players["xo"[ply % 2]]
            status, _ = post(
                f"{server.url}/rooms/{room}/moves",
                {"token": seat["token"], "move": {"row": row, "col": col}},
            )
            assert status == 200
            # Each player's stream, on its own instance, hears the move (past any join).
            for stream in (on_a, on_b):
                event = next_of(stream, "move")
                assert (event.data["ply"], event.data["move"]) == (ply + 1, {"row": row, "col": col})
        for stream in (on_a, on_b):
            end = next_of(stream, "end")
            assert (end.data["status"], end.data["winner"], end.data["draws"]) == ("draw", None, 1)
    for server in (a, b):
        state = get(f"{server.url}/rooms/{room}")
        assert (state["board"], state["status"], state["draws"]) == (["oox", "xxo", "oxx"], "draw", 1)
    # In Redis: the room and its event stream, each with a TTL (they expire with the room).
    client = redis_client(redis)
    try:
        assert client.xlen(f"ttt:room:{room}:events") >= len(DRAWN) + 1
        assert client.ttl(f"ttt:room:{room}") > 0 and client.ttl(f"ttt:room:{room}:events") > 0
        assert client.ttl(f"ttt:room:{room}:presence") > 0
    finally:
        client.close()


def test_a_seat_open_on_two_instances_stays_when_one_tab_closes_and_leaves_with_the_last(pair):
    _, a, b = pair
    status, host = post(a.url + "/rooms", {"side": "x"})
    room = host["room"]
    path = f"/rooms/{room}/events"
    with EventStream(a.url, path) as watching:
        watching.next_event()
        first = EventStream(a.url, f"{path}?token={host['token']}")
        first.next_event()
        assert watching.next_event().type == "join"
        with EventStream(b.url, f"{path}?token={host['token']}") as second:
            second.next_event()
            first.close()
            status, _ = post(
                f"{b.url}/rooms/{room}/moves", {"token": host["token"], "move": {"row": 1, "col": 1}}
            )
            assert status == 200 and watching.next_event().type == "move"  # no "leave" before it
            assert get(f"{a.url}/rooms/{room}")["players"]["x"]["connected"] is True
        left = watching.next_event()
        assert (left.type, left.data["side"]) == ("leave", "x")


def next_of(stream: EventStream, kind: str):
    """The next event of type ``kind`` of ``stream``, past the others (join, leave)."""
    while True:
        event = stream.next_event()
        if event.type == kind:
            return event


def redis_client(redis: RedisServer):
    import redis as redis_py

    return redis_py.Redis.from_url(redis.url)


def test_concurrent_requests_on_two_instances_search_once(tmp_path):
    """The first search is held until the seven other requests all wait for it (on either
    instance): one search, seven waits."""
    gate = SearchGate(tmp_path / "gate")
    with (
        RedisServer(tmp_path) as redis,
        instance(redis, tmp_path, "a", threads=2, gate=gate) as a,
        instance(redis, tmp_path, "b", threads=2, gate=gate) as b,
    ):
        wait_for_workers(a.url, 2)
        wait_for_workers(b.url, 2)
        with ThreadPoolExecutor(8) as pool:
            answers = pool.map(lambda i: post((a if i % 2 else b).url + "/move", FOUR_BY_FOUR), range(8))
            gate.wait_for(searches=1, waiting=7)
            gate.release()
            answers = list(answers)
        assert all(status == 200 and body["proven"] for status, body in answers)
        assert sum(not body["cached"] for _, body in answers) == 1
        totals = both_totals(a, b)
        assert (totals["searches"], totals["waited"], totals["hits"]) == (1, 7, 0)


def test_a_redis_outage_degrades_to_computing_and_recovers(tmp_path):
    # One worker: its /healthz probe is what closes its breaker once Redis is back.
    with RedisServer(tmp_path) as redis, instance(redis, tmp_path, "a", workers=1) as a:
        assert post(a.url + "/move", {"board": ["x..", "...", "..."]})[1]["cached"] is False

        redis.stop()
        for board in (["o..", "x..", "..."], ["x..", "...", "..o"], [".x.", "...", "..."]):
            status, body = post(a.url + "/move", {"board": board})
            assert status == 200 and body["proven"] is True and body["cached"] is False
        # A position this worker has seen is answered from its own memory.
        status, body = post(a.url + "/move", {"board": [".x.", "...", "..."]})
        assert status == 200 and body["cached"] is True
        status, body = post(a.url + "/analyze", {"board": ["x..", ".o.", "..."]})
        assert status == 200 and body["proven"] is True
        with pytest.raises(urllib.error.HTTPError) as health:
            urllib.request.urlopen(a.url + "/healthz", timeout=10)
        health.value.close()  # an error answer holds its connection open until closed
        assert health.value.code == 503
        stats = get(a.url + "/stats")
        assert stats["total"]["cache_errors"] >= 1  # counted in the metrics, not in Redis
        # The rooms say so in words, making one included: nothing is half made.
        for path, body in [
            ("/rooms", {}),
            ("/rooms/Abcdefgh/moves", {"token": "t", "move": {"row": 0, "col": 0}}),
        ]:
            status, answer = post(a.url + path, body)
            assert (status, answer["error"]) == (
                503,
                "the rooms could not be reached just now, and nothing was changed: try again in a second",
            )

        redis.start()  # the same port, empty (no persistence)
        # Once the breaker's moment is over, a probe finds Redis and closes it.
        wait_until(lambda: health_ok(a.url), 10, what="/healthz ok")
        board = {"board": ["...", ".x.", "..o"]}  # a class this worker has not seen
        before = get(a.url + "/stats")["total"]
        first = post(a.url + "/move", board)[1]
        second = post(a.url + "/move", board)[1]
        assert (first["cached"], second["cached"]) == (False, True)
        after = get(a.url + "/stats")["total"]
        assert tuple(after[name] - before[name] for name in ("misses", "hits", "stored")) == (1, 1, 1)


def health_ok(url: str) -> bool:
    try:
        return get(url + "/healthz")["status"] == "ok"
    except urllib.error.HTTPError:
        return False


def test_rooms_max_holds_exactly_across_instances_under_a_flood(tmp_path):
    settings = {"ROOMS_MAX": str(ROOMS_MAX)}  # tests/room_clients.py
    with (
        RedisServer(tmp_path) as redis,
        instance(redis, tmp_path, "a", workers=1, settings=settings) as a,
        instance(redis, tmp_path, "b", workers=1, settings=settings) as b,
    ):
        made = flood_of_rooms([a.url, b.url], 3 * ROOMS_MAX)
        assert made == ROOMS_MAX
