"""Network failures: a clear message and a Retry button that works."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import cell_name, read_board, snapshot, stones, wait_settled

pytestmark = pytest.mark.browser


def test_aborted_move_request_shows_the_message_and_retry_recovers(page: Page, app_server):
    page.goto(app_server.url + "/")
    wait_settled(page, 0)
    page.route("**/move", lambda route: route.abort())
    page.get_by_role("button", name=cell_name(1, 1)).click()
    status = page.locator("#status")
    expect(status).to_have_text(re.compile(r"Could not reach the server\. Press Retry to try again\."))
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


def test_offline_hint_request_can_be_retried(page: Page, app_server):
    page.goto(app_server.url + "/")
    wait_settled(page, 0)
    page.context.set_offline(True)
    page.get_by_role("button", name="Hint", exact=True).click()
    expect(page.locator("#status")).to_contain_text("offline")
    page.context.set_offline(False)
    page.get_by_role("button", name="Retry", exact=True).click()
    expect(page.locator('#board button[aria-label*="hint:"]')).to_have_count(9)
