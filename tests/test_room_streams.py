"""Rooms' event streams on real gunicorn (2 gevent workers, the file store, as deployed): a move posted
to one worker reaches a stream held by the other, a reconnection with Last-Event-ID gets exactly the
events it missed, the stream arrives event by event through the app's compression with its headers,
presence, the per-address connection cap, and rooms that outlive their app.

One server for the module (its streams come from 127.0.0.1, the cap's from 127.0.0.9); every read
blocks until the server writes, bounded by the connection's timeout.
"""

from __future__ import annotations

import contextlib
import json
import socket
import urllib.request

import pytest

from tests.event_stream import EventStream
from tests.room_clients import ROOMS_MAX, flood_of_rooms
from tests.servers import SLOW, Gunicorn, connections_to_each_worker, post, wait_until

pytestmark = pytest.mark.slow

CAP = 6  # connections an address may hold in a worker, for this module's server


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("room-streams")


@pytest.fixture(scope="module")
def server(cache_dir):
    env = {"CACHE_DIR": str(cache_dir), "GUNICORN_CONNECTIONS_PER_ADDRESS": str(CAP)}
    with Gunicorn(workers=2, env=env) as server:
        yield server


def seated(url: str) -> tuple[dict, dict]:
    """A 3x3 room with the host on X and the guest seated: (the host's answer, the guest's)."""
    status, host = post(url + "/rooms", {"side": "x"})
    assert status == 201, host
    invite = host["links"]["invite"].split("#invite=")[1]
    status, guest = post(f"{url}/rooms/{host['room']}/seats", {"invite": invite})
    assert status == 201, guest
    return host, guest


def play(url: str, room: str, seat: dict, row: int, col: int) -> dict:
    status, answer = post(
        f"{url}/rooms/{room}/moves", {"token": seat["token"], "move": {"row": row, "col": col}}
    )
    assert status == 200, answer
    return answer


def post_on(connection, path: str, body: dict) -> tuple[int, dict]:
    """POST ``body`` over a kept-alive connection (so on the worker that holds it)."""
    connection.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
    response = connection.getresponse()
    return response.status, json.loads(response.read())


def test_a_move_posted_to_one_worker_reaches_a_stream_held_by_the_other(server):
    host, guest = seated(server.url)
    room = host["room"]
    first, second = connections_to_each_worker(server.url, workers=2, each=1)
    try:
        with EventStream(server.url, f"/rooms/{room}/events", connection=first) as watched:
            assert watched.next_event().type == "state"
            for seat, (row, col) in [(host, (1, 1)), (guest, (0, 0)), (host, (2, 2))]:
                path = f"/rooms/{room}/moves"
                status, _ = post_on(second, path, {"token": seat["token"], "move": {"row": row, "col": col}})
                assert status == 200
                event = watched.next_event()
                assert (event.type, event.data["move"]) == ("move", {"row": row, "col": col})
    finally:
        second.close()


def threads_of(pid: int) -> int:
    """The threads of process ``pid`` (/proc)."""
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("Threads:"))


def test_streams_held_cost_their_worker_no_thread_and_no_search_slot(server):
    room = seated(server.url)[0]["room"]
    pinned = connections_to_each_worker(server.url, workers=2, each=4)
    for other in pinned[4:]:
        other.close()
    held, asking = pinned[:3], pinned[3]  # all four on one worker
    try:
        asking.request("GET", "/healthz")
        worker = json.loads(asking.getresponse().read())["worker"]
        before = threads_of(worker)  # the store's pool among them: its few threads started with the app
        streams = [EventStream(server.url, f"/rooms/{room}/events", connection=c) for c in held]
        for stream in streams:
            assert stream.next_event().type == "state"
        assert threads_of(worker) == before
        # A search on that worker takes a slot at once: the streams hold none.
        status, answer = post_on(asking, "/move", SLOW)
        assert status == 200 and answer["worker"] == worker and answer["nodes"] > 0
    finally:
        for connection in pinned[:4]:
            connection.close()


