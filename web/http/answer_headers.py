"""The headers every answer carries, whoever writes it: one list, read by the three writers.

Three writers answer a client, and each puts these in:

- Flask, for every route, every error it handles and every event stream (whose
  headers go out before its first event): web/http/security.py's hook, beside
  the CSP, HSTS and caching that depend on the settings and the route;
- gunicorn itself, for a request it cannot parse (400, 414, 431) before the app
  runs: web/http/gunicorn_errors.py puts them after its status line;
- the connection cap, for a connection over its address's share (429) before
  gunicorn reads a request: web/http/connections_per_address.py writes them.

So a header for every answer is one line here.

>>> header_lines((("X-Content-Type-Options", "nosniff"),))
b'X-Content-Type-Options: nosniff\\r\\n'
"""

from __future__ import annotations

from collections.abc import Iterable

EVERY_ANSWER: tuple[tuple[str, str], ...] = (
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "strict-origin-when-cross-origin"),
)


def header_lines(headers: Iterable[tuple[str, str]]) -> bytes:
    """``headers`` as the lines of an HTTP/1.1 answer's head, each ended by CRLF."""
    return b"".join(f"{name}: {value}\r\n".encode("latin-1") for name, value in headers)
