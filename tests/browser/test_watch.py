"""Watch mode on the game page (/): engine against engine, paced by the page, moves from POST /move."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import read_board, stones, wait_settled

pytestmark = pytest.mark.browser

NEXT_FRAME = "() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))"


def record_moves(page: Page) -> list[dict]:
    """The JSON bodies of every POST /move the page sends, in order."""
    bodies: list[dict] = []
    page.on(
        "request",
        lambda request: (
            bodies.append(request.post_data_json)
            if request.method == "POST" and request.url.endswith("/move")
            else None
        ),
    )
    return bodies


def choose_watch(page: Page, server, x: str, o: str, speed: str) -> None:
    """Open the page, pick Watch, both engines (once GET /engines filled the menus) and the speed."""
    page.goto(server.url + "/")
    wait_settled(page, 0)
    page.get_by_role("radio", name="Watch", exact=True).check()
    expect(page.locator("#watch-toggle")).to_have_text("Start")
    expect(page.locator("#engine-x option")).to_have_count(7)
    page.locator("#engine-x").select_option(x)
    page.locator("#engine-o").select_option(o)
    page.get_by_role("radio", name=speed.capitalize(), exact=True).check()
    expect(page.locator("#status")).to_have_text(f"X ({x}) against O ({o}). Press Start to watch.")


def expect_engines(bodies: list[dict], x: str, o: str) -> None:
    """Every /move body named the engine of the side to move (X on even plies, O on odd ones)."""
    for body in bodies:
        placed = sum(ch != "." for row in body["board"] for ch in row)
        assert body["engine"] == (x if placed % 2 == 0 else o), body
        assert "level" not in body


def test_perfect_against_perfect_is_a_draw(page: Page, app_server):
    bodies = record_moves(page)
    choose_watch(page, app_server, "perfect", "perfect", "fast")
    page.locator("#watch-toggle").click()
    expect(page.locator("#status")).to_have_attribute("data-status", "draw")
    expect(page.locator("#status")).to_contain_text("It's a draw.")
    expect(page.locator("#status")).to_have_text(re.compile(r" \(perfect\) played [a-c][1-3] — "))
    assert stones(read_board(page)) == 9
    assert len(bodies) == 9
    expect_engines(bodies, "perfect", "perfect")
    expect(page.locator("#watch-toggle")).to_be_disabled()
    # Watched games stay out of the score; the page says so.
    expect(page.locator(".tally-note")).to_be_visible()
    expect(page.locator('#turn-strip [data-score="draw"]')).to_be_hidden()
    # Clicks on the board are ignored in watch mode.
    page.locator("#new-game").click()
    expect(page.locator("#status")).to_have_text("X (perfect) against O (perfect). Press Start to watch.")
    page.locator('#board button[data-row="0"][data-col="0"]').click(force=True)
    page.evaluate(NEXT_FRAME)
    assert stones(read_board(page)) == 0
    assert len(bodies) == 9


def test_alphabeta_against_mcts_pauses_and_finishes(page: Page, app_server):
    bodies = record_moves(page)
    choose_watch(page, app_server, "alphabeta", "mcts", "slow")
    toggle = page.locator("#watch-toggle")
    toggle.click()
    expect(toggle).to_have_text("Pause")
    expect(page.locator("#status")).to_contain_text("X (alphabeta) played ")
    toggle.click()
    expect(toggle).to_have_text("Resume")
    expect(page.locator("#status")).to_contain_text("Paused.")
    sent = len(bodies)
    placed = stones(read_board(page))
    page.evaluate(NEXT_FRAME)
    assert len(bodies) == sent
    assert stones(read_board(page)) == placed
    # Resume at the fastest speed and let the engines finish (any result).
    page.get_by_role("radio", name="Fast", exact=True).check()
    toggle.click()
    expect(page.locator("#status")).not_to_have_attribute("data-status", "in_progress")
    expect(toggle).to_have_text("Start")
    expect(toggle).to_be_disabled()
    assert len(bodies) > sent
    expect_engines(bodies, "alphabeta", "mcts")
    assert stones(read_board(page)) >= 5
