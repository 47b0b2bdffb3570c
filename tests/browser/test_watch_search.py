"""The lab's "Watch the search": each tree ends at the lab table's count, cut-offs greyed, branches open.

Through a player's eyes (issue 35): the counts equal the table's on the centre experiment too, rows
are whole at 1280 and 390 px, the panel says once whose view a score is from, and a search stopped
at its node budget says so in one sentence.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, Route, expect

from tests.browser.helpers import console_errors, snapshot
from tictactoe import Board
from tictactoe.algorithms.registry import get_engine

pytestmark = pytest.mark.browser

TRACED = ["minimax", "alphabeta", "alphabeta-ordered", "alphabeta-tt", "negascout"]
# x . .
# . o .
# . . .
TYPED = "x../.o./..."


# Every shown row of every tree, and every tree's box: a part of a row past the box's right edge (or
# a box that scrolls sideways) is a row cut short.
CUT_ROWS = """() => {
  const cut = [];
  for (const box of document.querySelectorAll('.trace-box')) {
    if (box.scrollWidth > box.clientWidth) cut.push(`${box.getAttribute('aria-label')} scrolls sideways`);
    const edge = box.getBoundingClientRect().left + box.clientWidth;
    for (const row of box.querySelectorAll('.trace-row, .trace-skipped')) {
      if (row.closest('[hidden]')) continue;
      for (const part of row.children.length ? row.children : [row]) {
        if (part.getBoundingClientRect().right > edge + 0.5) cut.push(row.textContent);
      }
    }
  }
  return cut;
}"""
SCORE_VIEW = "Every score here is seen by the player to move in that row's position"


def table_nodes(page: Page, engine: str) -> int:
    """The Nodes figure of the lab table's row for ``engine``."""
    cell = page.locator(f"#results tbody tr[data-engine={engine}] td").nth(2)
    return int(cell.inner_text().replace(",", ""))


def test_every_tree_counts_what_the_lab_table_counts(open_page, app_server):
    page: Page = open_page()
    errors = console_errors(page)
    page.goto(app_server.url + "/lab")
    page.get_by_label("Type it").fill(TYPED)
    page.get_by_role("button", name="Set", exact=True).click()
    page.get_by_role("button", name="Run every engine").click()
    expect(page.locator("#lab-status")).to_contain_text("Done", timeout=30_000)

    page.get_by_label("negascout").check()
    page.get_by_role("button", name="Watch the search").click()
    expect(page.locator("#trace-status")).to_contain_text("Ready", timeout=30_000)
    columns = page.locator("#trace-trees .trace-column")
    expect(columns).to_have_count(5)
    assert [columns.nth(i).get_attribute("data-engine") for i in range(5)] == TRACED

    # Step: the root of every tree is the current node; play moves on, pause stops.
    page.get_by_role("button", name="Step").click()
    expect(page.locator(".trace-row.current")).to_have_count(5)
    expect(page.locator("[data-engine=alphabeta] .trace-row.current")).to_contain_text("α −∞ β +∞")
    page.get_by_role("button", name="Play").click()
    expect(page.locator("[data-engine=alphabeta] .trace-counts")).not_to_have_attribute("data-nodes", "1")
    page.get_by_role("button", name="Pause").click()
    expect(page.get_by_role("button", name="Play")).to_have_attribute("aria-pressed", "false")

    page.get_by_role("button", name="To the end").click()
    expect(page.locator("#trace-status")).to_contain_text("Every search has been replayed")
    for engine in TRACED:
        counts = page.locator(f"[data-engine={engine}] .trace-counts")
        expect(counts).to_have_attribute("data-nodes", str(table_nodes(page, engine)))
        expect(counts).to_contain_text("the lab table's")
        expect(counts).to_contain_text("exactly")

    # A cut-off: its untried moves are greyed and struck through, and say so in words.
    skipped = page.locator("[data-engine=alphabeta] .trace-skipped").first
    expect(skipped).to_be_visible()
    expect(skipped).to_contain_text("skipped by the cut-off")
    assert "line-through" in skipped.evaluate("(el) => getComputedStyle(el).textDecorationLine")
    result = ".trace-result"
    expect(
        page.locator(f"[data-engine=alphabeta] {result}").filter(has_text="✂ cut-off").first
    ).to_be_visible()
    expect(
        page.locator(f"[data-engine=alphabeta-tt] {result}").filter(has_text="⟲ table hit").first
    ).to_be_visible()

    # A folded branch of minimax's 7,332 nodes opens; the count stays the table's.
    minimax = page.locator("[data-engine=minimax]")
    rows_before = minimax.locator(".trace-node").count()
    fold = minimax.locator("button.trace-open").first
    label = fold.inner_text()
    assert label.startswith("▸ ") and label.endswith("nodes (folded)"), label
    fold.click()
    expect(page.locator("#trace-status")).to_contain_text("Opened the branch")
    assert minimax.locator(".trace-node").count() > rows_before
    minimax_nodes = str(table_nodes(page, "minimax"))
    expect(minimax.locator(".trace-counts")).to_have_attribute("data-nodes", minimax_nodes)
    snapshot(page, "lab-watch-search")
    assert errors == []


