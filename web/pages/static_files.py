"""Static files (``/static/...``): CSS and JavaScript revalidated on every load, images kept a while.

Why ``Cache-Control: no-cache`` on CSS, JavaScript and the JSON the modules read: the modules import each
other by relative URL (``import ... from "./api.js"``), so with a max-age a
browser could run a new ``main.js`` beside an hour-old ``api.js`` after a
deploy.  With ``no-cache`` it asks on every load; an unchanged file is answered
``304`` with no body, a changed one with its new bytes.  Fingerprinted URLs
(a content hash in each URL, cached for a year) would save those small
requests, but ES modules then need an import map, an inline script whose hash
the CSP must carry and which every change of any module must rebuild; for a
page of 20 small modules and no build step, revalidating is the simpler
correct choice.  Images keep ``public, max-age=STATIC_MAX_AGE``: nothing
imports them, and an old logo for an hour breaks nothing.

Why the ETag is a hash of the bytes: werkzeug's own is built from the file's
modification time, size and name, and builders of reproducible images set every
modification time to one date, so an edit that kept a file's size would keep
its ETag, and browsers their old copy.  The hash changes exactly when the bytes
do.  It is weak (``W/"..."``) because the gzipped and plain copies
(``web/http/compression.py``) hold the same content: Flask-Compress leaves a weak
tag as it is, so a revalidation matches before anything is compressed.

Files are small (the largest, the share picture, is about 56 KB), so each answer reads its file
whole: the bytes, their hash and the body come from one read.
"""

from __future__ import annotations

import hashlib
import mimetypes
import os
from datetime import UTC, datetime
from pathlib import Path

from flask import Flask, Response, request
from werkzeug.exceptions import NotFound
from werkzeug.security import safe_join

# The files whose every load must agree with each other: revalidated each time (the modules, the
# stylesheet, and the data the modules read: the offline player's table).
REVALIDATED = frozenset((".js", ".css", ".json"))
ETAG_HEX_DIGITS = 32


def init_app(app: Flask, max_age: int) -> None:
    """Serve ``app``'s ``static`` endpoint as the module docstring says; images get ``max_age`` seconds."""

    def static(filename: str) -> Response:
        """The file ``filename`` under the app's static folder (404 if there is none), or 304."""
        if app.static_folder is None:
            raise NotFound()
        return static_file(app.static_folder, filename, max_age)

    app.view_functions["static"] = static


def static_file(folder: str, filename: str, max_age: int) -> Response:
    """The answer for ``folder/filename``: its bytes with validators, or 304; ``NotFound`` if no such file."""
    path = safe_join(folder, filename)
    if path is None or not os.path.isfile(path):
        raise NotFound()
    try:
        data = Path(path).read_bytes()
        modified = datetime.fromtimestamp(os.stat(path).st_mtime, tz=UTC)
    except OSError:  # removed (or made unreadable) since the check above
        raise NotFound() from None
    response = Response(data, mimetype=mimetypes.guess_type(path)[0] or "application/octet-stream")
    response.set_etag(hashlib.sha256(data).hexdigest()[:ETAG_HEX_DIGITS], weak=True)
    response.last_modified = modified
    if Path(path).suffix in REVALIDATED:
        response.cache_control.no_cache = True
    else:
        response.cache_control.public = True
        response.cache_control.max_age = max_age
    response.make_conditional(request)  # in place: a 304 for a matching If-None-Match or If-Modified-Since
    return response
