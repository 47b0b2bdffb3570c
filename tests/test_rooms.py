"""Rooms through the API, in process: a room made, its invite, a whole game by the engine's rules,
a rematch, and every bad input answered in words while nothing changes (web/rooms/).

The streams, across workers and instances, are tests/test_room_streams.py's and tests/test_redis.py's;
two browsers playing through the invite are tests/browser/test_play_a_friend.py's.
"""

from __future__ import annotations

import json
import os
import time

import pytest

from tictactoe import Rules
from web.pages.closed_sets import server_sets
from web.parts import parts
from web.rooms.model import LEASE_SECONDS, TTL_SECONDS, Refused, Room, WrongToken, digest
from web.rooms.store import COMPACT_LINES, MAX_EVENTS, TOMBSTONE_SECONDS, FileRoomStore
from web.searches.rate_limit import MemoryBuckets

PER_MINUTE = 3


@pytest.fixture(scope="module")
def app_settings():
    return {"ROOMS_PER_MINUTE": str(PER_MINUTE)}


@pytest.fixture(autouse=True)
def fresh_allowance_and_clock(app):
    """Each test starts with a clock at the real time and a full allowance for every address."""
    rooms = parts(app).rooms
    rooms.clock = time.time
    rooms.allowance.buckets = MemoryBuckets()  # as the app made it: no address has made a room
    yield


def make_room(client, address="127.0.0.1", **rules):
    """A new room (the host plays X unless ``rules`` say otherwise): its POST /rooms answer."""
    body = {"side": "x", **rules}
    answer = client.post("/rooms", json=body, environ_base={"REMOTE_ADDR": address})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def invite_of(made: dict) -> str:
    return made["links"]["invite"].split("#invite=")[1]


def seated(client, **rules) -> tuple[dict, dict]:
    """A room with both seats taken: (the host's answer, the guest's)."""
    host = make_room(client, **rules)
    guest = client.post(f"/rooms/{host['room']}/seats", json={"invite": invite_of(host)})
    assert guest.status_code == 201, guest.get_json()
    return host, guest.get_json()


def move(client, room: str, token: str | None, row: int, col: int):
    body = (
        {"move": {"row": row, "col": col}}
        if token is None
        else {"token": token, "move": {"row": row, "col": col}}
    )
    return client.post(f"/rooms/{room}/moves", json=body)


def room_file(app, room: str) -> bytes:
    return parts(app).rooms.store.path(room).read_bytes()


def test_a_room_is_made_with_a_secret_seat_an_invite_and_a_watch_link(client, app):
    answer = client.post("/rooms", json={"rows": 4, "cols": 4, "k": 3, "side": "o"})
    assert answer.status_code == 201
    made = answer.get_json()
    room, token = made["room"], made["token"]
    assert answer.headers["Location"] == f"/rooms/{room}"
    assert len(token) >= 22  # URL-safe base64 of 16 random bytes: 128 bits, more than the 96 asked
    assert made["seat"] == "host" and made["side"] == "o"
    assert made["links"] == {
        "seat": f"/?room={room}#host={token}",
        "invite": f"/?room={room}#invite={invite_of(made)}",
        "watch": f"/?room={room}",
    }
    state = made["state"]
    assert (state["rows"], state["cols"], state["k"], state["game"]) == (4, 4, 3, 1)
    assert state["board"] == ["....", "....", "....", "...."] and state["to_move"] == "x"
    assert state["players"]["o"] == {"seat": "host", "seated": True, "connected": False, "wins": 0}
    assert state["players"]["x"]["seated"] is False
    # The store holds no token, only their hashes: reading it lets nobody play.
    stored = room_file(app, room)
    assert token.encode() not in stored and invite_of(made).encode() not in stored
    assert digest(token).encode() in stored
    # Anyone may read the room; nobody may cache it.
    got = client.get(f"/rooms/{room}")
    assert got.get_json() == state and got.headers["Cache-Control"] == "no-store"


def test_the_invite_seats_the_first_to_bring_it_then_only_watches(client):
    host = make_room(client)
    room = host["room"]
    assert client.post(f"/rooms/{room}/seats", json={"invite": "not-the-invite"}).status_code == 403
    assert client.post(f"/rooms/{room}/seats", json={}).status_code == 403
    first = client.post(f"/rooms/{room}/seats", json={"invite": invite_of(host)})
    assert first.status_code == 201
    guest = first.get_json()
    assert guest["seat"] == "guest" and guest["side"] == "o" and "invite" not in guest["links"]
    assert guest["links"]["seat"] == f"/?room={room}#guest={guest['token']}"
    assert guest["state"]["players"]["o"]["seated"] is True
    again = client.post(f"/rooms/{room}/seats", json={"invite": invite_of(host)})
    assert again.status_code == 409
    assert again.get_json() == {
        "error": f"the invite of room {room} has been used: both seats are taken; you can watch"
    }


