"""What the game page says: cell names (b2), row names, the hint legend, and the engine's details."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, Route, expect

from tests.browser.helpers import cell_name, wait_settled

pytestmark = pytest.mark.browser


def open_game(page: Page, server, level: str = "Perfect") -> None:
    page.goto(server.url + "/")
    wait_settled(page, 0)
    page.get_by_label(level, exact=True).check()
    expect(page.locator("#strip-caption")).to_have_text(f"3 × 3 · {level}")
    wait_settled(page, 0)


def test_cells_rows_and_coordinates_use_one_language(page: Page, app_server):
    open_game(page, app_server)
    # Letters above the board, numbers beside it: a1 is the top left cell.
    expect(page.locator("#col-labels span")).to_have_text(["a", "b", "c"])
    expect(page.locator("#row-labels span")).to_have_text(["1", "2", "3"])
    top_left = page.locator('#board button[data-row="0"][data-col="0"]')
    expect(top_left).to_have_attribute("aria-label", "a1, empty")
    # A row's accessible name is short, not every cell's label strung together.
    expect(page.get_by_role("row", name="row 2", exact=True)).to_have_count(1)
    for index in range(3):
        expect(page.get_by_role("row").nth(index)).to_have_attribute("aria-label", f"row {index + 1}")
    held = []
    page.route("**/move", lambda route: held.append(route))
    with page.expect_request("**/move"):
        page.get_by_role("button", name=cell_name(1, 2)).click()
    expect(page.locator("#status")).to_have_text("You played c2. The engine (O) is thinking…")
    held[0].continue_()
    page.unroute("**/move")
    wait_settled(page, 2)
    expect(page.locator("#status")).to_have_text(re.compile(r"The engine played [a-c][1-3]\."))


def test_the_empty_board_marks_no_cell_when_all_read_the_same(page: Page, app_server):
    open_game(page, app_server)
    page.get_by_role("button", name="Hint", exact=True).click()
    expect(page.locator("#hint-summary")).to_have_text(
        re.compile(
            r"^With best play: a draw\. Every empty cell leads to the same result, so none is marked\.$"
        )
    )
    # The screen-reader names keep each value; the cells show nothing.
    expect(page.locator('#board button[aria-label*="hint: draw"]')).to_have_count(9)
    expect(page.locator("#board .badge:not(:empty)")).to_have_count(0)
    expect(page.locator("#board .cell.hint-draw")).to_have_count(0)


def test_the_legend_uses_the_words_the_cells_show(page: Page, app_server):
    open_game(page, app_server)
    page.get_by_label("Two players").check()
    for count, (row, col) in enumerate([(0, 0), (0, 1)], start=1):
        page.get_by_role("button", name=cell_name(row, col)).click()
        wait_settled(page, count)
    page.get_by_role("button", name="Hint", exact=True).click()
    expect(page.locator("#board .cell.hint-win")).not_to_have_count(0)
    # Roomy 3x3 cells spell the hint out, and so does the legend.
    expect(page.locator("#board .cell.hint-win .badge").first).to_have_text(re.compile(r"^win · \d+$"))
    expect(page.locator("#hint-summary")).to_contain_text("“win · n”, “draw” or “loss · n”")


def test_small_cells_use_the_short_form_in_the_cells_and_the_legend(page: Page, app_server):
    open_game(page, app_server)
    page.get_by_label("Two players").check()
    page.get_by_label("Board", exact=True).select_option("4x4")
    expect(page.locator("#board button")).to_have_count(16)
    page.set_viewport_size({"width": 320, "height": 740})
    # x x x .
    # . o . .
    # . . o .
    # . . . .   O to move: only d1 saves the game, so the cells read differently.
    for count, (row, col) in enumerate([(0, 0), (1, 1), (0, 1), (2, 2), (0, 2)], start=1):
        page.get_by_role("button", name=cell_name(row, col)).click()
        wait_settled(page, count)
    page.get_by_role("button", name="Hint", exact=True).click()
    badge = page.locator("#board .cell[class*=hint-] .badge").first
    expect(badge).to_have_text(re.compile(r"^(W\d+|D|L\d+)$"))
    expect(page.locator("#hint-summary")).to_contain_text("W n (win), D (draw) or L n (loss)")


def with_answer(**fields):
    """A route handler that passes /move on, with the answer's ``fields`` set (removed when None)."""

    def handle(route: Route) -> None:
        response = route.fetch()
        answer = response.json()
        for name, value in fields.items():
            answer.pop(name, None)
            if value is not None:
                answer[name] = value
        route.fulfill(response=response, body=json.dumps(answer))

    return handle


DRAW = "With best play from here, the game is a draw."


@pytest.mark.parametrize(
    "fields, words",
    [
        ({"source": "book"}, [DRAW, "How it knows: from the opening book."]),
        ({"source": "threats"}, [DRAW, "How it knows: found a forced sequence of threats."]),
        (
            {"source": "threats", "value": "loss", "plies": 8},
            [
                "With your best play from here, you win within 8 moves.",
                "How it knows: found a forced sequence of threats for you after every move it could make.",
            ],
        ),
        ({"source": None}, [DRAW]),
    ],
)
def test_engine_details_are_plain_words_behind_a_disclosure(page: Page, app_server, fields, words):
    open_game(page, app_server)
    page.route("**/move", with_answer(**fields))
    page.get_by_role("button", name=cell_name(1, 1)).click()
    wait_settled(page, 2)
    details = page.locator("#engine-details")
    expect(details).to_be_visible()
    info = page.locator("#engine-info")
    expect(info).to_be_hidden()  # closed until asked
    details.locator("summary").click()
    for sentence in words:
        expect(info).to_contain_text(sentence)
    # A cached answer searched nothing, so it only has a time.
    expect(info).to_contain_text(re.compile(r"(It looked at [\d,]+ positions in|It answered in) [\d,]+ ms\."))
    if fields["source"] is None:
        expect(info).not_to_contain_text("How it knows")
    assert "nodes" not in info.inner_text()
