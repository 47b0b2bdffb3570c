"""Layout and themes: a 360 px phone scrolls only vertically, even with the 15x15 board."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import PHONE
from tests.browser.helpers import wait_settled

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
    assert 0 <= box["left"] and box["right"] <= PHONE["width"], box
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
