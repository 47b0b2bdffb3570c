"""The game page (/) against the real app: whole games, keyboard play, hints, undo, two players."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import (
    analysis,
    cell,
    cell_name,
    drawing_move,
    read_board,
    snapshot,
    stones,
    wait_settled,
)

pytestmark = pytest.mark.browser

FOCUSED_CELL = """() => {
  const el = document.activeElement;
  return el && el.dataset.row !== undefined ? [Number(el.dataset.row), Number(el.dataset.col)] : null;
}"""


def game_status(page: Page) -> str:
    """The status the server last reported, as the page shows it (data-status of the status line)."""
    return page.locator("#status").get_attribute("data-status")


def start(page: Page, server, level: str | None = None) -> None:
    """Open the game page (at ``level``, such as "Perfect", if given) and wait until the human may play."""
    page.goto(server.url + "/")
    wait_settled(page, 0)
    if level is not None:
        page.get_by_label(level, exact=True).check()  # no game in progress: a new one starts at once
        expect(page.locator("#strip-caption")).to_have_text(f"3 × 3 · {level}")
        wait_settled(page, 0)


def test_whole_game_by_clicks_against_perfect_is_a_draw(page: Page, app_server):
    start(page, app_server, "Perfect")
    expect(page.locator("#status")).to_have_text("You are X and move first. Your turn.")
    while game_status(page) == "in_progress":
        board = read_board(page)
        row, col = drawing_move(app_server, board, 3)
        page.get_by_role("button", name=cell_name(row, col)).click()
        wait_settled(page, stones(board) + 2)
    expect(page.locator("#status")).to_have_attribute("data-status", "draw")
    expect(page.locator("#status")).to_contain_text("It's a draw.")
    assert stones(read_board(page)) == 9
    expect(page.locator('#turn-strip [data-score="draw"]')).to_have_text("1")
    expect(page.locator('#turn-strip [data-score="o"]')).to_have_text("0")  # the engine's wins


def test_whole_game_by_keyboard_alone(page: Page, app_server):
    start(page, app_server, "Perfect")
    # Tab reaches the board in one stop (roving tabindex), whatever comes before it.
    for _ in range(10):
        if page.evaluate(FOCUSED_CELL) is not None:
            break
        page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED_CELL) is not None, "Tab never reached the board"
    keys = ["Enter", "Space"]
    turn = 0
    while game_status(page) == "in_progress":
        board = read_board(page)
        row, col = drawing_move(app_server, board, 3)
        here = page.evaluate(FOCUSED_CELL)
        for _ in range(abs(row - here[0])):
            page.keyboard.press("ArrowDown" if row > here[0] else "ArrowUp")
        for _ in range(abs(col - here[1])):
            page.keyboard.press("ArrowRight" if col > here[1] else "ArrowLeft")
        assert page.evaluate(FOCUSED_CELL) == [row, col]
        page.keyboard.press(keys[turn % 2])
        turn += 1
        wait_settled(page, stones(board) + 2)
    expect(page.locator("#status")).to_have_attribute("data-status", "draw")
    # The shortcut N (with the focus on the board) starts a new game from the keyboard too.
    page.keyboard.press("n")
    expect(page.locator("#status")).to_have_text("You are X and move first. Your turn.")
    assert stones(read_board(page)) == 0


def test_arrow_keys_stay_on_the_board_and_tab_is_one_stop(page: Page, app_server):
    start(page, app_server)
    page.get_by_role("button", name=cell_name(1, 1)).focus()
    page.keyboard.press("Home")
    assert page.evaluate(FOCUSED_CELL) == [1, 0]
    page.keyboard.press("ArrowLeft")  # clamped at the edge
    assert page.evaluate(FOCUSED_CELL) == [1, 0]
    page.keyboard.press("Control+End")
    assert page.evaluate(FOCUSED_CELL) == [2, 2]
    assert page.locator('#board button[tabindex="0"]').count() == 1
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED_CELL) is None, "Tab should leave the board"


def expect_hints_match_the_analysis(page: Page, app_server, board: list[str], k: int) -> None:
    """Every empty cell's accessible name carries the value /analyze gives it; no other cell has one."""
    expected = analysis(app_server, board, k)
    for move in expected["moves"]:
        cell = page.get_by_role("button", name=cell_name(move["row"], move["col"]))
        words = "draw" if move["value"] == "draw" else f"{move['value']}, game over in {move['plies']}"
        expect(cell).to_have_attribute("aria-label", re.compile(rf"hint: {re.escape(words)}"))
    expect(page.locator('#board button[aria-label*="hint:"]')).to_have_count(len(expected["moves"]))


