"""The game as an installed app and offline (static/sw.js, static/js/offline.js, static/js/offline-app.js).

Each test opens its own context with service workers allowed (they are blocked for the other
browser tests: tests/browser/conftest.py), waits for the worker to take the page, then:

- Chrome finds the page installable; offline, a reload comes from the worker and a 3x3 game
  against Perfect plays to its end with hints and the review, and not one request is sent; what
  needs the server (the engine on 7x7, Play a friend, the lab's engines) says so in words, two
  players play on 4x4, and when the network is back the page says so and the waiting move goes;
- with the worker in charge, a room and its stream, /metrics, health and the embed (in the game
  page's Share dialog, and in another site's page) all go to the network, and nothing but the
  deploy's list is ever kept;
- a French page (``?lang=fr``), kept by the worker, reloads offline in French, the lab too;
- on an iPhone, the page says once how to add it to the home screen, and no note moves the page.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import cell_name, read_board, stones, wait_settled
from tests.browser.parent_site import PARENT_PAGE, ParentSite
from tests.browser.test_layout_shift import OBSERVE, shift_since_last

pytestmark = pytest.mark.browser

WORKERS = "allow"
# The API's paths a game sends to: offline, the page answers for them and sends nothing.
API = ("/move", "/analyze", "/state", "/position", "/engines")
CACHED_URLS = """async () => {
  const names = await caches.keys();
  const cache = await caches.open(names[0]);
  const urls = (await cache.keys()).map((request) => new URL(request.url));
  return {names, urls: urls.map((url) => url.pathname + url.search)};
}"""
KEPT_BODY = "async (path) => (await (await caches.open((await caches.keys())[0])).match(path)).text()"
IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko)"
    " Version/18.0 Mobile/15E148 Safari/604.1"
)


def size(rows: int, cols: int) -> str:
    """A board's size as the page writes it, unbroken: "3 × 3"."""
    return f"{rows}\u00a0×\u00a0{cols}"


