"""Properties, with Hypothesis: the engine on random positions, the API and /embed on hostile input.

Every test is derandomized with no example database, so a run is reproducible
and bounded by ``max_examples``.  Positions come from random play from the
empty board (every stone a drawn legal move), so they are reachable by
construction; the oracle for values is tests/minimax.py, which shares no code
with the engine.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from urllib.parse import urlencode

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context

from tests import minimax
from tests.oracle import check_against_oracle
from tests.strategies import SETTINGS, positions
from tictactoe import Board, IllegalMoveError, Rules, Solver, Symmetry


def text_images(rows: list[str]) -> list[list[str]]:
    """Every image of a board under the symmetries of its rectangle, by string operations.

    Written here, independently of the engine's permutations: the identity, the
    two mirrors and the half turn; on a square also the transpose, the
    anti-transpose and the two quarter turns.
    """

    def flip_rows(b):
        return b[::-1]

    def flip_cols(b):
        return [row[::-1] for row in b]

    images = [rows, flip_rows(rows), flip_cols(rows), flip_cols(flip_rows(rows))]
    if len(rows) == len(rows[0]):
        transposed = ["".join(col) for col in zip(*rows, strict=True)]
        images += [transposed, flip_rows(transposed), flip_cols(transposed), flip_cols(flip_rows(transposed))]
    return images


# -- the engine ----------------------------------------------------------------


@settings(max_examples=400, **SETTINGS)
@given(board=positions(), data=st.data())
def test_play_then_undo_restores_the_board(board, data):
    before = (board.x, board.o, list(board.history), board.to_text(), board.to_move)
    cell = data.draw(st.sampled_from(board.legal_moves()))
    board.play(cell)
    assert board.stones == len(before[2]) + 1 and board.to_move != before[4]
    assert board.undo() == cell
    assert (board.x, board.o, list(board.history), board.to_text(), board.to_move) == before
    # an occupied cell is refused and changes nothing
    if board.history:
        with pytest.raises(IllegalMoveError):
            board.play(board.history[-1])
        assert (board.x, board.o, list(board.history)) == (before[0], before[1], before[2])
    # undoing every move gets back to the empty board
    while board.history:
        board.undo()
    assert board == Board(board.rules) and board.stones == 0


@settings(max_examples=300, **SETTINGS)
@given(board=positions())
def test_the_canonical_key_is_the_same_for_every_symmetric_image(board):
    key = board.canonical_key()
    canon, symmetry = board.canonical()
    assert canon == board.transformed(symmetry)
    images = text_images(board.to_text())
    canonical_rows = key.split(":", 1)[1].split("/")
    assert canonical_rows in images  # the key names one of the board's own images
    k = board.rules.k
    for image in images:
        twin = Board.from_text(image, k=k)
        assert twin.canonical_key() == key, image
        assert twin.canonical()[0] == canon
    # the engine's symmetries are exactly the images found by string operations
    engine_images = {tuple(board.transformed(Symmetry(perm)).to_text()) for perm in board.geometry.symmetries}
    assert engine_images == {tuple(image) for image in images}


# Boards small enough for the oracle: (rules, fewest stones), so at most 9 cells are empty.
SMALL = [
    (Rules(3, 3, 3), 0),
    (Rules(3, 4, 3), 3),
    (Rules(3, 4, 4), 3),
    (Rules(4, 4, 3), 7),
    (Rules(4, 4, 4), 7),
]
_WARM: dict[Rules, Solver] = {}


@settings(max_examples=300, **SETTINGS)
@given(data=st.data())
def test_the_solver_agrees_with_brute_force_minimax(data):
    rules, fewest = data.draw(st.sampled_from(SMALL))
    board = data.draw(positions(rules=rules, min_moves=fewest, max_moves=rules.cells - 1))
    rows = tuple(board.to_text())
    assert not minimax.is_over(rows, rules.k)
    # a fresh solver, and one whose table is warm from the earlier examples
    check_against_oracle(rows, rules.k, Solver(rules))
    check_against_oracle(rows, rules.k, _WARM.setdefault(rules, Solver(rules)))


# -- the API on hostile input ------------------------------------------------------


@pytest.fixture(scope="module")
def app_settings():
    return {"SEARCH_BUDGET": "0.1"}


ENDPOINTS = ("/move", "/analyze", "/state")
# What a leaked Python error would show: its traceback's heading, or a frame of a file.
LEAKED = re.compile(r'Traceback \(most recent call last\)|File "[^"]*\.py", line \d+')
J = "application/json"


def check_answer(response) -> dict:
    """Never a 5xx; always JSON; a 4xx is exactly ``{"error": "<message>"}``; the body."""
    text = response.get_data(as_text=True)
    if currently_in_test_context():
        event(f"status {response.status_code}")  # shown by --hypothesis-show-statistics
    assert response.status_code < 500, text
    assert response.mimetype == "application/json", text
    body = json.loads(text)
    if response.status_code >= 400:
        assert set(body) == {"error"} and isinstance(body["error"], str) and body["error"], text
        # No traceback and no frame of the server's code (the message may echo a client's ".py").
        assert not LEAKED.search(body["error"]), text
    else:
        assert "error" not in body, text
    return body


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)
# Boards: positions of random play (mostly playable), grids of random stones
# (often impossible, 409), and rows of anything (400).
PLAYED = positions(sizes=st.integers(3, 6), max_moves=20).map(lambda board: board.to_text())
GRIDS = st.integers(3, 6).flatmap(
    lambda width: st.lists(st.text(alphabet="xXoO.", min_size=width, max_size=width), min_size=3, max_size=6)
)
ROWS = st.lists(st.text(alphabet="xXoO.q \u00e9\u2028", max_size=17), max_size=17)
FIELD_VALUES = {
    "board": PLAYED | GRIDS | ROWS | JSON_VALUES,
    "k": st.integers(3, 6) | st.integers(-2, 20) | st.integers() | JSON_VALUES,
    "level": st.sampled_from(["easy", "medium", "perfect", "PERFECT", ""]) | JSON_VALUES,
    "seed": st.integers(0, 2**63 - 1) | st.integers(-1, 2**64) | JSON_VALUES,
}
BODIES = (
    st.fixed_dictionaries(
        {"board": FIELD_VALUES["board"]},
        optional={name: FIELD_VALUES[name] for name in ("k", "level", "seed")},
    )
    | st.dictionaries(
        st.sampled_from(list(FIELD_VALUES)) | st.text(max_size=8), st.none(), max_size=5
    ).flatmap(
        lambda keys: st.fixed_dictionaries({name: FIELD_VALUES.get(name, JSON_VALUES) for name in keys})
    )
    | JSON_VALUES
)


@settings(max_examples=1000, **SETTINGS)
@given(path=st.sampled_from(ENDPOINTS), body=BODIES)
def test_any_json_body_gets_a_json_answer_never_a_5xx(client, path, body):
    response = client.post(path, data=json.dumps(body), content_type=J)
    answer = check_answer(response)
    if response.status_code != 200:
        return
    # a board request was accepted: the answer is about that very board
    posted = [row.lower() for row in body["board"]]
    if path == "/move":  # one stone more, on a cell that was empty
        cell = answer["move"]["row"], answer["move"]["col"]
        changed = [
            (r, c)
            for r, row in enumerate(posted)
            for c, char in enumerate(row)
            if answer["board"][r][c] != char
        ]
        assert changed == [cell] and posted[cell[0]][cell[1]] == "."
        assert answer["board"][cell[0]][cell[1]] == answer["player"]
    elif path == "/analyze":  # a value for every empty cell, the best among them
        empty = {(r, c) for r, row in enumerate(posted) for c, char in enumerate(row) if char == "."}
        assert {(m["row"], m["col"]) for m in answer["moves"]} == empty
        assert answer["best"] and {(m["row"], m["col"]) for m in answer["best"]} <= empty
    else:
        assert answer["board"] == posted


# Pieces of JSON and of things that are nearly JSON, put together at random.
FRAGMENTS = [
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    '"board"',
    '"k"',
    '"level"',
    '"seed"',
    '"x.."',
    '".o."',
    '"..."',
    "3",
    "-0",
    "1e999",
    "-1e999",
    "9" * 120,
    "1.5",
    "NaN",
    "Infinity",
    "-Infinity",
    "true",
    "null",
    '"\\ud800"',
    '"\\u0000"',
    '"\u00e9\u4e2d"',
    '"\\"',
    "\ufeff",
    " ",
    "\n",
    "//",
    "/*",
    "'x'",
    '"' + "y" * 300 + '"',
]


@settings(max_examples=1000, **SETTINGS)
@given(
    path=st.sampled_from(ENDPOINTS),
    body=st.lists(st.sampled_from(FRAGMENTS), max_size=30).map("".join) | st.binary(max_size=200),
)
def test_nearly_json_bytes_get_a_json_answer_never_a_5xx(client, path, body):
    check_answer(client.post(path, data=body, content_type=J))


HEADER_TEXT = st.text(
    st.characters(min_codepoint=0x20, max_codepoint=0xFF, blacklist_characters="\x7f"), max_size=40
)
CONTENT_TYPES = (
    st.sampled_from(
        [
            J,
            "APPLICATION/JSON",
            "application/json; charset=utf-8",
            "application/json; charset=latin-1",
            "application/json;;;",
            "application/jsonx",
            "text/json",
            "text/plain",
            "text/html",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=zz",
            "*/*",
            "",
            "application/json, text/plain",
        ]
    )
    | HEADER_TEXT
)


@settings(max_examples=500, **SETTINGS)
@given(
    path=st.sampled_from((*ENDPOINTS, "/healthz", "/stats", "/openapi.json", "/api/x")),
    method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH"]),
    content_type=CONTENT_TYPES,
    headers=st.dictionaries(
        st.sampled_from(
            [
                "Accept",
                "Accept-Encoding",
                "Accept-Language",
                "Origin",
                "Cookie",
                "X-Forwarded-For",
                "X-Forwarded-Proto",
                "If-None-Match",
                "Range",
                "Authorization",
                "X-Custom",
            ]
        ),
        HEADER_TEXT,
        max_size=4,
    ),
    accept_html=st.booleans(),
)
def test_random_headers_and_content_types_get_a_json_answer(
    client, path, method, content_type, headers, accept_html
):
    if accept_html:
        headers["Accept"] = "text/html,application/xhtml+xml,*/*;q=0.8"
    response = client.open(
        path,
        method=method,
        headers=headers,
        content_type=content_type,
        data=json.dumps({"board": ["x..", ".o.", "..."]}),
    )
    # API paths answer JSON even to a browser; the answer is never a 5xx
    # (/healthz may be 503 only when the cache fails, which it does not here).
    check_answer(response)


DEEP = [
    ("100k-nested-lists", "[" * 100_000 + "]" * 100_000, 413),
    ("100k-open-brackets", "[" * 100_000, 413),
    ("8k-nested-lists", "[" * 8_000 + "]" * 8_000, 400),
    ("nested-objects", '{"a":' * 2_000 + "1" + "}" * 2_000, 400),
    ("nested-in-board", '{"board": ["x..", ' + "[" * 5_000 + "]" * 5_000 + ', "..."]}', 400),
    ("nested-k", '{"board": ["x..", ".o.", "..."], "k": ' + "[" * 900 + "]" * 900 + "}", 400),
    (
        "nested-level",
        '{"board": ["x..", ".o.", "..."], "level": ' + '{"a":' * 900 + "1" + "}" * 900 + "}",
        400,
    ),
    ("duplicate-keys", '{"board": ["x..", ".o.", "..."], "level": "easy", "level": "perfect"}', 400),
    ("duplicate-board", '{"board": ["xx.", "...", "..."], "board": ["x..", ".o.", "..."]}', 400),
    ("huge-integer", '{"board": ["x..", ".o.", "..."], "k": ' + "9" * 5_000 + "}", 400),
    ("huge-seed", '{"board": ["x..", ".o.", "..."], "seed": ' + "9" * 99 + "}", 400),
    ("huge-float", '{"board": ["x..", ".o.", "..."], "k": 1e999}', 400),
    ("nan", '{"board": ["x..", ".o.", "..."], "seed": NaN}', 400),
    ("infinity", '{"board": ["x..", ".o.", "..."], "k": Infinity}', 400),
    ("minus-infinity", '{"board": ["x..", ".o.", "..."], "k": -Infinity}', 400),
    ("long-string", json.dumps({"board": ["x..", ".o.", "..."], "level": "z" * 16_000}), 400),
    ("long-row", json.dumps({"board": ["x" * 16_000]}), 400),
    ("long-field-name", json.dumps({"b" * 16_000: 1, "board": ["x..", ".o.", "..."]}), 400),
    ("many-rows", json.dumps({"board": ["..."] * 2_000}), 400),
    ("unicode-rows", json.dumps({"board": ["x\u00e9.", "\u4e2d..", "\U0001f600.."]}), 400),
    ("lone-surrogate", '{"board": ["x\\ud800.", ".o.", "..."]}', 400),
    ("nul-in-name", '{"board\\u0000": ["x..", ".o.", "..."]}', 400),
    ("bom", "\ufeff" + json.dumps({"board": ["x..", ".o.", "..."]}), 400),
    ("empty", "", 400),
    ("whitespace", " \n\t ", 400),
    ("valid", json.dumps({"board": ["x..", ".o.", "..."], "seed": 2**63 - 1}), 200),
]


@pytest.mark.parametrize("path", ENDPOINTS)
@pytest.mark.parametrize("body,status", [case[1:] for case in DEEP], ids=[c[0] for c in DEEP])
def test_hostile_bodies_are_refused_with_a_clear_status(client, path, body, status):
    response = client.post(path, data=body.encode("utf-8", "surrogatepass"), content_type=J)
    if path != "/move" and '"seed"' in body:
        status = 400  # only /move takes a seed: an unknown field elsewhere
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    check_answer(response)


def test_duplicate_fields_and_long_numbers_are_named_in_the_message(client):
    dup = client.post(
        "/move", content_type=J, data='{"board": ["x..", ".o.", "..."], "level": "easy", "level": "perfect"}'
    )
    assert dup.get_json() == {"error": 'field "level" is given twice: give each field once'}
    long_number = client.post(
        "/move", content_type=J, data='{"board": ["x..", ".o.", "..."], "k": ' + "9" * 5_000 + "}"
    )
    assert long_number.get_json()["error"] == (
        "the body is not valid JSON: a number has 5000 digits, more than 100"
    )


# -- /embed with script payloads -------------------------------------------------

PAYLOADS = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "'><svg onload=alert(1)>",
    "javascript:alert(1)",
    "</p><script src=//e.vil></script>",
    '" autofocus onfocus="alert(1)',
    "{{7*7}}",
    "${7*7}",
    "\u202e<b>",
    "<!--",
    "]]>",
    "\u2028\u2029<",
    "&lt;script&gt;",
    "%3Cscript%3E",
    "x\x00<i>",
]
EMBED_PARAMS = ["size", "rows", "cols", "k", "level", "side", "first", "theme", "utm_source", "<script>"]


class Tags(HTMLParser):
    """The start tags of a page, with their attributes."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, tuple]] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, tuple(attrs)))


