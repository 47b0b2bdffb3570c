"""Screenshots of issue 12's features at desktop and phone widths, for docs/frontend.md.

    .venv/bin/python -m tests.browser.screenshots_review docs/screenshots

starts the real app (gunicorn, a fresh cache) and saves, at 1280x800 and 390x844:
``review-{size}.png`` (a two-player game thrown away by O's edge reply to the
centre, its review open on the mistake, the whole page), ``share-{size}.png`` (the
Share / embed dialog with its preview) and ``link-{size}.png`` (a bad link's
message over an empty board); and ``review-embed-360x420.png`` (the review in the
embed, scrolled to it).
"""

from __future__ import annotations

import sys
from pathlib import Path

from tests.browser.helpers import wait_settled
from tests.browser.screenshots import app_and_browser, sized_pages

SIZES = {"1280x800": (1280, 800), "390x844": (390, 844)}
# X b2, O a2 (the mistake), then X wins on the diagonal c1-b2-a3.
THROWN = "?size=3x3&k=3&mode=two&moves=b2,a2,a1,c3,c1,b1,a3"


def main(folder: str) -> None:
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    with app_and_browser() as (server, browser):
        for name, page in sized_pages(browser, SIZES):
            page.goto(server.url + "/" + THROWN)
            page.wait_for_function("() => document.getElementById('status').dataset.status === 'x_won'")
            # A finished game opens its review.
            page.wait_for_function(
                "() => document.getElementById('review-status').textContent.includes('mistake')"
            )
            page.locator("#review-moves button").nth(1).click()
            page.screenshot(path=str(out / f"review-{name}.png"), full_page=True)
            page.goto(server.url + "/")
            wait_settled(page, 7)  # the same game, from storage
            page.get_by_role("button", name="Share / embed").click()
            page.wait_for_function(
                "() => document.getElementById('share-preview').contentDocument"
                "?.getElementById('status')?.textContent.includes('Your turn')"
            )
            page.screenshot(path=str(out / f"share-{name}.png"))
            page.goto(server.url + "/?size=3x3&k=3&moves=b2,b2")
            page.wait_for_function("() => !document.getElementById('link-message').hidden")
            wait_settled(page, 0)
            page.screenshot(path=str(out / f"link-{name}.png"))
        page = browser.new_page(viewport={"width": 360, "height": 420})
        page.goto(server.url + "/embed?size=3x3&level=perfect")
        wait_settled(page, 0)
        page.locator('#board button[data-row="0"][data-col="1"]').click()
        wait_settled(page, 2)
        page.get_by_role("button", name="Review").click()
        page.wait_for_function(
            "() => document.getElementById('review-status').textContent.includes('no mistake')"
        )
        page.locator("#review").scroll_into_view_if_needed()
        page.screenshot(path=str(out / "review-embed-360x420.png"))
        page.close()


if __name__ == "__main__":
    main(sys.argv[1])
