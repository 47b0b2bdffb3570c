"""Layout and themes: the whole game on one screen, no sideways scroll on a phone, the lab on a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import PHONE, read_board, stones, wait_settled

pytestmark = pytest.mark.browser

NO_SIDEWAYS_SCROLL = """() => {
  const root = document.documentElement;
  const board = document.getElementById('board').getBoundingClientRect();
  return {scroll: root.scrollWidth, client: root.clientWidth, left: board.left, right: board.right};
}"""


@pytest.mark.parametrize("preset, cells", [("3x3", 9), ("7x7", 49), ("15x15", 225)])
def test_phone_width_has_no_horizontal_scroll(open_page, app_server, preset, cells):
    page = open_page(viewport=PHONE)
    page.goto(app_server.url + "/")
    wait_settled(page, 0)
    page.get_by_label("Board", exact=True).select_option(preset)
    expect(page.locator("#board button")).to_have_count(cells)
    wait_settled(page, 0)
    box = page.evaluate(NO_SIDEWAYS_SCROLL)
    assert box["scroll"] <= box["client"], box
    assert box["left"] >= 0 and box["right"] <= PHONE["width"], box
    smallest = page.locator("#board button").first.bounding_box()
    assert smallest["width"] >= 14, "cells must stay tappable"


def test_dark_preference_and_embed_theme_override(open_page, app_server):
    background = "() => getComputedStyle(document.body).backgroundColor"
    dark = open_page(color_scheme="dark")
    dark.goto(app_server.url + "/")
    wait_settled(dark, 0)
    light = open_page(color_scheme="light")
    light.goto(app_server.url + "/")
    wait_settled(light, 0)
    assert dark.evaluate(background) != light.evaluate(background)
    # ?theme=light wins over a dark system preference.
    forced = open_page(color_scheme="dark")
    forced.goto(app_server.url + "/embed?size=3x3&k=3&level=perfect&side=x&first=human&theme=light")
    wait_settled(forced, 0)
    assert forced.evaluate(background) == light.evaluate(background)


def test_theme_button_cycles_and_is_remembered(page: Page, app_server):
    page.goto(app_server.url + "/")
    wait_settled(page, 0)
    theme = page.locator("#theme")
    expect(theme).to_have_text("Theme: auto")
    theme.click()
    expect(theme).to_have_text("Theme: light")
    theme.click()
    expect(theme).to_have_text("Theme: dark")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")


# Every element that must be on screen at every moment of a game, and the viewport.
BOXES = """(ids) => ({
  view: {width: window.innerWidth, height: window.innerHeight, scrollY: window.scrollY},
  boxes: Object.fromEntries(ids.map((id) => {
    const el = document.getElementById(id);
    const box = el.getBoundingClientRect();
    return [id, {top: box.top, bottom: box.bottom, left: box.left, right: box.right,
                 shown: !el.hidden && box.height > 0}];
  })),
})"""
ALWAYS = ["turn-strip", "status", "board", "new-game"]


def assert_on_screen(page, ids: list[str], moment: str) -> None:
    """Each element is shown and wholly inside the viewport, with the page not scrolled."""
    found = page.evaluate(BOXES, ids)
    view = found["view"]
    assert view["scrollY"] == 0, (moment, view)
    for name, box in found["boxes"].items():
        assert box["shown"], (moment, name, box)
        inside = (
            box["top"] >= 0
            and box["bottom"] <= view["height"]
            and box["left"] >= 0
            and box["right"] <= view["width"]
        )
        assert inside, (moment, name, box, view)


@pytest.mark.parametrize("width, height", [(1280, 800), (1366, 768), (390, 844)])
def test_the_whole_game_and_its_result_fit_the_screen(open_page, app_server, width, height):
    page = open_page(viewport={"width": width, "height": height})
    page.goto(app_server.url + "/")
    wait_settled(page, 0)
    assert_on_screen(page, ALWAYS, "start")
    # Medium (the default) against the first empty cell each turn: a game that ends, either way.
    while page.locator("#status").get_attribute("data-status") == "in_progress":
        board = read_board(page)
        row, col = next((r, c) for r, line in enumerate(board) for c, ch in enumerate(line) if ch == ".")
        # A click that needed scrolling would show in scrollY below; dispatch it where the cell is.
        page.locator(f'#board button[data-row="{row}"][data-col="{col}"]').dispatch_event("click")
        wait_settled(page, stones(board) + 2)
        assert_on_screen(page, ALWAYS, f"after {stones(board) + 1} stones")
    expect(page.locator("#outcome")).to_be_visible()
    expect(page.locator("#new-game")).to_have_text("Play again")
    assert_on_screen(page, [*ALWAYS, "outcome"], "the end")
    # The result sits by the board: right under it, beside Play again.
    board_box = page.locator("#board").bounding_box()
    outcome_box = page.locator("#outcome").bounding_box()
    again_box = page.locator("#new-game").bounding_box()
    assert 0 <= outcome_box["y"] - (board_box["y"] + board_box["height"]) <= 40, (board_box, outcome_box)
    assert abs(outcome_box["y"] + outcome_box["height"] / 2 - (again_box["y"] + again_box["height"] / 2)) < 4


LAB_WIDTH = """() => ({scroll: document.documentElement.scrollWidth, inner: window.innerWidth})"""


def test_the_lab_fits_a_phone_with_the_position_first(open_page, app_server):
    page = open_page(viewport={"width": 390, "height": 844})
    page.goto(app_server.url + "/lab")
    sizes = page.evaluate(LAB_WIDTH)
    assert sizes["scroll"] <= sizes["inner"], sizes
    position = page.locator("#position").bounding_box()
    results = page.locator("#results").bounding_box()
    run = page.get_by_role("button", name="Run every engine").bounding_box()
    assert position["y"] < results["y"] and run["y"] < results["y"], (position, run, results)
    page.get_by_role("button", name="Run every engine").click()
    expect(page.locator("#lab-status")).to_contain_text("Done", timeout=60_000)
    sizes = page.evaluate(LAB_WIDTH)
    assert sizes["scroll"] <= sizes["inner"], sizes
    # The wide table scrolls inside its own box.
    wrap = page.evaluate(
        "() => { const w = document.querySelector('.lab-table-wrap');"
        " return {client: w.clientWidth, right: w.getBoundingClientRect().right}; }"
    )
    assert wrap["right"] <= 390, wrap


def test_the_keyboard_panel_is_hidden_on_a_touch_screen(open_page, app_server):
    phone = open_page(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    phone.goto(app_server.url + "/")
    wait_settled(phone, 0)
    expect(phone.locator(".keys")).to_be_hidden()
    desktop = open_page()
    desktop.goto(app_server.url + "/")
    wait_settled(desktop, 0)
    expect(desktop.locator(".keys")).to_be_visible()
