"""The body of every JSON error, declared once: ``{"error": "...", "retry_after": n}``.

Each room that refuses a request builds it (the error handlers, the metrics'
401, the rate limit's 429, the connection cap's 429), so it lives in the lowest
room; web/api/openapi.py generates the Error schema from it.
"""

# No ``from __future__ import annotations``: the schema reads the required keys
# from the class, which under Python 3.11 sees NotRequired only when evaluated.
from typing import NotRequired, TypedDict


class ErrorBody(TypedDict):
    """What is wrong, in words; on a refusal that passes (429), the seconds to wait, as in Retry-After."""

    error: str
    retry_after: NotRequired[int]


def error_body(message: str, retry_after: int | None = None) -> ErrorBody:
    """The error body saying ``message`` (and ``retry_after`` when given)."""
    body: ErrorBody = {"error": message}
    if retry_after is not None:
        body["retry_after"] = retry_after
    return body
