"""The page reads and writes the server's notations as the server does.

The same cases go through the server's Python (``tictactoe/game/notation.py``,
``web/pages/routes.py``) and, under node, through the page's modules
(``tests/js/server_cases.mjs`` over static/js's cells.js, position-text.js and
links.js).  The page checks syntax only and leaves the rest to the server, so
the contract is one-sided where the page is the more lenient reader: whatever
the server reads, the page reads the same way; whatever the page refuses, the
server refuses too.
"""

from __future__ import annotations

import functools
import itertools
import json
import random
import shutil
import subprocess

from werkzeug.datastructures import MultiDict

from tests.servers import ROOT
from tictactoe import LEVELS, BoardFormatError, Rules
from tictactoe.game.notation import cell_from_label, cell_label, position_text, rows_from_position_text
from web.http.errors import ApiError
from web.pages.routes import EmbedSettings, embed_settings

HARNESS = ROOT / "tests" / "js" / "server_cases.mjs"

# Position texts, as people type them and as they break: runs, dots, upper case, and every
# kind of refusal the server has (a zero, a leading zero, a run past 15, a stray character,
# an empty row, rows of unequal width, more rows or cells than 15).
HAND_TEXTS = [
    "x2/1o1/3",
    "x../.o./...",
    "X2/1O1/3",
    "x.1/1o./3",
    "3/3/3",
    "xox/xoo/oxx",
    "15/15/15",
    "/".join(["15"] * 15),
    "x2/1o1",
    "12/12/12",
    "0/3/3",
    "x02/3/3",
    "16/16/16",
    "x2//3",
    "x2/1o1/4",
    "",
    "/",
    "x2/1o1/3/",
    "a2/3/3",
    "x2 /3/3",
    "x2/3/3\n",
    "/".join(["3"] * 16),
    "x" * 16 + "/3/3",
    "999999",
]
# Characters for random texts: the notation's own, upper case, and a few it refuses.
TEXT_ALPHABET = "xo.XO0123456789//a -"


def random_board(rng: random.Random) -> list[str]:
    """A board of random size (3 to 15 a side) with a random share of random stones."""
    rows, cols = rng.randint(3, 15), rng.randint(3, 15)
    fill = rng.choice([0.0, 0.1, 0.5, 1.0])

    def cell() -> str:
        return rng.choice("xo") if rng.random() < fill else "."

    return ["".join(cell() for _ in range(cols)) for _ in range(rows)]


def server_rows(text: str) -> list[str] | None:
    """The rows the server reads from a position text (stones in lower case), or None when it refuses it."""
    try:
        rows = rows_from_position_text(text)
    except BoardFormatError:
        return None
    if len({len(row) for row in rows}) != 1:
        return None  # Board.from_text refuses rows of unequal width
    return [row.lower() for row in rows]


def server_link(params: dict[str, str]) -> EmbedSettings | None:
    """/embed's reading of the parameters, or None when it answers 400."""
    try:
        return embed_settings(MultiDict(params))
    except ApiError:
        return None


def read_by_both(case: object, server_reading: object, *, page_refused: bool) -> bool:
    """Whether the server and the page both read ``case``; fails if the page refuses what the server reads."""
    assert not (page_refused and server_reading is not None), case
    return server_reading is not None


def page_readings(cases: dict) -> dict:
    """What the page's modules make of ``cases`` (see server_cases.mjs for both shapes)."""
    node = shutil.which("node")
    assert node is not None, "node is not installed"
    done = subprocess.run(
        [node, str(HARNESS)], input=json.dumps(cases), capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@functools.cache
def cases() -> tuple[dict, dict]:
    """The cases (seeded) and the page's readings of them, computed once for every test here."""
    rng = random.Random(25)
    boards = [["...", "...", "..."], ["xox", "xoo", "oxx"], ["." * 15] * 15, ["x" * 15] * 15]
    boards += [random_board(rng) for _ in range(300)]
    texts = HAND_TEXTS + [position_text(board) for board in boards]
    # The same boards written out with a dot a cell, and with upper-case stones.
    texts += ["/".join(board).upper() for board in boards[:50]]
    texts += ["".join(rng.choice(TEXT_ALPHABET) for _ in range(rng.randint(1, 20))) for _ in range(1000)]
    links = link_cases()
    given = {
        "positionTexts": texts,
        "boards": boards,
        "cells": [[row, col] for row in range(15) for col in range(15)],
        "links": links,
    }
    return given, page_readings(given)


def link_cases() -> list[dict[str, str]]:
    """Parameters that game links and /embed share: size and k in every pairing, size alone, level, side."""
    sizes = ["3x3", "4x4", "5x5", "15x15", "3x15", "7x5", "03x03", "2x2", "16x16", "99x99", "100x3"]
    sizes += ["3X3", "3x3\n", " 3x3", "3 x 3", "x3", "3x", "3x3x3", "", "٣x٣"]
    ks = ["3", "4", "5", "9", "15", "03", "0", "2", "100", "", "4\n", "+4", "4.0", "٤"]
    links = [{"size": size, "k": k} for size, k in itertools.product(sizes, ks)]
    # Without k, both take the API's default for the size (5x5: five in a row, not its preset's four).
    links += [{"size": size} for size in sizes]
    for level in [*LEVELS, "", "hard", "Perfect", "perfect "]:
        links.append({"size": "3x3", "k": "3", "level": level})
    for side in ["x", "o", "", "X", "z", "xo"]:
        links.append({"size": "3x3", "k": "3", "side": side})
    return links


def test_the_page_reads_every_position_text_the_server_reads_the_same_way():
    given, page = cases()
    read = 0
    for text, page_rows in zip(given["positionTexts"], page["fromText"], strict=True):
        rows = server_rows(text)
        if read_by_both(text, rows, page_refused=page_rows is None):
            read += 1
            assert page_rows == rows, text
    # The cases hold both texts the server reads and texts it refuses.
    assert 300 < read < len(given["positionTexts"])


def test_the_page_writes_the_servers_normal_form():
    given, page = cases()
    for board, text in zip(given["boards"], page["toText"], strict=True):
        assert text == position_text(board), board


def test_the_page_names_every_cell_of_15x15_as_the_server_does():
    given, page = cases()
    rules = Rules(15, 15, 5)
    for (row, col), name, parsed in zip(given["cells"], page["cellNames"], page["parsedNames"], strict=True):
        assert name == cell_label(rules, rules.cell(row, col))
        assert parsed == {"row": row, "col": col}
        assert cell_from_label(rules, name) == rules.cell(row, col)  # a game link's moves, read for its card


def test_a_game_link_reads_size_k_level_and_side_as_embed_does():
    given, page = cases()
    accepted = 0
    for params, link in zip(given["links"], page["links"], strict=True):
        server = server_link(params)
        if read_by_both((params, link), server, page_refused="error" in link):
            accepted += 1
            settings = link["settings"]
            size = (settings["rows"], settings["cols"], settings["k"])
            assert size == (server.rows, server.cols, server.k), params
            if "level" in params:
                assert settings["level"] == server.level, params
            if "side" in params:
                assert settings["human"] == server.side, params
    assert 0 < accepted < len(given["links"])
