"""Accessibility through a player's eyes (issue 22): contrast, keyboard, target spacing, reach, axe-core.

Contrast is computed from the browser's computed styles (``contrast.py``), in the
light and the dark colour scheme; axe-core (shipped inside the PyPI package
``axe-playwright-python``) checks each page at 1280 and 390 px in both schemes.
"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from tests.browser.contrast import TRANSITIONS_DONE, lowest_contrast
from tests.browser.helpers import DESKTOP, wait_settled

pytestmark = pytest.mark.browser

SCHEMES = ["light", "dark"]
PHONE_390 = {"width": 390, "height": 844}
# Two players; X wins down column a with its last move:
#   X O O        a1 b1 c1
#   X O .        a2 b2 c2
#   X . X        a3 b3 c3
# c3 (X) and b1, b2, c1 (O) are off the line: faded once the game is over.
WON_GAME = "/?size=3x3&k=3&mode=two&moves=c3,b1,a1,b2,a2,c1,a3"
# x . .
# . o .
# . . .
LAB_POSITION = "x../.o./..."
# Two trees that show every kind of row: minimax's folded branches, alphabeta-tt's cut-offs (with
# their struck-through moves) and table hits.  The other two, alike in kind, would double axe's time.
WATCHED = {"minimax", "alphabeta-tt"}
NOT_WATCHED = {"alphabeta", "alphabeta-ordered", "negascout"}
# Steps of the playback after which every kind of row is on show (160 rows: visited, returned,
# current).  Played to the end the two trees have 1,173 rows, alike in kind, and axe's contrast
# rule took about 3.5 s a view over their 3,000 texts.
STEPS = 80


@pytest.fixture(scope="module")
def watched_lab(open_module_page, app_server) -> Page:
    """The lab with WATCHED's searches watched for STEPS steps, at 1280 px in the light scheme.

    One page for the module: watching takes seconds, and the tests only read it, each setting
    the width and the colour scheme it looks at.
    """
    page = open_module_page(viewport={"width": 1280, "height": 844})
    watch_the_search(page, app_server.url)
    return page


def watch_the_search(page: Page, app_url: str) -> None:
    """Open the lab on LAB_POSITION, run every engine, then watch WATCHED search for STEPS steps."""
    page.goto(app_url + "/lab")
    page.get_by_label("Type it").fill(LAB_POSITION)
    page.get_by_role("button", name="Set", exact=True).click()
    page.get_by_role("button", name="Run every engine").click()
    expect(page.locator("#lab-status")).to_contain_text("Done", timeout=60_000)
    for engine in WATCHED:
        page.get_by_label(engine, exact=True).check()
    for engine in NOT_WATCHED:
        page.get_by_label(engine, exact=True).uncheck()
    page.get_by_role("button", name="Watch the search").click()
    expect(page.locator("#trace-status")).to_contain_text("Ready", timeout=60_000)
    # From the keyboard: a click waits for the button to be stable each time (about 4 s for 80).
    page.get_by_role("button", name="Step").focus()
    for _ in range(STEPS):
        page.keyboard.press("Enter")
    expect(page.locator(".trace-node:not([hidden])")).to_have_count(len(WATCHED) * STEPS)
    shown = (".trace-open", ".trace-skipped", ".trace-node[data-kind=hit].returned", ".trace-row.current")
    for kind in shown:
        expect(page.locator(kind).first).to_be_visible()


# ---- 1. contrast ------------------------------------------------------------------------------


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_faded_pieces_of_a_won_game_keep_3_to_1(open_page, app_server, scheme):
    page = open_page(color_scheme=scheme)
    page.goto(app_server.url + WON_GAME)
    expect(page.locator("#status")).to_have_attribute("data-status", "x_won")
    faded = "#board.over .cell.dim:is(.x, .o) .mark"
    expect(page.locator(faded)).to_have_count(4)
    # WCAG 1.4.11 (a piece is a graphical object, and large bold text): 3:1 against the cell.
    ratio, piece = lowest_contrast(page, faded)
    assert ratio >= 3, (scheme, piece, ratio)
    # Still faded, so that the winning line stands out.
    expect(page.locator(faded).first).not_to_have_css("opacity", "1")


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_struck_through_branches_of_a_watched_search_keep_4_5_to_1(watched_lab, scheme):
    page = watched_lab
    page.set_viewport_size(DESKTOP)
    page.emulate_media(color_scheme=scheme)
    skipped = page.locator(".trace-skipped")
    expect(skipped.first).to_be_visible()
    expect(skipped.first).to_have_css("text-decoration-line", "line-through")
    ratio, text = lowest_contrast(page, ".trace-skipped")
    assert ratio >= 4.5, (scheme, text, ratio)


# ---- 2. the lab table's scrolling box, by keyboard ------------------------------------------------


def test_the_lab_table_scrolls_sideways_from_the_keyboard(open_page, app_server):
    page = open_page(viewport=PHONE_390)
    page.goto(app_server.url + "/lab")
    page.get_by_label("Type it").fill(LAB_POSITION)
    page.get_by_role("button", name="Set", exact=True).click()
    page.get_by_role("button", name="Run every engine").click()
    expect(page.locator("#lab-status")).to_contain_text("Done", timeout=60_000)
    region = page.get_by_role("region", name="The engines' results")
    widths = region.evaluate("(box) => [box.scrollWidth, box.clientWidth]")
    assert widths[0] > widths[1], f"the table must overflow its box at 390 px to test this: {widths}"
    # Tab from the last control before the table lands on the table's box, then the arrows scroll it.
    page.get_by_role("button", name="Reply after X takes the centre").focus()
    page.keyboard.press("Tab")
    expect(region).to_be_focused()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('.lab-table-wrap').scrollLeft > 0")


# ---- 3. axe-core ----------------------------------------------------------------------------------

AXE = Axe()
VIEWS = [(width, scheme) for width in (1280, 390) for scheme in SCHEMES]


def serious_violations(page: Page) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now, one line each."""
    # The Share dialog's preview is an iframe of our own: axe checks a frame only where it is loaded.
    for frame in page.frames[1:]:
        frame.evaluate(AXE.axe_script)
    results = AXE.run(page)
    return [
        f"{violation['id']} ({violation['impact']}): {node['target']} {node.get('failureSummary', '')}"
        for violation in results.response["violations"]
        if violation["impact"] in ("serious", "critical")
        for node in violation["nodes"]
    ]


