"""Network failures: a clear message and a Retry button that works."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import cell_name, read_board, snapshot, stones, wait_settled

pytestmark = pytest.mark.browser


def test_aborted_move_request_shows_the_message_and_retry_recovers(page: Page, app_server):
    # On 4 x 4: a 3 x 3 move is played in the browser when the server cannot be reached (below).
    page.goto(app_server.url + "/?size=4x4")
    wait_settled(page, 0)
    page.route("**/move", lambda route: route.abort())
    page.get_by_role("button", name=cell_name(1, 1)).click()
    status = page.locator("#status")
    expect(status).to_have_text(
        "Could not reach the server. Without the server, the engine plays 3\u00a0×\u00a03 only."
        " Press Retry to try again."
    )
    expect(status).to_have_class(re.compile(r"\berror\b"))
    retry = page.get_by_role("button", name="Retry", exact=True)
    expect(retry).to_be_visible()
    assert stones(read_board(page)) == 1, "the human's stone stays while the engine's reply is missing"
    snapshot(page, "network-error")
    page.unroute("**/move")
    retry.click()
    wait_settled(page, 2)
    expect(retry).to_be_hidden()
    expect(status).to_contain_text("Your turn (X).")


def test_a_3x3_move_the_server_cannot_be_reached_for_is_played_in_the_browser(page: Page, app_server):
    page.goto(app_server.url + "/")
    wait_settled(page, 0)
    page.route("**/move", lambda route: route.abort())
    page.get_by_role("button", name=cell_name(1, 1)).click()
    wait_settled(page, 2)  # static/js/offline.js answered for the server
    expect(page.locator("#status")).to_contain_text("Your turn (X).")
    expect(page.locator("#engine-info")).to_contain_text("Without the server, it played from its own table")


def test_server_error_is_explained_and_r_retries(page: Page, app_server):
    page.goto(app_server.url + "/")
    wait_settled(page, 0)
    page.route(
        "**/move",
        lambda route: route.fulfill(status=500, content_type="application/json", body='{"error": "boom"}'),
    )
    page.get_by_role("button", name=cell_name(0, 0)).click()
    expect(page.locator("#status")).to_contain_text("The server had a problem (HTTP 500).")
    page.unroute("**/move")
    page.keyboard.press("r")
    wait_settled(page, 2)
    expect(page.get_by_role("button", name="Retry", exact=True)).to_be_hidden()


def test_an_offline_hint_request_goes_again_by_itself_when_the_network_is_back(page: Page, app_server):
    # On 4 x 4: 3 x 3 hints are answered in the browser offline (tests/browser/test_offline.py).
    page.goto(app_server.url + "/?size=4x4")
    wait_settled(page, 0)
    page.context.set_offline(True)
    page.get_by_role("button", name="Hint", exact=True).click()
    # (No worker kept the offline player for this page: tests/browser/test_offline.py has the words it adds.)
    expect(page.locator("#status")).to_have_text("You appear to be offline. Press Retry to try again.")
    expect(page.get_by_role("button", name="Retry", exact=True)).to_be_visible()
    page.context.set_offline(False)
    expect(page.locator('#board button[aria-label*="hint:"]')).to_have_count(16)
    expect(page.get_by_role("button", name="Retry", exact=True)).to_be_hidden()
