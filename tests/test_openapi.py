"""The contract declared beside each route (web/openapi/) against what the routes really send.

Every answer of a scripted tour of the API (each route, each shape, a room's whole
game with its rematch and its event stream) is walked against the TypedDict its
route declares: a key the shape lacks fails, and so does a key the shape
declares that no answer of the tour ever carried.  The document is the routes':
an API route without a declaration, a declared page, a path variable without its
parameter stop it.
"""

from __future__ import annotations

import json
import types
import typing
from enum import Enum

import pytest
from flask import Blueprint, Flask
from typing_extensions import is_typeddict

from web.http.errors import API_BLUEPRINTS
from web.openapi.declarations import Answer, Events, Refusal, declare, declared
from web.openapi.document import build, routes

# -- walking an answer against its shape -------------------------------------------------------


class Seen:
    """The keys each TypedDict was seen with, over every answer walked; the mismatches found."""

    def __init__(self) -> None:
        self.keys: dict[type, set[str]] = {}
        self.wrong: list[str] = []

    def walk(self, value: object, shape: object, where: str) -> None:
        """Walk ``value`` as ``shape`` says it is, noting each TypedDict's keys and any mismatch."""
        origin = typing.get_origin(shape)
        if origin is typing.Annotated:
            self.walk(value, typing.get_args(shape)[0], where)
        elif origin in (typing.Union, types.UnionType):
            members = [member for member in typing.get_args(shape) if member is not type(None)]
            if value is None:
                if type(None) not in typing.get_args(shape):
                    self.wrong.append(f"{where}: null, not {shape}")
                return
            dicts = [member for member in members if is_typeddict(member)]
            if isinstance(value, dict) and dicts:
                # The member whose keys fit (/analyze: AnalysisAnswer or EngineAnalysisAnswer).
                fitting = [member for member in dicts if set(value) <= set(typing.get_type_hints(member))]
                self.walk(value, (fitting or dicts)[0], where)
            else:
                self.walk(value, members[0], where)
        elif origin is list:
            if not isinstance(value, list):
                self.wrong.append(f"{where}: not a list")
                return
            for index, item in enumerate(value):
                self.walk(item, typing.get_args(shape)[0], f"{where}[{index}]")
        elif is_typeddict(shape):
            self._typed_dict(value, shape, where)
        elif isinstance(shape, type) and issubclass(shape, Enum) and value not in [m.value for m in shape]:
            self.wrong.append(f"{where}: {value!r} is no {shape.__name__}")

    def _typed_dict(self, value: object, shape: typing.Any, where: str) -> None:
        if not isinstance(value, dict):
            self.wrong.append(f"{where}: not an object ({shape.__name__})")
            return
        hints = typing.get_type_hints(shape, include_extras=True)
        stray = sorted(set(value) - set(hints))
        missing = sorted(shape.__required_keys__ - set(value))
        if stray:
            self.wrong.append(f"{where}: {shape.__name__} declares no {stray}")
        if missing:
            self.wrong.append(f"{where}: {shape.__name__} needs {missing}")
        self.keys.setdefault(shape, set()).update(value)
        for name, item in value.items():
            if name in hints:
                self.walk(item, hints[name], f"{where}.{name}")


def reached(shape: object) -> set[type]:
    """Every TypedDict ``shape`` holds, itself included."""
    found: set[type] = set()
    pending = [shape]
    while pending:
        part = pending.pop()
        if is_typeddict(part):
            if part in found:
                continue
            found.add(part)  # type: ignore[arg-type]
            pending.extend(typing.get_type_hints(part).values())
        else:
            pending.extend(typing.get_args(part))
    return found


def declared_shapes(app: Flask) -> dict[tuple[str, str, int], object]:
    """Each (path, method, status) of the API and the shape its declaration names for it."""
    shapes: dict[tuple[str, str, int], object] = {}
    for path, method, _, operation in routes(app):
        for status, answer in operation.answers.items():
            if isinstance(answer, Events):
                shapes[(path, method, status)] = answer
            elif answer.shape is not None and answer.media == "application/json":
                shapes[(path, method, status)] = answer.shape
    return shapes


def read_events(body: str) -> list[tuple[str, dict]]:
    """The events of a text/event-stream body: (name, data)."""
    events = []
    for block in body.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if line and not line.startswith(":"))
        if "data" in fields:
            events.append((fields["event"], json.loads(fields["data"])))
    return events


@pytest.fixture(scope="module")
def app_settings():
    # One room made a minute, so that the second is refused (an error body with retry_after); the
    # stream ends after half a second, so that reading it returns.
    return {"ROOMS_PER_MINUTE": "1", "ROOM_STREAM_SECONDS": "0.5"}


