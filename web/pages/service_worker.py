"""The service worker (``/sw.js``): this deploy's pages and files kept in the browser for play offline.

Served from the site's root, so that its scope is the whole site (a worker served from
/static/ would control only /static/).  Its script is static/sw.js behind one line that the
server writes, ``const DEPLOY = {...}``: the deploy's version and the list of what the worker
keeps (``precache``), declared here once.

The version is a hash of every byte the kept answers are made from: the files under static/
and templates/, the code of the pages (web/pages/) and the closed sets they embed (the
engine's levels in words).  A deploy that changes any of them changes the version, so the
worker's script changes, so the browser installs the new worker beside the old one, and the
new worker keeps the new deploy's files in a cache of its own (``tictactoe-<version>``).  A page
the old worker answered keeps its files until the player takes the new version (the page
offers it: static/js/offline-app.js), so that a page never runs two deploys' modules; then the
old cache is deleted.  What the worker keeps and what it never touches is in static/sw.js.

Computed once per app, at the first request for the worker (about 2 ms: some 300 KB hashed).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from flask import Flask, Response, current_app, request

from web.pages.app_manifest import MANIFEST_PATH
from web.pages.closed_sets import server_sets
from web.pages.share_card import PICTURE

WORKER_PATH = "/sw.js"
WORKER_SOURCE = "sw.js"  # under static/
# The pages it keeps: the game (also as a room's link opens it: the room's line shown from the
# start), and the lab.  The embed is not kept: its page is made from its query string.
PAGES = ("/", "/?room=", "/lab")
# Static files it does not keep: the picture of a shared link (for the sites that show one) and
# the worker's own script.
NOT_KEPT = frozenset({PICTURE.path, WORKER_SOURCE})
VERSION_HEX_DIGITS = 16
PAGES_CODE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Deploy:
    """What the worker of this deploy is told: its version and the URLs it keeps."""

    version: str
    precache: tuple[str, ...]


def deploy(app: Flask) -> Deploy:
    """``app``'s deploy (its version and what the worker keeps), made once."""
    found: Deploy | None = app.extensions.get("deploy")
    if found is None:
        assert app.static_folder is not None and app.template_folder is not None
        static = Path(app.static_folder)
        templates = Path(app.root_path) / app.template_folder
        kept = [path for path in files(static) if path.relative_to(static).as_posix() not in NOT_KEPT]
        urls = [f"{app.static_url_path}/{path.relative_to(static).as_posix()}" for path in kept]
        found = app.extensions["deploy"] = Deploy(
            version=version([static, templates, PAGES_CODE]),
            precache=(*PAGES, MANIFEST_PATH, *urls),
        )
    return found


def files(folder: Path) -> Iterator[Path]:
    """The files under ``folder``, in a fixed order (byte code left out)."""
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.suffix != ".pyc":
            yield path


def version(folders: list[Path]) -> str:
    """A hash of every file's name and bytes under ``folders``, and of the closed sets."""
    digest = hashlib.sha256(json.dumps(server_sets(), sort_keys=True).encode())
    for folder in folders:
        for path in files(folder):
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:VERSION_HEX_DIGITS]


def init_app(app: Flask) -> None:
    """Serve the worker at ``WORKER_PATH``."""

    @app.get(WORKER_PATH, endpoint="service_worker")
    def service_worker() -> Response:
        """The worker's script with this deploy's line first; revalidated (the browser asks on each load)."""
        made = deploy(current_app)
        assert current_app.static_folder is not None
        source = (Path(current_app.static_folder) / WORKER_SOURCE).read_text()
        line = f"const DEPLOY = {json.dumps(asdict(made))};\n"
        response = Response(line + source, mimetype="text/javascript")
        response.cache_control.no_cache = True
        response.set_etag(made.version)
        response.make_conditional(request)  # in place: a 304 for a matching If-None-Match
        return response
