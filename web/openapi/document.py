"""/openapi.json, assembled from an app's routes and the declaration beside each of them.

Every route of the API's blueprints is one operation per method: its path
(Flask's ``<room_id>`` written ``{room_id}``), its operationId (the view's
name), and what ``@declare`` says of it (web/openapi/declarations.py).  The
answers' schemas, the events' and the refusals' come from their shapes
(web/openapi/schemas.py).  A route of the API without a declaration, a
declaration on a page, a path variable with no parameter or a link to an
operation that does not exist raises ``ValueError``: the document is always the
routes', whole.

OpenAPI 3.0.3, not 3.1 or 3.2: their schemas are JSON Schema 2020-12, where a
number with no fraction is an integer (``15.0``), which the API refuses in
words ("rows must be an integer, not 15.0"); 3.0's integer is JSON's.  So
pydantic's schemas are written in 3.0's dialect (web/openapi/schemas.py), and an
event stream's answer describes one event (3.2's ``itemSchema``; before 3.2 a
text/event-stream's ``schema`` is read so, as schemathesis reads it): its name,
its ``data`` as JSON of its shape (``contentMediaType``, ``contentSchema``), its
``id``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from flask import Flask

from tictactoe import ENGINE_VERSION
from web.http.error_body import ErrorBody
from web.http.errors import API_BLUEPRINTS
from web.openapi.declarations import Answer, Events, Link, Operation, Refusal, declared
from web.openapi.schemas import REF, Schema, shape_schemas

VERSION = "3.0.3"
_KEY = "openapi"  # app.extensions: the document, made on its first reading
_VARIABLE = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")
_IGNORED_METHODS = frozenset({"HEAD", "OPTIONS"})
INFO = {
    "title": "Tic-tac-toe move server",
    "version": f"1.0 (engine {ENGINE_VERSION})",
    "description": "A perfect m,n,k-game engine (3x3 to 15x15, k in a row) behind a shared cache of"
    " solved positions, and rooms to play a friend by link. Errors are JSON objects whose field"
    " error says exactly what is wrong (and, on a 429 or 503, retry_after when to try again).",
}


def document(app: Flask) -> Schema:
    """``app``'s OpenAPI document (made once, then the same object: do not change it)."""
    made: Schema | None = app.extensions.get(_KEY)
    if made is None:
        made = app.extensions[_KEY] = build(app)
    return made


def routes(app: Flask) -> Iterator[tuple[str, str, str, Operation]]:
    """Each operation of ``app``'s API: (its path, method in lower case, operationId, declaration).

    Raises ValueError for a route of the API without a declaration, or a page with one.
    """
    for rule in app.url_map.iter_rules():
        view = app.view_functions[rule.endpoint]
        operation = declared(view)
        of_api = rule.endpoint.partition(".")[0] in API_BLUEPRINTS
        if of_api and operation is None:
            raise ValueError(f"the API's route {rule.rule} ({rule.endpoint}) has no declaration (@declare)")
        if operation is None:
            continue
        if not of_api:
            raise ValueError(f"{rule.rule} is declared but is no route of the API's blueprints")
        path = _VARIABLE.sub(r"{\1}", rule.rule)
        for method in sorted(set(rule.methods or ()) - _IGNORED_METHODS):
            yield path, method.lower(), rule.endpoint.rpartition(".")[2], operation


def build(app: Flask) -> Schema:
    """The document of ``app``'s API, made afresh (see the module docstring)."""
    found = list(routes(app))
    ids = [operation_id for _, _, operation_id, _ in found]
    twice = sorted({name for name in ids if ids.count(name) > 1})
    if twice:
        raise ValueError(f"two routes' views share a name, so their operations would too: {twice}")
    shapes = _shapes(operation for _, _, _, operation in found)
    made, components = shape_schemas(shapes)
    schema_of = dict(zip(map(id, shapes), made, strict=True))
    paths: Schema = {}
    for path, method, operation_id, operation in found:
        _check_path(path, operation)
        paths.setdefault(path, {})[method] = _operation(operation, operation_id, schema_of)
    _check_links(paths, set(ids))
    for _, _, _, operation in found:
        _add_components(components, operation.components)
    return {
        "openapi": VERSION,
        "info": INFO,
        "paths": paths,
        "components": {"schemas": {name: components[name] for name in sorted(components)}},
    }


def _shapes(operations: Iterator[Operation]) -> list[object]:
    """Every shape the operations name, each once, the error body first."""
    shapes: list[object] = [ErrorBody]
    for operation in operations:
        for answer in operation.answers.values():
            named = answer.events.values() if isinstance(answer, Events) else [answer.shape]
            shapes += [shape for shape in named if shape is not None]
    unique: dict[int, object] = {}
    for shape in shapes:
        unique.setdefault(id(shape), shape)
    return list(unique.values())


