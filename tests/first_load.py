"""What a browser fetches from the server to show ``/``: the page, then its stylesheet, icon and
scripts, then every module those scripts import (``import ... from "./x.js"``), transitively.

``first_load_paths(get)`` takes ``get(path) -> bytes`` (the plain body), so the
same walk serves a Flask test client and a live server.  API requests the page's
scripts make once they run are not in it: they depend on what the scripts do.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from html.parser import HTMLParser

# Static imports and re-exports of a module, and bare ``import "./x.js"``.
_IMPORT = re.compile(r"""(?:\bfrom|\bimport)\s*["']([^"']+)["']""")


# Links a browser follows only to install the page as an app, never to show it.
_INSTALL_ONLY = frozenset({"manifest", "apple-touch-icon"})


class _Links(HTMLParser):
    """The URLs a page's ``<link href>``, ``<script src>`` and ``<img src>`` load, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if tag == "link" and names.get("rel") in _INSTALL_ONLY:
            return
        url = names.get("href") if tag == "link" else names.get("src") if tag in ("script", "img") else None
        if url:
            self.urls.append(url)


def first_load_paths(get: Callable[[str], bytes], page: str = "/") -> list[str]:
    """``page`` and the same-origin paths loading it fetches, each once, in discovery order."""
    links = _Links()
    links.feed(get(page).decode())
    paths = [page]
    todo = [url for url in links.urls if url.startswith("/") and not url.startswith("//")]
    while todo:
        path = todo.pop(0)
        if path in paths:
            continue
        paths.append(path)
        if path.endswith(".js"):
            base = posixpath.dirname(path)
            for target in _IMPORT.findall(get(path).decode()):
                if target.startswith("."):
                    todo.append(posixpath.normpath(posixpath.join(base, target)))
    return paths