def test_a_reconnection_with_last_event_id_gets_exactly_the_events_it_missed(server):
    host, guest = seated(server.url)
    room = host["room"]
    path = f"/rooms/{room}/events"
    with EventStream(server.url, path) as witness:
        state = witness.next_event()
        with EventStream(server.url, path) as dropped:
            assert dropped.next_event().id == state.id
            play(server.url, room, host, 1, 1)
            play(server.url, room, guest, 0, 0)
            seen = dropped.events(2)
            assert [e.type for e in seen] == ["move", "move"]
        # Missed: the rest of the game, its end, the host's rematch offer, the host's page coming and going.
        #   o x .
        #   . x .
        #   . x o
        play(server.url, room, host, 0, 1)
        play(server.url, room, guest, 2, 2)
        assert play(server.url, room, host, 2, 1)["status"] == "x_won"
        status, _ = post(f"{server.url}/rooms/{room}/rematch", {"token": host["token"]})
        assert status == 200
        with EventStream(server.url, f"{path}?token={host['token']}") as seat:
            assert seat.next_event().type == "state"
        everything = witness.events(2 + 3 + 1 + 1 + 2)
        assert [e.type for e in everything] == ["move"] * 5 + ["end", "rematch", "join", "leave"]
        missed = everything[2:]
        with EventStream(server.url, path, headers={"Last-Event-ID": str(seen[-1].id)}) as resumed:
            again = resumed.events(len(missed))
            assert [(e.id, e.type, e.data) for e in again] == [(e.id, e.type, e.data) for e in missed]
            # No more than that: the next event is the next thing that happens.
            status, _ = post(f"{server.url}/rooms/{room}/rematch", {"token": guest["token"]})
            assert status == 200
            following = resumed.next_event()
            assert (following.id, following.type) == (missed[-1].id + 1, "rematch")
            assert following.data["started"] is True


def test_the_stream_comes_event_by_event_through_compression_with_its_headers(server):
    host, guest = seated(server.url)
    room = host["room"]
    # Asked for gzip, as every browser asks.
    with EventStream(server.url, f"/rooms/{room}/events", headers={"Accept-Encoding": "gzip"}) as stream:
        headers = stream.response.headers
        assert stream.status == 200
        assert headers["Content-Type"] == "text/event-stream; charset=utf-8"
        assert headers["Cache-Control"] == "no-cache"
        assert headers["X-Accel-Buffering"] == "no"
        assert headers["Transfer-Encoding"] == "chunked"
        assert "Content-Encoding" not in headers
        # The reconnection delay and the room's state come at once, before anything happens in it ...
        assert stream.next().retry == 2000
        state = stream.next_event()
        assert state.type == "state" and state.data["board"] == ["...", "...", "..."]
        # ... and each move as it is played: the first is read before the second is made.
        for seat, (row, col) in [(host, (1, 1)), (guest, (0, 0))]:
            play(server.url, room, seat, row, col)
            event = stream.next_event()
            assert (event.type, event.data["side"], event.data["move"]) == (
                "move",
                seat["side"],
                {"row": row, "col": col},
            )


def test_a_seats_stream_is_its_presence_join_when_it_opens_leave_when_it_closes(server):
    host, _ = seated(server.url)
    room = host["room"]
    with EventStream(server.url, f"/rooms/{room}/events") as watching:
        watching.next_event()
        with EventStream(server.url, f"/rooms/{room}/events?token={host['token']}") as seat:
            seat.next_event()
            joined = watching.next_event()
            assert (joined.type, joined.data["side"], joined.data["players"]["x"]["connected"]) == (
                "join",
                "x",
                True,
            )
        left = watching.next_event()  # the tab closed: told at once, not at the next heartbeat
        assert (left.type, left.data["side"], left.data["players"]["x"]["connected"]) == ("leave", "x", False)
    refused = EventStream(server.url, f"/rooms/{room}/events?token=not-a-seat")
    assert refused.status == 403
    assert json.loads(refused.response.read())["error"].startswith("this token holds no seat")
    refused.close()


