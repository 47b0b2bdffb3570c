"""The game review (issue 12): every move with the server's values and a verdict in words."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import (
    LIST_BOX,
    READ_BOARD,
    analysis,
    assert_list_in_view,
    cell,
    cell_name,
    console_errors,
    expect_board,
    read_board,
    stones,
    wait_settled,
)

pytestmark = pytest.mark.browser

NAMED = 3  # the review names at most three moves that would have held


def play(page: Page, row: int, col: int) -> None:
    """Play a cell in a two-player game and wait for the server's check."""
    count = stones(read_board(page))
    page.get_by_role("button", name=cell_name(row, col)).click()
    page.wait_for_function(
        "(n) => document.querySelectorAll('#board .cell.x, #board .cell.o').length === n"
        " && document.getElementById('board').getAttribute('aria-busy') === 'false'",
        arg=count + 1,
    )


def test_review_names_the_losing_move_and_the_moves_that_would_have_held(open_page, app_server):
    page = open_page()
    errors = console_errors(page)
    page.goto(app_server.url + "/")
    wait_settled(page, 0)
    page.get_by_label("Two players").check()
    wait_settled(page, 0)
    # X takes the centre; O answers on an edge, which throws the draw away:
    #   . . .      . . .
    #   . X .  ->  O X .
    #   . . .      . . .
    play(page, 1, 1)
    before_mistake = read_board(page)
    play(page, 1, 0)
    answer = analysis(app_server, before_mistake, 3)
    assert answer["value"] == "draw"
    held = sorted((m["row"], m["col"]) for m in answer["moves"] if m["value"] == "draw")
    # Then X plays the server's best move each turn and O the first empty cell, until X wins.
    while page.locator("#status").get_attribute("data-status") == "in_progress":
        board = read_board(page)
        if board and stones(board) % 2 == 0:
            best = analysis(app_server, board, 3)["best"][0]
            play(page, best["row"], best["col"])
        else:
            row, col = next((r, c) for r, text in enumerate(board) for c, ch in enumerate(text) if ch == ".")
            play(page, row, col)
    expect(page.locator("#status")).to_have_attribute("data-status", "x_won")
    # The finished game opens its review; the mistake is named with the moves that would have held.
    review = page.locator("#review")
    expect(review).to_be_visible()
    expect(page.locator("#review-status")).to_contain_text("one mistake (O a2)")
    second = page.locator("#review-moves button").nth(1)
    names = [cell(r, c) for r, c in held[:NAMED]]
    expect(second).to_contain_text("2. O a2 — draw → loss in")
    expect(second).to_contain_text(
        f"The mistake: turned a draw into a loss — {', '.join(names[:-1])} or {names[-1]}"
    )
    expect(second).to_contain_text("would have held.")
    expect(page.locator("#review-moves button").first).to_contain_text("1. X b2 — draw → draw. Best.")
    final = read_board(page)

    # Clicking a move shows its position; the arrows step; Escape returns to the game.
    second.click()
    expect_board(page, ["...", "ox.", "..."])
    expect(page.locator("#status")).to_contain_text("Reviewing 2. O a2")
    page.keyboard.press("ArrowLeft")
    expect_board(page, ["...", ".x.", "..."])
    expect(page.locator("#review-moves button").first).to_be_focused()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    third = page.locator("#review-moves button").nth(2)
    expect(third).to_have_attribute("aria-current", "step")
    # A redraw waits for the next animation frame: wait for the third stone, then read.
    page.wait_for_function(f"() => ({READ_BOARD})().join('').replace(/[.]/g, '').length === 3")
    shown = read_board(page)
    assert stones(shown) == 3
    # The board takes no moves while it shows the past.
    page.locator("#board button.cell:not(.x):not(.o)").first.click(force=True)
    assert read_board(page) == shown
    third.focus()
    page.keyboard.press("Escape")
    expect_board(page, final)
    expect(page.locator("#status")).to_contain_text("X wins!")
    expect(page.get_by_role("button", name="Next ▶")).to_be_disabled()
    assert errors == []