def test_hints_show_every_empty_cells_value(page: Page, app_server):
    start(page, app_server, "Perfect")
    page.get_by_role("button", name=cell_name(0, 0)).click()
    wait_settled(page, 2)
    board = read_board(page)
    page.get_by_role("button", name="Hint", exact=True).click()
    expect(page.get_by_role("button", name="Hint", exact=True)).to_have_attribute("aria-pressed", "true")
    expect_hints_match_the_analysis(page, app_server, board, 3)
    expect(page.locator("#hint-summary")).to_contain_text("With best play: a draw.")
    # The button (or H) toggles the hints off again.
    page.keyboard.press("h")
    expect(page.locator('#board button[aria-label*="hint:"]')).to_have_count(0)
    expect(page.get_by_role("button", name="Hint", exact=True)).to_have_attribute("aria-pressed", "false")


def test_hints_show_wins_and_losses(page: Page, app_server):
    start(page, app_server)
    page.get_by_label("Two players").check()
    expect(page.locator("#status")).to_have_text("X to move.")
    for count, (row, col) in enumerate([(0, 0), (0, 1)], start=1):
        page.get_by_role("button", name=cell_name(row, col)).click()
        wait_settled(page, count)
    page.keyboard.press("h")
    board = read_board(page)
    assert board == ["xo.", "...", "..."]
    expect_hints_match_the_analysis(page, app_server, board, 3)
    expect(page.locator("#board .cell.hint-win")).not_to_have_count(0)
    expect(page.locator("#hint-summary")).to_contain_text("With best play: X wins in")
    snapshot(page, "hints-x-to-move")


def test_hints_on_a_board_too_big_to_solve_mark_the_best_guess(page: Page, app_server):
    start(page, app_server)
    page.get_by_label("Board", exact=True).select_option("15x15")
    expect(page.locator("#board button")).to_have_count(225)
    page.get_by_role("button", name="Hint", exact=True).click()
    expect(page.locator("#hint-summary")).to_contain_text("Not solved in time")
    # Unproven moves stay unlabelled; only the engine's best guess is marked.
    guesses = page.locator('#board button[aria-label*="hint: best guess, not proven"]')
    expect(guesses).not_to_have_count(0)
    assert guesses.count() == page.locator('#board button[aria-label*="hint:"]').count()


def test_undo_takes_back_the_move_and_the_reply(page: Page, app_server):
    start(page, app_server)
    expect(page.get_by_role("button", name="Undo", exact=True)).to_be_disabled()
    page.get_by_role("button", name=cell_name(1, 1)).click()
    wait_settled(page, 2)
    after_first = read_board(page)
    row, col = next((r, c) for r in range(3) for c in range(3) if after_first[r][c] == ".")
    page.get_by_role("button", name=cell_name(row, col)).click()
    wait_settled(page, 4)
    assert stones(read_board(page)) == 4
    page.get_by_role("button", name="Undo", exact=True).click()
    wait_settled(page, 2)
    assert read_board(page) == after_first
    page.keyboard.press("u")
    wait_settled(page, 0)
    assert read_board(page) == ["...", "...", "..."]
    expect(page.get_by_role("button", name="Undo", exact=True)).to_be_disabled()


def test_game_and_tally_survive_a_reload(page: Page, app_server):
    start(page, app_server)
    page.get_by_role("button", name=cell_name(0, 0)).click()
    wait_settled(page, 2)
    board = read_board(page)
    page.reload()
    wait_settled(page, 2)
    assert read_board(page) == board
    expect(page.locator("#status")).to_contain_text("Your turn (X).")