def test_every_stream_counts_against_the_connection_cap_of_its_address(server):
    room = seated(server.url)[0]["room"]
    streams, refusals = [], []
    try:
        # Two workers hold CAP each at most: one more than both can hold is refused for sure.
        for _ in range(2 * CAP + 1):
            stream = EventStream(server.url, f"/rooms/{room}/events", source="127.0.0.9")
            (streams if stream.status == 200 else refusals).append(stream)
            if stream.status != 200:
                break
        assert len(streams) >= CAP and len(refusals) == 1
        refusal = refusals[0]
        assert refusal.status == 429 and refusal.response.headers["Retry-After"] == "5"
        assert (
            "too many connections are open from your network" in json.loads(refusal.response.read())["error"]
        )
        # The streams refused nothing to other addresses.
        with EventStream(server.url, f"/rooms/{room}/events") as other:
            assert other.status == 200
    finally:
        for stream in streams + refusals:
            stream.close()


def test_a_room_outlives_its_app_and_moves_reach_streams_of_another_instance_on_the_machine(
    server, cache_dir
):
    with Gunicorn(workers=1, env={"CACHE_DIR": str(cache_dir)}) as other:
        host, guest = seated(other.url)
        room = host["room"]
        play(other.url, room, host, 1, 1)
        with EventStream(server.url, f"/rooms/{room}/events") as watching:
            assert watching.next_event().data["moves"] == [[1, 1]]
            play(other.url, room, guest, 0, 0)
            assert watching.next_event().data["move"] == {"row": 0, "col": 0}
    # The app that made the room has stopped; the game goes on here.
    assert play(server.url, room, host, 2, 2)["moves"] == [[1, 1], [0, 0], [2, 2]]
    with urllib.request.urlopen(f"{server.url}/rooms/{room}") as answer:
        assert json.loads(answer.read())["board"] == ["o..", ".x.", "..x"]


def test_a_seat_open_in_two_tabs_stays_when_one_closes_and_leaves_with_the_last(server):
    host, _guest = seated(server.url)
    room = host["room"]
    path = f"/rooms/{room}/events"
    with EventStream(server.url, path) as watching:
        watching.next_event()
        first = EventStream(server.url, f"{path}?token={host['token']}")
        first.next_event()
        assert watching.next_event().type == "join"
        with EventStream(server.url, f"{path}?token={host['token']}") as second:
            second.next_event()
            first.close()
            # The first tab's closing changed nothing: the next event is the guest's move.
            play(server.url, room, host, 1, 1)
            assert watching.next_event().type == "move"
            with urllib.request.urlopen(f"{server.url}/rooms/{room}") as answer:
                assert json.loads(answer.read())["players"]["x"]["connected"] is True
        left = watching.next_event()
        assert (left.type, left.data["side"]) == ("leave", "x")


def test_the_guests_only_stream_closing_is_its_leave(server):
    host, guest = seated(server.url)
    room = host["room"]
    path = f"/rooms/{room}/events"
    with EventStream(server.url, path) as watching:
        assert watching.next_event().data["players"]["o"]["connected"] is True  # arriving
        with EventStream(server.url, f"{path}?token={guest['token']}") as stream:
            stream.next_event()  # its lease taken over from the arrival's, without a second join
        left = watching.next_event()
        assert (left.type, left.data["side"], left.data["players"]["o"]["connected"]) == ("leave", "o", False)


# -- streams inside a budget: a worker of 40 connections, 10 of them for streams, 2 an address --

STREAMS_PER_ADDRESS, STREAMS_PER_WORKER = 2, 10


@pytest.fixture(scope="module")
def small_server(tmp_path_factory):
    """One worker of 40 connections whose streams may hold 10, two an address; a write gives up
    after 1 s (a reader that stops reading is dropped then)."""
    env = {
        "CACHE_DIR": str(tmp_path_factory.mktemp("small-server")),
        "GUNICORN_CONNECTIONS": "40",
        "ROOM_STREAMS_PER_WORKER": str(STREAMS_PER_WORKER),
        "ROOM_STREAMS_PER_ADDRESS": str(STREAMS_PER_ADDRESS),
        "GUNICORN_READ_TIMEOUT": "1",
    }
    with Gunicorn(workers=1, env=env) as server:
        yield server


def admitted(url: str, path: str, source: str) -> bool:
    """Whether a stream from ``source`` is admitted now (closed at once)."""
    with EventStream(url, path, source=source) as stream:
        return stream.status == 200


