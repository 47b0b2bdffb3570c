"""Screenshots of a friend's game as phones play it, for docs/frontend.md.

    .venv/bin/python -m tests.browser.screenshots_room docs/screenshots

starts the real app (gunicorn, a fresh cache) and saves, at 1280x800 and 390x844:
``room-invite-{size}.png`` (a room just made: the invite with its QR code), ``room-offer-{size}.png``
(a 4x4 game in which the friend, named, offers a draw: the words and the answer above the board);
and ``room-embed-360x420.png`` (the friend's seat in the embed, a takeback asked).
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import expect

from tests.browser.screenshots import app_and_browser, sized_pages
from tests.servers import post

SIZES = {"1280x800": (1280, 800), "390x844": (390, 844)}


def main(folder: str) -> None:
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    with app_and_browser() as (server, browser):
        for name, page in sized_pages(browser, SIZES):
            page.goto(server.url + "/")
            page.get_by_label("Play a friend").check()
            page.get_by_role("button", name="Make the link").click()
            expect(page.locator("#room-invite-code")).to_be_visible()
            page.screenshot(path=str(out / f"room-invite-{name}.png"), full_page=True)
        for name, page in sized_pages(browser, SIZES):
            host, guest = seated(server.url, rows=4, cols=4, k=4)
            room = host["room"]
            post(f"{server.url}/rooms/{room}/name", {"token": guest["token"], "name": "Zed"})
            post(f"{server.url}/rooms/{room}/moves", {"token": host["token"], "move": {"row": 1, "col": 1}})
            post(f"{server.url}/rooms/{room}/draw", {"token": guest["token"]})
            page.goto(f"{server.url}/{host['links']['seat']}")
            expect(page.locator("#room-answer")).to_be_visible()
            page.screenshot(path=str(out / f"room-offer-{name}.png"))
        for _, page in sized_pages(browser, {"360x420": (360, 420)}):
            host, guest = seated(server.url)
            room = host["room"]
            post(f"{server.url}/rooms/{room}/moves", {"token": host["token"], "move": {"row": 1, "col": 1}})
            post(f"{server.url}/rooms/{room}/takeback", {"token": host["token"]})
            page.goto(f"{server.url}/embed?room={room}#guest={guest['token']}")
            expect(page.locator("#room-answer")).to_be_visible()
            page.screenshot(path=str(out / "room-embed-360x420.png"))


def seated(url: str, **rules) -> tuple[dict, dict]:
    """A room of ``rules`` with the host on X and the guest seated."""
    _, host = post(url + "/rooms", {"side": "x", **rules})
    invite = host["links"]["invite"].split("#invite=")[1]
    _, guest = post(f"{url}/rooms/{host['room']}/seats", {"invite": invite})
    return host, guest


if __name__ == "__main__":
    main(sys.argv[1])
