"""Refusals in words (issue 22): a real 429 said, counted down and waited out; a 503 said busy.

The page's time is Playwright's clock: installed before the page loads (it then flows as usual),
paused before the refused request, and moved on by the test, so that every second shown is exact.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, Request, Route, expect

from tests.browser.helpers import (
    LAPTOP_AND_PHONE,
    assert_the_board_stayed,
    cell_name,
    post_json,
    read_board,
    wait_settled,
    watch_the_board,
)
from tests.servers import Gunicorn

pytestmark = pytest.mark.browser

# The limited server: a quarter second of search a minute, searches of half a second: the test spends the
# allowance with one search that runs its whole budget (SPENDER), so that the page's
# next search is refused with a Retry-After of about a minute.
LIMITED_ENV = {"SEARCH_SECONDS_PER_MINUTE": "0.25", "SEARCH_BUDGET": "0.5"}
# A 15x15 position no search proves within the budget:
#
#   row 7:  . . . . . . . x o . . . . . .   (the rest empty)
SPENDER = {"board": ["." * 15] * 7 + ["." * 7 + "xo" + "." * 6] + ["." * 15] * 7, "k": 5}
LIMITED = "Too many searches from this network."
# The game's words while a refused move waits (4x4 and 7x7: the server's free size, 3x3, plays on).
WAITING = f"{LIMITED} 3\u00a0×\u00a03 games still play."
FRAME_MS = 16  # the fake clock's step while the page draws: one animation frame


@pytest.fixture
def limited_server(tmp_path):
    """The real app with a limit that refuses the second search; one worker, so one count."""
    with Gunicorn(workers=1, env={"CACHE_DIR": str(tmp_path), **LIMITED_ENV}) as server:
        yield server


def run_until(page: Page, condition: str, limit_ms: int = 5_000) -> None:
    """Move the paused clock on a frame at a time until ``condition`` (JS) holds in the page.

    For what the page does without the server (an answer already in): the page only draws on an
    animation frame, which a paused clock fires only when moved; the fake time this takes stays
    under one frame after the page had what it waits for.
    """
    for _ in range(limit_ms // FRAME_MS):
        page.clock.run_for(FRAME_MS)
        if page.evaluate(condition):
            return
    raise AssertionError(f"{condition} still false after {limit_ms} ms of page time")


def pause(page: Page) -> None:
    """Stop the page's clock where it is: from now on only the test moves it."""
    page.clock.pause_at(page.evaluate("Date.now()") + 1)


def requests_of(page: Page) -> list[str]:
    """A list that collects the URL of every request the page's scripts send from now on.

    Only fetches: Chromium asks for the favicon again when the address bar changes (the game page
    writes the game into it), which is the browser's doing, not the page's.
    """
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.url) if request.resource_type == "fetch" else None)
    return sent


def count_status_changes(page: Page) -> None:
    """From now on ``window.statusChanges`` counts the changes of the live status line's text."""
    page.evaluate(
        """() => {
          window.statusChanges = 0;
          new MutationObserver((records) => { window.statusChanges += records.length; })
            .observe(document.getElementById('status'),
                     {childList: true, characterData: true, subtree: true});
        }"""
    )


