"""Security and caching headers on every response.

The page is embeddable on purpose, so there is no ``X-Frame-Options``: who may
frame it is said by CSP ``frame-ancestors`` (the FRAME_ANCESTORS setting).
"""

from __future__ import annotations

from flask import Flask, Response, request

from web.http.answer_headers import EVERY_ANSWER
from web.http.errors import is_api_path

NO_STORE = ("Cache-Control", "no-store")


def content_security_policy(frame_ancestors: str) -> str:
    """The CSP: everything from our own origin only, no inline script or style."""
    return (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "object-src 'none'; base-uri 'self'; form-action 'self'; "
        f"frame-ancestors {frame_ancestors}"
    )


def fixed_headers(frame_ancestors: str, secure: bool) -> list[tuple[str, str]]:
    """The headers every response of the app gets (HSTS only over HTTPS): the CSP, then what every
    answer carries whoever writes it (web/http/answer_headers.py)."""
    headers = [("Content-Security-Policy", content_security_policy(frame_ancestors)), *EVERY_ANSWER]
    if secure:
        headers.append(("Strict-Transport-Security", "max-age=31536000"))
    return headers


def init_app(app: Flask, frame_ancestors: str) -> None:
    """Add the headers to every response of ``app``."""
    # Every response gets one of four lists, made here once: by scheme, and with or
    # without Cache-Control: no-store.  Added in one go: set one by one, each was a
    # scan of the response's headers (every request passes here).
    lists = {
        (secure, no_store): [*fixed_headers(frame_ancestors, secure), *([NO_STORE] if no_store else [])]
        for secure in (False, True)
        for no_store in (False, True)
    }
    names = frozenset(name.lower() for name, _ in fixed_headers(frame_ancestors, secure=True))

    @app.after_request
    def add_headers(response: Response) -> Response:
        current = request._get_current_object()  # type: ignore[attr-defined]  # one read through the proxy
        headers = response.headers
        given = {name.lower() for name, _ in headers}
        # Answers about positions, health and counters are computed per request;
        # static files and the OpenAPI document set their own caching.
        no_store = "cache-control" not in given and (response.status_code >= 400 or is_api_path(current.path))
        added = lists[current.is_secure, no_store]
        if given.isdisjoint(names):
            headers[len(headers) :] = added
        else:  # a view set one of them: ours replace it
            for name, value in added:
                headers[name] = value
        return response