def test_review_on_demand_follows_the_game_and_closes(open_page, app_server):
    page = open_page()
    errors = console_errors(page)
    page.goto(app_server.url + "/")
    wait_settled(page, 0)
    page.get_by_label("Perfect", exact=True).check()
    wait_settled(page, 0)
    page.get_by_role("button", name="Review").click()
    expect(page.locator("#review-status")).to_have_text("No move has been played yet.")
    page.get_by_role("button", name=cell_name(0, 0)).click()
    wait_settled(page, 2)
    # The open review follows the game: the human's move and the engine's reply.
    expect(page.locator("#review-moves button")).to_have_count(2)
    expect(page.locator("#review-status")).to_contain_text("2 moves:")
    expect(page.locator("#review-moves button").first).to_contain_text("1. X a1 — draw → draw. Best.")
    page.get_by_role("button", name="Review").click()
    expect(page.locator("#review")).to_be_hidden()
    assert errors == []


def test_review_says_not_proven_instead_of_guessing(open_page, app_server):
    page = open_page()
    errors = console_errors(page)
    # Two moves on 15x15 (five in a row): positions the server cannot prove within its budget.
    page.goto(app_server.url + "/?size=15x15&k=5&mode=two&moves=h8,h9")
    wait_settled(page, 2)
    page.get_by_role("button", name="Review").click()
    expect(page.locator("#review-moves button")).to_have_count(2)
    first = page.locator("#review-moves button").first
    expect(first).to_have_text(
        "1. X h8 — not proven → not proven. Not proven on this board: no verdict.", timeout=60_000
    )
    expect(page.locator("#review-status")).to_contain_text(
        "Some values on this board are not proven", timeout=60_000
    )
    assert errors == []


def test_review_works_in_the_embed(open_page, app_server):
    page = open_page(viewport={"width": 360, "height": 420})
    errors = console_errors(page)
    page.goto(app_server.url + "/embed?size=3x3&level=perfect&side=x")
    wait_settled(page, 0)
    page.get_by_role("button", name=cell_name(0, 1)).click()  # b1: an edge, which still holds the draw
    wait_settled(page, 2)
    page.get_by_role("button", name="Review").click()
    moves = page.locator("#review-moves button")
    expect(moves).to_have_count(2)
    expect(moves.first).to_contain_text("1. X b1 — draw → draw. Best.")
    expect(moves.nth(1)).to_contain_text("2. O ")
    moves.first.click()
    expect_board(page, [".x.", "...", "..."])
    page.keyboard.press("Escape")
    expect(page.locator("#status")).to_contain_text("Your turn (X).")
    assert errors == []


def test_a_second_review_of_the_same_game_is_answered_by_the_browser_cache(open_page, app_server):
    page = open_page()
    errors = console_errors(page)
    # A finished game from its link: X wins on the diagonal c1-b2-a3.
    page.goto(app_server.url + "/?size=3x3&k=3&mode=two&moves=b2,a2,a1,c3,c1,b1,a3")
    expect(page.locator("#review-status")).to_contain_text("7 moves: one mistake (O a2).")
    # The game again in the same browser: the review's seven GET /position come from its cache.
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    asked: list[str] = []
    from_cache: set[str] = set()
    cdp.on(
        "Network.requestWillBeSent",
        lambda event: asked.append(event["requestId"]) if "/position?" in event["request"]["url"] else None,
    )
    cdp.on("Network.requestServedFromCache", lambda event: from_cache.add(event["requestId"]))
    cdp.on(
        "Network.responseReceived",
        lambda event: from_cache.add(event["requestId"]) if event["response"].get("fromDiskCache") else None,
    )
    page.goto(app_server.url + "/")  # the saved game
    wait_settled(page, 7)
    page.get_by_role("button", name="Review").click()
    expect(page.locator("#review-status")).to_contain_text("7 moves: one mistake (O a2).")
    assert len(asked) == 7
    assert set(asked) <= from_cache, (asked, from_cache)
    assert errors == []


def test_a_review_the_server_cannot_answer_says_so_and_retries_on_reopening(open_page, app_server):
    page = open_page()
    at_position = re.compile(r"/position\?")
    # A server that fails (a 3 x 3 review the server cannot be reached for is made in the browser:
    # tests/browser/test_offline.py).
    page.route(
        at_position,
        lambda route: route.fulfill(status=500, content_type="application/json", body='{"error": "boom"}'),
    )
    page.goto(app_server.url + "/?size=3x3&k=3&mode=two&moves=b2,a1")
    wait_settled(page, 2)
    page.get_by_role("button", name="Review").click()
    expect(page.locator("#review-status")).to_have_text(
        "2 of 2 moves could not be checked; close and reopen the review to try again.", timeout=30_000
    )
    first = page.locator("#review-moves button").first
    expect(first).to_contain_text("1. X b2 — The server had a problem (HTTP 500).")
    page.unroute(at_position)
    page.get_by_role("button", name="Review").click()
    page.get_by_role("button", name="Review").click()
    expect(page.locator("#review-status")).to_have_text("2 moves: no mistake.")


