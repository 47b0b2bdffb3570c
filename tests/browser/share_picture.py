"""Draws the picture a shared link shows (web/pages/share_card.py's ``PICTURE``): the game's name and
summary beside a board where X has won down a diagonal, in the game page's own stylesheet and cells,
drawn by Chromium at Open Graph's large card size (1200 x 630) into static/images/.

    .venv/bin/python -m tests.browser.share_picture

    x o o        X a1, b2, c3: the winning line
    . x .        O b1, c1: faded off the line
    . . x
"""

from __future__ import annotations

import html

from tests.browser.screenshots import app_and_browser
from tests.servers import ROOT
from web.pages.share_card import GAME_PAGE, PICTURE

BOARD = ["xoo", ".x.", "..x"]
LINE = {(0, 0), (1, 1), (2, 2)}
# The card's own layout: everything else (colours, the board, the cells) is app.css's.  A page of the
# script's making (set_content), so the app's CSP, which forbids inline styles, does not apply to it.
CARD_STYLE = """
  body { margin: 0; width: 1200px; height: 630px; display: grid; grid-template-columns: 1fr 500px;
         align-items: center; gap: 64px; padding: 0 80px; box-sizing: border-box; }
  .card-words img { display: block; margin-bottom: 28px; border-radius: 20px; }
  .card-words h1 { font-size: 76px; letter-spacing: -0.02em; }
  .card-words p { margin: 22px 0 0; font-size: 30px; line-height: 1.35; color: var(--muted); }
  .board-frame { max-width: none; }
"""


def card_page(app_url: str) -> str:
    """The card as a page: the name and summary, and BOARD in the game page's markup (render.js's)."""
    rows = []
    for r, line in enumerate(BOARD):
        cells = []
        for c, mark in enumerate(line):
            kind = {"x": " x", "o": " o", ".": ""}[mark] + (" win" if (r, c) in LINE else " dim")
            cells.append(
                f'<div class="board-cell"><button class="cell{kind}"><span class="mark">'
                f'{mark.upper() if mark != "." else ""}</span><span class="badge"></span></button></div>'
            )
        rows.append(f'<div class="board-row">{"".join(cells)}</div>')
    return f"""<!doctype html>
<html lang="en" data-theme="light"><head><meta charset="utf-8">
<base href="{app_url}/"><link rel="stylesheet" href="static/css/app.css"><style>{CARD_STYLE}</style></head>
<body>
  <div class="card-words"><img src="static/images/logo.svg" alt="" width="112" height="112">
    <h1>Tic-tac-toe</h1><p>{html.escape(GAME_PAGE.description)}</p></div>
  <div class="board-frame"><div class="board-area" style="--rows: 3; --cols: 3">
    <div id="board" class="board over">{"".join(rows)}</div></div></div>
</body></html>"""


def main() -> None:
    target = ROOT / "static" / PICTURE.path
    with app_and_browser() as (server, browser):
        page = browser.new_page(
            viewport={"width": PICTURE.width, "height": PICTURE.height}, reduced_motion="reduce"
        )
        page.set_content(card_page(server.url), wait_until="networkidle")
        page.screenshot(path=str(target))
        page.close()
    print(f"{target.relative_to(ROOT)}: {target.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