def tour(client) -> list[tuple[str, str, int, object]]:
    """Every route, every shape: (OpenAPI path, method, status, body) of each answer."""
    board = {"board": ["x.o", ".x.", "o.."]}
    small = {"board": ["x..", ".o.", "..."]}
    answers = []

    def ask(path: str, method: str, url: str, **kwargs) -> object:
        response = client.open(url, method=method.upper(), **kwargs)
        body = response.get_data(as_text=True)
        content = response.get_json() if response.is_json else body
        answers.append((path, method, response.status_code, content))
        return content

    ask("/move", "post", "/move", json=board)
    ask("/move", "post", "/move", json={**small, "engine": "alphabeta"})
    ask("/move", "post", "/move", json={"board": ["x"]})  # 400
    ask("/analyze", "post", "/analyze", json=board)
    ask("/analyze", "post", "/analyze", json={**small, "engine": "minimax"})
    ask("/state", "post", "/state", json=board)
    ask("/position", "get", "/position?board=x1o/1x1/o2")
    ask("/trace", "get", "/trace", query_string={"board": "3/3/3", "engine": "alphabeta"})
    # Puzzles: a page of them, the day's, one read, its first move shown, then played.
    listed = ask("/puzzles", "get", "/puzzles?board=3x3k3&task=draw&limit=2")
    ask("/puzzles/daily", "get", "/puzzles/daily")
    puzzle = listed["puzzles"][0]["id"]
    ask("/puzzles/{puzzle_id}", "get", f"/puzzles/{puzzle}")
    moves = f"/puzzles/{puzzle}/moves"
    shown = ask("/puzzles/{puzzle_id}/moves", "post", moves, json={"moves": [], "reveal": True})
    ask("/puzzles/{puzzle_id}/moves", "post", moves, json={"moves": [shown["move"]]})
    for path in ("/engines", "/livez", "/healthz", "/stats"):
        ask(path, "get", path)
    # A room's whole game: made, joined, played to a win, a rematch asked by both, its events.
    seat = ask("/rooms", "post", "/rooms", json={"side": "x"})
    ask("/rooms", "post", "/rooms", json={})  # 429: one room a minute
    room = seat["room"]
    invite = seat["links"]["invite"].partition("#invite=")[2]
    guest = ask("/rooms/{room_id}/seats", "post", f"/rooms/{room}/seats", json={"invite": invite})
    tokens = {"x": seat["token"], "o": guest["token"]}
    ask("/rooms/{room_id}/holder", "post", f"/rooms/{room}/holder", json={"token": tokens["o"]})
    ask("/rooms/{room_id}/name", "post", f"/rooms/{room}/name", json={"token": tokens["x"], "name": "Ada"})

    def move(side: str, row: int, col: int) -> None:
        body = {"token": tokens[side], "move": {"row": row, "col": col}}
        ask("/rooms/{room_id}/moves", "post", f"/rooms/{room}/moves", json=body)

    # X plays, asks to take it back (an offer waits: the room shows it), O grants it (a takeback).
    move("x", 2, 2)
    ask("/rooms/{room_id}/takeback", "post", f"/rooms/{room}/takeback", json={"token": tokens["x"]})
    ask("/rooms/{room_id}/takeback", "post", f"/rooms/{room}/takeback", json={"token": tokens["o"]})
    for side, (row, col) in zip("xoxox", [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)], strict=True):
        move(side, row, col)
    for side in "xo":
        ask("/rooms/{room_id}/rematch", "post", f"/rooms/{room}/rematch", json={"token": tokens[side]})
    ask("/rooms/{room_id}", "get", f"/rooms/{room}")
    stream = ask("/rooms/{room_id}/events", "get", f"/rooms/{room}/events", headers={"Last-Event-ID": "0"})
    fresh = ask("/rooms/{room_id}/events", "get", f"/rooms/{room}/events")
    answers += [("/rooms/{room_id}/events", "event", 200, event) for event in read_events(stream + fresh)]
    return answers


def test_every_answer_has_the_keys_its_declaration_names_and_every_declared_key_is_sent(app, client):
    shapes = declared_shapes(app)
    seen = Seen()
    events = next(shape for shape in shapes.values() if isinstance(shape, Events)).events
    for path, method, status, body in tour(client):
        if method == "event":
            name, data = body
            assert name in events, name
            seen.walk(data, events[name], f"{name} event")
        elif status >= 400:
            seen.walk(body, declared_error_shape(), f"{method} {path} {status}")
        elif not isinstance(shapes[(path, method, status)], Events):
            seen.walk(body, shapes[(path, method, status)], f"{method} {path} {status}")
    assert seen.wrong == []
    every = set().union(*(reached(shape) for shape in shapes.values() if not isinstance(shape, Events)))
    every |= set().union(*(reached(shape) for shape in events.values())) | reached(declared_error_shape())
    never = {
        shape.__name__: sorted(set(typing.get_type_hints(shape)) - seen.keys.get(shape, set()))
        for shape in every
    }
    assert {name: keys for name, keys in never.items() if keys} == {}


