"""The lab's "Watch the search": each tree ends at the lab table's count, cut-offs greyed, branches open."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import console_errors, snapshot

pytestmark = pytest.mark.browser

TRACED = ["minimax", "alphabeta", "alphabeta-ordered", "alphabeta-tt", "negascout"]
# x . .
# . o .
# . . .
TYPED = "x../.o./..."


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
    assert errors == []
