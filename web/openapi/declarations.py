"""What a route takes and answers, declared once beside it: /openapi.json is assembled from these.

A view is declared under its route decorator::

    @bp.post("/rooms/<room_id>/moves")
    @declare(
        "Play a move in a room",
        "The seat of the token plays the cell ...",
        body=fields_schema(BODIES["moves"]),
        parameters=(ROOM_ID,),
        answers={200: Answer(RoomState, "The room after the move.")},
        refusals=(NOT_A_ROOM_BODY, NO_SEAT, NO_ROOM, ...),
    )
    def play(room_id): ...

An answer names the TypedDict the view builds (its JSON Schema is made from it,
closed), a stream names the shape of each of its events, a refusal says in
words when the route answers its status.  A route that reads a body may also
answer what the server says of any body (408, 413): ``declare`` adds them.
web/openapi/document.py reads the declarations of an app's routes; a route of
the API without one stops the document (tests/test_openapi.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from web.http.errors import MAX_BODY_BYTES

# A piece of the document: JSON, as nested as OpenAPI makes it.
Schema = dict[str, Any]
View = TypeVar("View", bound=Callable[..., Any])
_ATTRIBUTE = "__declared__"


@dataclass(frozen=True)
class Link:
    """An operation that may follow an answer, and what of the answer (or request) it takes.

    ``operation`` is the target view's name (its operationId); ``parameters`` and
    ``body`` hold runtime expressions such as ``$response.body#/room``.
    """

    operation: str
    description: str
    parameters: Mapping[str, str] = field(default_factory=dict)
    body: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class Answer:
    """A successful answer: its shape (a TypedDict, a union of them, ``str``; None: no body) and words.

    ``media``: its content type; ``headers``: the headers it carries, by name, each
    a schema and words; ``links``: what may follow it, by name; ``also``: the other
    content types the same status may carry, each its schema (the page a browser
    that prefers text/html gets at the address).
    """

    shape: object
    description: str
    media: str = "application/json"
    headers: Mapping[str, tuple[Schema, str]] = field(default_factory=dict)
    links: Mapping[str, Link] = field(default_factory=dict)
    also: Mapping[str, Schema] = field(default_factory=dict)


@dataclass(frozen=True)
class Events:
    """A ``text/event-stream`` answer: each event's name and the shape of its data (JSON).

    Every event carries an ``id`` (its place in the stream, digits) but those
    ``unnumbered``; ``comment`` says more of what the stream sends (a heartbeat).
    """

    events: Mapping[str, object]
    description: str
    comment: str = ""
    unnumbered: tuple[str, ...] = ()
    headers: Mapping[str, tuple[Schema, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class Refusal:
    """An error answer: ``status``, what it means on this route, and (429, 503) the usual Retry-After."""

    status: int
    words: str
    retry_after: int | None = None


@dataclass(frozen=True)
class Operation:
    """A route's declaration: what it does, what it takes, what it answers."""

    summary: str
    description: str
    body: Schema | None
    parameters: tuple[Schema, ...]
    answers: Mapping[int, Answer | Events]
    refusals: tuple[Refusal, ...]
    components: Mapping[str, Schema] = field(default_factory=dict)

    def statuses(self) -> list[int]:
        """Every status the route may answer, in order."""
        return sorted({*self.answers, *(refusal.status for refusal in self.refusals)})


# What the server says of any body, whatever the route (web/http/errors.py, web/http/protocol.py).
BODY_STOPPED = Refusal(
    408, "The body did not arrive whole within GUNICORN_READ_TIMEOUT (5 s) of its head: send it at once."
)
BODY_TOO_LARGE = Refusal(413, f"The body is larger than {MAX_BODY_BYTES // 1024} KiB (chunked or not).")


def declare(
    summary: str,
    description: str,
    *,
    answers: Mapping[int, Answer | Events],
    refusals: tuple[Refusal, ...] = (),
    body: Schema | None = None,
    parameters: tuple[Schema, ...] = (),
    components: Mapping[str, Schema] | None = None,
) -> Callable[[View], View]:
    """Declare the view below: what it does, takes and answers (see the module docstring).

    ``components``: the schemas the body's ``$ref`` names, by name (a request field's closed set).

    Raises ValueError when two refusals (or a refusal and an answer) share a status.
    """
    if body is not None:
        refusals = (*refusals, BODY_STOPPED, BODY_TOO_LARGE)
    statuses = [*answers, *(refusal.status for refusal in refusals)]
    if len(set(statuses)) != len(statuses):
        raise ValueError(f"{summary!r}: a status is declared twice in {sorted(statuses)}")
    operation = Operation(summary, description, body, parameters, answers, refusals, components or {})

    def mark(view: View) -> View:
        setattr(view, _ATTRIBUTE, operation)
        return view

    return mark


def declared(view: Callable[..., Any]) -> Operation | None:
    """The declaration of ``view``, or None when it has none."""
    found: Operation | None = getattr(view, _ATTRIBUTE, None)
    return found
