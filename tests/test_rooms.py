"""Rooms through the API, in process: a room made, its invite, a whole game by the engine's rules,
a rematch, every bad input answered in words while nothing changes, and the store that keeps them
(SQLite: web/rooms/sqlite_store.py): what a room keeps, a damaged room alone, the allowances.

The streams, across workers and instances, are tests/test_room_streams.py's and tests/test_redis.py's;
two browsers playing through the invite are tests/browser/test_play_a_friend.py's.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import subprocess
import time

import pytest

from tictactoe import Rules
from web.pages.closed_sets import server_sets
from web.rooms import rooms_of
from web.rooms.model import (
    INVITE_SECONDS,
    LEASE_SECONDS,
    RECONNECT_GRACE_SECONDS,
    TTL_SECONDS,
    Refused,
    Room,
    WrongToken,
    digest,
)
from web.rooms.sqlite_store import SqliteRoomStore, stored_bytes
from web.rooms.store import ROOM_BYTES_3X3, TOMBSTONE_SECONDS, kept_events
from web.searches.rate_limit import MemoryBuckets

PER_MINUTE = 3


@pytest.fixture(scope="module")
def app_settings():
    return {"ROOMS_PER_MINUTE": str(PER_MINUTE)}


@pytest.fixture(autouse=True)
def fresh_allowance_and_clock(app):
    """Each test starts with a clock at the real time and full allowances for every address."""
    rooms = rooms_of(app)
    rooms.clock = time.time
    rooms.making.buckets = MemoryBuckets()  # as the app made them: no address has made a room,
    rooms.guessing.buckets = MemoryBuckets()  # nor brought a wrong token
    yield


def make_room(client, address="127.0.0.1", **rules):
    """A new room (the host plays X unless ``rules`` say otherwise): its POST /rooms answer."""
    body = {"side": "x", **rules}
    answer = client.post("/rooms", json=body, environ_base={"REMOTE_ADDR": address})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def invite_of(made: dict) -> str:
    return made["links"]["invite"].split("#invite=")[1]


def seated(client, address="127.0.0.1", **rules) -> tuple[dict, dict]:
    """A room with both seats taken: (the host's answer, the guest's)."""
    host = make_room(client, address, **rules)
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


def database(app) -> sqlite3.Connection:
    """A connection of the test's own to the app's rooms' database."""
    return contextlib.closing(sqlite3.connect(rooms_of(app).store.path))


def room_file(app, room: str) -> str:
    """Everything the store holds of ``room``: its row and its events, as text."""
    with database(app) as db:
        row = db.execute("SELECT * FROM rooms WHERE id = ?", (room,)).fetchall()
        events = db.execute("SELECT * FROM events WHERE room = ? ORDER BY id", (room,)).fetchall()
    return repr((row, events))


def rooms_stored(app) -> int:
    with database(app) as db:
        return db.execute("SELECT COUNT(*) FROM rooms").fetchone()[0]


def test_a_room_is_made_with_a_secret_seat_an_invite_and_a_watch_link(client, app):
    rooms_of(app).clock = lambda: 1_800_000_000.0  # a clock that stands still: "away" is exact
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
    # The host is away (no stream yet) since the room was made: 0 whole seconds ago, by the room's clock.
    host = {"seat": "host", "seated": True, "connected": False, "wins": 0, "name": None, "away": 0}
    assert state["players"]["o"] == host
    assert state["players"]["x"]["seated"] is False
    # The store holds no token, only their hashes: reading it lets nobody play.
    stored = room_file(app, room)
    assert token not in stored and invite_of(made) not in stored
    assert digest(token) in stored
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


def test_a_whole_game_by_the_engines_rules_then_a_rematch_with_sides_swapped(client, app):
    # X (host) wins down column b:
    #
    #   o x .
    #   . x .
    #   . x o
    rooms_of(app).clock = lambda: 1_800_000_000.0  # a clock that stands still: "away" is exact
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
    assert next_game["players"]["o"] == {
        "seat": "host",
        "seated": True,
        "connected": False,
        "wins": 1,
        "name": None,
        "away": 0,
    }
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
    rooms_of(app).clock = lambda: time.time() + TTL_SECONDS + 1
    stored = room_file(app, made)
    answer = client.open(path.format(room=made), method=method, json=body)
    assert answer.status_code == 410
    assert answer.get_json() == {
        "error": f"room {made} has expired: nobody came with its invite within an hour; make a new one"
    }
    assert room_file(app, made) == stored