def test_a_whole_game_by_the_engines_rules_then_a_rematch_with_sides_swapped(client):
    # X (host) wins down column b:
    #
    #   o x .
    #   . x .
    #   . x o
    host, guest = seated(client)
    room = host["room"]
    for token, cell in [(host, (1, 1)), (guest, (0, 0)), (host, (0, 1)), (guest, (2, 2)), (host, (2, 1))]:
        answer = move(client, room, token["token"], *cell)
        assert answer.status_code == 200, answer.get_json()
    state = answer.get_json()
    assert state["status"] == "x_won" and state["to_move"] is None
    assert state["line"] == [[0, 1], [1, 1], [2, 1]]
    assert state["players"]["x"]["wins"] == 1 and state["draws"] == 0
    assert client.post(f"/rooms/{room}/rematch", json={"token": host["token"]}).get_json()["rematch"] == ["x"]
    # Asking twice changes nothing.
    event = client.get(f"/rooms/{room}").get_json()["event"]
    assert client.post(f"/rooms/{room}/rematch", json={"token": host["token"]}).get_json()["event"] == event
    next_game = client.post(f"/rooms/{room}/rematch", json={"token": guest["token"]}).get_json()
    assert next_game["game"] == 2 and next_game["moves"] == [] and next_game["rematch"] == []
    # Sides swapped, the score kept with its seat: the host now plays O, with its win.
    assert next_game["players"]["o"] == {"seat": "host", "seated": True, "connected": False, "wins": 1}
    assert next_game["players"]["x"]["seat"] == "guest"
    assert move(client, room, host["token"], 1, 1).get_json()["error"] == "it is not your turn: X is to move"
    assert move(client, room, guest["token"], 1, 1).status_code == 200


def test_every_board_the_page_plays_makes_a_room_of_its_rules(client):
    for preset in server_sets()["presets"]:
        rules = {"rows": preset["rows"], "cols": preset["cols"], "k": preset["k"]}
        state = make_room(client, address=f"127.0.1.{preset['rows']}{preset['cols']}", **rules)["state"]
        assert (state["rows"], state["cols"], state["k"]) == tuple(rules.values())
        assert state["board"] == ["." * preset["cols"]] * preset["rows"]


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"token": "not-a-seat", "move": {"row": 2, "col": 0}}, 403, "this token holds no seat in room"),
        ({"move": {"row": 2, "col": 0}}, 403, "a seat's token is required"),
        ({"token": "GUEST", "move": {"row": 2, "col": 0}}, 409, "it is not your turn: X is to move"),
        ({"token": "HOST", "move": {"row": 1, "col": 1}}, 409, "(counted from 0) is occupied"),
        (
            {"token": "HOST", "move": {"row": 3, "col": 0}},
            409,
            "row 3, col 0 is off this room's 3x3 k=3 board",
        ),
        ({"token": 7, "move": {"row": 2, "col": 0}}, 400, "token must be a string"),
        ({"token": "HOST"}, 400, "move must be an object"),
        ({"token": "HOST", "move": [2, 0]}, 400, "move must be an object"),
        ({"token": "HOST", "move": {"row": -1, "col": 0}}, 400, "move.row must be a whole number from 0"),
        ({"token": "HOST", "move": {"row": True, "col": 0}}, 400, "move.row must be a whole number from 0"),
        ({"token": "HOST", "move": {"row": 2, "col": 0, "z": 1}}, 400, 'unknown field "z"'),
        ({"token": "HOST", "move": {"row": 2, "col": 0}, "side": "x"}, 400, 'unknown field "side"'),
        ([1, 2], 400, "the body must be a JSON object, not an array"),
        ("{not json", 400, "the body is not valid JSON"),
        ("", 400, "the body is empty"),
    ],
)
def test_a_bad_move_is_refused_in_words_and_changes_nothing(client, app, body, status, words):
    # Two moves in: X b2, O a1; X to move.
    host, guest = seated(client)
    room = host["room"]
    assert move(client, room, host["token"], 1, 1).status_code == 200
    assert move(client, room, guest["token"], 0, 0).status_code == 200
    before, stored = client.get(f"/rooms/{room}").get_json(), room_file(app, room)
    if isinstance(body, dict) and isinstance(body.get("token"), str) and body["token"] in ("HOST", "GUEST"):
        body = {**body, "token": (host if body["token"] == "HOST" else guest)["token"]}
    data = body if isinstance(body, str) else json.dumps(body)
    answer = client.post(f"/rooms/{room}/moves", data=data, content_type="application/json")
    assert answer.status_code == status
    assert words in answer.get_json()["error"]
    assert client.get(f"/rooms/{room}").get_json() == before
    assert room_file(app, room) == stored