def refusal_of(stream: EventStream) -> tuple[int, str, dict]:
    return stream.status, stream.response.headers["Retry-After"], json.loads(stream.response.read())


def test_five_addresses_holding_every_stream_they_may_leave_the_worker_to_everyone_else(small_server):
    url = small_server.url
    host, _guest = seated(url)
    room = host["room"]
    path = f"/rooms/{room}/events"
    held: list[EventStream] = []
    try:
        for n in range(5):
            for _ in range(STREAMS_PER_ADDRESS):
                held.append(EventStream(url, path, source=f"127.0.1.{n}"))
                assert held[-1].status == 200
            over = EventStream(url, path, source=f"127.0.1.{n}")
            held.append(over)
            assert refusal_of(over) == (
                429,
                "5",
                {
                    "error": "too many live games are open from your network (address): it may watch"
                    f" {STREAMS_PER_ADDRESS} at once here; close some tabs, or try again in 5 s",
                    "retry_after": 5,
                },
            )
        full = EventStream(url, path, source="127.0.1.9")
        held.append(full)
        assert refusal_of(full) == (
            503,
            "5",
            {
                "error": "the server is following as many live games as it may right now: the game goes on,"
                " and this page connects again in 5 s",
                "retry_after": 5,
            },
        )
        # Everything else is answered: /livez, and the seats' moves from their own address.
        with urllib.request.urlopen(f"{url}/livez", timeout=5) as answer:
            assert answer.status == 200
        assert play(url, room, host, 1, 1)["moves"] == [[1, 1]]
        # A stream that closes gives its place back.
        held[0].close()
        wait_until(lambda: admitted(url, path, "127.0.1.9"), timeout=10, what="the place given back")
    finally:
        for stream in held:
            stream.close()


def test_a_reader_that_stops_reading_is_dropped_once_its_small_buffer_is_full(small_server):
    url = small_server.url
    host, guest = seated(url)
    room = host["room"]
    dropped_before = metric(url, 'tictactoe_room_streams_ended_total{reason="dropped"}')
    # A spectator whose page froze: it asks for the stream, then reads nothing more.
    sleeper = socket.socket()
    sleeper.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sleeper.connect(("127.0.0.1", small_server.port))
    sleeper.sendall(f"GET /rooms/{room}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    # Games of five moves and a rematch, about 1.5 KB of events each for the sleeper:
    #   x x x
    #   o o .
    #   . . .
    try:
        for _ in range(200):
            x, o = (host, guest) if metric_game(url, room) % 2 else (guest, host)
            for seat, (row, col) in zip(
                [x, o, x, o, x], [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)], strict=True
            ):
                play(url, room, seat, row, col)
            for seat in (host, guest):
                assert post(f"{url}/rooms/{room}/rematch", {"token": seat["token"]})[0] == 200
            if metric(url, 'tictactoe_room_streams_ended_total{reason="dropped"}') > dropped_before:
                break
        else:
            raise AssertionError("the sleeping reader was never dropped")
        sleeper.settimeout(10)
        with contextlib.suppress(ConnectionResetError):
            while sleeper.recv(65536):  # what the kernel held for it, then the end the server wrote
                pass
    finally:
        sleeper.close()


def metric_game(url: str, room: str) -> int:
    """The number of the room's current game (odd: the host plays X)."""
    with urllib.request.urlopen(f"{url}/rooms/{room}", timeout=10) as answer:
        return int(json.loads(answer.read())["game"])


def metric(url: str, line: str) -> float:
    """The value of ``line`` (a metric and its labels) on the server's /metrics."""
    with urllib.request.urlopen(f"{url}/metrics", timeout=10) as answer:
        for text in answer.read().decode().splitlines():
            if text.startswith(line + " "):
                return float(text.split()[-1])
    raise KeyError(line)


def test_rooms_max_holds_exactly_across_the_workers_under_a_flood(tmp_path):
    with Gunicorn(workers=2, env={"CACHE_DIR": str(tmp_path), "ROOMS_MAX": str(ROOMS_MAX)}) as server:
        assert flood_of_rooms([server.url], 3 * ROOMS_MAX) == ROOMS_MAX