def test_a_flood_of_rooms_from_one_address_is_refused_in_words_and_fills_nothing(client, app):
    rooms = rooms_of(app)
    clock = [1000.0]
    rooms.making.buckets.clock = lambda: clock[0]
    try:
        for _ in range(PER_MINUTE):
            make_room(client, address="192.0.2.1")
        stored = rooms_stored(app)
        refused = client.post("/rooms", json={}, environ_base={"REMOTE_ADDR": "192.0.2.1"})
        assert refused.status_code == 429
        wait = 60 // PER_MINUTE
        assert refused.headers["Retry-After"] == str(wait)
        assert refused.get_json() == {
            "error": "too many rooms were made from your network (address): it may make"
            f" {PER_MINUTE} a minute; try again in {wait} s",
            "retry_after": wait,
        }
        assert rooms_stored(app) == stored
        make_room(client, address="192.0.2.2")  # another address has its own allowance
        clock[0] += wait
        make_room(client, address="192.0.2.1")  # and the first has one more once its wait is over
    finally:
        rooms.making.buckets.clock = time.monotonic


def test_past_rooms_max_a_new_room_is_a_503_in_words(client, app):
    store = rooms_of(app).store
    full = store.rooms_max
    with database(app) as db:
        live = db.execute("SELECT COUNT(*) FROM rooms WHERE expires > ?", (time.time(),)).fetchone()[0]
    store.rooms_max = live + 1  # room for one more
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
    # A stream the server ended keeps its lease a while: the browser comes back without a "leave".
    room.connect("host", "tab-3", now=6.0)
    assert room.disconnect("host", "tab-3", now=7.0, grace=RECONNECT_GRACE_SECONDS) == []
    assert room.connect("host", "tab-4", now=9.0) == []
    assert not room.lapsed(9.0) and room.lapsed(7.0 + RECONNECT_GRACE_SECONDS)
    assert room.lapse(7.0 + RECONNECT_GRACE_SECONDS) == []  # tab-4 holds the seat
    # The guest's worker died without a word: its lease runs out, and the next write says "leave".
    later = 2.0 + LEASE_SECONDS + 1
    assert room.players(later)["o"]["connected"] is False
    assert room.lapsed(later)
    left = room.connect("host", "tab-5", now=later)
    assert [(e.type, e.data["side"]) for e in left] == [("leave", "o")]
    with pytest.raises(WrongToken):
        room.play("nobody", 0, 0, now=later)
    with pytest.raises(Refused):
        room.seat_guest(invite, now=later)
    # Stored as a record and a presence apart: the record holds no lease.
    record, presence = json.loads(json.dumps(room.to_json())), json.loads(json.dumps(room.presence_json()))
    assert "tab-5" not in json.dumps(record) and "tab-5" in json.dumps(presence)
    again = Room.from_json(record, presence)
    assert (again.to_json(), again.presence_json()) == (room.to_json(), room.presence_json())
    assert room.holder(host_token) == "host"


def test_a_room_whose_invite_is_unused_expires_within_an_hour_a_joined_one_after_a_day():
    room, _, invite = Room.open("Abcdefgh", Rules(), "x", now=0.0)
    assert room.expired(INVITE_SECONDS) and not room.expired(INVITE_SECONDS - 1)
    assert room.why_expired() == "nobody came with its invite within an hour"
    room.seat_guest(invite, now=10.0)
    assert not room.expired(INVITE_SECONDS + 10) and room.expired(TTL_SECONDS + 10)
    assert room.why_expired() == "nothing was played in it for a day"