@pytest.mark.parametrize("width, height", [(1280, 800), (1366, 768)])
def test_the_review_a_game_ends_with_is_in_view(open_page, app_server, width, height):
    page = open_page(viewport={"width": width, "height": height})
    errors = console_errors(page)
    page.goto(app_server.url + "/?size=3x3&k=3&mode=two&moves=b2,a2,a1,c3,c1,b1")
    wait_settled(page, 6)
    expect(page.locator("#review")).to_be_hidden()
    page.get_by_role("button", name=cell_name(2, 0)).click()  # a3: X wins on c1, b2, a3
    expect(page.locator("#status")).to_contain_text("X wins!")
    expect(page.locator("#review-status")).to_have_text("7 moves: one mistake (O a2).")
    assert_list_in_view(page)
    # The review stands in the settings' place: its last button closes it, and the board's choice
    # is there for the next game, in one click.
    page.locator("#review").get_by_role("button", name="Done").click()
    expect(page.locator("#review")).to_be_hidden()
    expect(page.get_by_label("Board", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Review", exact=True)).to_be_focused()
    assert errors == []


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_the_review_opened_below_the_board_scrolls_into_view_smoothly_unless_motion_is_reduced(
    open_page, app_server, motion
):
    # A short phone: the review opens under the game, out of sight.  (In a 360x420 embed it stands
    # beside the board instead: test_embed.py.)
    page = open_page(viewport={"width": 390, "height": 700}, reduced_motion=motion)
    page.goto(app_server.url + "/?size=3x3&k=3&level=perfect&side=x")
    wait_settled(page, 0)
    page.get_by_role("button", name=cell_name(0, 1)).click()
    wait_settled(page, 2)
    # Read the scroll in the same task as the click: an instant scroll has happened, a smooth one not yet.
    scrolled = page.evaluate(
        "() => { document.getElementById('review-toggle').click(); return window.scrollY; }"
    )
    if motion == "reduce":
        assert scrolled > 0
    else:
        assert scrolled == 0
    expect(page.locator("#review-status")).to_have_text("2 moves: no mistake.")
    page.wait_for_function(
        f"() => {{ const box = ({LIST_BOX})(); return box.top >= 0 && box.bottom <= box.viewport; }}"
    )
    assert_list_in_view(page)


def test_review_gives_each_move_s_reason_and_the_rule_where_it_is_wrong(open_page, app_server):
    # Two players: X a1, O b2, X c3, then O takes the corner c1 (blocking a fork cell), which loses:
    #   x . o      the edges b1, a2, c2 and b3 keep the draw (two in a row, whose answer makes no fork)
    #   . o .
    #   . . x
    page = open_page()
    page.goto(app_server.url + "/?size=3x3&k=3&mode=two&moves=a1,b2,c3,c1")
    expect(page.locator("#board .cell.o")).to_have_count(2)
    page.get_by_role("button", name="Review").click()
    moves = page.locator("#review-moves button")
    expect(moves).to_have_count(4)
    expect(moves.nth(0)).to_have_text("1. X a1 — draw → draw. Best. It takes an empty corner.")
    expect(moves.nth(1)).to_have_text("2. O b2 — draw → draw. Best. It takes the centre.")
    expect(moves.nth(3)).to_have_text(
        "4. O c1 — draw → loss in 4. The mistake: turned a draw into a loss — b1, a2 or c2 (or 1 other)"
        " would have held. It blocks the fork at c1; b1 makes two in a row."
    )
    # Where the rule ladder is wrong the review says so: X c1, O a1, then X takes the centre as the
    # rule says, and only c2, a3 or c3 would have kept the win.
    page.goto(app_server.url + "/?size=3x3&k=3&mode=two&moves=c1,a1,b2")
    expect(page.locator("#board .cell.x")).to_have_count(2)
    page.get_by_role("button", name="Review").click()
    expect(moves).to_have_count(3)
    expect(moves.nth(2)).to_contain_text(
        "The mistake: turned a win into a draw — c2, a3 or c3 would have won. It makes two in a row;"
        " c2 makes two in a row. The rule says take the centre; here only c2, a3 or c3 keeps the win."
    )