ERROR_PAGE_TAGS = [
    ("html", (("lang", "en"),)),
    ("head", ()),
    ("meta", (("charset", "utf-8"),)),
    ("title", ()),
    ("body", ()),
    ("h1", ()),
    ("p", ()),
]


@pytest.fixture(scope="module")
def plain_embed(client):
    return client.get("/embed", headers={"Accept": "text/html"}).get_data(as_text=True)


@settings(max_examples=500, **SETTINGS)
@given(
    name=st.sampled_from(EMBED_PARAMS),
    payload=st.builds(
        lambda a, b, c: a + b + c,
        st.sampled_from(PAYLOADS),
        st.text(max_size=12),
        st.sampled_from(["", *PAYLOADS]),
    ),
    browser=st.booleans(),
)
def test_embed_never_reflects_a_payload_unescaped(client, plain_embed, name, payload, browser):
    headers = {"Accept": "text/html,*/*;q=0.8"} if browser else {}
    response = client.get("/embed?" + urlencode({name: payload}), headers=headers)
    text = response.get_data(as_text=True)
    assert response.status_code in (200, 400), text
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    if response.status_code == 200:
        # an unknown parameter is ignored: the very page served without it
        assert name in ("utm_source", "<script>") and text == plain_embed
        return
    if not browser:
        assert response.mimetype == "application/json"  # inert, with nosniff
        assert set(response.get_json()) == {"error"}
        return
    assert response.mimetype == "text/html"
    assert Tags(text).tags == ERROR_PAGE_TAGS  # no element or attribute came from the payload
    if any(char in payload for char in "<>\"'&"):
        assert payload not in text  # only its escaped form is in the page