def test_the_store_keeps_a_games_events_and_forgets_rooms_a_week_after_they_expired(tmp_path):
    store = SqliteRoomStore(tmp_path / "rooms.sqlite3", rooms_max=10, rooms_per_address=10)
    room, _, invite = Room.open("Abcdefgh", Rules(), "x", now=0.0)
    assert store.add(room, [], now=0.0)
    assert not store.add(room, [], now=0.0)  # its id is taken

    def come_and_go(room: Room, now: float) -> list:
        events = []
        for _ in range(8):  # a join and a leave each time
            events += room.connect("host", "tab", now) + room.disconnect("host", "tab", now)
        return events

    store.change(room.id, 1.0, lambda room, now: room.seat_guest(invite, now)[1])
    for _ in range(10):
        store.change(room.id, 2.0, come_and_go)
    last = store.load(room.id, 2.0).last_event
    kept = kept_events(Rules())
    assert last == 1 + 160 > kept
    assert [e.id for e in store.events_after(room.id, last - 3)] == [last - 2, last - 1, last]
    assert [e.id for e in store.events_after(room.id, last - kept)] == list(range(last - kept + 1, last + 1))
    assert store.events_after(room.id, 0) is None  # the first events are gone: the stream sends the state
    assert store.events_after(room.id, last) == []
    # A room made once this one is a week past its expiry sweeps it away, events and all.
    gone = store.load(room.id, 2.0).expires() + TOMBSTONE_SECONDS + 1
    other, _, _ = Room.open("Bcdefghi", Rules(), "x", now=gone)
    assert store.add(other, [], now=gone)
    with pytest.raises(Exception) as unknown:
        store.load(room.id, gone)
    assert type(unknown.value).__name__ == "UnknownRoom"
    assert store.events_after(room.id, 0) == []


def test_a_3x3_room_stays_within_its_stated_bound_after_300_games_and_1000_stream_opens(tmp_path):
    path = tmp_path / "rooms.sqlite3"
    store = SqliteRoomStore(path, rooms_max=10, rooms_per_address=10)
    room, host, invite = Room.open("Abcdefgh", Rules(), "x", now=0.0)
    store.add(room, [], now=0.0)
    guest_token: list[str] = []

    def seat(room: Room, now: float) -> list:
        token, events = room.seat_guest(invite, now)
        guest_token.append(token)
        return events

    store.change(room.id, 0.0, seat)
    tokens = {"host": host, "guest": guest_token[0]}
    # X takes the top row (O answers on the middle row): a game of five moves.
    #   x x x
    #   o o .
    #   . . .
    cells = [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]

    def game(room: Room, now: float) -> list:
        events = []
        for row, col in cells:
            seat_name = room.seat_on(room.board().to_move)
            events += room.play(tokens[seat_name], row, col, now)
        for name in ("host", "guest"):
            events += room.offer_rematch(tokens[name], now)
        return events

    def tabs(room: Room, now: float) -> list:
        events = []
        for tab in range(10):  # ten tabs of each seat open, renew and close
            for name in ("host", "guest"):
                events += room.connect(name, f"tab-{tab}", now)
                events += room.renew(name, f"tab-{tab}", now)
        for tab in range(10):
            for name in ("host", "guest"):
                events += room.disconnect(name, f"tab-{tab}", now)
        return events

    now = 1.0
    for round_ in range(300):
        now += 1
        store.change(room.id, now, game)
        if round_ % 6 == 0:
            store.change(room.id, now, tabs)  # 50 rounds of 20 opens: 1,000 stream opens
    room = store.load(room.id, now)
    assert room.game == 301 and room.host.wins + room.guest.wins == 300
    assert stored_bytes(path, room.id) <= ROOM_BYTES_3X3


def test_a_quiet_stream_sends_a_heartbeat_event_with_no_id(client, monkeypatch):
    from web.rooms import stream

    monkeypatch.setattr(stream, "HEARTBEAT_SECONDS", 0.01)  # 15 s as deployed: under Heroku's 55 s
    room = make_room(client)["room"]
    answer = client.get(f"/rooms/{room}/events", buffered=False)
    chunks = iter(answer.response)
    try:
        assert next(chunks) == b"retry: 2000\n\n"
        assert next(chunks).startswith(b"id: 0\nevent: state\ndata: {")
        # Nothing happened in the room: an event the page hears, which leaves its Last-Event-ID be.
        assert next(chunks) == b"event: heartbeat\ndata: {}\n\n"
    finally:
        answer.close()


# -- what strangers and failures cost ---------------------------------------------------------