def test_a_real_429_is_said_counted_down_and_waited_out_without_a_request(open_page, limited_server):
    page = open_page(own_context=True)  # the clock is the context's
    page.clock.install()
    sent = requests_of(page)
    page.goto(limited_server.url + "/")
    wait_settled(page, 0)
    page.get_by_label("Board", exact=True).select_option("4x4")
    page.get_by_label("Perfect", exact=True).check()
    expect(page.locator("#board button")).to_have_count(16)
    wait_settled(page, 0)
    # The first search is allowed: a1, and the engine's reply.
    page.get_by_role("button", name=cell_name(0, 0)).click()
    wait_settled(page, 2)
    # Another search from the same address spends what is left of the allowance.
    assert post_json(limited_server, "/move", SPENDER)["proven"] is False
    # X's second move: a cell the engine's reply (drawn among its best moves) left empty.
    board = read_board(page)
    second = next(cell_name(r, c) for r in (3, 2, 1, 0) for c in (3, 2, 1, 0) if board[r][c] == ".")

    # The second is refused by the server itself.
    pause(page)
    with page.expect_response(lambda response: response.url.endswith("/move")) as answered:
        page.get_by_role("button", name=second).dispatch_event("click")
    refusal = answered.value
    assert refusal.status == 429
    retry_after = int(refusal.headers["retry-after"])
    assert retry_after > 3, retry_after
    run_until(page, "() => !document.getElementById('wait').hidden")
    status, wait, retry = page.locator("#status"), page.locator("#wait"), page.locator("#retry")
    expect(status).to_have_text(WAITING)
    expect(status).to_have_class(re.compile(r"\berror\b"))
    expect(wait).to_have_text(f"Your move goes in {retry_after} s.")
    expect(wait).to_have_attribute("role", "timer")  # a timer is not announced each second
    expect(retry).to_be_hidden()
    sent_at_refusal = len(sent)

    # Each second counts down outside the live status line.
    page.clock.run_for(1_000)
    expect(wait).to_have_text(f"Your move goes in {retry_after - 1} s.")
    expect(status).to_have_text(WAITING)
    # While the wait runs nothing reaches the server: not the review, not a move played after Undo.
    page.get_by_role("button", name="Review").dispatch_event("click")
    expect(page.locator("#review-status")).to_have_text(f"{LIMITED} 0 of 3 moves checked.")
    expect(page.locator("#review-wait")).to_have_text(
        f"You can check the other moves in {retry_after - 1} s."
    )
    first_move = page.locator("#review-moves button").first
    expect(first_move).to_have_text("1. X a1 — not checked yet.")
    first_move.focus()
    page.clock.run_for(
        1_000
    )  # a second passes in the review's words, not in its list (which keeps the focus)
    expect(page.locator("#review-wait")).to_have_text(
        f"You can check the other moves in {retry_after - 2} s."
    )
    expect(first_move).to_be_focused()
    page.get_by_role("button", name="Undo").dispatch_event("click")
    run_until(page, "() => document.getElementById('board').dataset.turn === 'x'")
    page.get_by_role("button", name=second).dispatch_event("click")
    run_until(page, "() => !document.getElementById('wait').hidden")
    expect(status).to_have_text(WAITING)
    expect(wait).to_have_text(f"Your move goes in {retry_after - 2} s.")
    expect(retry).to_be_hidden()
    count_status_changes(page)
    page.clock.run_for((retry_after - 3) * 1_000)
    expect(wait).to_have_text("Your move goes in 1 s.")
    assert page.evaluate("window.statusChanges") == 0  # the live status line is not rewritten each second
    assert sent[sent_at_refusal:] == []

    # When the time is up the move goes again by itself, once: the player pressed nothing wrong.  The
    # server's own minute has not passed, so it is refused again; this time the player decides.
    with page.expect_response(lambda response: response.url.endswith("/move")) as answered:
        page.clock.run_for(1_000)
    assert answered.value.status == 429
    again = int(answered.value.headers["retry-after"])
    assert [url.rsplit("/", 1)[1] for url in sent[sent_at_refusal:]] == ["state", "move"]
    run_until(page, "() => !document.getElementById('wait').hidden")
    expect(status).to_have_text(WAITING)
    expect(wait).to_have_text(f"You can play again in {again} s.")
    page.clock.run_for(again * 1_000)
    expect(status).to_have_text("You can play again now. Press Retry.")
    expect(wait).to_be_hidden()
    expect(retry).to_be_visible()
    expect(page.locator("#review-status")).to_have_text(
        f"{LIMITED} 0 of 3 moves checked. You can check the other moves now."
    )
    expect(page.get_by_role("button", name="Check the other moves")).to_be_visible()
    assert len(sent) == sent_at_refusal + 2  # nothing more by itself

    # Retry sends the move again; the server decides (still refused).  Meanwhile a 3x3 game plays, as
    # the page said: the server searches 3x3 boards for free, and the page asks it.
    with page.expect_response(lambda response: response.url.endswith("/move")) as answered:
        retry.dispatch_event("click")
    assert answered.value.status == 429
    run_until(page, "() => !document.getElementById('wait').hidden")
    # The review stands in the settings' place: closing it brings the board's choice back.
    page.get_by_role("button", name="Review").dispatch_event("click")
    page.get_by_label("Board", exact=True).select_option("3x3")
    with page.expect_response(lambda response: response.url.endswith("/move")) as answered:
        page.get_by_role("button", name="next game").dispatch_event("click")
        run_until(page, "() => document.getElementById('board').dataset.size === '3x3'")
        page.get_by_role("button", name=cell_name(1, 1)).dispatch_event("click")
    assert answered.value.status == 200
    run_until(page, "() => document.querySelectorAll('#board .cell.o').length === 1")
    expect(status).to_contain_text("Your turn (X).")


