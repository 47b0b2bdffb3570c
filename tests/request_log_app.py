"""The real app, wrapped so that every request that reaches a worker is written to a file.

``gunicorn tests.request_log_app:app`` with ``REQUEST_LOG=/path``: one line per
request, ``<method> <path>?<query>``, appended by whichever worker answered
(one ``write`` of a short line on a file opened for appending, so lines from
several workers never mix).  Tests read it to count what got past a cache.
"""

from __future__ import annotations

import os

from web.assembly import create_app

app = create_app()
_inner = app.wsgi_app
_log_path = os.environ["REQUEST_LOG"]


def _logging_wsgi_app(environ, start_response):
    line = f"{environ['REQUEST_METHOD']} {environ['PATH_INFO']}?{environ.get('QUERY_STRING', '')}\n"
    fd = os.open(_log_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, line.encode())
    finally:
        os.close(fd)
    return _inner(environ, start_response)


app.wsgi_app = _logging_wsgi_app