def declared_error_shape():
    from web.http.error_body import ErrorBody

    return ErrorBody


def test_a_key_the_declaration_lacks_is_found():
    from web.rooms.shapes import PresenceEvent

    seen = Seen()
    seen.walk({"side": "x", "players": {}, "name": "Ann"}, PresenceEvent, "join")
    assert seen.wrong[0] == "join: PresenceEvent declares no ['name']"


# -- the document is the routes' ----------------------------------------------------------------

OK = {200: Answer(str, "Fine.")}


def app_with(*views) -> Flask:
    """A bare app whose "api" blueprint has each of ``views`` ((rule, view)) as a GET route."""
    app = Flask(__name__)
    blueprint = Blueprint("api", __name__)
    for rule, view in views:
        blueprint.add_url_rule(rule, view_func=view)
    app.register_blueprint(blueprint)
    return app


def test_every_route_of_the_api_is_declared_and_each_operation_has_its_own_name(app):
    found = list(routes(app))
    assert len({operation_id for _, _, operation_id, _ in found}) == len(found) >= 17
    of_api = [rule for rule in app.url_map.iter_rules() if rule.endpoint.partition(".")[0] in API_BLUEPRINTS]
    assert all(declared(app.view_functions[rule.endpoint]) for rule in of_api)
    assert {rule.rule for rule in of_api} >= {"/move", "/rooms/<room_id>/events", "/metrics", "/openapi.json"}


def test_a_route_of_the_api_without_a_declaration_stops_the_document():
    def bare():
        return "x"

    with pytest.raises(ValueError, match="has no declaration"):
        build(app_with(("/bare", bare)))


def test_a_path_variable_without_its_parameter_stops_the_document():
    @declare("A thing", "One.", answers=OK)
    def thing(thing_id):
        return thing_id

    with pytest.raises(ValueError, match=r"path variables \['thing_id'\], parameters \[\]"):
        build(app_with(("/things/<thing_id>", thing)))


def test_a_status_declared_twice_stops_the_declaration():
    with pytest.raises(ValueError, match="declared twice"):
        declare("Twice", "Two 400s.", answers=OK, refusals=(Refusal(400, "a"), Refusal(400, "b")))


def test_a_route_that_reads_a_body_lists_what_the_server_says_of_any_body(spec):
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            assert ({"408", "413"} <= set(operation["responses"])) == ("requestBody" in operation), (
                path,
                method,
            )


def test_a_teaching_engine_on_a_big_board_is_a_documented_422(client, spec):
    for path in ("/move", "/analyze"):
        response = client.post(path, json={"board": ["." * 8] * 4, "engine": "minimax"})
        assert response.status_code == 422
        assert "422" in spec["paths"][path]["post"]["responses"]


def test_a_new_room_links_to_every_operation_of_the_room(spec):
    links = spec["paths"]["/rooms"]["post"]["responses"]["201"]["links"]
    targets = {link["operationId"] for link in links.values()}
    room_operations = {
        operation["operationId"]
        for path, item in spec["paths"].items()
        if path.startswith("/rooms/")
        for operation in item.values()
    }
    assert targets == room_operations
    assert links["play"]["requestBody"] == {"token": "$response.body#/token"}


def test_the_stream_describes_each_event_by_name_and_shape(spec):
    from web.rooms.shapes import EVENTS

    media = spec["paths"]["/rooms/{room_id}/events"]["get"]["responses"]["200"]["content"][
        "text/event-stream"
    ]
    items = media["schema"]["oneOf"]
    assert [item["properties"]["event"]["enum"] for item in items] == [[name] for name in EVENTS]
    data = items[1]["properties"]["data"]
    assert data["contentMediaType"] == "application/json"
    assert data["contentSchema"] == {"$ref": "#/components/schemas/MoveEvent"}


@pytest.fixture(scope="module")
def spec(client):
    return client.get("/openapi.json").get_json()


def test_the_docs_example_of_a_room_is_its_shape():
    """docs/api.md shows a room as GET /rooms/{id} answers it: its example has exactly RoomState's keys,
    each as the shape says, and its table names only them."""
    from pathlib import Path

    from web.rooms.shapes import RoomState

    text = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text()
    section = text.split("### The room: `GET /rooms/{id}`", 1)[1].split("\n### ", 1)[0]
    example = json.loads(section.split("```json", 1)[1].split("```", 1)[0])
    seen = Seen()
    seen.walk(example, RoomState, "docs/api.md")
    assert seen.wrong == []
    assert list(example) == list(typing.get_type_hints(RoomState))
    named = {
        name
        for row in section.splitlines()
        if row.startswith("| `")
        for name in row.split("|")[1].split("`")[1::2]
    }
    assert named <= set(example)
