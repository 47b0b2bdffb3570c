"""Security and caching headers on every response.

The page is embeddable on purpose, so there is no ``X-Frame-Options``: who may
frame it is said by CSP ``frame-ancestors`` (the FRAME_ANCESTORS setting).
"""

from __future__ import annotations

from flask import Flask, Response, request

from .errors import is_api_path


def content_security_policy(frame_ancestors: str) -> str:
    """The CSP: everything from our own origin only, no inline script or style."""
    return (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "object-src 'none'; base-uri 'self'; form-action 'self'; "
        f"frame-ancestors {frame_ancestors}"
    )


def register(app: Flask, frame_ancestors: str) -> None:
    """Add the headers to every response of ``app``."""
    policy = content_security_policy(frame_ancestors)

    @app.after_request
    def add_headers(response: Response) -> Response:
        headers = response.headers
        headers["Content-Security-Policy"] = policy
        headers["X-Content-Type-Options"] = "nosniff"
        headers["Referrer-Policy"] = "strict-origin-when-cross-origin"
        if request.is_secure:
            headers["Strict-Transport-Security"] = "max-age=31536000"
        # Answers about positions, health and counters are computed per request;
        # static files and the OpenAPI document set their own caching.
        if "Cache-Control" not in headers and (is_api_path(request.path) or response.status_code >= 400):
            headers["Cache-Control"] = "no-store"
        return response