def open_game(page: Page, url: str) -> None:
    """The game page, ready for the first move."""
    page.goto(url + "/")
    wait_settled(page, 0)


def open_share_dialog(page: Page, url: str) -> None:
    """The game page with its Share / embed dialog open and the preview loaded."""
    open_game(page, url)
    page.get_by_role("button", name="Share / embed").click()
    expect(page.get_by_role("dialog")).to_be_visible()
    expect(page.frame_locator("#share-preview").locator("#status")).to_contain_text("Your turn")


def open_won_game(page: Page, url: str) -> None:
    """The game page at the end of a won game (faded pieces, the result)."""
    page.goto(url + WON_GAME)
    expect(page.locator("#status")).to_have_attribute("data-status", "x_won")


def open_embed(page: Page, url: str) -> None:
    """The embed, ready for the first move."""
    page.goto(url + "/embed?size=3x3&k=3&level=perfect&side=x")
    wait_settled(page, 0)


def open_room(page: Page, url: str) -> None:
    """The game page in a room it made to play a friend: the invite with Copy, the friend not there yet."""
    open_game(page, url)
    page.get_by_label("Play a friend").check()
    page.get_by_role("button", name="Make the link").click()
    expect(page.locator("#room-invite")).to_be_visible()
    expect(page.locator("#room-note")).to_have_text("Your friend has not opened the invite yet.")


def open_puzzle(page: Page, url: str) -> None:
    """The puzzles page after a wrong move: the engine's words on it, the board as it was."""
    page.goto(url + "/puzzles?board=3x3k3&task=draw")
    expect(page.locator("#puzzle-goal")).to_contain_text("to play and save the draw")
    page.locator("#board button.cell:not(.x):not(.o)").first.click()
    expect(page.locator("#status")).to_contain_text("Try again.")


def open_puzzle_embed(page: Page, url: str) -> None:
    """A puzzle in the embed, ready for its first move."""
    from tictactoe import puzzle_set

    page.goto(f"{url}/embed?puzzle={puzzle_set().select().puzzles[0].id}")
    expect(page.locator("#status")).to_contain_text("to move.")


STATES = {
    "game": open_game,
    "won game": open_won_game,
    "share dialog": open_share_dialog,
    "embed": open_embed,
    "room": open_room,
    "puzzles": open_puzzle,
    "puzzle embed": open_puzzle_embed,
}


