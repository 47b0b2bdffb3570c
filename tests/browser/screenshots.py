"""Screenshots of the game page and the lab at the three sizes docs/frontend.md shows.

    .venv/bin/python -m tests.browser.screenshots docs/screenshots after

starts the real app (gunicorn, a fresh cache), plays a 3x3 game to its end
against the easy level with the first empty cell each turn, and saves
viewport-sized PNGs named ``{label}-{size}-{moment}.png``: the game's start,
its end, the lab at the phone size, and a finished game in the 360x420 embed.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

from tests.browser.helpers import CHROMIUM_ARGS, read_board, stones, wait_settled
from tests.servers import Gunicorn

SIZES = {"1280x800": (1280, 800), "1366x768": (1366, 768), "390x844": (390, 844)}


def play_to_the_end(page) -> None:
    """Play the first empty cell (row order) each turn until the server says the game is over."""
    while page.locator("#status").get_attribute("data-status") == "in_progress":
        board = read_board(page)
        row, col = next((r, c) for r, line in enumerate(board) for c, ch in enumerate(line) if ch == ".")
        page.locator(f'#board button[data-row="{row}"][data-col="{col}"]').click()
        wait_settled(page, stones(board) + 2)


def top(page) -> None:
    """Scroll back to the top: what a player sees on arrival (clicks scrolled their targets into view)."""
    page.evaluate("() => window.scrollTo(0, 0)")


@contextmanager
def app_and_browser() -> Iterator[tuple[Gunicorn, Browser]]:
    """The real app (gunicorn, a fresh cache) and Debian's Chromium, both stopped at the end."""
    with (
        tempfile.TemporaryDirectory() as cache,
        Gunicorn(workers=2, env={"CACHE_DIR": cache}) as server,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(
            executable_path=shutil.which("chromium"), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield server, browser
        finally:
            browser.close()


def sized_pages(browser: Browser, sizes: dict[str, tuple[int, int]]) -> Iterator[tuple[str, Page]]:
    """A fresh page at each viewport of ``sizes`` (name: (width, height)), closed after use."""
    for name, (width, height) in sizes.items():
        page = browser.new_page(viewport={"width": width, "height": height}, reduced_motion="reduce")
        try:
            yield name, page
        finally:
            page.close()


def main(folder: str, label: str) -> None:
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    with app_and_browser() as (server, browser):
        for name, (width, height) in SIZES.items():
            context = browser.new_context(
                viewport={"width": width, "height": height}, reduced_motion="reduce"
            )
            page = context.new_page()
            page.goto(server.url + "/")
            wait_settled(page, 0)
            page.get_by_label("Easy").check()  # a level whose games end in a few moves, either way
            page.locator("#new-game").click()
            wait_settled(page, 0)
            top(page)
            page.screenshot(path=str(out / f"{label}-{name}-start.png"))
            play_to_the_end(page)
            top(page)
            page.screenshot(path=str(out / f"{label}-{name}-end.png"))
            if name == "390x844":
                page.goto(server.url + "/lab")
                page.get_by_role("button", name="Run every engine").click()
                page.wait_for_function(
                    "() => document.getElementById('lab-status').textContent.startsWith('Done')",
                    timeout=60_000,
                )
                top(page)
                page.screenshot(path=str(out / f"{label}-{name}-lab.png"))
            context.close()
        page = browser.new_page(viewport={"width": 360, "height": 420})
        page.goto(server.url + "/embed?size=3x3&level=easy")
        wait_settled(page, 0)
        play_to_the_end(page)
        page.screenshot(path=str(out / f"{label}-embed-360x420-end.png"))
        page.close()


if __name__ == "__main__":
    main(*sys.argv[1:3])