def refuse(calls: list[Request], status: int, seconds: int):
    """A route handler that refuses as the server does (429 or 503, Retry-After: ``seconds``, its JSON)."""

    def handle(route: Route) -> None:
        calls.append(route.request)
        route.fulfill(
            status=status,
            headers={"Retry-After": str(seconds)},
            content_type="application/json",
            body=json.dumps({"error": f"refused with HTTP {status}", "retry_after": seconds}),
        )

    return handle


def test_a_503_says_busy_and_is_sent_once_more_after_its_retry_after(open_page, app_server):
    page = open_page(own_context=True)  # the clock is the context's
    page.clock.install()
    page.goto(app_server.url + "/")
    wait_settled(page, 0)
    calls: list[Request] = []
    page.route("**/move", refuse(calls, 503, 2))
    pause(page)
    with page.expect_response(lambda response: response.url.endswith("/move")):
        page.get_by_role("button", name=cell_name(1, 1)).dispatch_event("click")
    assert len(calls) == 1
    # The page waits out the 503's Retry-After (2 s) before its one automatic retry.
    page.clock.run_for(1_900)
    assert len(calls) == 1
    page.clock.run_for(200)
    run_until(page, "() => document.getElementById('status').classList.contains('error')")
    assert len(calls) == 2
    expect(page.locator("#status")).to_have_text("The server is busy right now. Press Retry to try again.")
    expect(page.locator("#wait")).to_be_hidden()
    retry = page.get_by_role("button", name="Retry", exact=True)
    expect(retry).to_be_visible()
    # No further request by itself; Retry sends it, and the server's answer plays.
    page.clock.run_for(10_000)
    assert len(calls) == 2
    page.unroute("**/move")
    page.clock.resume()
    retry.click()
    wait_settled(page, 2)
    expect(page.locator("#status")).to_contain_text("Your turn (X).")


def test_the_embed_says_a_429_waits_it_out_and_sends_the_move_again_once(open_page, app_server):
    page = open_page(viewport={"width": 360, "height": 420}, own_context=True)
    page.clock.install()
    page.goto(app_server.url + "/embed?size=4x4&level=perfect&side=x")
    wait_settled(page, 0)
    calls: list[Request] = []
    page.route(re.compile(r"/(move|state|analyze)$"), refuse(calls, 429, 5))
    pause(page)
    with page.expect_response(lambda response: response.status == 429):
        page.get_by_role("button", name=cell_name(1, 1)).dispatch_event("click")
    run_until(page, "() => !document.getElementById('wait').hidden")
    expect(page.locator("#status")).to_have_text(WAITING)
    expect(page.locator("#wait")).to_have_text("Your move goes in 5 s.")
    assert len(calls) == 1
    # Sent again by itself when the wait is over; refused again, it waits for the player.
    with page.expect_response(lambda response: response.status == 429):
        page.clock.run_for(5_000)
    assert len(calls) == 2
    run_until(page, "() => !document.getElementById('wait').hidden")
    expect(page.locator("#wait")).to_have_text("You can play again in 5 s.")
    page.clock.run_for(5_000)
    expect(page.locator("#status")).to_have_text("You can play again now. Press Retry.")
    expect(page.get_by_role("button", name="Retry", exact=True)).to_be_visible()
    assert len(calls) == 2