def serious_violations_in_every_view(page: Page) -> list[str]:
    """``serious_violations`` at each of VIEWS, each line prefixed with its width and scheme."""
    found = []
    for width, scheme in VIEWS:
        page.set_viewport_size({"width": width, "height": 844})
        page.emulate_media(color_scheme=scheme)
        page.evaluate(TRANSITIONS_DONE)
        found += [f"{width} px, {scheme}: {line}" for line in serious_violations(page)]
    return found


@pytest.mark.parametrize("state", list(STATES))
def test_axe_finds_nothing_serious(open_page, app_server, state):
    page = open_page(viewport={"width": VIEWS[0][0], "height": 844}, color_scheme=VIEWS[0][1])
    STATES[state](page, app_server.url)
    found = serious_violations_in_every_view(page)
    assert not found, "\n".join(found)


def test_axe_finds_nothing_serious_in_the_lab_with_its_search_watched(watched_lab):
    found = serious_violations_in_every_view(watched_lab)
    assert not found, "\n".join(found)


# ---- 4. target spacing on a phone -------------------------------------------------------------------

CELL_CENTRES = """() => [...document.querySelectorAll('#board button[data-row]')].map((cell) => {
  const box = cell.getBoundingClientRect();
  return [Number(cell.dataset.row), Number(cell.dataset.col), box.x + box.width / 2, box.y + box.height / 2];
})"""


def test_the_15x15_cells_stand_24_px_apart_on_a_390_px_phone(open_page, app_server):
    page = open_page(viewport=PHONE_390)
    open_game(page, app_server.url)
    page.get_by_label("Board", exact=True).select_option("15x15")
    expect(page.locator("#board button")).to_have_count(225)
    wait_settled(page, 0)
    centres = {(row, col): (x, y) for row, col, x, y in page.evaluate(CELL_CENTRES)}
    across = [centres[r, c + 1][0] - centres[r, c][0] for r in range(15) for c in range(14)]
    down = [centres[r + 1, c][1] - centres[r, c][1] for r in range(14) for c in range(15)]
    # WCAG 2.5.8: a 24 px circle round each target's centre overlaps no other's.
    assert min(across) >= 24 and min(down) >= 24, (min(across), min(down))
    board = page.locator("#board").bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= PHONE_390["width"], board


# ---- 5. the Share / embed dialog on a phone -----------------------------------------------------------

OUTSIDE_THE_DIALOG = """() => {
  const dialog = document.getElementById('share').getBoundingClientRect();
  const out = [];
  for (const el of document.querySelectorAll('#share *')) {
    const box = el.getBoundingClientRect();
    if (box.width > 0 && (box.left < dialog.left - 0.5 || box.right > dialog.right + 0.5)) {
      out.push(`${el.tagName}#${el.id}.${el.className}: ${box.left}-${box.right}`);
    }
  }
  return {left: dialog.left, right: dialog.right, out};
}"""


def test_the_share_dialog_fits_a_390_px_phone_with_close_in_reach(open_page, app_server):
    page = open_page(viewport=PHONE_390)
    open_share_dialog(page, app_server.url)
    preview = page.locator("#share-preview")
    # The preview is the embed laid out at the snippet's width (360 px), shown whole: scaled to the dialog.
    expect(preview).to_have_attribute("width", "360")
    assert preview.evaluate("(frame) => frame.offsetWidth") == 360
    page.wait_for_function(
        "() => document.getElementById('share-preview').getBoundingClientRect().right"
        " <= document.getElementById('share').getBoundingClientRect().right"
    )
    found = page.evaluate(OUTSIDE_THE_DIALOG)
    assert found["left"] >= 0 and found["right"] <= PHONE_390["width"], found
    assert not found["out"], found
    close = page.get_by_role("button", name="Close")
    # Close is on screen as the dialog opens, and stays there once it is scrolled to the end.
    for moment in ("top", "end"):
        if moment == "end":
            page.locator("#share").evaluate("(dialog) => { dialog.scrollTop = dialog.scrollHeight; }")
        expect(close).to_be_in_viewport(ratio=1)
        box = close.bounding_box()
        inside = box["x"] >= 0 and box["x"] + box["width"] <= PHONE_390["width"]
        assert inside and box["y"] >= 0 and box["y"] + box["height"] <= PHONE_390["height"], (moment, box)
    close.click()
    expect(page.get_by_role("dialog")).to_be_hidden()
