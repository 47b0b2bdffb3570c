"""A JSON request body, read and parsed strictly: the one reader of every JSON API's bodies.

Nothing is coerced: a body that is not UTF-8, not JSON, not an object, that
names a field twice, holds NaN or a number of more than ``MAX_DIGITS`` digits
is an ``ApiError`` 400 that says what is wrong.  What the fields must hold is
each body's fields to say, declared once (``Field``) with the checks that read them
and the JSON Schema /openapi.json shows (web/api/payload.py, web/rooms/routes.py).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Request
from werkzeug.exceptions import ClientDisconnected

from web.http.errors import ApiError

# Integer literals longer than this are refused while parsing (a seed has at most 19).
MAX_DIGITS = 100
Schema = dict[str, Any]


def read_json_body(request: Request) -> bytes:
    """The body as sent, unparsed; ``ApiError`` 400 when its Content-Type is not JSON.

    (413 for a body over ``MAX_CONTENT_LENGTH`` comes from werkzeug, or from
    web/http/protocol.py's hook before any view.)
    """
    environ = request.environ
    length_text = environ.get("CONTENT_LENGTH", "")
    if environ.get("CONTENT_TYPE") == "application/json" and length_text.isdigit():
        # The common request, written as the API asks, read as it is: one read of the
        # stated length from the server's stream (web/http/protocol.py refused a longer
        # one already).  Anything else takes werkzeug's parsing and stream below.  A read
        # that fails or comes short is what werkzeug's stream makes of it, a client gone
        # (web/http/errors.py tells which: 408 for a body that stopped arriving).
        stated = int(length_text)
        try:
            body: bytes = environ["wsgi.input"].read(stated)
        except (OSError, ValueError):
            raise ClientDisconnected() from None
        if len(body) < stated:
            raise ClientDisconnected()
        return body
    mimetype = request.mimetype  # parsed from the header on every read
    if mimetype != "application/json":
        given = f"not {mimetype!r}" if mimetype else "and none was given"
        raise ApiError(400, f"Content-Type must be application/json, {given}")
    length = request.content_length
    if length is None:  # chunked: read whole by web/http/protocol.py, kept by werkzeug
        return request.get_data(cache=False)
    # One read of the length the header gave (at most MAX_CONTENT_LENGTH, checked
    # before any view): reading to the end would ask the stream again to find it.
    return request.stream.read(length)


def json_object(data: bytes, example: str) -> dict[str, object]:
    """The body as a JSON object, or ``ApiError`` 400 saying what is wrong with it.

    ``example`` is a body the message for an empty one suggests.
    """
    if not data.strip():
        raise ApiError(400, f"the body is empty: send a JSON object such as {example}")
    try:
        text = data.decode("utf-8")
        body = json.loads(
            text, parse_constant=_reject_constant, parse_int=_bounded_int, object_pairs_hook=_unique_keys
        )
    except UnicodeDecodeError:
        raise ApiError(400, "the body is not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise ApiError(
            400, f"the body is not valid JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None
    except DuplicateField as error:
        raise ApiError(400, str(error)) from None
    except ValueError as error:  # NaN or Infinity, or a number too long
        raise ApiError(400, f"the body is not valid JSON: {error}") from None
    except RecursionError:
        raise ApiError(400, "the body is not valid JSON: nested too deeply") from None
    if not isinstance(body, dict):
        raise ApiError(400, f"the body must be a JSON object, not {kind(body)}")
    if _SURROGATE_ESCAPE.search(data) and not _is_text(body):
        raise ApiError(
            400, "the body holds a lone surrogate escape (such as \\ud800), which is no character: send text"
        )
    return body


# A surrogate escape, the one way JSON can hold text that no UTF-8 encoder takes (paired, it is a
# character outside the BMP; alone, it would fail the first time the text is hashed or written).
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def _is_text(value: object) -> bool:
    """Whether every string in ``value`` (keys included) can be encoded as UTF-8."""
    if isinstance(value, str):
        try:
            value.encode()
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, dict):
        return all(_is_text(key) and _is_text(item) for key, item in value.items())
    if isinstance(value, list):
        return all(_is_text(item) for item in value)
    return True


@dataclass(frozen=True)
class Field:
    """A field of a request body, declared once: the check reads it, /openapi.json shows it.

    ``schema`` is what it accepts, as JSON Schema, shown as the component
    ``component`` when it has one (bodies refer to it); ``check(value)`` is the
    value as the view uses it, or an ``ApiError`` 400 that says what is wrong; a
    body that leaves the field out gets ``default``, or a 400 in the words of
    ``missing`` when it must be given.  ``required`` says whether the document
    marks it so (a field whose absence the route refuses in its own way, such as a
    seat's token with a 403, is marked while ``missing`` stays None).  A field
    given as null is refused like any other wrong type.
    """

    name: str
    schema: Schema
    check: Callable[[Any], Any]
    default: object = None
    missing: str | None = None
    component: str | None = None
    required: bool = False

    @property
    def documented_required(self) -> bool:
        """Whether /openapi.json lists the field as required."""
        return self.required or self.missing is not None

    def shown(self) -> Schema:
        """The field's schema in a body: a reference to its component when it has one."""
        return self.schema if self.component is None else {"$ref": f"#/components/schemas/{self.component}"}


def fields_schema(fields: tuple[Field, ...]) -> Schema:
    """A body of ``fields`` as JSON Schema: an object of exactly those, the required ones marked."""
    return {
        "type": "object",
        "required": [field.name for field in fields if field.documented_required],
        "additionalProperties": False,
        "properties": {field.name: field.shown() for field in fields},
    }


def components(fields: tuple[Field, ...]) -> dict[str, Schema]:
    """The components ``fields`` refer to, by name."""
    return {field.component: field.schema for field in fields if field.component is not None}


def integer(value: object) -> bool:
    """Whether ``value`` is a JSON integer (a boolean is not one here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def checked(name: str, accepted: Callable[[Any], bool], wanted: str) -> Callable[[Any], Any]:
    """A check that passes a value ``accepted`` takes, else says ``name must be <wanted>, not <value>``."""

    def check(value: object) -> object:
        if not accepted(value):
            raise ApiError(400, f"{name} must be {wanted}, not {show(value)}")
        return value

    return check


def read_fields(body: dict[str, object], fields: tuple[Field, ...]) -> dict[str, Any]:
    """Each of ``fields`` read from ``body`` by its check (or its default), by name.

    Raises ``ApiError`` 400 naming a field the body has and ``fields`` lack, then
    for the first field that is missing or wrong, in the order of ``fields``.
    """
    refuse_unknown_fields(body, tuple(field.name for field in fields))
    values: dict[str, Any] = {}
    for field in fields:
        if field.name in body:
            values[field.name] = field.check(body[field.name])
        elif field.missing is not None:
            raise ApiError(400, field.missing)
        else:
            values[field.name] = field.default
    return values


def refuse_unknown_fields(body: dict[str, object], allowed: tuple[str, ...]) -> None:
    """``ApiError`` 400 naming the first field of ``body`` that is not one of ``allowed``."""
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        raise ApiError(400, f"unknown field {show(unknown[0])}: the fields are {', '.join(allowed)}")


class DuplicateField(ValueError):
    """A JSON object names one field twice."""


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON value")


def _bounded_int(text: str) -> int:
    """An integer literal, refused past ``MAX_DIGITS`` digits (no field needs more)."""
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise ValueError(f"a number has {digits} digits, more than {MAX_DIGITS}")
    return int(text)


def _unique_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """An object from its pairs, refusing a repeated name.

    Parsers disagree on which of two equal names wins (Python keeps the last,
    others the first), so a body that says a field twice is refused rather
    than read one way here and another way by whatever sits in front of us.
    """
    body: dict[str, object] = {}
    for name, value in pairs:
        if name in body:
            raise DuplicateField(f"field {show(name)} is given twice: give each field once")
        body[name] = value
    return body


def kind(value: object) -> str:
    """The JSON name of a value's type ("a string", "null"...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def show(value: object) -> str:
    """A short JSON rendering of a value for an error message."""
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."
