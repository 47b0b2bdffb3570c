"""The "Share / embed" dialog (issue 12): the snippet's query is exactly what /embed accepts."""

from __future__ import annotations

import html
import re
import urllib.request

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import cell_name, read_board, stones, wait_settled
from tests.browser.parent_site import ParentSite

pytestmark = pytest.mark.browser

# Every setting of the builder, each value once: (form field, value, the data-* attributes it sets).
SETTINGS = [
    *[
        ("size", size, {"rows": size.split("x")[0], "cols": size.split("x")[1]})
        for size in ("3x3", "4x4", "5x5", "7x7", "15x15")
    ],
    *[("level", level, {"level": level}) for level in ("easy", "medium", "perfect")],
    *[("side", side, {"side": side, "first": "human" if side == "x" else "engine"}) for side in ("x", "o")],
    *[("theme", theme, {"theme": theme}) for theme in ("auto", "light", "dark")],
]


def open_builder(page: Page, url: str) -> None:
    """Open the game page and its Share / embed dialog."""
    page.goto(url)
    wait_settled(page, 0)
    page.get_by_role("button", name="Share / embed").click()
    expect(page.get_by_role("dialog")).to_be_visible()


def snippet_src(page: Page) -> str:
    """The src of the iframe in the snippet the dialog shows (its HTML entities decoded)."""
    code = page.locator("#share-code").input_value()
    match = re.fullmatch(
        r'<iframe src="([^"]+)" width="(\d+)" height="(\d+)" title="Tic-tac-toe" '
        r'loading="lazy"></iframe>',
        code,
    )
    assert match, code
    return html.unescape(match[1])


def embed_attributes(src: str) -> dict[str, str]:
    """The data-* attributes /embed gives its root element for the query of ``src`` (200 required)."""
    with urllib.request.urlopen(src, timeout=30) as response:
        assert response.status == 200
        body = response.read().decode()
    root = re.search(r'<main id="app"[^>]*>', body)[0]
    return dict(re.findall(r'data-([a-z]+)="([^"]*)"', root))


def test_every_setting_round_trips_through_embed(page: Page, app_server):
    open_builder(page, app_server.url + "/")
    for field, value, expected in SETTINGS:
        page.locator(f"#share-{field}").select_option(value)
        src = snippet_src(page)
        assert src.startswith(app_server.url + "/embed?"), src
        attributes = embed_attributes(src)
        for name, wanted in expected.items():
            assert attributes[name] == wanted, (field, value, src, attributes)
        # The live preview shows exactly the snippet's game.
        expect(page.locator("#share-preview")).to_have_attribute("src", src)
    # k: the default, then every length from 3 to the longer side.
    page.locator("#share-size").select_option("4x4")
    for k in ("3", "4"):
        page.locator("#share-k").select_option(k)
        assert embed_attributes(snippet_src(page))["k"] == k
    page.locator("#share-k").select_option("")
    assert "k=" not in snippet_src(page)
    assert embed_attributes(snippet_src(page))["k"] == "4"
    # Width and height go to the iframe, not the query.
    page.locator("#share-width").fill("400")
    page.locator("#share-height").fill("480")
    code = page.locator("#share-code").input_value()
    assert 'width="400" height="480"' in code
    expect(page.locator("#share-preview")).to_have_attribute("width", "400")
    # The dialog also gives the link to the game on the page.
    assert page.locator("#share-link").input_value().startswith(app_server.url + "/?size=3x3&k=3")
    page.get_by_role("button", name="Copy code").click()
    expect(page.locator("#share-note")).to_have_text(re.compile("Copied|Selected"))
    page.get_by_role("button", name="Close").click()
    expect(page.get_by_role("dialog")).to_be_hidden()


def test_the_snippet_plays_in_an_iframe_on_another_origin(open_page, app_server):
    builder = open_page()
    # The builder runs on localhost, the parent page on 127.0.0.1: two origins.
    app_origin = f"http://localhost:{app_server.port}"
    open_builder(builder, app_origin + "/")
    builder.locator("#share-level").select_option("easy")
    builder.locator("#share-theme").select_option("dark")
    code = builder.locator("#share-code").input_value()
    page = open_page()
    with ParentSite(
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Parent</title>'
        f"</head><body>{code}</body></html>"
    ) as parent:
        page.goto(parent.url)
        frame = page.frame_locator("iframe")
        expect(frame.locator("#status")).to_have_text("You are X and move first. Your turn.")
        game = page.frame(url=lambda url: url.startswith(app_origin + "/embed"))
        assert game is not None, [f.url for f in page.frames]
        assert game.evaluate("document.documentElement.dataset.theme") == "dark"
        wait_settled(game, 0)
        frame.get_by_role("button", name=cell_name(1, 1)).click()
        wait_settled(game, 2)
        assert stones(read_board(game)) == 2
        expect(frame.locator("#status")).to_contain_text("Your turn (X).")


@pytest.mark.parametrize("width", [360, 390])
def test_the_dialog_fits_a_phone_without_sideways_scrolling(open_page, app_server, width):
    page = open_page(viewport={"width": width, "height": 800})
    open_builder(page, app_server.url + "/")
    # The live preview is the embed at its width (360 px), scaled down to fit: the dialog does not scroll.
    widths = page.evaluate(
        "() => { const d = document.getElementById('share'); return [d.scrollWidth, d.clientWidth]; }"
    )
    assert widths[0] <= widths[1], widths
    for name in ("Copy link", "Copy code"):
        box = page.get_by_role("button", name=name).bounding_box()
        assert box is not None and box["x"] + box["width"] <= width, (name, box)
