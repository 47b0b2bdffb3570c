"""Screenshots of the lab's "Watch the search" (issue 12, point 4) at desktop and phone widths.

    .venv/bin/python -m tests.browser.screenshots_trace docs/screenshots

starts the real app (gunicorn, a fresh cache) and saves, at 1280x800 and
390x844, the panel (an element screenshot) for the position x../.o./...:
``trace-{size}-playing.png`` (every engine run, five trees 40 steps in, a folded
minimax branch opened) and ``trace-{size}-end.png`` (replayed to the end: each
count is the lab table's); and ``trace-1280x800-minimax-empty.png``, plain
minimax's 549,946 nodes on the empty board, folded, one branch opened.
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser.screenshots import app_and_browser, sized_pages

SIZES = {"1280x800": (1280, 800), "390x844": (390, 844)}
STEPS = 40


def watch(page: Page, engines: list[str]) -> None:
    """Tick exactly ``engines`` and load their trees."""
    for box in page.locator("#trace-engines input").all():
        box.set_checked(box.get_attribute("value") in engines)
    page.get_by_role("button", name="Watch the search").click()
    expect(page.locator("#trace-status")).to_contain_text("Ready", timeout=60_000)


def main(folder: str) -> None:
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    with app_and_browser() as (server, browser):
        for name, page in sized_pages(browser, SIZES):
            page.goto(server.url + "/lab?board=x2/1o1/3")
            page.get_by_role("button", name="Run every engine").click()
            expect(page.locator("#lab-status")).to_contain_text("Done", timeout=60_000)
            watch(page, ["minimax", "alphabeta", "alphabeta-ordered", "alphabeta-tt", "negascout"])
            for _ in range(STEPS):
                page.get_by_role("button", name="Step").click()
            page.locator("[data-engine=minimax] button.trace-open").first.click()
            expect(page.locator("#trace-status")).to_contain_text("Opened the branch")
            panel = page.locator("#watch-search")
            panel.screenshot(path=str(out / f"trace-{name}-playing.png"))
            page.get_by_role("button", name="To the end").click()
            expect(page.locator("#trace-status")).to_contain_text("replayed")
            panel.screenshot(path=str(out / f"trace-{name}-end.png"))
            if name == "1280x800":
                page.goto(server.url + "/lab?board=3/3/3")
                watch(page, ["minimax"])
                page.get_by_role("button", name="To the end").click()
                page.locator("[data-engine=minimax] button.trace-open").nth(2).click()
                expect(page.locator("#trace-status")).to_contain_text("Opened the branch")
                page.locator("[data-engine=minimax] .trace-box").evaluate("(box) => { box.scrollTop = 0; }")
                panel.screenshot(path=str(out / f"trace-{name}-minimax-empty.png"))


if __name__ == "__main__":
    main(sys.argv[1])
