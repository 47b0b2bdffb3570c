"""Links to games and positions (issue 12): the address bar carries the game; bad links fail gently."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import (
    cell,
    cell_name,
    console_errors,
    expect_board,
    read_board,
    stones,
    wait_settled,
)

pytestmark = pytest.mark.browser


def test_a_shared_link_reopened_in_a_fresh_page_shows_the_same_game(open_page, app_server):
    page = open_page()
    errors = console_errors(page)
    page.goto(app_server.url + "/")
    wait_settled(page, 0)
    page.get_by_label("Perfect", exact=True).check()
    wait_settled(page, 0)
    page.get_by_role("button", name=cell_name(0, 0)).click()
    wait_settled(page, 2)
    board = read_board(page)
    query = parse_qs(urlsplit(page.url).query)
    reply = next(cell(r, c) for r, text in enumerate(board) for c, ch in enumerate(text) if ch == "o")
    # Readable: the board's own cell names, in order.
    assert query == {
        "size": ["3x3"],
        "k": ["3"],
        "level": ["perfect"],
        "side": ["x"],
        "moves": [f"a1,{reply}"],
    }, page.url
    assert f"moves=a1,{reply}" in page.url

    fresh = open_page()  # a new context: no saved game
    fresh_errors = console_errors(fresh)
    fresh.goto(page.url)
    wait_settled(fresh, 2)
    expect_board(fresh, board)
    expect(fresh.locator("#strip-caption")).to_have_text("3 × 3 · Perfect")
    expect(fresh.locator("#status")).to_contain_text("Your turn (X).")
    expect(fresh.get_by_label("Perfect", exact=True)).to_be_checked()
    # Ready to continue: the next move gets the engine's reply, and the link follows.
    empty = next((r, c) for r, text in enumerate(board) for c, ch in enumerate(text) if ch == ".")
    fresh.get_by_role("button", name=cell_name(*empty)).click()
    wait_settled(fresh, 4)
    assert parse_qs(urlsplit(fresh.url).query)["moves"][0].count(",") == 3
    # A reload keeps the game.
    kept = read_board(fresh)
    fresh.reload()
    wait_settled(fresh, stones(kept))
    assert read_board(fresh) == kept
    assert errors == [] and fresh_errors == []


def test_a_finished_two_player_game_reopens_finished_with_its_line(open_page, app_server):
    page = open_page()
    errors = console_errors(page)
    # X: a1 a2 a3 (column a), O: b1 b2.
    page.goto(app_server.url + "/?size=3x3&k=3&mode=two&moves=a1,b1,a2,b2,a3")
    expect(page.locator("#status")).to_have_attribute("data-status", "x_won")
    expect_board(page, ["xo.", "xo.", "x.."])
    expect(page.locator("#board .cell.win")).to_have_count(3)
    expect(page.locator("#strip-caption")).to_have_text("3 × 3 · 2 players")
    # A game played elsewhere is not scored here, and undoing it takes nothing off the score.
    expect(page.locator('#turn-strip [data-score="x"]')).to_have_text("0")
    # A finished game opens its review.
    expect(page.locator("#review")).to_be_visible()
    expect(page.get_by_role("button", name="Review")).to_have_attribute("aria-expanded", "true")
    expect(page.locator("#review-moves button")).to_have_count(5)
    page.get_by_role("button", name="Undo").click()
    expect(page.locator("#status")).to_have_text("O played b2. X to move.")
    expect(page.locator('#turn-strip [data-score="x"]')).to_have_text("0")
    assert errors == []


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("?size=3x3&k=3&moves=b2,d4", "Move 2 of the link, “d4”, is not a cell of a 3×3 board."),
        ("?size=3x3&k=3&moves=b2,b2", "The link plays b2 twice (move 2)."),
        (
            "?size=3x3&k=3&mode=two&moves=a1,b1,a2,b2,a3,c3",
            "The link plays on after the game ended at move 5 (X a3).",
        ),
        ("?size=banana", "The link's size must look like 3x3"),
        ("?size=3x3&k=3&level=godlike", "The link's level “godlike” is not easy, medium or perfect."),
    ],
)
def test_a_bad_link_gets_a_message_and_an_empty_board(open_page, app_server, query, message):
    page = open_page()
    errors = console_errors(page)
    page.goto(app_server.url + "/" + query)
    expect(page.locator("#link-message")).to_contain_text(message)
    expect(page.locator("#link-message")).to_contain_text("Here is an empty board instead.")
    wait_settled(page, 0)
    assert stones(read_board(page)) == 0
    expect(page.locator("#status")).to_contain_text(re.compile(r"Your turn|X to move"))
    # The message takes its room from the board: New game stays on screen.
    expect(page.get_by_role("button", name="New game")).to_be_in_viewport(ratio=1)
    # New game puts the message away.
    page.get_by_role("button", name="New game").click()
    expect(page.locator("#link-message")).to_be_hidden()
    assert errors == []


def test_the_lab_takes_a_position_from_its_link_and_writes_its_own(open_page, app_server):
    page = open_page()
    errors = console_errors(page)
    page.goto(app_server.url + "/lab?board=x2/1o1/3&k=3")
    expect(page.locator("#lab-text")).to_have_value("x../.o./...")
    expect(page.locator("#lab-status")).to_contain_text("Position taken from the link.")
    # Editing the position rewrites the link, in the same position text.
    page.locator("#editor button").nth(8).click()
    page.wait_for_function("() => location.search === '?board=x2/1o1/2x&k=3'")
    bad = open_page()
    bad_errors = console_errors(bad)
    bad.goto(app_server.url + "/lab?board=xx/o")
    expect(bad.locator("#lab-status")).to_contain_text("The link's board “xx/o” is not a position")
    expect(bad.locator("#lab-text")).to_have_value(".../.../...")
    assert errors == [] and bad_errors == []


def test_a_link_to_a_board_the_server_refuses_falls_back_to_the_usual_board(open_page, app_server):
    page = open_page()
    errors = console_errors(page)
    page.goto(app_server.url + "/?size=20x20&k=5&moves=a1")
    expect(page.locator("#link-message")).to_contain_text("The server refused the link's game: ")
    wait_settled(page, 0)
    assert read_board(page) == ["...", "...", "..."]
    # The only console line is the browser's own log of the refused request (HTTP 400).
    assert all("status of 400" in error for error in errors), errors