@pytest.mark.parametrize("size", list(LAPTOP_AND_PHONE))
def test_a_refused_7x7_move_goes_again_by_itself_in_a_line_that_keeps_the_board_still(
    open_page, app_server, size
):
    page = open_page(**LAPTOP_AND_PHONE[size], own_context=True)  # the clock is the context's
    page.clock.install()
    page.goto(app_server.url + "/")
    wait_settled(page, 0)
    page.get_by_label("Board", exact=True).select_option("7x7")
    expect(page.locator("#board button")).to_have_count(49)
    wait_settled(page, 0)
    calls: list[Request] = []
    refused = refuse(calls, 429, 5)

    def refuse_once(route: Route) -> None:
        if calls:
            calls.append(route.request)
            route.continue_()
        else:
            refused(route)

    page.route("**/move", refuse_once)
    watch_the_board(page)
    pause(page)
    centre = page.get_by_role("button", name=cell_name(3, 3))
    with page.expect_response(lambda response: response.status == 429):
        centre.tap() if "has_touch" in LAPTOP_AND_PHONE[size] else centre.click()
    run_until(page, "() => !document.getElementById('wait').hidden")
    # One line of words, in the status line's place: what happened, what still plays, when the move goes.
    expect(page.locator("#status")).to_have_text(WAITING)
    expect(page.locator("#wait")).to_have_text("Your move goes in 5 s.")
    expect(page.locator("#retry")).to_be_hidden()
    page.clock.run_for(4_000)
    expect(page.locator("#wait")).to_have_text("Your move goes in 1 s.")
    assert len(calls) == 1
    # The player presses nothing: the move goes again when the wait is over, and the engine answers.
    with page.expect_response(lambda response: response.url.endswith("/move")) as answered:
        page.clock.run_for(1_000)
    assert answered.value.status == 200
    page.clock.resume()
    wait_settled(page, 2)
    expect(page.locator("#status")).to_contain_text("Your turn (X).")
    assert len(calls) == 2
    assert_the_board_stayed(page)


def test_the_lab_says_a_429_and_sends_nothing_until_its_wait_is_over(open_page, app_server):
    page = open_page(own_context=True)  # the clock is the context's
    page.clock.install()
    # A 4x4 board: the server searches 3x3 ones for free, so the page asks about them even then.
    page.goto(app_server.url + "/lab?board=4/4/4/4&k=3")
    expect(page.locator("#lab-status")).to_contain_text("taken from the link")
    calls: list[Request] = []
    page.route(re.compile(r"/(analyze|trace)(\?|$)"), refuse(calls, 429, 7))
    sent = requests_of(page)
    pause(page)
    with page.expect_response(lambda response: response.status == 429):
        page.get_by_role("button", name="Run every engine").dispatch_event("click")
    run_until(page, "() => !document.getElementById('lab-wait').hidden")
    expect(page.locator("#lab-status")).to_have_text(LIMITED)
    expect(page.locator("#lab-wait")).to_have_text("You can run the engines again in 7 s.")
    assert len(calls) == 1
    sent_at_refusal = len(sent)
    # Watching the search asks the same server: refused at once, without a request.
    page.get_by_role("button", name="Watch the search", exact=True).dispatch_event("click")
    run_until(page, "() => !document.getElementById('trace-wait').hidden")
    expect(page.locator("#trace-status")).to_have_text(LIMITED)
    expect(page.locator("#trace-wait")).to_have_text("You can watch the search again in 7 s.")
    page.get_by_role("button", name="Run every engine").dispatch_event("click")
    page.clock.run_for(6_000)
    expect(page.locator("#lab-wait")).to_have_text("You can run the engines again in 1 s.")
    assert sent[sent_at_refusal:] == []
    page.clock.run_for(1_000)
    expect(page.locator("#lab-status")).to_have_text("You can run the engines again now.")
    expect(page.locator("#lab-wait")).to_be_hidden()
    expect(page.locator("#trace-status")).to_have_text("You can watch the search again now.")
    assert sent[sent_at_refusal:] == []
    expect(page.get_by_role("button", name="Run every engine")).to_be_enabled()
