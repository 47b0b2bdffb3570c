"""The body of every JSON error, declared once: ``{"error": "...", "retry_after": n}``.

Each room that refuses a request builds it (the error handlers, the metrics'
401, the rate limit's 429, the connection cap's 429), so it lives in the lowest
room; /openapi.json's Error schema is made from it (web/openapi/schemas.py).
"""

# No ``from __future__ import annotations``: the schema reads the required keys
# from the class, which under Python 3.11 sees NotRequired only when evaluated.
from typing import Annotated, NotRequired

from annotated_types import Ge
from typing_extensions import TypedDict


class ErrorBody(TypedDict):
    """What is wrong, in words; on a refusal that passes (429), the seconds to wait, as in Retry-After."""

    error: str
    """What is wrong, in words."""
    retry_after: NotRequired[Annotated[int, Ge(1)]]
    """On a 429 or 503: the seconds to wait, as in Retry-After."""


def error_body(message: str, retry_after: int | None = None) -> ErrorBody:
    """The error body saying ``message`` (and ``retry_after`` when given)."""
    body: ErrorBody = {"error": message}
    if retry_after is not None:
        body["retry_after"] = retry_after
    return body
