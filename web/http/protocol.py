"""HTTP details Flask and werkzeug leave loose, fixed for every route.

- ``OPTIONS``: answered ``204 No Content`` with ``Allow`` (Flask's automatic
  answer is a 200 with an empty HTML body);
- a body of unknown length (``Transfer-Encoding: chunked``): werkzeug silently
  cuts it at ``MAX_CONTENT_LENGTH``, so the app would parse a truncated body
  (400 "Unterminated string"); it is read here, one byte past the limit, and
  refused with 413 when longer;
- redirects (werkzeug's 308 for doubled slashes, ``//static//x``) carry a
  relative ``Location``: werkzeug builds an absolute one from the ``Host``
  header, which is the client's to choose.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, Response, request
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wsgi import get_content_length


def init_app(app: Flask, max_body_bytes: int) -> None:
    """Install the hooks on ``app``; bodies over ``max_body_bytes`` get 413."""
    # One byte more than the limit, so that a longer chunked body shows.
    app.config["MAX_CONTENT_LENGTH"] = max_body_bytes + 1

    @app.before_request
    def refuse_large_bodies() -> None:
        # Read from the WSGI environ as werkzeug's request.content_length does, without
        # building the request's headers: every request passes here.
        environ = request.environ
        length = get_content_length(environ)
        if length is None and environ.get("HTTP_TRANSFER_ENCODING"):
            length = len(request.get_data(cache=True))  # bounded by MAX_CONTENT_LENGTH
        if length is not None and length > max_body_bytes:
            raise RequestEntityTooLarge()

    @app.after_request
    def tidy(response: Response) -> Response:
        headers = response.headers
        if response.status_code == 200 and request.method == "OPTIONS":
            response.status_code = 204
            response.set_data(b"")
            del headers["Content-Type"]
        if 300 <= response.status_code < 400:  # only redirects carry a Location here (no view sets one)
            location = headers.get("Location")
            if location is not None:
                headers["Location"] = relative_location(location)
        return response


def relative_location(location: str) -> str:
    """``location`` without scheme and host: the path (never ``//``-led) and the query."""
    parts = urlsplit(location)
    path = "/" + parts.path.lstrip("/")  # "//host/x" would be read as another host
    return path + (f"?{parts.query}" if parts.query else "")