def test_clicks_during_the_engines_turn_are_ignored(page: Page, app_server):
    start(page, app_server)
    held = []
    page.route("**/move", lambda route: held.append(route))
    with page.expect_request("**/move"):
        page.get_by_role("button", name=cell_name(0, 0)).click()
    expect(page.locator("#status")).to_contain_text("The engine (O) is thinking")
    expect(page.locator("#thinking")).to_be_visible()
    page.get_by_role("button", name=cell_name(2, 2)).click(force=True)
    page.keyboard.press("Enter")  # focus is still on the cell just played
    # Let any (wrongly) accepted click render before counting.
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    assert stones(read_board(page)) == 1
    assert len(held) == 1, "only one engine request may be out"
    held[0].continue_()
    page.unroute("**/move")
    wait_settled(page, 2)
    assert stones(read_board(page)) == 2
    expect(page.locator("#thinking")).to_be_hidden()


def test_playing_o_lets_the_engine_open(page: Page, app_server):
    start(page, app_server)
    page.get_by_label("O · engine starts").check()
    wait_settled(page, 1)
    board = read_board(page)
    assert sum(row.count("x") for row in board) == 1
    expect(page.locator("#status")).to_contain_text("Your turn (O).")


def test_two_players_alternate_and_the_server_reports_the_win(page: Page, app_server):
    start(page, app_server)
    page.get_by_label("Two players").check()
    expect(page.locator("#status")).to_have_text("X to move.")
    moves = [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]
    for count, (row, col) in enumerate(moves, start=1):
        page.get_by_role("button", name=cell_name(row, col)).click()
        wait_settled(page, count)
        assert stones(read_board(page)) == count, "no engine move in two-player mode"
        if count < len(moves):
            expect(page.locator("#status")).to_have_text(
                re.compile(rf"played {cell(row, col)}\. {'XO'[count % 2]} to move\.")
            )
    expect(page.locator("#status")).to_have_attribute("data-status", "x_won")
    expect(page.locator("#status")).to_contain_text("X wins!")
    for col in range(3):
        won = page.get_by_role("button", name=f"{cell(0, col)}, X, winning line")
        expect(won).to_have_class(re.compile(r"\bwin\b"))
    expect(page.locator("#board .cell.win")).to_have_count(3)
    expect(page.locator('#turn-strip [data-score="x"]')).to_have_text("1")


@pytest.mark.parametrize("preset, cells", [("7x7", 49), ("15x15", 225)])
def test_big_board_starts_and_the_engine_answers(page: Page, app_server, preset, cells):
    start(page, app_server)
    page.get_by_label("Board", exact=True).select_option(preset)
    expect(page.locator("#board button")).to_have_count(cells)
    middle = int(preset.split("x")[0]) // 2
    page.get_by_role("button", name=cell_name(middle, middle)).click()
    wait_settled(page, 2)
    board = read_board(page)
    assert sum(row.count("o") for row in board) == 1
    expect(page.locator("#status")).to_contain_text("Your turn (X).")


def test_a_new_visitor_plays_medium_and_a_level_change_waits_for_the_next_game(page: Page, app_server):
    start(page, app_server)
    expect(page.get_by_label("Medium", exact=True)).to_be_checked()
    expect(page.locator("#strip-caption")).to_have_text("3 × 3 · Medium")
    page.get_by_role("button", name=cell_name(1, 1)).click()
    wait_settled(page, 2)
    page.get_by_label("Perfect", exact=True).check()
    # The game goes on at its level, and the page says when the change applies.
    expect(page.locator("#settings-note")).to_be_visible()
    expect(page.locator("#strip-caption")).to_have_text("3 × 3 · Medium")
    with page.expect_request("**/move") as sent:
        empty = next(
            (r, c) for r, line in enumerate(read_board(page)) for c, ch in enumerate(line) if ch == "."
        )
        page.get_by_role("button", name=cell_name(*empty)).click()
    assert sent.value.post_data_json["level"] == "medium"
    page.get_by_role("button", name="next game").click()
    expect(page.locator("#strip-caption")).to_have_text("3 × 3 · Perfect")
    expect(page.locator("#settings-note")).to_be_hidden()


