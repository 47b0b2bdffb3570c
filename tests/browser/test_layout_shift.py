"""Nothing moves under the player's finger (issue 37): layout shift while a page loads, when a game
ends, when an error or a refusal is said, and in a room.

The figure is the one Web Vitals' cumulative layout shift adds up: the Layout Instability API's
``layout-shift`` entries without recent input, which Chromium hands to a ``PerformanceObserver`` that
``context.add_init_script`` installs before the page's own scripts run (``buffered``, so the first
paint's entries count too).  Each step of a test reads the sum since the step before, and fails when
it passes 0.1 (Web Vitals' "good"), naming what moved.

The clicks inside a measured step are dispatched DOM events: they are not trusted input, so no shift
after them is excused as recent input, as none would be where the answer takes more than half a
second to come.  A step ends on what the page shows, then two animation frames, so that the frame
which drew it has been laid out and its shifts reported; the sum is a fact of the layout, not of time.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, Route, expect

from tests.browser.helpers import read_board, stones, wait_settled

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
SIZES = [pytest.param(PHONE, id="390x844"), pytest.param(LAPTOP, id="1280x800")]
GOOD = 0.1  # Web Vitals: a cumulative layout shift under 0.1 is good

# Installed before any script of the page: every layout shift without recent input, kept with the
# boxes that moved.  ``window.layoutShift.take()`` returns them and starts a new step.
OBSERVE = """
(() => {
  let entries = [];
  const describe = (entry) => ({
    value: entry.value,
    moved: entry.sources.map((source) => {
      const node = source.node;
      const name = !node ? "(gone)" : node.id ? `#${node.id}`
        : node.nodeType === Node.TEXT_NODE ? `text "${node.textContent.slice(0, 30)}"`
        : `${node.nodeName.toLowerCase()}.${[...node.classList].join(".")}`;
      const box = (rect) => [rect.x, rect.y, rect.width, rect.height].map(Math.round).join(",");
      return `${name} ${box(source.previousRect)} -> ${box(source.currentRect)}`;
    }),
  });
  const keep = (list) => {
    for (const entry of list) if (!entry.hadRecentInput) entries.push(describe(entry));
  };
  const observer = new PerformanceObserver((list) => keep(list.getEntries()));
  observer.observe({ type: "layout-shift", buffered: true });
  window.layoutShift = {
    take() {
      keep(observer.takeRecords());
      const taken = entries;
      entries = [];
      return taken;
    },
  };
})();
"""
# Two animation frames: the first frame after the awaited change has been drawn, laid out and scored.
TAKE = """() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(
  () => done(window.layoutShift.take()))))"""


def measured_page(open_page, viewport) -> Page:
    """A page at ``viewport`` whose layout shifts are observed from before its first paint."""
    page = open_page(viewport=viewport)
    page.context.add_init_script(OBSERVE)
    return page


def shift_since_last(page: Page, step: str) -> float:
    """The layout shift since the last step (or the load); fails naming what moved when it is 0.1 or more."""
    entries = page.evaluate(TAKE)
    total = sum(entry["value"] for entry in entries)
    moved = "\n".join(f"  {entry['value']:.4f}: " + "; ".join(entry["moved"]) for entry in entries)
    print(f"layout shift, {step}: {total:.4f}\n{moved}")  # the figures, shown with pytest -rP
    assert total < GOOD, f"{step}: a layout shift of {total:.4f}\n{moved}"
    return total


def click(page: Page, selector: str) -> None:
    """A click as a DOM event (no trusted input: nothing after it is excused as recent input)."""
    page.locator(selector).dispatch_event("click")


def play_to_the_end(page: Page) -> None:
    """Play the first empty cell until the game is over (the engine answers each move)."""
    while page.locator("#status").get_attribute("data-status") == "in_progress":
        board = read_board(page)
        row, col = next((r, c) for r, line in enumerate(board) for c, mark in enumerate(line) if mark == ".")
        click(page, f'#board button[data-row="{row}"][data-col="{col}"]')
        wait_settled(page, stones(board) + 2)


def answer_once(page: Page, status: int, body: dict, headers: dict | None = None) -> None:
    """The page's next POST /move gets this answer instead of the server's."""

    def refuse(route: Route) -> None:
        route.fulfill(
            status=status, content_type="application/json", body=json.dumps(body), headers=headers or {}
        )

    page.route("**/move", refuse, times=1)


@pytest.mark.parametrize("viewport", SIZES)
def test_the_game_page_moves_nothing_as_it_loads_a_game_ends_and_a_request_fails(
    open_page, app_server, viewport
):
    page = measured_page(open_page, viewport)
    page.goto(app_server.url + "/")
    wait_settled(page, 0)
    shift_since_last(page, "load")

    # The end: the result beside Play again, the review in the settings' place, its verdicts coming in.
    play_to_the_end(page)
    expect(page.locator("#outcome")).to_be_visible()
    expect(page.locator("#review-status")).to_have_text(re.compile(r"^\d+ moves: "))
    shift_since_last(page, "a game's end and its review")

    # An error line, with Retry in Hint's place; then a refusal with its countdown.
    click(page, "#new-game")
    wait_settled(page, 0)
    shift_since_last(page, "a new game")
    answer_once(page, 500, {"error": "boom"})
    click(page, '#board button[data-row="1"][data-col="1"]')
    expect(page.locator("#retry")).to_be_visible()
    expect(page.locator("#status")).to_contain_text("Press Retry")
    shift_since_last(page, "an error line")
    answer_once(page, 429, {"error": "too many searches", "retry_after": 30}, {"Retry-After": "30"})
    click(page, "#retry")
    expect(page.locator("#wait")).to_contain_text("Your move goes in")
    shift_since_last(page, "a refusal and its countdown")


@pytest.mark.parametrize("viewport", SIZES)
@pytest.mark.parametrize("path", ["/embed", "/lab"])
def test_the_embed_and_the_lab_move_nothing_as_they_load(open_page, app_server, viewport, path):
    page = measured_page(open_page, viewport)
    page.goto(app_server.url + path)
    if path == "/embed":
        wait_settled(page, 0)
    else:
        expect(page.locator("#editor button")).to_have_count(9)
    shift_since_last(page, f"loading {path}")


def test_a_room_moves_nothing_as_it_is_made_joined_and_opened(open_page, app_server):
    """The host makes the room at 1280x800 (the invite panel in the settings' place); the friend's
    page opens the invite at 390x844 (the room's line reserved by the server); the host sees them come."""
    host = measured_page(open_page, LAPTOP)
    host.goto(app_server.url + "/")
    wait_settled(host, 0)
    click(host, '[name="mode"][value="friend"]')
    click(host, '[name="friend-side"][value="x"]')
    expect(host.locator("#room-create")).to_be_visible()
    shift_since_last(host, "choosing Play a friend")
    click(host, "#room-create")
    expect(host.locator("#room-note")).to_have_text("Your friend has not opened the invite yet.")
    expect(host.locator("#room-invite-link")).to_have_value(re.compile("#invite="))
    shift_since_last(host, "making the room")

    guest = measured_page(open_page, PHONE)
    guest.goto(host.locator("#room-invite-link").input_value())
    expect(guest.locator("#room-note")).to_have_text("Your friend is here.")
    expect(guest.locator("#status")).to_have_text("Your friend (X) is to move.")
    shift_since_last(guest, "opening the invite")
    expect(host.locator("#room-note")).to_have_text("Your friend is here.")
    expect(host.locator("#room-invite")).to_be_hidden()
    shift_since_last(host, "the friend coming")


# A two-step save on 3x3 (tests/test_puzzles.py): O to move; a1 is wrong, then b2, a1 and c2 solve it.
#   . . x
#   x . .
#   . o .
SAVE_POSITION = "2x/x2/1o1"


@pytest.mark.parametrize("viewport", SIZES)
def test_the_puzzles_page_moves_nothing_as_a_puzzle_is_solved(open_page, app_server, viewport):
    from tictactoe import puzzle_set

    puzzle = next(p for p in puzzle_set() if p.position == SAVE_POSITION)
    page = measured_page(open_page, viewport)
    page.goto(f"{app_server.url}/puzzles/{puzzle.id}")
    expect(page.locator("#status")).to_have_text("3 moves to find, one at a time: O to move.")
    shift_since_last(page, "loading a puzzle")
    click(page, '#board button[data-row="0"][data-col="0"]')
    expect(page.locator("#status")).to_contain_text("Not a1: it blocks the fork at a1")
    shift_since_last(page, "a wrong move's words")
    # Each step's own words: the one before's would match at once, and the next click race its answer.
    steps = [(1, 1, "Right: b2"), (0, 0, "Right: a1"), (1, 2, "Solved: the draw")]
    for step, (row, col, words) in enumerate(steps):
        click(page, f'#board button[data-row="{row}"][data-col="{col}"]')
        expect(page.locator("#status")).to_contain_text(words)
        shift_since_last(page, f"the right move {step + 1} and its answer")
    expect(page.locator("#puzzle-line")).not_to_be_empty()
    shift_since_last(page, "the solved puzzle's line")
