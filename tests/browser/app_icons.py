"""Draws the installed app's icons (web/pages/app_manifest.py's ``ICONS`` and ``APPLE_TOUCH_ICON``)
from the site's logo (static/images/logo.svg), by Chromium, into static/images/.

    .venv/bin/python -m tests.browser.app_icons

- "any" (192 and 512 px): the logo as it is, its rounded corners transparent;
- "maskable" (512 px): the logo's tile to the edges and its marks at 80 % about the middle, so that
  every mark stays inside the safe circle (a radius of 40 % of the side) whatever shape Android
  cuts the icon to;
- Apple's touch icon (180 px): the maskable drawing, since iOS rounds the corners itself and fills
  transparent ones with black.

Chromium draws each on a canvas; the pixels are written here as a PNG of at most 256 colours (the
logo has five, and their blends along the edges): Chrome fetches the 192-pixel icon with the
manifest when it checks that the page can be installed, so its bytes are part of a first visit.
"""

from __future__ import annotations

import base64
import re
import shutil
import struct
import zlib
from collections import Counter

from playwright.sync_api import sync_playwright

from tests.browser.helpers import CHROMIUM_ARGS
from tests.servers import ROOT
from web.pages.app_manifest import APPLE_TOUCH_ICON, ICONS, Icon

LOGO = ROOT / "static" / "images" / "logo.svg"
# The logo's tile: the rounded square every mark is drawn on.
TILE = re.compile(r'<rect width="32" height="32" rx="8" fill="(#[0-9a-f]{6})"/>')
MARKS_SCALE = 0.8
PALETTE_SIZE = 256
# The SVG drawn on a canvas of `size` pixels: its RGBA bytes, base64.
PIXELS = """async ([svg, size]) => {
  const image = new Image();
  image.src = "data:image/svg+xml;base64," + btoa(svg);
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = size;
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0, size, size);
  const bytes = context.getImageData(0, 0, size, size).data;
  let text = "";
  for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return btoa(text);
}"""

Colour = tuple[int, ...]  # red, green, blue, alpha


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


def indexed_png(pixels: bytes, size: int) -> bytes:
    """A square RGBA image as a PNG of at most ``PALETTE_SIZE`` colours: the most frequent ones, every
    other pixel (a blend along an edge) taking the nearest of them."""
    colours: list[Colour] = [tuple(pixels[i : i + 4]) for i in range(0, len(pixels), 4)]
    palette = [colour for colour, _ in Counter(colours).most_common(PALETTE_SIZE)]
    index = {colour: i for i, colour in enumerate(palette)}

    def nearest(colour: Colour) -> int:
        return min(
            range(len(palette)),
            key=lambda i: sum((a - b) ** 2 for a, b in zip(palette[i], colour, strict=True)),
        )

    for colour in set(colours) - index.keys():
        index[colour] = nearest(colour)
    rows = b"".join(
        b"\0" + bytes(index[colour] for colour in colours[y * size : (y + 1) * size]) for y in range(size)
    )

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", size, size, 8, 3, 0, 0, 0)  # 8-bit indexed colour
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"PLTE", b"".join(bytes(colour[:3]) for colour in palette))
        + chunk(b"tRNS", bytes(colour[3] for colour in palette))
        + chunk(b"IDAT", zlib.compress(rows, 9))
        + chunk(b"IEND", b"")
    )


def main() -> None:
    logo = LOGO.read_text()
    with sync_playwright() as playwright:
        chromium = shutil.which("chromium")
        browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            for icon in (*ICONS, APPLE_TOUCH_ICON):
                pixels = base64.b64decode(page.evaluate(PIXELS, [drawing(icon, logo), icon.size]))
                target = ROOT / "static" / icon.path
                target.write_bytes(indexed_png(pixels, icon.size))
                print(f"{target.relative_to(ROOT)}: {target.stat().st_size:,} bytes")
        finally:
            browser.close()


if __name__ == "__main__":
    main()
