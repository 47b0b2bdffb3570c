"""Draws the installed app's icons (web/pages/app_manifest.py's ``ICONS`` and ``APPLE_TOUCH_ICON``)
from the site's logo (static/images/logo.svg), by Chromium, into static/images/.

    .venv/bin/python -m tests.browser.app_icons

- "any" (192 and 512 px): the logo as it is, its rounded corners transparent;
- "maskable" (512 px): the logo's tile to the edges and its marks at 80 % about the middle, so that
  every mark stays inside the safe circle (a radius of 40 % of the side) whatever shape Android
  cuts the icon to;
- Apple's touch icon (180 px): the maskable drawing, since iOS rounds the corners itself and fills
  transparent ones with black.
"""

from __future__ import annotations

import re
import shutil

from playwright.sync_api import sync_playwright

from tests.browser.helpers import CHROMIUM_ARGS
from tests.servers import ROOT
from web.pages.app_manifest import APPLE_TOUCH_ICON, ICONS, Icon

LOGO = ROOT / "static" / "images" / "logo.svg"
# The logo's tile: the rounded square every mark is drawn on.
TILE = re.compile(r'<rect width="32" height="32" rx="8" fill="(#[0-9a-f]{6})"/>')
MARKS_SCALE = 0.8


def full_bleed(logo: str) -> str:
    """The logo with its tile to the edges and its marks at ``MARKS_SCALE`` about the middle."""
    tile = TILE.search(logo)
    assert tile is not None, "logo.svg's tile is not the rounded square this script knows"
    body = logo[tile.end() : logo.rindex("</svg>")]
    group = f'<g transform="translate(16 16) scale({MARKS_SCALE}) translate(-16 -16)">{body}</g>'
    return logo[: tile.start()] + f'<rect width="32" height="32" fill="{tile[1]}"/>' + group + "</svg>\n"


def drawing(icon: Icon, logo: str) -> str:
    """The SVG an icon is drawn from."""
    return logo if icon.purpose == "any" and icon is not APPLE_TOUCH_ICON else full_bleed(logo)


def main() -> None:
    logo = LOGO.read_text()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=shutil.which("chromium"), headless=True, args=CHROMIUM_ARGS
        )
        try:
            for icon in (*ICONS, APPLE_TOUCH_ICON):
                page = browser.new_page(viewport={"width": icon.size, "height": icon.size})
                svg = drawing(icon, logo).replace(
                    "<svg ", f'<svg width="{icon.size}" height="{icon.size}" ', 1
                )
                page.set_content(f"<!doctype html><body style='margin:0'>{svg}</body>")
                target = ROOT / "static" / icon.path
                page.screenshot(path=str(target), omit_background=True)
                page.close()
                print(f"{target.relative_to(ROOT)}: {target.stat().st_size:,} bytes")
        finally:
            browser.close()


if __name__ == "__main__":
    main()
