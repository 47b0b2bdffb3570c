"""Compressed answers: gzip where the client's ``Accept-Encoding`` asks for it, by Flask-Compress.

Compressed: pages, static CSS, JavaScript and SVG, and JSON answers of
``MIN_SIZE`` bytes or more (``/openapi.json``, ``/analyze``, ``/trace``,
``/position``...), when they are 2xx.  Every answer Flask-Compress looks at
gets ``Vary: Accept-Encoding``, so a shared cache keeps the two copies apart.

Not compressed:

- ``POST /move``: an answer of a few hundred bytes gains little, and the
  check would cost every move (the API's most frequent request) its time.
- Answers under ``MIN_SIZE`` bytes, errors, 304s.
- Event streams (``text/event-stream``, web/rooms/stream.py): each event must
  leave as it is written, and a compressor holds bytes back until it has
  enough to compress.

Why gzip alone: on the first load of ``/`` (``bench/first_load.py``) Brotli at
Flask-Compress's default quality (4) made files no smaller than gzip at level 6,
and its best quality (11), about 15% smaller, cost about 30 times the CPU on
every answer; every client takes gzip.

ETags: a strong ETag names exact bytes, so Flask-Compress gives a compressed
answer the tag ``"<tag>:gzip"``.  ``etag_variants`` lists both, for views that
check a request's preconditions before building the body.
"""

from __future__ import annotations

from flask import Flask, Response, request
from flask_compress import Compress
from werkzeug.http import quote_etag, unquote_etag

ALGORITHMS = ("gzip",)
EVENT_STREAM = "text/event-stream"
MIN_SIZE = 500  # bytes (Flask-Compress's default): below it gzip saves too little to be worth its CPU


def init_app(app: Flask, skip: str) -> None:
    """Compress ``app``'s answers as the module docstring says (its hook runs after every other one).

    Answers to the path ``skip`` (``POST /move``'s) are never compressed.
    """
    app.config.update(
        COMPRESS_ALGORITHM=list(ALGORITHMS),
        COMPRESS_MIN_SIZE=MIN_SIZE,
        COMPRESS_REGISTER=False,  # the hook below decides which answers it sees
        COMPRESS_STREAMS=False,  # no answer streams: static files are answered from memory
    )
    compress = Compress()
    compress.init_app(app)

    @app.after_request
    def compress_answer(response: Response) -> Response:
        if request.path == skip or response.mimetype == EVENT_STREAM:
            return response
        if not request.accept_encodings["gzip"]:
            # Flask-Compress 1.25 would still gzip for "gzip;q=0", which refuses it (RFC 9110).
            response.vary.add("Accept-Encoding")
            return response
        compressed: Response = compress.after_request(response)
        return compressed


def etag_variants(tag: str) -> tuple[str, ...]:
    """The strong ETag ``tag`` (quoted), then the tags its compressed copies get (``"<tag>:gzip"``)."""
    value, _ = unquote_etag(tag)
    return (tag, *(quote_etag(f"{value}:{algorithm}") for algorithm in ALGORITHMS))
