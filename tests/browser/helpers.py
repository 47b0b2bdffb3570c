"""What the browser tests do to the board: read it, wait for the engine, choose drawing moves."""

from __future__ import annotations

import json
import re
import urllib.request

from playwright.sync_api import Frame, Page

from tests.servers import ROOT

ARTIFACTS = ROOT / "test-artifacts"
# How the tests launch Debian's Chromium, and the page sizes they open.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
    # Pages share two renderer processes instead of starting one per context and per
    # site: about 7% less time for the browser tests on two cores (the same pages,
    # the same origins and CSP; only the process model differs).
    "--renderer-process-limit=2",
    "--disable-site-isolation-trials",
]
DESKTOP = {"width": 1200, "height": 860}
PHONE = {"width": 360, "height": 740}
# A laptop and a phone in the hand (touch), as a player meets the page: each the options of a new page.
LAPTOP_AND_PHONE = {
    "1280x800": {"viewport": {"width": 1280, "height": 800}},
    "390x844 touch": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
}

READ_BOARD = """() => {
  const grid = document.getElementById('board');
  const rows = Number(grid.getAttribute('aria-rowcount'));
  const cols = Number(grid.getAttribute('aria-colcount'));
  const board = Array.from({length: rows}, () => Array(cols).fill('.'));
  for (const cell of grid.querySelectorAll('button[data-row]')) {
    const mark = cell.classList.contains('x') ? 'x' : cell.classList.contains('o') ? 'o' : '.';
    board[Number(cell.dataset.row)][Number(cell.dataset.col)] = mark;
  }
  return board.map((row) => row.join(''));
}"""

# The page is settled when the game is over, or when the human may play and
# the board holds the expected number of stones.
SETTLED = """(stones) => {
  const status = document.getElementById('status');
  const grid = document.getElementById('board');
  if (status.dataset.status && status.dataset.status !== 'in_progress') return true;
  return grid.getAttribute('aria-busy') === 'false' && grid.dataset.turn !== '' &&
    grid.querySelectorAll('.cell.x, .cell.o').length === stones;
}"""


def read_board(page: Page | Frame) -> list[str]:
    """The board as row strings (x, o, .), read from the cells' classes."""
    return page.evaluate(READ_BOARD)


def stones(board: list[str]) -> int:
    """How many stones a board holds."""
    return sum(ch != "." for row in board for ch in row)


def wait_settled(page: Page | Frame, count: int) -> None:
    """Wait until the game is over, or it is a human's turn with ``count`` stones on the board."""
    page.wait_for_function(SETTLED, arg=count)


COLUMNS = "abcdefghijklmnopqrstuvwxyz"


def cell(row: int, col: int) -> str:
    """A cell's name from the API's 0-based row and column: column letter, row number from the top (b2)."""
    return f"{COLUMNS[col]}{row + 1}"


def cell_name(row: int, col: int, content: str = "empty") -> str:
    """The accessible name prefix of a cell button (the API's 0-based row and column), e.g. "b2, empty"."""
    return f"{cell(row, col)}, {content}"


def analysis(server, board: list[str], k: int) -> dict:
    """The server's analysis of a position (POST /analyze)."""
    return post_json(server, "/analyze", {"board": board, "k": k})


def drawing_move(server, board: list[str], k: int) -> tuple[int, int]:
    """A move that does not lose (the first in row order that /analyze values as a win or a draw)."""
    moves = analysis(server, board, k)["moves"]
    for move in sorted(moves, key=lambda m: (m["row"], m["col"])):
        if move["value"] in ("win", "draw"):
            return move["row"], move["col"]
    raise AssertionError(f"every move loses on {board}: {moves}")


def post_json(server, path: str, payload: dict) -> dict:
    """POST JSON to the app and return the decoded answer (raises on an HTTP error)."""
    request = urllib.request.Request(
        server.url + path, data=json.dumps(payload).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def snapshot(page: Page, name: str) -> None:
    """Save a screenshot of the page as it is now into test-artifacts/ (for a state mid-test)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{re.sub(r'[^A-Za-z0-9_.-]+', '_', name)}.png"), full_page=True)


def console_errors(page: Page) -> list[str]:
    """A list that collects every console error of the page from now on (a failed request logs one too)."""
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return errors


def expect_board(page: Page | Frame, rows: list[str]) -> None:
    """Wait until the board shows ``rows`` (a redraw waits for the next animation frame)."""
    page.wait_for_function(f"() => ({READ_BOARD})().join('/') === {'/'.join(rows)!r}")


# Where the review's move list is, against the viewport's height.
LIST_BOX = """() => {
  const list = document.getElementById('review-moves').getBoundingClientRect();
  return {top: list.top, bottom: list.bottom, height: list.height, viewport: window.innerHeight};
}"""


def assert_list_in_view(page: Page | Frame) -> None:
    """The review's whole move list is inside the viewport (of the page, or of a frame's document)."""
    box = page.evaluate(LIST_BOX)
    assert box["height"] > 0 and box["top"] >= 0 and box["bottom"] <= box["viewport"], box


# The top of the board, the status line's height and whether its words were cut, recorded at every
# change of the status line (its words, a refusal's countdown, the spinner): a status that took more
# room would move the board under the player's finger.
WATCH_THE_BOARD = """() => {
  window.boardSeen = {tops: new Set(), heights: new Set(), cut: 0};
  const record = () => {
    window.boardSeen.tops.add(document.getElementById('board').getBoundingClientRect().top);
    window.boardSeen.heights.add(document.querySelector('.status-bar').getBoundingClientRect().height);
    const line = document.querySelector('.status-line');
    if (line.scrollHeight > line.clientHeight) window.boardSeen.cut++;
  };
  record();
  new MutationObserver(record).observe(document.querySelector('.status-bar'),
    {childList: true, characterData: true, subtree: true, attributes: true});
}"""


def watch_the_board(page: Page | Frame) -> None:
    """From now on, record the board's top and the status line's box at every change of the status line."""
    page.evaluate(WATCH_THE_BOARD)


def assert_the_board_stayed(page: Page | Frame) -> None:
    """Since ``watch_the_board``: one top of the board, one height of the status line, no words cut."""
    seen = page.evaluate(
        "() => ({tops: [...window.boardSeen.tops], heights: [...window.boardSeen.heights],"
        " cut: window.boardSeen.cut})"
    )
    assert len(seen["tops"]) == 1 and len(seen["heights"]) == 1 and seen["cut"] == 0, seen