def wait_controlled(page: Page) -> None:
    """Wait until the page's worker has installed (its cache filled) and controls the page."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=20_000)


def notice(page: Page, key: str):
    """The note ``key`` at the foot of the screen (static/js/notices.js)."""
    return page.locator(f'#notices [data-notice="{key}"]')


def play_by_the_hints(page: Page) -> None:
    """Play X to the end of the game: each turn, the hints on, then the first cell they value as a
    win or a draw."""
    while page.locator("#status").get_attribute("data-status") == "in_progress":
        board = read_board(page)
        empty = sum(row.count(".") for row in board)
        page.get_by_role("button", name="Hint", exact=True).click()
        hinted = page.locator('#board button[aria-label*="hint:"]')
        expect(hinted).to_have_count(empty)
        keeps = '#board button[aria-label*="hint: win"], #board button[aria-label*="hint: draw"]'
        page.locator(keeps).first.click()
        wait_settled(page, stones(board) + 2)


def test_offline_the_installed_page_plays_3x3_against_perfect_and_says_what_waits(open_page, app_server):
    page = open_page(service_workers=WORKERS)
    page.goto(app_server.url + "/")
    wait_controlled(page)
    # Chrome would offer to install it: the manifest, its icons and the worker pass its checks, and
    # the one reason it gives is the test's own window (Playwright's contexts are incognito ones).
    devtools = page.context.new_cdp_session(page)
    errors = devtools.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [error["errorId"] for error in errors] == ["in-incognito"]
    manifest = devtools.send("Page.getAppManifest")
    assert manifest["errors"] == [] and manifest["url"].endswith("/manifest.webmanifest?lang=en")
    devtools.detach()  # a session left open keeps Chromium from going offline below
    expect(notice(page, "install")).to_have_count(0)  # not on a desktop: Chrome offers it itself

    sent: list[str] = []
    page.on("request", lambda request: urlsplit(request.url).path in API and sent.append(request.url))
    page.context.set_offline(True)
    assert page.reload().from_service_worker
    expect(notice(page, "network")).to_have_text(
        f"You are offline: {size(3, 3)} against the engine and two players still play.Close"
    )
    notice(page, "network").get_by_role("button", name="Close").click()
    page.get_by_label("Perfect").check()
    expect(page.locator("#status")).to_have_text("You are X and move first. Your turn.")
    play_by_the_hints(page)
    expect(page.locator("#status")).to_contain_text("It's a draw.")
    expect(page.locator("#review-status")).to_have_text("9 moves: no mistake.")
    # (The engine's details, under the review while it is open.)
    expect(page.locator("#engine-info")).to_contain_text("Without the server, it played from its own table")
    assert sent == []  # the browser knew it was offline: nothing was even tried

    # Two players on 4 x 4, four in a row: X takes the top row.
    page.get_by_role("button", name="Review", exact=True).click()  # closed: the settings are back
    page.locator("#size").select_option("4x4")
    page.get_by_label("Two players").check()
    for row, col in [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2), (0, 3)]:
        page.get_by_role("button", name=cell_name(row, col)).click()
    expect(page.locator("#status")).to_contain_text("X wins!")
    expect(page.locator("#board .cell.win")).to_have_count(4)
    # Its review waits for the network, said once.
    expect(page.locator("#review-status")).to_have_text(
        f"You appear to be offline. Without the server, the review checks {size(3, 3)} games only."
        " 0 of 7 moves checked."
    )
    expect(page.get_by_role("button", name="Check the other moves")).to_be_visible()

    # What only the server can do says so: the engine on 7 x 7, Play a friend.
    page.get_by_role("button", name="Review", exact=True).click()
    page.get_by_label("Engine", exact=True).check()
    page.locator("#size").select_option("7x7")
    page.get_by_role("button", name=cell_name(3, 3)).click()
    expect(page.locator("#status")).to_have_text(
        f"You appear to be offline. Without the server, the engine plays {size(3, 3)} only."
        " Press Retry to try again."
    )
    page.get_by_label("Play a friend").check()
    page.get_by_role("button", name="Make the link").click()
    expect(page.locator("#link-message")).to_have_text("You are offline: Play a friend needs the network.")
    lab = page.context.new_page()
    lab.goto(app_server.url + "/lab")
    lab.get_by_role("button", name="Run every engine").click()
    expect(lab.locator("#lab-status")).to_have_text(
        "You appear to be offline. The lab's engines run on the server: run them again when it answers."
    )
    lab.close()

    # Back online: the page says so, and the 7 x 7 move that waited goes by itself.
    page.context.set_offline(False)
    expect(notice(page, "network")).to_contain_text("You are back online")
    wait_settled(page, 2)
    expect(page.locator("#status")).to_contain_text("Your turn (X).")


KEPT = "async (paths) => (await Promise.all(paths.map((path) => caches.match(path)))).every(Boolean)"


def test_offline_a_french_page_installed_and_reloaded_still_speaks_french(open_page, app_server):
    page = open_page(service_workers=WORKERS)
    page.goto(app_server.url + "/?lang=fr")
    wait_controlled(page)
    # Through the worker now: the French page comes from the network once, and is kept with the lab's.
    page.reload()
    page.wait_for_function(KEPT, arg=["/?lang=fr", "/lab?lang=fr"], timeout=20_000)
    page.context.set_offline(True)
    assert page.reload().from_service_worker
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(notice(page, "network")).to_contain_text(
        f"Vous êtes hors ligne : le {size(3, 3)} contre le moteur et le jeu à deux fonctionnent toujours."
    )
    expect(page.get_by_role("button", name="Nouvelle partie")).to_be_visible()
    page.locator('#board button[data-row="1"][data-col="1"]').click()
    wait_settled(page, 2)
    # The engine answers from its own table, and the status line says so in French.
    expect(page.locator("#status")).to_have_text(
        re.compile(r"^Le moteur a joué [a-c][1-3]\. À vous de jouer \(X\)\.$")
    )
    lab = page.context.new_page()
    assert lab.goto(app_server.url + "/lab?lang=fr").from_service_worker
    expect(lab.get_by_role("heading", level=1)).to_have_text("Le labo de recherche")
    lab.close()


def test_rooms_streams_health_and_the_embed_go_to_the_network_with_the_worker_in_charge(
    open_page, app_server
):
    page = open_page(service_workers=WORKERS)
    page.goto(app_server.url + "/")
    wait_controlled(page)
    answered: dict[str, list[bool]] = {}

    def seen(response) -> None:
        answered.setdefault(urlsplit(response.url).path, []).append(response.from_service_worker)

    page.on("response", seen)
    page.reload()
    assert answered["/"] == [True] and answered["/static/js/main.js"] == [True]

    page.get_by_label("Play a friend").check()
    page.locator('[name="friend-side"][value="x"]').check()
    page.get_by_role("button", name="Make the link").click()
    expect(page.locator("#room-note")).to_have_text("Your friend has not opened the invite yet.")
    page.get_by_role("button", name=cell_name(1, 1)).click()
    expect(page.locator("#status")).to_have_text("You played b2. Your friend (O) is to move.")
    rooms = {path: seen for path, seen in answered.items() if path.startswith("/rooms")}
    assert any(path.endswith("/events") for path in rooms), rooms  # the room's stream
    assert all(seen == [False] * len(seen) for seen in rooms.values()), rooms
    for path in ("/metrics", "/healthz", "/livez"):
        page.evaluate("(path) => fetch(path).then((r) => r.status)", path)
        assert answered[path] == [False], path

    # The Share dialog's live preview (the room's embed): the embed's page and files from the network.
    page.get_by_role("button", name="Share / embed").click()
    preview = page.frame_locator("#share-preview")
    expect(preview.locator("#status")).to_have_text("You played b2. Your friend (O) is to move.")
    assert answered["/embed"] == [False] and answered["/static/js/embed.js"] == [False]
    page.keyboard.press("Escape")

    # Nothing was kept but the deploy's own list.
    precache = page.evaluate("() => fetch('/sw.js').then((r) => r.text())")
    listed = set(re.search(r'"precache": (\[[^\]]*\])', precache)[1].strip("[]").replace('"', "").split(", "))
    assert set(page.evaluate(CACHED_URLS)["urls"]) == listed

    # The embed in another site's page, the worker on the app's origin: it plays.
    app_origin = f"http://localhost:{app_server.port}"
    page.goto(app_origin + "/")
    wait_controlled(page)
    with ParentSite(PARENT_PAGE.format(src=f"{app_origin}/embed?size=3x3&level=easy")) as parent:
        page.goto(parent.url)
        frame = page.frame(url=lambda url: url.startswith(app_origin))
        wait_settled(frame, 0)
        page.frame_locator("#game").get_by_role("button", name=cell_name(1, 1)).click()
        wait_settled(frame, 2)


def test_on_an_iphone_the_page_says_once_how_to_install_it_and_no_note_moves_the_page(open_page, app_server):
    iphone = {"user_agent": IPHONE, "has_touch": True, "is_mobile": True}
    page = open_page(viewport={"width": 390, "height": 844}, service_workers=WORKERS, **iphone)
    page.context.add_init_script(OBSERVE)
    page.goto(app_server.url + "/")
    hint = notice(page, "install")
    expect(hint).to_have_text("To put the game on your home screen, tap Share, then Add to Home Screen.Close")
    shift_since_last(page, "the page's load and the install hint")
    wait_controlled(page)
    page.reload()
    wait_settled(page, 0)
    page.context.set_offline(True)  # a note that shows the page's notes are running
    expect(notice(page, "network")).to_be_visible()
    expect(hint).to_have_count(0)  # once only
    shift_since_last(page, "the offline note")
    page.context.set_offline(False)
    expect(notice(page, "network")).to_contain_text("You are back online")
    shift_since_last(page, "the back-online note")
