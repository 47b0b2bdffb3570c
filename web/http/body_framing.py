"""A chunked body whose framing is broken, told to the client in words (a 400), not a 500.

gunicorn parses a chunked body lazily: the chunk sizes, the CRLFs after each
chunk, the extensions and the trailers are read while the app reads the body
(``wsgi.input``), not before the app is called.  A broken frame raises
gunicorn's own parse errors (``InvalidChunkSize``, ``ChunkMissingTerminator``,
``InvalidChunkExtension``, the trailers' ``InvalidHeader``...) out of that
read.  They are neither ``OSError`` nor ``ValueError``, so werkzeug's stream
passes them on and the app's last handler answered 500 with a traceback, on
every path (web/http/protocol.py reads any chunked body to measure it).
gunicorn answers these errors 400 itself only when it meets them outside the
app, draining a body the app left unread.

gunicorn.conf.py's ``pre_request`` hook puts a chunked body's reader behind a
:class:`FramingReader`, which turns those errors into :class:`MalformedBody`,
a ``ValueError``: werkzeug's stream turns that into ``ClientDisconnected`` as it
does a failed read, and the app answers 400 with the message
(web/http/errors.py).  The request is marked to close: where the next request
would start on the connection is unknown, and gunicorn closes it anyway (the
body's reader failed), so the answer says ``Connection: close``.
"""

from __future__ import annotations

import re
from typing import Any

from web.http.body_deadline import Reader

SHOWN_BYTES = 16  # of a bad chunk size or terminator, in the message


class MalformedBody(ValueError):
    """The body's chunked framing is broken; the message says how, for the client."""


class FramingReader:
    """``reader`` (gunicorn's ``ChunkedReader`` of ``request``), raising :class:`MalformedBody`
    for a broken frame and marking ``request`` to close its connection."""

    def __init__(self, reader: Reader, request: Any) -> None:
        self.reader = reader
        self.request = request

    def read(self, size: int) -> bytes:
        """Up to ``size`` bytes of the body; :class:`MalformedBody` when its framing is broken."""
        from gunicorn.http.errors import ParseException  # type: ignore[import-untyped]  # no types

        try:
            return self.reader.read(size)
        except ParseException as error:
            self.request.must_close = True
            raise MalformedBody(in_words(error)) from error


def explain_framing_errors(request: Any) -> None:
    """Put gunicorn's ``request``'s chunked body reader behind a :class:`FramingReader`.

    Does nothing for a body of known length (its reader has no framing to break)
    or a request with no body reader (HTTP/2).
    """
    from gunicorn.http.body import ChunkedReader  # type: ignore[import-untyped]  # no types

    body: Any = getattr(request, "body", None)
    reader = getattr(body, "reader", None)
    if isinstance(reader, ChunkedReader):
        body.reader = FramingReader(reader, request)


def in_words(error: Exception) -> str:
    """What is wrong with a chunked body, from gunicorn's parse ``error`` met while reading it.

    >>> from gunicorn.http.errors import InvalidChunkSize, ChunkMissingTerminator
    >>> in_words(InvalidChunkSize(b"zz"))
    "malformed chunked body: a chunk size must be hexadecimal digits, not 'zz'"
    >>> in_words(InvalidChunkSize(b"line over 8190 bytes with no terminator"))
    'malformed chunked body: a chunk size line (with its extensions) runs past 8190 bytes without its CRLF'
    >>> in_words(ChunkMissingTerminator(b"XX"))
    "malformed chunked body: a chunk's data must be followed by CRLF, not 'XX'"
    """
    from gunicorn.http import errors  # type: ignore[import-untyped]  # no types

    if isinstance(error, errors.InvalidChunkSize):
        data = error.data if isinstance(error.data, bytes) else b""
        limit = re.fullmatch(rb"line over (\d+) bytes with no terminator", data)
        if limit:
            what = f"a chunk size line (with its extensions) runs past {int(limit[1])} bytes without its CRLF"
        else:
            what = f"a chunk size must be hexadecimal digits, not {shown(data)}"
    elif isinstance(error, errors.ChunkMissingTerminator):
        term = error.term if isinstance(error.term, bytes) else b""
        what = "a chunk's data must be followed by CRLF" + (
            f", not {shown(term)}" if term else " (the body ended before it)"
        )
    elif isinstance(error, errors.InvalidChunkExtension):
        what = (
            "a chunk extension holds a bare CR"
            if "bare CR" in str(error.reason)
            else "a chunk extension must be ;name or ;name=value, the value a token or a quoted string"
        )
    elif isinstance(error, errors.LimitRequestHeaders):
        what = "the trailer section after the last chunk is too large"
    else:
        what = f"the trailer section after the last chunk is not valid ({error})"
    return f"malformed chunked body: {what}"


def shown(data: bytes) -> str:
    """``data``'s first bytes, quoted, as a client could read them back.

    >>> shown(b"-5")
    "'-5'"
    """
    return repr(data[:SHOWN_BYTES].decode("latin-1")) + ("..." if len(data) > SHOWN_BYTES else "")
