"""The puzzles page as a player meets it: solved from the keyboard alone, progress kept in the browser,
a link that reopens the puzzle, today's puzzle, and a puzzle in the embed."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tictactoe import puzzle_set

pytestmark = pytest.mark.browser

# A two-step save on 3x3 (tests/test_puzzles.py): O to move; b2, then a1, then c2.
#   . . x
#   x . .
#   . o .
SAVE = next(p for p in puzzle_set() if p.position == "2x/x2/1o1")


def press_on(page: Page, row: int, col: int, keys: list[str]) -> None:
    """Reach the cell (row, col) from the board's tab stop with the arrow keys, then press ``keys``."""
    focused = page.evaluate(
        "() => [Number(document.activeElement.dataset.row), Number(document.activeElement.dataset.col)]"
    )
    for _ in range(abs(row - focused[0])):
        page.keyboard.press("ArrowDown" if row > focused[0] else "ArrowUp")
    for _ in range(abs(col - focused[1])):
        page.keyboard.press("ArrowRight" if col > focused[1] else "ArrowLeft")
    for key in keys:
        page.keyboard.press(key)


def test_a_puzzle_is_solved_from_the_keyboard_and_the_progress_stays(page, app_server):
    page.goto(f"{app_server.url}/puzzles/{SAVE.id}")
    expect(page.locator("#puzzle-goal")).to_have_text("O to play and save the draw")
    page.locator("#board button.cell").first.focus()  # the page's tab order reaches the board's one stop
    page.keyboard.press("Tab")
    page.keyboard.press("Shift+Tab")
    expect(page.locator("#board button[tabindex='0']")).to_be_focused()
    press_on(page, 0, 0, ["Enter"])  # a1: wrong, said in words; the board as it was
    expect(page.locator("#status")).to_contain_text("Not a1")
    expect(page.locator("#board .cell.o")).to_have_count(1)
    # Each step's own words: the one before's would match at once, and the next key would race its answer.
    for row, col, words in ((1, 1, "Right: b2"), (0, 0, "Right: a1"), (1, 2, "Solved")):
        press_on(page, row, col, [" "])
        expect(page.locator("#status")).to_contain_text(words)
    # A wrong move first: not solved at the first try, so the rating goes down and no streak starts.
    expect(page.locator("#puzzle-streak")).to_have_text("0")
    rating = int(page.locator("#puzzle-rating").inner_text())
    assert rating < 1000
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('tictactoe:v1:puzzles'))")
    assert stored["tried"] == {SAVE.id: "missed"} and stored["rating"] == rating
    # N: the next puzzle, offered by rating; a reload keeps the progress.
    page.locator("#puzzle-next").focus()
    page.keyboard.press("n")
    expect(page).not_to_have_url(re.compile(SAVE.id))
    expect(page.locator("#puzzle-link")).to_have_value(
        re.compile(r"/puzzles/[0-9]+x[0-9]+k[0-9]+-[0-9a-f]{6}\?lang=en$")
    )
    page.reload()
    expect(page.locator("#puzzle-rating")).to_have_text(str(rating))


def test_a_puzzle_solved_at_the_first_try_raises_the_rating_and_starts_a_streak(page, app_server):
    page.goto(f"{app_server.url}/puzzles/{SAVE.id}")
    for row, col in ((1, 1), (0, 0), (1, 2)):
        page.locator(f'#board button[data-row="{row}"][data-col="{col}"]').click()
        expect(page.locator("#board")).to_have_attribute("aria-busy", "false")
    expect(page.locator("#status")).to_contain_text("Solved")
    expect(page.locator("#puzzle-streak")).to_have_text("1")
    expect(page.locator("#puzzle-solved")).to_have_text("1")
    assert int(page.locator("#puzzle-rating").inner_text()) > 1000
    expect(page.locator("#puzzle-line")).to_have_text(re.compile(r"^Then X "))


def test_todays_puzzle_and_show_the_move(page, app_server):
    page.goto(f"{app_server.url}/puzzles/daily")
    expect(page.locator("#puzzle-link")).to_have_value(re.compile(r"/puzzles/[0-9]+x"))
    daily = page.request.get(f"{app_server.url}/puzzles/daily").json()
    expect(page.locator("#puzzle-goal")).to_have_text(daily["puzzle"]["goal"])
    page.locator("#puzzle-reveal").click()
    expect(page.locator("#status")).to_contain_text("The move is ")


def test_a_puzzle_in_the_embed_is_solved_within_its_frame(open_page, app_server):
    page = open_page(viewport={"width": 360, "height": 420})
    page.goto(f"{app_server.url}/embed?puzzle={SAVE.id}")
    expect(page.locator("#status")).to_have_text("3 moves to find, one at a time: O to move.")
    for row, col in ((1, 1), (0, 0), (1, 2)):
        page.locator(f'#board button[data-row="{row}"][data-col="{col}"]').click()
        expect(page.locator("#board")).to_have_attribute("aria-busy", "false")
    expect(page.locator("#status")).to_contain_text("Solved")
    # Everything fits the 360 x 420 frame: no scrolling to reach the buttons.
    assert page.evaluate("() => document.documentElement.scrollHeight") <= 420
