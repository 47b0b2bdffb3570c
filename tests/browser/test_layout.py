"""Layout and themes: the whole game on one screen, no sideways scroll on a phone, the lab on a phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import (
    PHONE,
    assert_the_board_stayed,
    cell_name,
    read_board,
    stones,
    wait_settled,
    watch_the_board,
)

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
    # Two moves in, so that minimax's run takes a moment: the empty board's 549,946 nodes take
    # longer than the page waits for an answer when every core runs other tests.
    page.goto(app_server.url + "/lab?board=x2/1o1/3")
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
    # The wide table scrolls inside its own box, and a cue above it says so.
    wrap = page.evaluate(
        "() => { const w = document.querySelector('.lab-table-wrap');"
        " return {client: w.clientWidth, scroll: w.scrollWidth, right: w.getBoundingClientRect().right}; }"
    )
    assert wrap["right"] <= 390 and wrap["scroll"] > wrap["client"], wrap
    expect(page.locator("#lab-scroll-cue")).to_be_visible()


def test_the_keyboard_panel_is_hidden_on_a_touch_screen(open_page, app_server):
    phone = open_page(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    phone.goto(app_server.url + "/")
    wait_settled(phone, 0)
    expect(phone.locator(".keys")).to_be_hidden()
    desktop = open_page()
    desktop.goto(app_server.url + "/")
    wait_settled(desktop, 0)
    expect(desktop.locator(".keys")).to_be_visible()


def test_the_15x15_board_on_a_phone_is_centred_with_24_px_cells_and_a_tap_is_confirmed(open_page, app_server):
    page = open_page(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page.goto(app_server.url + "/")
    wait_settled(page, 0)
    page.get_by_label("Board", exact=True).select_option("15x15")
    expect(page.locator("#board button")).to_have_count(225)
    wait_settled(page, 0)
    board = page.locator("#board").bounding_box()
    assert abs(board["x"] + board["width"] / 2 - 195) <= 1, board
    smallest = page.locator("#board button").evaluate_all(
        "(cells) => Math.min(...cells.map((cell) => cell.getBoundingClientRect()).map((box) =>"
        " Math.min(box.width, box.height)))"
    )
    assert smallest >= 24, smallest
    row_numbers = page.locator("#row-labels").bounding_box()
    assert row_numbers["x"] >= 0, row_numbers

    watch_the_board(page)
    status = page.locator("#status")
    requests: list[str] = []
    page.on("request", lambda sent: requests.append(sent.url) if sent.resource_type == "fetch" else None)
    # The first tap marks the cell and names it; nothing is played or sent.
    page.get_by_role("button", name=cell_name(7, 7)).tap()
    expect(status).to_have_text("Tap h8 again to play there, or tap another cell.")
    expect(page.locator("#board .cell.armed")).to_have_count(1)
    # A tap on another cell moves the mark there.
    page.get_by_role("button", name=cell_name(7, 8)).tap()
    expect(status).to_have_text("Tap i8 again to play there, or tap another cell.")
    expect(page.get_by_role("button", name=cell_name(7, 8))).to_have_class(re.compile(r"\barmed\b"))
    assert requests == []
    # The second tap on it plays it: the engine answers, and the board never moved meanwhile.
    page.get_by_role("button", name=cell_name(7, 8)).tap()
    wait_settled(page, 2)
    expect(page.get_by_role("button", name=cell_name(7, 8, "X"))).to_be_visible()
    expect(page.locator("#board .cell.armed")).to_have_count(0)
    expect(status).to_contain_text("Your turn (X).")
    assert_the_board_stayed(page)


def test_a_hint_is_explained_in_view_at_1280x800(open_page, app_server):
    page = open_page(viewport={"width": 1280, "height": 800})
    page.goto(app_server.url + "/")
    wait_settled(page, 0)
    page.get_by_role("button", name=cell_name(1, 1)).click()
    wait_settled(page, 2)
    page.get_by_role("button", name="Hint", exact=True).click()
    summary = page.locator("#hint-summary")
    expect(summary).to_contain_text("With best play")
    expect(summary).to_be_in_viewport(ratio=1)
    # Beside the board, which stays whole on screen too.
    expect(page.locator("#board")).to_be_in_viewport(ratio=1)
    assert page.evaluate("window.scrollY") == 0
