"""The web app manifest (``/manifest.webmanifest``): what a phone needs to install the game as an app.

Every page links it (templates/base.html), with the same colours as ``theme-color`` for the
browser's own bar.  The colours are the stylesheet's page background, read from
static/css/app.css (its ``--bg: light-dark(light, dark)``), so that they are declared once:
the light one for the manifest (a splash screen and a title bar have one colour), both for the
pages' ``theme-color``, each under its ``prefers-color-scheme``.  The icons are drawn by
tests/browser/app_icons.py: 192 and 512 pixels for launchers, a maskable one whose marks stay
inside the safe circle (the middle 80 %) for Android's shapes, and Apple's 180-pixel
``apple-touch-icon``, which iOS uses for its home screen (it reads no manifest icon).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from flask import Flask, Response, current_app, request

from web.pages.share_card import GAME_PAGE, SITE_NAME

MANIFEST_PATH = "/manifest.webmanifest"
MANIFEST_TYPE = "application/manifest+json"
STYLESHEET = "css/app.css"
BACKGROUND = "--bg"


@dataclass(frozen=True)
class Icon:
    """An image under static/: its side in pixels and its purpose (``any`` or ``maskable``)."""

    path: str
    size: int
    purpose: str = "any"


ICONS = (
    Icon("images/icon-192.png", 192),
    Icon("images/icon-512.png", 512),
    Icon("images/icon-maskable-512.png", 512, "maskable"),
)
APPLE_TOUCH_ICON = Icon("images/apple-touch-icon.png", 180)


@dataclass(frozen=True)
class Colours:
    """The page's background in the light and the dark colour scheme (``#rrggbb``)."""

    light: str
    dark: str


def page_colours(stylesheet: str) -> Colours:
    """The ``--bg`` pair of a stylesheet's ``light-dark()``; raises ``ValueError`` when it has none."""
    match = re.search(
        rf"{BACKGROUND}:\s*light-dark\((#[0-9a-fA-F]{{6}}),\s*(#[0-9a-fA-F]{{6}})\)", stylesheet
    )
    if match is None:
        raise ValueError(f"{STYLESHEET} declares no {BACKGROUND}: light-dark(#rrggbb, #rrggbb)")
    return Colours(match[1], match[2])


def colours(app: Flask) -> Colours:
    """``app``'s page colours, read from its stylesheet once."""
    found: Colours | None = app.extensions.get("page_colours")
    if found is None:
        assert app.static_folder is not None
        found = app.extensions["page_colours"] = page_colours(
            (Path(app.static_folder) / STYLESHEET).read_text()
        )
    return found


def manifest(static_url_path: str, scheme: Colours) -> dict[str, object]:
    """The manifest's members: the game page as a standalone app, its names, colours and icons."""
    return {
        "id": "/",
        "name": SITE_NAME,
        "short_name": SITE_NAME,
        "description": GAME_PAGE.description,
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": scheme.light,
        "theme_color": scheme.light,
        "icons": [
            {
                "src": f"{static_url_path}/{icon.path}",
                "sizes": f"{icon.size}x{icon.size}",
                "type": "image/png",
                "purpose": icon.purpose,
            }
            for icon in ICONS
        ],
    }


def init_app(app: Flask) -> None:
    """Serve the manifest at ``MANIFEST_PATH``."""

    @app.get(MANIFEST_PATH, endpoint="app_manifest")
    def app_manifest() -> Response:
        """The manifest, revalidated on every load (a deploy may change a colour or an icon)."""
        assert current_app.static_url_path is not None
        body = json.dumps(manifest(current_app.static_url_path, colours(current_app)), ensure_ascii=False)
        response = Response(body, mimetype=MANIFEST_TYPE)
        response.cache_control.no_cache = True
        response.add_etag()
        response.make_conditional(request)  # in place: a 304 for a matching If-None-Match
        return response
