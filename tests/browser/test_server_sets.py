"""The page's closed sets come from the server's JSON block: level words, presets, the default k.

Every page opened here also fails its test on a CSP violation (conftest.py): the
block is data (``type="application/json"``), which ``script-src 'self'`` lets be.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import console_errors, post_json, read_board, wait_settled
from tictactoe import LEVELS
from tictactoe.algorithms.registry import describe_levels
from web.pages.closed_sets import server_sets

pytestmark = pytest.mark.browser


def test_the_level_choices_and_their_help_are_the_registrys(open_page, app_server):
    page = open_page()
    errors = console_errors(page)
    page.goto(app_server.url + "/")
    wait_settled(page, 0)
    radios = page.locator('#settings input[name="level"]')
    assert radios.evaluate_all("inputs => inputs.map((input) => input.value)") == list(LEVELS)
    labels = page.locator('#settings fieldset[data-field="level"] label')
    assert [text.lower() for text in labels.all_inner_texts()] == list(LEVELS)
    # The help line is written only by the page's JavaScript, from the block: each level's own words.
    help_line = page.locator("#level-help")
    described = {entry["name"]: entry["description"] for entry in describe_levels()}
    checked = radios.evaluate_all("inputs => inputs.find((input) => input.checked).value")
    assert checked == server_sets()["gamePageLevel"]
    expect(help_line).to_have_text(f"{checked.capitalize()}: {described[checked]}.")
    for level in LEVELS:
        page.get_by_label(level.capitalize(), exact=True).check()
        expect(help_line).to_have_text(f"{level.capitalize()}: {described[level]}.")
        expect(page.locator("#strip-caption")).to_have_text(f"3 × 3 · {level.capitalize()}")
    # The Share / embed dialog's level menu too, with the API's default chosen.
    share_levels = page.locator("#share-level option")
    assert share_levels.evaluate_all("options => options.map((option) => option.value)") == list(LEVELS)
    assert page.locator("#share-level").input_value() == server_sets()["defaultLevel"]
    assert errors == []


def test_a_link_with_only_a_size_plays_the_apis_default_k(open_page, app_server):
    empty = ["....."] * 5
    api_k = post_json(app_server, "/state", {"board": empty})["k"]
    preset_k = next(preset["k"] for preset in server_sets()["presets"] if preset["id"] == "5x5")
    assert api_k != preset_k, "the case shows nothing unless the 5x5 preset's k differs from the API's"
    page = open_page()
    errors = console_errors(page)
    with page.expect_request(lambda request: request.url.endswith("/state")) as sent:
        page.goto(app_server.url + "/?size=5x5&moves=c3")
    assert sent.value.post_data_json["k"] == api_k
    wait_settled(page, 2)
    assert len(read_board(page)) == 5
    page.wait_for_function("() => new URLSearchParams(location.search).has('moves')")
    assert parse_qs(urlsplit(page.url).query)["k"] == [str(api_k)]
    # The embed of the same size without k says the same k, and the Share dialog offers it as "default".
    page.get_by_role("button", name="Share / embed").click()
    page.locator("#share-size").select_option("5x5")
    expect(page.locator('#share-k option[value=""]')).to_have_text(f"default ({api_k})")
    assert errors == []


def test_the_labs_boards_are_the_servers(open_page, app_server):
    page = open_page()
    errors = console_errors(page)
    page.goto(app_server.url + "/lab")
    values = page.locator("#lab-size option").evaluate_all("options => options.map((option) => option.value)")
    assert values == [preset["id"] for preset in server_sets()["labPresets"]]
    assert errors == []