def open_stream(client, room: str, token: str | None = None, last: int | None = None):
    """The room's event stream, read chunk by chunk: (the answer, an iterator of its chunks)."""
    query = "" if token is None else f"?token={token}"
    headers = {} if last is None else {"Last-Event-ID": str(last)}
    answer = client.get(f"/rooms/{room}/events{query}", headers=headers, buffered=False)
    assert answer.status_code == 200, answer.get_json()
    return answer, iter(answer.response)


def events_of(chunks) -> list[tuple[int, str, dict]]:
    """The events among ``chunks`` (comments and the retry line left out): (id, type, data)."""
    found = []
    for chunk in chunks:
        fields = dict(line.split(": ", 1) for line in chunk.decode().splitlines() if ": " in line)
        if "event" in fields:
            found.append((int(fields["id"]), fields["event"], json.loads(fields["data"])))
    return found


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/rooms/{room}/moves", {"token": "\\ud800", "move": {"row": 0, "col": 0}}),
        ("/rooms/{room}/rematch", {"token": "\\ud800"}),
        ("/rooms/{room}/seats", {"invite": "x\\udfff"}),
    ],
)
def test_a_lone_surrogate_as_a_token_is_a_400_in_words(client, path, body):
    room = make_room(client)["room"]
    data = json.dumps(body).replace("\\\\u", "\\u")  # the escape itself, as a client would send it
    answer = client.post(path.format(room=room), data=data, content_type="application/json")
    assert answer.status_code == 400
    assert answer.get_json()["error"].startswith("the body holds a lone surrogate escape")


def test_wrong_tokens_are_charged_to_the_address_and_cost_the_seats_nothing(tmp_path):
    from tests.apps import make_app

    app = make_app(tmp_path, WRONG_TOKENS_PER_MINUTE="3")
    client, paused = app.test_client(), []
    rooms_of(app).pause = paused.append  # what a refused guesser waits, without waiting here
    host, _ = seated(client)
    room = host["room"]
    stranger = {"REMOTE_ADDR": "192.0.2.66"}
    wrong = {"token": "a-guess-at-a-seat", "move": {"row": 0, "col": 0}}
    for _ in range(3):
        assert client.post(f"/rooms/{room}/moves", json=wrong, environ_base=stranger).status_code == 403
    refused = client.post(f"/rooms/{room}/moves", json=wrong, environ_base=stranger)
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "20"
    assert refused.get_json()["error"] == (
        "too many wrong seat tokens came from your network (address): it may send 3 a minute;"
        " try again in 20 s"
    )
    # Even its right tokens wait: the address is refused before the room is read, each refusal
    # answered after a pause (a guesser on kept-alive connections is slowed to its pace).
    assert client.get(f"/rooms/{room}/events?token=x", environ_base=stranger).status_code == 429
    assert paused == [2.0, 2.0]
    # The seats play on from their own addresses, and the room holds no trace of the guesses.
    assert move(client, room, host["token"], 1, 1).status_code == 200
    assert client.get(f"/rooms/{room}").get_json()["event"] == 2  # the guest's join, then the move
    assert (
        client.get("/metrics")
        .get_data(as_text=True)
        .count('tictactoe_rooms_refused_total{reason="wrong_tokens"} 2.0')
        == 1
    )


