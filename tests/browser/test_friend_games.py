"""A friend's game as phones and real browsers play it: a connection that goes silent is noticed and
the game comes back, one stream for eight tabs, a seat kept through an embedding page's reload and
through a cut link, and what friends expect of each other: names, takeback and draw offers, resigning,
the turn in the tab's title (web/rooms/, static/js/room*.js)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import cell_name, expect_board
from tests.browser.parent_site import PARENT_PAGE, ParentSite
from tests.forwarder import Forwarder
from tests.servers import post

pytestmark = pytest.mark.browser


def seated_room(url: str, **rules) -> tuple[dict, dict, str]:
    """A room with the host on X and the guest seated: (the host's answer, the guest's, the invite)."""
    status, host = post(url + "/rooms", {"side": "x", **rules})
    assert status == 201, host
    invite = host["links"]["invite"].split("#invite=")[1]
    status, guest = post(f"{url}/rooms/{host['room']}/seats", {"invite": invite})
    assert status == 201, guest
    return host, guest, invite


def play(url: str, room: str, seat: dict, row: int, col: int) -> None:
    status, answer = post(
        f"{url}/rooms/{room}/moves", {"token": seat["token"], "move": {"row": row, "col": col}}
    )
    assert status == 200, answer


def test_a_silent_connection_is_noticed_and_the_game_comes_back_with_what_was_missed(open_page, app_server):
    host, guest, _ = seated_room(app_server.url)
    room = host["room"]
    with Forwarder(app_server.port) as network:
        phone = open_page(own_context=True)  # the page's clock is the test's: 40 s pass in no time
        phone.clock.install()
        phone.goto(f"{network.url}/{guest['links']['seat']}")
        expect(phone.locator("#status")).to_have_text("Your friend (X) is to move.")
        expect(phone.locator("#room-note")).to_have_text(
            "Your friend is away (the page is closed or offline)."
        )
        assert network.silence() >= 1  # the phone's stream, and whatever else it holds, now carry nothing
        play(app_server.url, room, host, 1, 1)  # the host plays; the phone hears nothing
        expect_board(phone, ["...", "...", "..."])
        # Two heartbeats' worth of silence: the page opens its stream again (a new connection gets through).
        phone.clock.run_for(40_000)
        expect(phone.locator("#room-note")).to_have_text("Back: Your friend played b2.")
        expect_board(phone, ["...", ".x.", "..."])
        expect(phone.locator("#status")).to_have_text("Your friend played b2. Your turn (O).")
        phone.get_by_role("button", name=cell_name(0, 0)).click()
        expect_board(phone, ["o..", ".x.", "..."])


def test_eight_tabs_of_a_room_share_one_stream_and_a_ninth_still_loads(open_page, app_server):
    host, guest, _ = seated_room(app_server.url)
    room = host["room"]
    first = open_page(own_context=True)
    streams = []
    first.context.on("request", lambda r: streams.append(r.url) if "/events" in r.url else None)
    tabs = [first] + [first.context.new_page() for _ in range(7)]
    for tab in tabs:
        tab.goto(f"{app_server.url}/?room={room}")
        expect(tab.locator("#room-note")).to_contain_text("You are watching.")
    play(app_server.url, room, host, 1, 1)
    for tab in tabs:
        expect_board(tab, ["...", ".x.", "..."])
    assert len(streams) == 1, streams  # one tab holds the stream for all eight
    ninth = first.context.new_page()
    ninth.goto(f"{app_server.url}/?room={room}")
    expect_board(ninth, ["...", ".x.", "..."])
    # The tab holding the stream closes: another takes it over, and every tab still hears the game.
    tabs[0].close()
    play(app_server.url, room, guest, 0, 0)
    for tab in [*tabs[1:], ninth]:
        expect_board(tab, ["o..", ".x.", "..."])
    ninth.close()
    for tab in tabs[1:]:
        tab.close()


def test_a_seat_played_in_an_embed_survives_the_embedding_pages_reload(open_page, app_server):
    _, host = post(app_server.url + "/rooms", {"side": "x"})
    room, invite = host["room"], host["links"]["invite"].split("#invite=")[1]
    src = f"http://localhost:{app_server.port}/embed?room={room}#invite={invite}"
    friend = open_page()
    with ParentSite(PARENT_PAGE.format(src=src)) as parent:
        friend.goto(parent.url)
        embed = friend.frame_locator("#game")
        expect(embed.locator("#status")).to_have_text("Your friend (X) is to move.")
        play(app_server.url, room, host, 1, 1)
        expect(embed.locator("#status")).to_have_text("Your friend played b2. Your turn (O).")
        friend.reload()  # the frame's address is the invite again, spent: the seat comes from its storage
        expect(embed.locator("#status")).to_have_text("Your friend played b2. Your turn (O).")
        embed.get_by_role("button", name=cell_name(0, 0)).click()
        frame = friend.frame(url=lambda url: "/embed" in url)
        expect_board(frame, ["o..", ".x.", "..."])


def test_a_cut_seat_link_never_replaces_the_seat_this_browser_holds(open_page, app_server):
    host, guest, _ = seated_room(app_server.url)
    room, token = host["room"], guest["token"]
    page = open_page()
    page.goto(f"{app_server.url}/{guest['links']['seat']}")
    expect(page.locator("#status")).to_have_text("Your friend (X) is to move.")
    # The same seat's link cut short, pasted into this tab: only the fragment changes, and it is read.
    page.goto(f"{app_server.url}/?room={room}#guest={token[:12]}")
    expect(page.locator("#link-message")).to_have_text(
        "This seat link is not right (cut short, or mistyped): this page opens the seat it already had here."
    )
    assert page.url.endswith(f"#guest={token}")  # the good seat, kept and in the address bar
    play(app_server.url, room, host, 1, 1)
    expect(page.locator("#status")).to_have_text("Your friend played b2. Your turn (O).")
    # The room's watch link, in this browser, opens the kept seat too.
    page.goto(f"{app_server.url}/?room={room}")
    page.reload()
    expect(page.locator("#status")).to_have_text("Your friend played b2. Your turn (O).")
    assert page.url.endswith(f"#guest={token}")
    # A stranger's browser given the cut link watches, and says why.
    stranger = open_page()
    stranger.goto(f"{app_server.url}/?room={room}#guest={token[:12]}")
    expect(stranger.locator("#link-message")).to_have_text(
        "This seat link is not right (cut short, or mistyped): you are watching the game."
    )
    expect(stranger.locator("#room-note")).to_contain_text("You are watching.")


def test_names_a_takeback_a_draw_and_a_resignation_between_two_browsers(open_page, app_server):
    host_answer, guest_answer, _ = seated_room(app_server.url, rows=4, cols=4, k=4)
    host, guest = open_page(), open_page()
    host.goto(f"{app_server.url}/{host_answer['links']['seat']}")
    guest.goto(f"{app_server.url}/{guest_answer['links']['seat']}")
    expect(host.locator("#room-note")).to_have_text("Your friend is here.")
    # Names, shown to the friend as plain text.
    guest.get_by_label("Your name, for your friend and for watchers").fill("<b>Zed</b>")
    guest.get_by_role("button", name="Save").click()
    expect(host.locator('#turn-strip [data-name="o"]')).to_have_text("<b>Zed</b>")
    expect(host.locator("#room-note")).to_have_text("<b>Zed</b> is here.")
    # The turn in the title of the page whose turn it is, and not elsewhere.
    expect(host).to_have_title(re.compile("^● Your turn"))
    host.get_by_role("button", name=cell_name(1, 1)).click()
    expect(guest).to_have_title(re.compile("^● Your turn"))
    expect(host).not_to_have_title(re.compile("^●"))
    # A takeback asked and accepted: the board as it was, X to move again.
    host.locator("#room-bar").get_by_role("button", name="Take back").click()
    expect(guest.locator("#room-note")).to_have_text("Your friend asks to take back their last move.")
    expect(host.locator("#room-note")).to_have_text("You asked for a takeback: waiting for <b>Zed</b>.")
    guest.locator("#room-answer").get_by_role("button", name="Accept").click()
    for page in (host, guest):
        expect_board(page, ["....", "....", "....", "...."])
    expect(host.locator("#status")).to_have_text("Your turn (X).")
    # A draw offered on a 4x4 board, declined, offered again and accepted.
    host.get_by_role("button", name=cell_name(0, 0)).click()
    expect(guest.locator("#status")).to_have_text("Your friend played a1. Your turn (O).")
    guest.locator("#room-bar").get_by_role("button", name="Offer a draw").click()
    expect(host.locator("#room-note")).to_have_text("<b>Zed</b> offers a draw.")
    host.locator("#room-answer").get_by_role("button", name="Decline").click()
    expect(guest.locator("#room-note")).to_have_text("Your friend is here.")
    guest.locator("#room-bar").get_by_role("button", name="Offer a draw").click()
    host.locator("#room-answer").get_by_role("button", name="Accept").click()
    for page in (host, guest):
        expect(page.locator("#status")).to_have_text("A draw, agreed.")
    # A rematch (the sides swap), then a resignation, confirmed first.
    host.get_by_role("button", name="Rematch").click()
    guest.get_by_role("button", name="Accept the rematch").click()
    expect(guest.locator("#status")).to_have_text("Your turn (X).")
    host.locator("#room-bar").get_by_role("button", name="Resign").click()
    host.locator("#room-confirm").get_by_role("button", name="Keep playing").click()
    expect(host.locator("#room-confirm")).to_be_hidden()
    host.locator("#room-bar").get_by_role("button", name="Resign").click()
    host.locator("#room-confirm").get_by_role("button", name="Resign").click()
    expect(host.locator("#status")).to_have_text("You resigned. <b>Zed</b> wins.")
    expect(guest.locator("#status")).to_have_text("Your friend resigned. You win!")
    expect(guest.locator('#turn-strip [data-score="x"]')).to_have_text("1")
