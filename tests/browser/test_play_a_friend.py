"""Two browsers play a friend through the invite link, one reloads mid-game, a third watches in an
embed on another site, and both take a rematch (web/rooms/, static/js/room*.js).

One game covers it all, to keep the suite quick: each step waits on what the page shows.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import cell_name, expect_board
from tests.browser.parent_site import PARENT_PAGE, ParentSite

pytestmark = pytest.mark.browser

# X (the host) wins down column b; O (the friend) plays a1 and c3:
#
#   o x .
#   . x .
#   . x o
GAME = [("host", (1, 1)), ("guest", (0, 0)), ("host", (0, 1)), ("guest", (2, 2)), ("host", (2, 1))]
EMPTY = ["...", "...", "..."]


def board_after(moves: int) -> list[str]:
    rows = [list(row) for row in EMPTY]
    for ply, (_, (row, col)) in enumerate(GAME[:moves]):
        rows[row][col] = "xo"[ply % 2]
    return ["".join(row) for row in rows]


def test_two_browsers_play_a_friend_by_the_invite_with_a_reload_a_watcher_and_a_rematch(
    open_page, app_server
):
    host = open_page(permissions=["clipboard-read", "clipboard-write"])
    host.goto(app_server.url + "/")
    host.get_by_label("Play a friend").check()
    host.locator('[name="friend-side"][value="x"]').check()
    host.get_by_role("button", name="Make the link").click()
    expect(host.locator("#status")).to_have_text("Your turn (X).")
    expect(host.locator("#room-note")).to_have_text("Your friend has not opened the invite yet.")
    invite = host.get_by_label("Send this link to your friend").input_value()
    # The invite opens the room in the host's page's language.
    room = re.fullmatch(r".*/\?room=([A-Za-z0-9]{8})&lang=en#invite=[\w-]{22}", invite)[1]
    assert re.fullmatch(rf".*/\?room={room}#host=[\w-]{{22}}", host.url)  # the page keeps its seat's link
    # The invite's QR code beside it, drawn by the server (an SVG, shown as an image).
    code = host.get_by_role("img", name="The invite link as a QR code: a phone's camera opens it")
    expect(code).to_be_visible()
    assert code.get_attribute("src").startswith("data:image/svg+xml;base64,")
    host.locator("#room-invite").get_by_role("button", name="Copy").click()
    expect(host.locator("#room-copied")).to_have_text("Copied.")
    assert host.evaluate("navigator.clipboard.readText()") == invite

    guest = open_page()
    guest.goto(invite)
    expect(guest.locator("#status")).to_have_text("Your friend (X) is to move.")
    assert re.fullmatch(rf".*/\?room={room}&lang=en#guest=[\w-]{{22}}", guest.url)
    expect(guest.locator("#room-note")).to_have_text("Your friend is here.")
    expect(host.locator("#room-note")).to_have_text("Your friend is here.")
    expect(host.locator("#room-invite")).to_be_hidden()  # the invite is spent
    expect(guest.locator("#hint")).to_be_hidden()  # no hints in a room
    expect(guest.locator("#undo")).to_be_hidden()

    # A third browser watches from a page of another site, through the embed.
    watcher = open_page()
    moves_sent = []
    watcher.on("request", lambda r: moves_sent.append(r.url) if r.method == "POST" else None)
    with ParentSite(
        PARENT_PAGE.format(src=f"http://localhost:{app_server.port}/embed?room={room}")
    ) as parent:
        watcher.goto(parent.url)
        embed = watcher.frame_locator("#game")
        frame = watcher.frame(url=lambda url: "/embed" in url)
        expect(embed.locator("#room-note")).to_have_text("You are watching. Both players are here.")
        pages = {"host": host, "guest": guest}
        for ply, (seat, (row, col)) in enumerate(GAME):
            pages[seat].get_by_role("button", name=cell_name(row, col)).click()
            for page in (host, guest, frame):
                expect_board(page, board_after(ply + 1))
            if ply == 0:
                expect(guest.locator("#status")).to_have_text("Your friend played b2. Your turn (O).")
                expect(embed.locator("#status")).to_have_text("X played b2. O to move.")
                # The watcher cannot move: the cells take no click, and nothing is sent.
                assert (
                    embed.get_by_role("button", name=cell_name(0, 0)).get_attribute("aria-disabled") == "true"
                )
                embed.get_by_role("button", name=cell_name(0, 0)).click(force=True)  # as a player would
            if ply == 1:
                # The host reloads in the middle of the game: back in its seat, the game as it stands.
                host.reload()
                expect(host.locator("#status")).to_have_text("Your friend played a1. Your turn (X).")
                expect_board(host, board_after(2))
                expect(guest.locator("#room-note")).to_have_text("Your friend is here.")
        assert moves_sent == [], "the watcher sent nothing"

        expect(host.locator("#status")).to_have_text("You played b3. You win!")
        expect(guest.locator("#status")).to_have_text("Your friend played b3. Your friend wins.")
        expect(embed.locator("#status")).to_have_text("X played b3. X wins!")
        for page in (host, guest):
            expect(page.locator("#outcome")).to_be_visible()
            expect(page.locator("#review")).to_be_visible()  # the engine's review, as after any game
            expect(page.locator("#review-status")).to_have_text(re.compile(r"^5 moves: "))
        expect(watcher.locator("#log")).to_have_text(
            '{"type":"tictactoe:gameover","winner":"x","player":null,"result":null}\n'
        )

        # A rematch: one asks, the other accepts; the sides swap and the score stays.
        host.get_by_role("button", name="Rematch").click()
        expect(host.get_by_role("button", name="Rematch asked")).to_be_disabled()
        guest.get_by_role("button", name="Accept the rematch").click()
        expect(guest.locator("#status")).to_have_text("Your turn (X).")
        expect(host.locator("#status")).to_have_text("Your friend (X) is to move.")
        expect(embed.locator("#status")).to_have_text("X to move.")
        expect(host.locator('#turn-strip [data-name="o"]')).to_have_text("You")
        expect(host.locator('#turn-strip [data-score="o"]')).to_have_text("1")
        expect(host.locator("#strip-caption")).to_have_text("Game 2")
        guest.get_by_role("button", name=cell_name(1, 1)).click()
        for page in (host, guest, frame):
            expect_board(page, ["...", ".x.", "..."])
        expect(host.locator("#status")).to_have_text("Your friend played b2. Your turn (O).")


def test_a_spent_invite_opens_the_game_to_watch(open_page, app_server):
    from tests.servers import post

    status, made = post(app_server.url + "/rooms", {"side": "o"})
    assert status == 201
    room = made["room"]
    status, _ = post(
        f"{app_server.url}/rooms/{room}/seats", {"invite": made["links"]["invite"].split("=")[-1]}
    )
    assert status == 201
    late: Page = open_page()
    late.goto(app_server.url + made["links"]["invite"])
    expect(late.locator("#link-message")).to_have_text(
        "Both seats of this room are taken: you are watching the game."
    )
    expect(late.locator("#status")).to_have_text("X to move.")
    assert late.url.endswith(f"/?room={room}")  # a watch link now
