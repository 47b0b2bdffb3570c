"""Security and caching headers on every response.

The page is embeddable on purpose, so there is no ``X-Frame-Options``: who may
frame it is said by CSP ``frame-ancestors`` (the FRAME_ANCESTORS setting).
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask, Response, request

from web.http.errors import is_api_path


def content_security_policy(frame_ancestors: str) -> str:
    """The CSP: everything from our own origin only, no inline script or style."""
    return (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "object-src 'none'; base-uri 'self'; form-action 'self'; "
        f"frame-ancestors {frame_ancestors}"
    )


def fixed_headers(frame_ancestors: str, secure: bool) -> list[tuple[str, str]]:
    """The headers every response gets (HSTS only over HTTPS)."""
    headers = [
        ("Content-Security-Policy", content_security_policy(frame_ancestors)),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "strict-origin-when-cross-origin"),
    ]
    if secure:
        headers.append(("Strict-Transport-Security", "max-age=31536000"))
    return headers


def headers_by_scheme(frame_ancestors: str) -> Callable[[bool], list[tuple[str, str]]]:
    """``fixed_headers`` made once for each scheme: ``lookup(secure)``."""
    return {secure: fixed_headers(frame_ancestors, secure) for secure in (False, True)}.__getitem__


def register(app: Flask, frame_ancestors: str) -> None:
    """Add the headers to every response of ``app``."""
    headers_for = headers_by_scheme(frame_ancestors)

    @app.after_request
    def add_headers(response: Response) -> Response:
        headers = response.headers
        for name, value in headers_for(request.is_secure):
            headers[name] = value
        # Answers about positions, health and counters are computed per request;
        # static files and the OpenAPI document set their own caching.
        if "Cache-Control" not in headers and (is_api_path(request.path) or response.status_code >= 400):
            headers["Cache-Control"] = "no-store"
        return response