def test_a_finished_game_takes_no_move_nor_an_early_rematch(client, app):
    host, guest = seated(client)
    room = host["room"]
    assert client.post(f"/rooms/{room}/rematch", json={"token": host["token"]}).status_code == 409
    for token, cell in [(host, (0, 0)), (guest, (1, 0)), (host, (0, 1)), (guest, (1, 1)), (host, (0, 2))]:
        move(client, room, token["token"], *cell)
    stored = room_file(app, room)
    answer = move(client, room, guest["token"], 2, 2)
    assert (answer.status_code, answer.get_json()) == (
        409,
        {"error": "the game is over: there is no move to make"},
    )
    assert room_file(app, room) == stored


ROUTES = [
    ("GET", "/rooms/{room}", None),
    ("GET", "/rooms/{room}/events", None),
    ("POST", "/rooms/{room}/seats", {"invite": "x"}),
    ("POST", "/rooms/{room}/moves", {"token": "x", "move": {"row": 0, "col": 0}}),
    ("POST", "/rooms/{room}/rematch", {"token": "x"}),
]


@pytest.mark.parametrize(("method", "path", "body"), ROUTES)
def test_an_unknown_room_is_a_404_and_an_expired_one_a_410(client, app, method, path, body):
    for room in ("Zz9Zz9Zz", "short", "abc.defg"):
        answer = client.open(path.format(room=room), method=method, json=body)
        assert answer.status_code == 404, room
        assert answer.get_json()["error"].startswith("there is no room")
    made = make_room(client)["room"]
    parts(app).rooms.clock = lambda: time.time() + TTL_SECONDS + 1
    stored = room_file(app, made)
    answer = client.open(path.format(room=made), method=method, json=body)
    assert answer.status_code == 410
    assert answer.get_json() == {
        "error": f"room {made} has expired: nothing was played in it for a day; make a new one"
    }
    assert room_file(app, made) == stored


def test_a_flood_of_rooms_from_one_address_is_refused_in_words_and_fills_nothing(client, app):
    rooms = parts(app).rooms
    clock = [1000.0]
    rooms.allowance.buckets.clock = lambda: clock[0]
    try:
        for _ in range(PER_MINUTE):
            make_room(client, address="192.0.2.1")
        files = sorted(rooms.store.folder.glob("*.json"))
        refused = client.post("/rooms", json={}, environ_base={"REMOTE_ADDR": "192.0.2.1"})
        assert refused.status_code == 429
        wait = 60 // PER_MINUTE
        assert refused.headers["Retry-After"] == str(wait)
        assert refused.get_json() == {
            "error": "too many rooms were made from your network (address): it may make"
            f" {PER_MINUTE} a minute; try again in {wait} s",
            "retry_after": wait,
        }
        assert sorted(rooms.store.folder.glob("*.json")) == files
        make_room(client, address="192.0.2.2")  # another address has its own allowance
        clock[0] += wait
        make_room(client, address="192.0.2.1")  # and the first has one more once its wait is over
    finally:
        rooms.allowance.buckets.clock = time.monotonic


def test_past_rooms_max_a_new_room_is_a_503_in_words(client, app):
    store = parts(app).rooms.store
    full = store.rooms_max
    store.rooms_max = store.live_rooms(time.time()) + 1  # room for one more
    try:
        assert client.post("/rooms", json={}, environ_base={"REMOTE_ADDR": "192.0.2.5"}).status_code == 201
        answer = client.post("/rooms", json={}, environ_base={"REMOTE_ADDR": "192.0.2.5"})
    finally:
        store.rooms_max = full
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "60"
    words = "the server holds as many rooms as it may right now: try again in a minute"
    assert answer.get_json() == {"error": words, "retry_after": 60}


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"rows": 16}, "rows must be between 3 and 15, not 16"),
        ({"rows": 3, "cols": 3, "k": 4}, "k must be between 3 and 3 on a 3x3 board, not 4"),
        ({"k": "3"}, 'k must be an integer, not "3"'),
        ({"rows": 3.0}, "rows must be an integer, not 3.0"),
        ({"side": "random!"}, 'side must be one of x, o, random, not "random!"'),
        ({"size": "3x3"}, 'unknown field "size": the fields are rows, cols, k, side'),
    ],
)
def test_a_room_of_rules_the_engine_does_not_play_is_a_400(client, body, words):
    answer = client.post("/rooms", json=body, environ_base={"REMOTE_ADDR": "192.0.2.9"})
    assert (answer.status_code, answer.get_json()) == (400, {"error": words})