def test_a_folded_branch_opened_before_the_playback_is_replayed_node_by_node(open_page, app_server):
    page: Page = open_page(viewport={"width": 390, "height": 844})
    errors = console_errors(page)
    page.goto(app_server.url + "/lab?board=x2/1o1/3")
    expect(page.locator("#lab-status")).to_contain_text("taken from the link")
    for engine in TRACED[1:]:
        page.get_by_label(engine, exact=True).uncheck()
    page.get_by_role("button", name="Watch the search").click()
    expect(page.locator("#trace-status")).to_contain_text("Ready", timeout=30_000)
    page.locator("[data-engine=minimax] button.trace-open").first.dispatch_event("click")
    expect(page.locator("#trace-status")).to_contain_text("Opened the branch")
    page.get_by_role("button", name="To the end").click()
    expect(page.locator("[data-engine=minimax] .trace-counts")).to_have_attribute("data-nodes", "7332")
    sizes = page.evaluate("() => ({scroll: document.documentElement.scrollWidth, inner: window.innerWidth})")
    assert sizes["scroll"] <= sizes["inner"], sizes
    # Every row of the tree whole at 390 px too (the opened branch's deepest ones included).
    assert page.evaluate(CUT_ROWS) == []
    assert errors == []


def test_the_centre_experiment_counts_alike_in_table_and_trees_with_whole_rows(open_page, app_server):
    page: Page = open_page(viewport={"width": 1280, "height": 800})
    page.goto(app_server.url + "/lab")
    page.wait_for_load_state("domcontentloaded")
    page.get_by_role("button", name="Reply after X takes the centre").click()
    # The position in quotes, so that its dots do not run into the sentence's full stop.
    expect(page.locator("#lab-status")).to_have_text(
        "Done: 7 engines searched “.../.x./...”; perfect play from it is below.", timeout=60_000
    )
    # At 1280 px the table fits: no cue to scroll it.
    expect(page.locator("#results tbody tr")).to_have_count(7)
    expect(page.locator("#lab-scroll-cue")).to_be_hidden()
    # Whose view a score is from, said once for every tree.
    expect(page.get_by_text(SCORE_VIEW)).to_have_count(1)
    expect(page.get_by_text(SCORE_VIEW)).to_be_visible()

    page.get_by_label("negascout").check()
    page.get_by_role("button", name="Watch the search").click()
    expect(page.locator("#trace-status")).to_contain_text("Ready", timeout=60_000)
    page.get_by_role("button", name="To the end").click()
    expect(page.locator("#trace-status")).to_have_text(
        "Every search has been replayed: each tree counts exactly the lab table's nodes."
    )
    for engine in TRACED:
        counts = page.locator(f"[data-engine={engine}] .trace-counts")
        expect(counts).to_have_attribute("data-nodes", str(table_nodes(page, engine)))
        expect(counts).to_contain_text("exactly")
    # Minimax's 55,505 nodes (it once stopped at a deadline short of them under load).
    assert table_nodes(page, "minimax") == 55_505
    assert page.evaluate(CUT_ROWS) == []


def test_a_search_stopped_at_its_node_budget_says_so_in_one_sentence(open_page, app_server):
    """The table shows a stopped search's note as the server words it: one sentence, nothing added.

    No lab board can be stopped cheaply (the budget is 600,000 nodes, seconds of search), so minimax's
    answer is the server's own for this position with the fields of the same engine stopped at a
    budget of 1,000 nodes: its real result, note included.
    """
    board = Board.from_text(TYPED.split("/"))
    stopped = get_engine("minimax").search(board, max_nodes=1_000)
    assert not stopped.finished
    row, col = board.rules.row_col(stopped.move)

    def stop_minimax(route: Route) -> None:
        if json.loads(route.request.post_data or "{}").get("engine") != "minimax":
            route.continue_()
            return
        answer = route.fetch().json()
        answer.update(
            value=None, finished=False, nodes=stopped.nodes, note=stopped.note, move={"row": row, "col": col}
        )
        route.fulfill(json=answer)

    page: Page = open_page(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page.route("**/analyze", stop_minimax)
    page.goto(app_server.url + "/lab?board=x2/1o1/3")
    expect(page.locator("#lab-status")).to_contain_text("taken from the link")
    page.get_by_role("button", name="Run every engine").click()
    expect(page.locator("#lab-status")).to_contain_text("Done", timeout=60_000)
    row = page.locator("#results tbody tr[data-engine=minimax] td")
    expect(row.nth(1)).to_have_text("unknown (stopped)")
    expect(row.nth(4)).to_have_text(stopped.note)
    note = row.nth(4).inner_text()
    assert note.startswith("Stopped after its budget of 1,000 nodes"), note
    assert note.endswith(".") and note.count(". ") == 0, f"one sentence: {note}"
    # At 390 px the table is wider than its box, and a cue says so.
    region = page.get_by_role("region", name="The engines' results")
    assert region.evaluate("(box) => box.scrollWidth > box.clientWidth")
    expect(page.locator("#lab-scroll-cue")).to_be_visible()
    expect(page.locator("#lab-scroll-cue")).to_contain_text("scroll it sideways")