def test_the_score_is_kept_per_board_and_level(page: Page, app_server):
    start(page, app_server, "Perfect")
    expect(page.locator("#settings")).to_contain_text("The score is kept per board and level.")
    while game_status(page) == "in_progress":
        board = read_board(page)
        page.get_by_role("button", name=cell_name(*drawing_move(app_server, board, 3))).click()
        wait_settled(page, stones(board) + 2)
    draws = page.locator('#turn-strip [data-score="draw"]')
    caption = page.locator("#strip-caption")
    expect(draws).to_have_text("1")
    # The review has taken the settings' place: closing it brings them back.
    expect(page.locator("#settings")).to_be_hidden()
    page.get_by_role("button", name="Review", exact=True).click()
    page.get_by_label("Easy", exact=True).check()  # the game is over: the new level starts at once
    expect(caption).to_have_text("3 × 3 · Easy")
    expect(draws).to_have_text("0")
    page.get_by_label("Perfect", exact=True).check()
    expect(draws).to_have_text("1")
    # Another board at the same level has a score of its own, and the 3x3 one is still there after.
    page.get_by_label("Board", exact=True).select_option("4x4")
    expect(caption).to_have_text("4 × 4 · Perfect")
    expect(draws).to_have_text("0")
    page.get_by_label("Board", exact=True).select_option("3x3")
    expect(caption).to_have_text("3 × 3 · Perfect")
    expect(draws).to_have_text("1")
    page.reload()
    expect(draws).to_have_text("1")


def test_shortcuts_act_only_in_the_play_area_and_new_game_can_be_undone(page: Page, app_server):
    start(page, app_server)
    page.get_by_role("button", name=cell_name(0, 0)).click()
    wait_settled(page, 2)
    played = read_board(page)
    # A stray key with the focus elsewhere on the page (here: the page itself) does nothing.
    page.locator("#settings-title").click()
    page.keyboard.press("n")
    page.keyboard.press("u")
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    assert read_board(page) == played
    # With the focus on the board, N starts a new game, and Undo brings the old one back.
    page.get_by_role("button", name=cell_name(0, 0, "X")).focus()
    page.keyboard.press("n")
    expect(page.locator("#status")).to_have_text(
        "You are X and move first. Your turn. Undo brings back the game you left."
    )
    assert stones(read_board(page)) == 0
    undo = page.get_by_role("button", name="Undo", exact=True)
    expect(undo).to_be_enabled()
    undo.click()
    wait_settled(page, 2)
    assert read_board(page) == played
    expect(page.locator("#status")).to_contain_text("Your turn (X).")


def test_the_turn_strip_highlights_the_side_to_move(page: Page, app_server):
    start(page, app_server)
    x_side = page.locator('#turn-strip [data-side="x"]')
    o_side = page.locator('#turn-strip [data-side="o"]')
    expect(x_side).to_contain_text("You")
    expect(o_side).to_contain_text("Engine")
    expect(x_side).to_have_class(re.compile(r"\bto-move\b"))
    held = []
    page.route("**/move", lambda route: held.append(route))
    with page.expect_request("**/move"):
        page.get_by_role("button", name=cell_name(1, 1)).click()
    expect(o_side).to_have_class(re.compile(r"\bto-move\b"))
    expect(x_side).not_to_have_class(re.compile(r"\bto-move\b"))
    held[0].continue_()
    page.unroute("**/move")
    wait_settled(page, 2)
    expect(x_side).to_have_class(re.compile(r"\bto-move\b"))


def test_undo_brings_back_a_game_left_for_other_settings_and_the_form_follows(page: Page, app_server):
    start(page, app_server)
    page.get_by_role("button", name=cell_name(1, 1)).click()
    wait_settled(page, 2)
    played = read_board(page)
    page.get_by_label("Board", exact=True).select_option("4x4")
    expect(page.locator("#settings-note")).to_be_visible()
    page.get_by_role("button", name="next game").click()
    expect(page.locator("#board button")).to_have_count(16)
    page.get_by_role("button", name="Undo", exact=True).click()
    expect(page.locator("#board button")).to_have_count(9)
    assert read_board(page) == played
    expect(page.get_by_label("Board", exact=True)).to_have_value("3x3")