def test_an_address_holds_so_many_live_rooms_and_an_unjoined_room_frees_its_place_within_the_hour(tmp_path):
    from tests.apps import make_app

    app = make_app(tmp_path, ROOMS_PER_ADDRESS="2")
    client, rooms = app.test_client(), rooms_of(app)
    start = time.time()
    rooms.clock = lambda: start
    first = make_room(client, address="192.0.2.7")
    make_room(client, address="192.0.2.7")
    refused = client.post("/rooms", json={}, environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert refused.status_code == 429 and refused.headers["Retry-After"] == str(INVITE_SECONDS)
    assert refused.get_json()["error"].startswith(
        "your network (address) holds 2 live rooms, as many as it may: play in one of them,"
        f" or try again in {INVITE_SECONDS} s"
    )
    make_room(client, address="192.0.2.8")  # another address has places of its own
    # The first room's invite is taken: it now lives a day; the second's never was: an hour.
    assert client.post(f"/rooms/{first['room']}/seats", json={"invite": invite_of(first)}).status_code == 201
    rooms.clock = lambda: start + INVITE_SECONDS
    make_room(client, address="192.0.2.7")
    assert client.post("/rooms", json={}, environ_base={"REMOTE_ADDR": "192.0.2.7"}).status_code == 429


def test_a_damaged_room_answers_in_words_and_is_counted_while_the_others_play_on(client, app):
    damaged, healthy = seated(client), seated(client)
    room = damaged[0]["room"]
    with database(app) as db:
        db.execute("""UPDATE rooms SET record = '{"id": "broken' WHERE id = ?""", (room,))
        db.commit()
    words = (
        f"room {room} cannot be read: its stored record is damaged, so nothing can be played in it until"
        " the server's operators repair it; make a new room to play on"
    )
    for method, path, body in ROUTES:
        answer = client.open(path.format(room=room), method=method, json=body)
        assert (answer.status_code, answer.get_json()) == (503, {"error": words, "retry_after": 3600}), path
    metrics = client.get("/metrics").get_data(as_text=True)
    assert f'tictactoe_rooms_refused_total{{reason="damaged"}} {len(ROUTES)}.0' in metrics
    host, guest = healthy
    assert move(client, host["room"], host["token"], 1, 1).status_code == 200
    assert move(client, host["room"], guest["token"], 0, 0).get_json()["moves"] == [[1, 1], [0, 0]]


def test_a_damaged_event_is_replaced_by_the_rooms_state_never_a_stream_that_dies(client, app):
    host, _ = seated(client)
    room = host["room"]
    move(client, room, host["token"], 1, 1)
    with database(app) as db:
        db.execute("UPDATE events SET data = 'null' WHERE room = ? AND id = 1", (room,))
        db.commit()
    answer, chunks = open_stream(client, room, last=0)
    try:
        assert next(chunks) == b"retry: 2000\n\n"
        [(event_id, kind, data)] = events_of([next(chunks)])
        assert (event_id, kind, data["moves"]) == (2, "state", [[1, 1]])
    finally:
        answer.close()


def test_a_guests_stream_holds_its_presence_past_the_arrival_lease(client, app):
    host, guest = seated(client)
    room = host["room"]
    answer, chunks = open_stream(client, room, guest["token"])
    try:
        next(chunks), next(chunks)  # the retry line, the state: the stream has taken its lease
        rooms = rooms_of(app)
        rooms.clock = lambda: time.time() + 40  # the arrival lease (30 s) has run out
        assert client.get(f"/rooms/{room}").get_json()["players"]["o"]["connected"] is True
    finally:
        answer.close()


def test_a_stream_ends_after_its_lifetime_and_its_browser_comes_back_missing_nothing(client, app):
    rooms = rooms_of(app)
    host, guest = seated(client)
    room = host["room"]
    rooms.stream_seconds = 0.05
    try:
        answer, chunks = open_stream(client, room, host["token"])
        seen = events_of(chunks)  # the whole stream: it ends by itself
        answer.close()
    finally:
        rooms.stream_seconds = 600.0
    last = seen[-1][0]
    # Played while the browser waits its 2 s: its stream's lease holds the seat meanwhile.
    move(client, room, host["token"], 1, 1)
    move(client, room, guest["token"], 0, 0)
    assert client.get(f"/rooms/{room}").get_json()["players"]["x"]["connected"] is True
    answer, chunks = open_stream(client, room, host["token"], last=last)
    try:
        next(chunks)  # retry
        missed = events_of([next(chunks), next(chunks)])
        assert [(kind, data["move"]) for _, kind, data in missed] == [
            ("move", {"row": 1, "col": 1}),
            ("move", {"row": 0, "col": 0}),
        ]
        assert [event_id for event_id, _, _ in missed] == [last + 1, last + 2]  # no "leave", no "join"
    finally:
        answer.close()


@pytest.fixture
def small_disk(tmp_path):
    """A folder on a 3 MiB file system of its own (tmpfs, mounted as root, unmounted after)."""
    folder = tmp_path / "small-disk"
    folder.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(folder)], check=True)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=True)


def fill(folder) -> None:
    """Write into ``folder`` until its file system has no byte left."""
    with open(folder / "filler", "wb", buffering=0) as filler, contextlib.suppress(OSError):
        while filler.write(b"\0" * 4096):
            pass