# -- the room and its store, without HTTP --------------------------------------------------


def test_presence_joins_and_leaves_once_per_seat_and_a_dead_workers_lease_runs_out():
    room, host_token, invite = Room.open("Abcdefgh", Rules(), "x", now=0.0)
    room.seat_guest(invite, now=1.0)  # the guest counts as here until its page connects
    assert room.players(1.0)["o"]["connected"] is True
    assert [e.type for e in room.connect("guest", "tab-1", now=2.0)] == []  # no second "join"
    assert [e.type for e in room.connect("host", "tab-1", now=2.0)] == ["join"]
    assert [e.type for e in room.connect("host", "tab-2", now=3.0)] == []  # another tab of a seat here
    assert [e.type for e in room.disconnect("host", "tab-1", now=4.0)] == []
    assert [e.type for e in room.disconnect("host", "tab-2", now=5.0)] == ["leave"]
    # The guest's worker died without a word: its lease runs out, and the next write says "leave".
    later = 2.0 + LEASE_SECONDS + 1
    assert room.players(later)["o"]["connected"] is False
    left = room.connect("host", "tab-3", now=later)
    assert [(e.type, e.data["side"]) for e in left] == [("leave", "o"), ("join", "x")]
    with pytest.raises(WrongToken):
        room.play("nobody", 0, 0, now=later)
    with pytest.raises(Refused):
        room.seat_guest(invite, now=later)
    assert Room.from_json(json.loads(json.dumps(room.to_json()))).to_json() == room.to_json()
    assert room.holder(host_token) == "host"


def test_the_store_keeps_the_last_events_and_sweeps_rooms_a_week_after_they_expired(tmp_path):
    store = FileRoomStore(tmp_path, rooms_max=10)
    room, _, _ = Room.open("Abcdefgh", Rules(), "x", now=0.0)
    assert store.add(room, [], now=0.0)

    def come_and_go(room: Room, now: float) -> list:
        events = []
        for _ in range(8):  # a join and a leave each time
            events += room.connect("host", "tab", now) + room.disconnect("host", "tab", now)
        return events

    # Past the lines a log holds before it is rewritten as one, and past the events a room keeps.
    for _ in range(COMPACT_LINES + 2):
        store.change(room.id, 1.0, come_and_go)
    last = store.load(room.id, 2.0).last_event
    assert last == 16 * (COMPACT_LINES + 2) > MAX_EVENTS
    assert len(store.path(room.id).read_bytes().splitlines()) < COMPACT_LINES
    assert [e.id for e in store.events_after(room.id, last - 3)] == [last - 2, last - 1, last]
    kept = store.events_after(room.id, last - MAX_EVENTS)
    assert [e.id for e in kept] == list(range(last - MAX_EVENTS + 1, last + 1))
    assert store.events_after(room.id, 0) is None  # the first events are gone: the stream sends the state
    # A writer that died mid-line leaves a fragment: readers skip it, the next writer cuts it off.
    with open(store.path(room.id), "ab") as log:
        log.write(b'{"format": 1, "room": {"id": "Abc')
    assert store.load(room.id, 2.0).last_event == last
    store.change(room.id, 3.0, come_and_go)
    assert store.load(room.id, 3.0).last_event == last + 16
    path = store.path(room.id)
    old = time.time() - TTL_SECONDS - TOMBSTONE_SECONDS - 1
    os.utime(path, (old, old))
    assert store.live_rooms(time.time()) == 0
    assert not path.exists()


def test_a_quiet_stream_sends_a_heartbeat_comment(client, monkeypatch):
    from web.rooms import stream

    monkeypatch.setattr(stream, "HEARTBEAT_SECONDS", 0.01)  # 15 s as deployed: under Heroku's 55 s
    room = make_room(client)["room"]
    answer = client.get(f"/rooms/{room}/events", buffered=False)
    chunks = iter(answer.response)
    try:
        assert next(chunks) == b"retry: 2000\n\n"
        assert next(chunks).startswith(b"id: 0\nevent: state\ndata: {")
        assert next(chunks) == b": heartbeat\n\n"  # nothing happened in the room
    finally:
        answer.close()
