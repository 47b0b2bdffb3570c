"""The status line says what the position calls for, however the page got there (issue 35, point 1).

Who moved last and whose turn it is come from the position itself: after Undo, after Redo, after a
reload and in a fresh browser opening the game's link, the words are the same as for the same
position reached by playing it.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import LAPTOP_AND_PHONE, cell, cell_name, expect_board, read_board, wait_settled

pytestmark = pytest.mark.browser


def press(page: Page, name: str, touch: bool) -> None:
    """A button pressed as the player would: tapped on a touch screen, else clicked."""
    button = page.get_by_role("button", name=name, exact=True)
    if touch:
        button.tap()
    else:
        button.click()


def engine_reply(before: list[str], after: list[str]) -> str:
    """The name of the cell where O appeared between two boards."""
    return next(
        cell(r, c)
        for r, row in enumerate(after)
        for c, ch in enumerate(row)
        if ch == "o" and before[r][c] != "o"
    )


@pytest.mark.parametrize("size", list(LAPTOP_AND_PHONE))
def test_undo_redo_reload_and_a_link_say_who_moved_last_and_whose_turn(open_page, app_server, size):
    touch = "has_touch" in LAPTOP_AND_PHONE[size]
    page = open_page(**LAPTOP_AND_PHONE[size])
    status = page.locator("#status")
    page.goto(app_server.url + "/")
    wait_settled(page, 0)
    # Two moves of X, each answered by the engine:
    #   . . .      . . .      . . .
    #   . x .  ->  . x .  ->  . x .   and O where the engine chose, twice.
    #   . . .      . . .      . . .
    empty = read_board(page)
    press(page, cell_name(1, 1), touch)
    wait_settled(page, 2)
    first = read_board(page)
    first_reply = engine_reply(empty, first)
    row, col = next((r, c) for r, text in enumerate(first) for c, ch in enumerate(text) if ch == ".")
    press(page, cell_name(row, col), touch)
    wait_settled(page, 4)
    second = read_board(page)
    second_reply = engine_reply(first, second)
    after_second = f"The engine played {second_reply}. Your turn (X)."
    expect(status).to_have_text(after_second)

    # Undo: the engine's first reply is the last move again, and it is X's turn.
    after_first = f"The engine played {first_reply}. Your turn (X)."
    press(page, "Undo", touch)
    expect_board(page, first)
    expect(status).to_have_text(after_first)
    link = page.url
    assert link.endswith(f"moves=b2,{first_reply}"), link
    # A reload of the same browser shows the same words.
    page.reload()
    expect_board(page, first)
    expect(status).to_have_text(after_first)
    # So does a fresh browser opening the link.
    fresh = open_page(**LAPTOP_AND_PHONE[size])
    fresh.goto(link)
    expect_board(fresh, first)
    expect(fresh.locator("#status")).to_have_text(after_first)

    # Redo puts back X's move and the engine's reply, and the words that go with them; the key Y too.
    press(page, "Redo", touch)
    expect_board(page, second)
    expect(status).to_have_text(after_second)
    expect(page.get_by_role("button", name="Redo", exact=True)).to_be_disabled()
    page.get_by_role(
        "button",
        name=cell_name(
            *next((r, c) for r, text in enumerate(second) for c, ch in enumerate(text) if ch == "x"), "X"
        ),
    ).focus()
    page.keyboard.press("u")
    expect(status).to_have_text(after_first)
    page.keyboard.press("y")
    expect(status).to_have_text(after_second)
    page.reload()
    expect_board(page, second)
    expect(status).to_have_text(after_second)


def test_between_two_players_undo_and_redo_name_the_last_move_and_the_side_to_move(page: Page, app_server):
    # X a1, O b1, X a2:
    #   x o .
    #   x . .
    #   . . .
    page.goto(app_server.url + "/?size=3x3&k=3&mode=two&moves=a1,b1,a2")
    status = page.locator("#status")
    expect(status).to_have_text("X played a2. O to move.")
    page.get_by_role("button", name="Undo", exact=True).click()
    expect(status).to_have_text("O played b1. X to move.")
    page.get_by_role("button", name="Undo", exact=True).click()
    expect(status).to_have_text("X played a1. O to move.")
    page.get_by_role("button", name="Redo", exact=True).click()
    expect(status).to_have_text("O played b1. X to move.")
    page.get_by_role("button", name="Redo", exact=True).click()
    expect(status).to_have_text("X played a2. O to move.")
    # A new move leaves nothing to redo.
    page.get_by_role("button", name="Undo", exact=True).click()
    page.get_by_role("button", name=cell_name(2, 2)).click()
    expect(status).to_have_text("X played c3. O to move.")
    expect(page.get_by_role("button", name="Redo", exact=True)).to_be_disabled()