def test_on_a_full_disk_a_move_is_answered_only_once_stored_and_sent_to_streams_only_then(small_disk):
    from tests.apps import make_app

    app = make_app(small_disk)
    client, rooms = app.test_client(), rooms_of(app)
    games = [seated(client, address=f"192.0.2.{n}") for n in range(30)]
    mailboxes = {host["room"]: rooms.hub.subscribe(host["room"]) for host, _ in games}
    stored_before = rooms_stored(app)
    fill(small_disk)
    answered = {}
    for host, _ in games:
        answered[host["room"]] = move(client, host["room"], host["token"], 1, 1)
    refused = client.post("/rooms", json={}, environ_base={"REMOTE_ADDR": "192.0.2.200"})
    statuses = sorted({answer.status_code for answer in answered.values()})
    assert 503 in statuses and set(statuses) <= {200, 503}
    for room, answer in answered.items():
        state = client.get(f"/rooms/{room}").get_json()
        published = mailboxes[room].take(0)
        if answer.status_code == 200:
            assert state["moves"] == [[1, 1]] and [e.type for e in published] == ["move"]
        else:
            assert answer.get_json() == {
                "error": "the rooms could not be reached just now, and nothing was changed:"
                " try again in a second",
                "retry_after": 1,
            }
            assert state["moves"] == [] and published is None  # nothing stored, nothing sent
    assert refused.status_code in (201, 503)
    assert rooms_stored(app) == stored_before + (refused.status_code == 201)
    # Space again: every game goes on from where its store says it is.
    (small_disk / "filler").unlink()
    for (host, guest), answer in zip(games, answered.values(), strict=True):
        seat, cell = (guest, (0, 0)) if answer.status_code == 200 else (host, (1, 1))
        assert move(client, host["room"], seat["token"], *cell).status_code == 200


# -- what players of a friend's game expect: resign, claim, offers, names, the invite's code ----


def act(client, room: str, action: str, seat: dict, **body):
    """POST /rooms/{room}/{action} for ``seat``: (status, the JSON answer)."""
    answer = client.post(f"/rooms/{room}/{action}", json={"token": seat["token"], **body})
    return answer.status_code, answer.get_json()


def test_offers_a_takeback_and_a_draw_asked_answered_and_refused_in_words(client, app):
    rooms_of(app).clock = lambda: 1_800_000_000.0
    host, guest = seated(client, rows=4, cols=4, k=4)
    room = host["room"]
    heard = rooms_of(app).hub.subscribe(room)
    assert act(client, room, "takeback", host) == (
        409,
        {"error": "you have no move to take back in this game"},
    )
    assert act(client, room, "decline", host) == (409, {"error": "there is no offer to answer"})
    move(client, room, host["token"], 1, 1)
    move(client, room, guest["token"], 0, 0)
    # X asks to take back b2 after O's reply: both go, and X is to move again.
    status, state = act(client, room, "takeback", host)
    assert (status, state["offer"]) == (200, {"kind": "takeback", "side": "x"})
    assert act(client, room, "draw", guest) == (
        409,
        {"error": "your friend asked for a takeback: that is answered first"},
    )
    status, state = act(client, room, "takeback", guest)
    assert (state["moves"], state["to_move"], state["offer"]) == ([], "x", None)
    events = [(e.type, dict(e.data)) for box in iter(lambda: heard.take(0), None) for e in box]
    assert events[-2:] == [
        ("offer", {"kind": "takeback", "side": "x", "status": "accepted"}),
        ("takeback", {"game": 1, "ply": 0, "side": "x", "to_move": "x"}),
    ]
    # O asks for a draw; X declines; O asks again and withdraws; a move withdraws an offer too.
    move(client, room, host["token"], 2, 2)
    assert act(client, room, "draw", guest)[1]["offer"] == {"kind": "draw", "side": "o"}
    assert act(client, room, "draw", guest)[1]["event"] == client.get(f"/rooms/{room}").get_json()["event"]
    assert act(client, room, "decline", host)[1]["offer"] is None
    act(client, room, "draw", guest)
    assert act(client, room, "decline", guest)[1]["offer"] is None
    act(client, room, "draw", host)
    assert move(client, room, guest["token"], 3, 3).get_json()["offer"] is None
    # Then a draw agreed: the game ends, scored as a draw.
    act(client, room, "draw", host)
    status, state = act(client, room, "draw", guest)
    assert (state["status"], state["reason"], state["draws"], state["to_move"]) == ("draw", "agreed", 1, None)
    assert act(client, room, "takeback", host) == (
        409,
        {"error": "the game is over: there is no game to offer anything in"},
    )
    assert move(client, room, guest["token"], 0, 1).get_json() == {
        "error": "the game is over: there is no move to make"
    }
    assert (
        act(client, room, "rematch", host)[0] == 200
        and act(client, room, "rematch", guest)[1]["reason"] is None
    )


