"""The lab page (/lab) against the real app: a typed position, every engine's row, the chart, the line."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import analysis, cell, snapshot

pytestmark = pytest.mark.browser

ENGINES = ["minimax", "alphabeta", "alphabeta-ordered", "alphabeta-tt", "negascout", "mcts", "perfect"]
# x . .
# . o .
# . . .
TYPED = "x../.o./..."


def test_a_typed_position_runs_every_engine(open_page, app_server):
    page: Page = open_page()
    page.goto(app_server.url + "/lab")
    page.get_by_label("Type it").fill(TYPED)
    page.get_by_role("button", name="Set", exact=True).click()
    expect(page.get_by_role("button", name="a1, x")).to_be_visible()
    expect(page.get_by_role("button", name="b2, o")).to_be_visible()
    page.get_by_role("button", name="Run every engine").click()
    expect(page.locator("#lab-status")).to_contain_text("Done", timeout=30_000)

    rows = page.locator("#results tbody tr")
    expect(rows).to_have_count(7)
    assert [rows.nth(i).get_attribute("data-engine") for i in range(7)] == ENGINES
    for i in range(7):
        move = rows.nth(i).locator("td").first.inner_text()
        assert move in {"b1", "c1", "a2", "c2", "a3", "b3", "c3"}, move
    expect(page.locator("#results tbody tr[data-engine=perfect] td").nth(1)).to_have_text("draw")
    # mcts finishes its playouts but proves nothing: its value and its search say the same thing.
    mcts = page.locator("#results tbody tr[data-engine=mcts] td")
    expect(mcts.nth(1)).to_have_text("not proven")
    expect(mcts.nth(4)).to_contain_text("estimate")
    # The perfect row names its best moves as the rest of the page does (b1: column letter, row from the top).
    best = analysis(app_server, TYPED.split("/"), 3)["best"]
    searched = page.locator("#results tbody tr[data-engine=perfect] td").nth(4).inner_text()
    assert "; best moves " in searched, searched
    named = searched.split("; best moves ", 1)[1].split(", ")
    assert sorted(named) == sorted(cell(move["row"], move["col"]) for move in best), searched
    expect(page.locator("#chart rect.bar")).to_have_count(7)
    # The line of perfect play: the position, then every move to the end (a draw fills the board).
    expect(page.locator("#pv .pv-step")).to_have_count(8)
    expect(page.locator("#pv .pv-step").last).to_contain_text("draw")
    snapshot(page, "lab-typed-position")


def test_the_centre_experiment_and_the_game_link(open_page, app_server):
    page: Page = open_page()
    page.goto(app_server.url + "/")
    page.get_by_role("link", name="Lab").click()
    expect(page).to_have_url(app_server.url + "/lab")
    # The URL changes when the lab's page arrives, before its module script has run and
    # wired the buttons; the module has run once the DOM content is loaded.
    page.wait_for_load_state("domcontentloaded")
    page.get_by_role("button", name="Reply after X takes the centre").click()
    expect(page.locator("#lab-status")).to_contain_text("Done", timeout=30_000)
    expect(page.get_by_label("Type it")).to_have_value(".../.x./...")
    expect(page.locator("#results tbody tr")).to_have_count(7)
    expect(page.locator("#chart rect.bar")).to_have_count(7)


def test_the_position_comes_from_the_saved_game(open_page, app_server):
    page: Page = open_page()
    page.goto(app_server.url + "/")
    page.get_by_role("button", name="a1, empty").click()
    page.wait_for_function("() => document.querySelectorAll('#board .cell.o').length === 1")
    page.goto(app_server.url + "/lab")
    page.get_by_role("button", name="Take it from the current game").click()
    expect(page.get_by_role("button", name="a1, x")).to_be_visible()
    expect(page.locator("#editor .lab-cell.o")).to_have_count(1)