def _operation(operation: Operation, operation_id: str, schema_of: dict[int, Schema]) -> Schema:
    out: Schema = {"operationId": operation_id, "summary": operation.summary}
    out["description"] = operation.description
    if operation.parameters:
        out["parameters"] = list(operation.parameters)
    if operation.body is not None:
        out["requestBody"] = {"required": True, "content": {"application/json": {"schema": operation.body}}}
    responses: Schema = {}
    for status in operation.statuses():
        answer = operation.answers.get(status)
        if answer is None:
            refusal = next(refusal for refusal in operation.refusals if refusal.status == status)
            responses[str(status)] = _refusal(refusal, schema_of[id(ErrorBody)])
        elif isinstance(answer, Events):
            responses[str(status)] = _events(answer, schema_of)
        else:
            responses[str(status)] = _answer(answer, schema_of)
    out["responses"] = responses
    return out


def _headers(headers: dict[str, tuple[Schema, str]] | Any) -> Schema:
    return {name: {"description": words, "schema": schema} for name, (schema, words) in headers.items()}


def _answer(answer: Answer, schema_of: dict[int, Schema]) -> Schema:
    out: Schema = {"description": answer.description}
    if answer.headers:
        out["headers"] = _headers(answer.headers)
    if answer.shape is not None:
        out["content"] = {answer.media: {"schema": schema_of[id(answer.shape)]}}
        out["content"].update({media: {"schema": schema} for media, schema in answer.also.items()})
    if answer.links:
        out["links"] = {name: _link(link) for name, link in answer.links.items()}
    return out


def _link(link: Link) -> Schema:
    out: Schema = {"operationId": link.operation, "description": link.description}
    if link.parameters:
        out["parameters"] = dict(link.parameters)
    if link.body is not None:
        out["requestBody"] = dict(link.body)
    return out


def _events(stream: Events, schema_of: dict[int, Schema]) -> Schema:
    """A text/event-stream answer whose items are its events: name, JSON data of its shape, id."""
    events = [
        {
            "type": "object",
            "required": ["event", "data"] if name in stream.unnumbered else ["event", "data", "id"],
            "additionalProperties": False,
            "properties": {
                "event": {"type": "string", "enum": [name]},
                "data": {
                    "type": "string",
                    "contentMediaType": "application/json",
                    "contentSchema": schema_of[id(shape)],
                },
                "id": {"type": "string", "pattern": "^[0-9]+$", "description": "The event's id."},
            },
        }
        for name, shape in stream.events.items()
    ]
    out: Schema = {"description": f"{stream.description} {stream.comment}".strip()}
    if stream.headers:
        out["headers"] = _headers(stream.headers)
    out["content"] = {"text/event-stream": {"schema": {"oneOf": events}}}
    return out


def _refusal(refusal: Refusal, error: Schema) -> Schema:
    out: Schema = {"description": refusal.words}
    if refusal.retry_after is not None:
        out["headers"] = {
            "Retry-After": {
                "description": "Seconds to wait before trying again (also the body's retry_after).",
                "schema": {"type": "integer", "minimum": 1, "example": refusal.retry_after},
            }
        }
    out["content"] = {"application/json": {"schema": error}}
    return out


def _add_components(components: dict[str, Schema], given: Any) -> None:
    """Add a request's components; one of the shapes' closed sets may be given again, with the
    request field's default and words, if its members are the same (else ValueError)."""
    for name, schema in given.items():
        known = components.get(name)
        if known is not None and known != schema and known.get("enum") != schema.get("enum"):
            raise ValueError(f"the component {name} is declared twice, differently")
        components[name] = schema


def _check_path(path: str, operation: Operation) -> None:
    """ValueError unless every variable of ``path`` is a declared path parameter, and nothing else is."""
    variables = set(re.findall(r"{([^}]+)}", path))
    declared_ones = {p["name"] for p in operation.parameters if p.get("in") == "path"}
    if variables != declared_ones:
        raise ValueError(f"{path}: path variables {sorted(variables)}, parameters {sorted(declared_ones)}")


def _check_links(paths: Schema, ids: set[str]) -> None:
    """ValueError for a link to an operation that does not exist."""
    for item in paths.values():
        for operation in item.values():
            for response in operation["responses"].values():
                for name, link in response.get("links", {}).items():
                    if link["operationId"] not in ids:
                        raise ValueError(f"link {name} leads to no operation: {link['operationId']}")


__all__ = ["REF", "document"]