def test_resign_and_a_claim_of_a_game_the_friend_left(client, app):
    rooms = rooms_of(app)
    start = 1_800_000_000.0
    rooms.clock = lambda: start
    host, guest = seated(client)
    room = host["room"]
    # The guest arrived (its arrival lease) and left without a stream: away from when that ran out.
    assert act(client, room, "claim", host) == (409, {"error": "your friend is here: the game goes on"})
    rooms.clock = lambda: start + 30 + 20
    state = client.get(f"/rooms/{room}").get_json()
    assert state["players"]["o"]["away"] == 20  # since its lease ended, before any write says so
    rooms.lapse(room)  # its "leave", written now, counts from when its lease ended all the same
    rooms.clock = lambda: start + 30 + 59
    assert act(client, room, "claim", host) == (
        409,
        {"error": "your friend has been away 59 s: you can claim the game once they have been away 60 s"},
    )
    rooms.clock = lambda: start + 30 + 60
    _, state = act(client, room, "claim", host)
    assert (state["status"], state["reason"], state["players"]["x"]["wins"]) == ("x_won", "abandoned", 1)
    assert state["claim_after"] == 60
    act(client, room, "rematch", host), act(client, room, "rematch", guest)
    _, state = act(client, room, "resign", host)  # the host plays O now: X (the guest) wins
    assert (state["status"], state["reason"], state["line"], state["players"]["x"]["wins"]) == (
        "x_won",
        "resigned",
        None,
        1,
    )
    assert act(client, room, "resign", guest) == (
        409,
        {"error": "the game is over: there is no game to resign"},
    )


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("Ada", "Ada"),
        ("  Ada   Lovelace ", "Ada Lovelace"),
        ("<b>Bo</b>", "<b>Bo</b>"),
        ("a\u0007b", "ab"),
        ("", None),
        (None, None),
    ],
)
def test_a_seat_names_itself_in_plain_text_heard_by_every_stream(client, app, given, kept):
    host, guest = seated(client)
    room = host["room"]
    heard = rooms_of(app).hub.subscribe(room)
    act(client, room, "name", guest, name="Zed")
    status, state = act(client, room, "name", guest, name=given)
    assert (status, state["players"]["o"]["name"]) == (200, kept)
    named = [e for box in iter(lambda: heard.take(0), None) for e in box if e.type == "name"]
    assert [e.data["name"] for e in named] == ["Zed"] + ([kept] if kept != "Zed" else [])
    assert act(client, room, "name", guest, name="x" * 21) == (
        400,
        {"error": "name must be at most 20 characters, not 21"},
    )
    assert act(client, room, "name", guest, name=7) == (
        400,
        {"error": "name must be a string or null, not 7"},
    )


def test_the_invites_qr_code_is_drawn_for_its_unspent_invite_only(client):
    host = make_room(client)
    room, invite = host["room"], invite_of(host)
    answer = client.post(f"/rooms/{room}/invite-code", json={"invite": invite})
    assert answer.status_code == 200 and answer.mimetype == "image/svg+xml"
    assert answer.headers["Cache-Control"] == "no-store"
    assert answer.data.startswith(b"<svg") and invite.encode() not in answer.data  # drawn, not written
    assert client.post(f"/rooms/{room}/invite-code", json={"invite": "guess"}).status_code == 403
    client.post(f"/rooms/{room}/seats", json={"invite": invite})
    assert client.post(f"/rooms/{room}/invite-code", json={"invite": invite}).status_code == 409
