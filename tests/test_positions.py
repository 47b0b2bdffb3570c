"""GET /position through Flask's test client: the same analysis as POST /analyze, cacheable when proven.

The positions are drawn as boards; the query spells them as position text
(``x2/1o1/3``) or as their rows joined by ``/`` (``x../.o./...``).
"""

from __future__ import annotations

import pytest

from tictactoe import Board, MoveValue, Value
from tictactoe.game.notation import position_text
from tictactoe.search.analysis import exact_max_empties
from web.api.positions import position_etag
from web.assembly import create_app

# The one refusal of a finished game, whichever way it ended (tictactoe.errors.GameOverError).
GAME_OVER = "the game is over: there is no move to make"

IMMUTABLE = "public, max-age=31536000, immutable"
PER_REQUEST = {"cached", "nodes", "ms", "worker"}

EMPTY_15 = ["." * 15] * 15
POSITIONS = {
    #  x . .
    #  . o .     X to move: a draw
    #  . . .
    "3x3": (["x..", ".o.", "..."], None),
    #  x o x
    #  . o .     X to move: must block at the bottom middle
    #  . . .
    "3x3-block": (["xox", ".o.", "..."], None),
    "4x4-k4": (["x...", ".o..", "....", "...."], 4),
    #  x . . . .
    #  . o . . .
    #  . . x . .     O to move on 5x5, four in a row
    #  . . . . .
    #  . . . . .
    "5x5-k4-early": (["x....", ".o...", "..x..", ".....", "....."], 4),
    "15x15-unproven": (EMPTY_15, None),
}


@pytest.fixture(scope="module")
def app_settings():
    # A short budget keeps 15x15 quick; it stays unproven at any budget a test can afford.
    return {"SEARCH_BUDGET": "1"}


def get(client, board: str, k: int | None = None, **headers):
    query = {"board": board} if k is None else {"board": board, "k": str(k)}
    return client.get("/position", query_string=query, headers=headers)


def ranks(moves: list[dict]) -> list[tuple[int, int]]:
    return [MoveValue(Value(m["value"]), m["plies"]).rank() for m in moves]


@pytest.mark.parametrize("name", list(POSITIONS))
def test_the_answer_is_analyze_s_about_the_position_with_moves_best_first(client, name):
    rows, k = POSITIONS[name]
    posted = client.post("/analyze", json={"board": rows, **({"k": k} if k else {})})
    assert posted.status_code == 200
    analysis = posted.get_json()
    response = get(client, position_text(rows), k)
    assert response.status_code == 200
    answer = response.get_json()
    # /analyze's fields about the position, then what the rule ladder says (null off 3x3); each move
    # with its reason in words besides (tests/test_puzzles_api.py reads them).
    assert list(answer) == [*(field for field in analysis if field not in PER_REQUEST), "rule"]
    assert (answer["rule"] is None) == (len(rows) != 3)
    reasons = [m.pop("reason") for m in answer["moves"]]
    assert all(reason is None or isinstance(reason, str) for reason in reasons)
    del answer["rule"]
    by_cell = sorted(answer["moves"], key=lambda m: (m["row"], m["col"]))
    if analysis["proven"]:
        # The GET was a cache hit of what the POST proved: the very same facts.
        assert {**answer, "moves": by_cell} == {f: v for f, v in analysis.items() if f not in PER_REQUEST}
        assert answer["source"] in {"proof", "book", "threats"}
        assert ranks(answer["moves"]) == sorted(ranks(answer["moves"]), reverse=True)
        assert answer["moves"][0]["best"] and len(answer["best"]) >= 1
    else:
        # Unproven: two searches within a budget may differ in their guess, not in the form.
        assert answer["value"] is answer["plies"] is None
        assert answer["source"] == analysis["source"] == "heuristic"
        assert [(m["row"], m["col"]) for m in by_cell] == [(m["row"], m["col"]) for m in analysis["moves"]]
        assert [(m["row"], m["col"]) for m in answer["moves"]] == [
            (m["row"], m["col"]) for m in by_cell
        ]  # row by row when nothing is known


def test_a_proven_answer_is_immutable_with_a_strong_etag(client):
    response = get(client, "x2/1o1/3")
    assert response.headers["Cache-Control"] == IMMUTABLE
    etag = response.headers["ETag"]
    assert etag.startswith('"') and etag.endswith('"') and not etag.startswith("W/")
    # Security headers still apply.
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert "Content-Security-Policy" in response.headers


@pytest.mark.parametrize("spelling", ["x2/1o1/3", "x../.o./...", "X2/1O1/3", "x../1o./3"])
def test_every_spelling_of_one_position_gets_one_etag_and_one_body(client, spelling):
    reference = get(client, "x2/1o1/3")
    response = get(client, spelling)
    assert response.headers["ETag"] == reference.headers["ETag"]
    assert response.data == reference.data


def test_the_searched_answer_and_the_cached_one_are_the_same_bytes(client):
    #  . . . .
    #  . x . .     O to move on 4x4, three in a row: asked here for the first time
    #  . . . .
    #  . . . .
    before = client.get("/stats").get_json()["worker"]
    searched = get(client, "4/1x2/4/4")
    middle = client.get("/stats").get_json()["worker"]
    cached = get(client, "4/1x2/4/4")
    after = client.get("/stats").get_json()["worker"]
    assert middle["searches"] - before["searches"] == 1
    assert (after["hits"] - middle["hits"], after["searches"] - middle["searches"]) == (1, 0)
    assert searched.data == cached.data and searched.headers["ETag"] == cached.headers["ETag"]


def test_the_default_k_and_the_same_k_spelled_out_get_one_etag(client):
    assert get(client, "x2/1o1/3").headers["ETag"] == get(client, "x2/1o1/3", 3).headers["ETag"]


def test_other_positions_and_other_k_get_other_etags(client):
    tags = {
        get(client, text, k).headers["ETag"]
        for text, k in [("x2/1o1/3", None), ("2x/1o1/3", None), ("x3/1o2/4/4", 3), ("x3/1o2/4/4", 4)]
    }
    assert len(tags) == 4


@pytest.mark.parametrize(
    "if_none_match",
    [
        "{tag}",
        "W/{tag}",
        '"other", {tag}',
        "*",
    ],
)
def test_a_matching_if_none_match_gets_304_with_no_body(client, if_none_match):
    tag = get(client, "x2/1o1/3").headers["ETag"]
    response = get(client, "x../.o./...", **{"If-None-Match": if_none_match.format(tag=tag)})
    assert response.status_code == 304
    assert response.data == b""
    assert response.headers["ETag"] == tag
    assert response.headers["Cache-Control"] == IMMUTABLE


def test_a_304_needs_no_lookup_and_no_search(client):
    # A position nobody asked for: the ETag alone answers, the cache is not touched.
    text = "x3/4/2o1/4"
    tag = get(client, "x3/4/2o1/4").headers["ETag"]
    before = client.get("/stats").get_json()["worker"]
    response = get(client, text, **{"If-None-Match": tag})
    after = client.get("/stats").get_json()["worker"]
    assert response.status_code == 304
    assert {n: after[n] - before[n] for n in ("hits", "misses", "searches")} == {
        "hits": 0,
        "misses": 0,
        "searches": 0,
    }


def test_a_gzipped_answer_has_its_own_etag_and_a_304_for_it_needs_no_lookup(client):
    # Flask-Compress names the gzipped bytes "<tag>:gzip"; the 304 comes before any lookup all the same.
    text = "2o1/4/x3/4"
    plain = get(client, text).headers["ETag"]
    gzipped = get(client, text, **{"Accept-Encoding": "gzip"})
    assert gzipped.headers["Content-Encoding"] == "gzip"
    assert gzipped.headers["ETag"] == plain[:-1] + ':gzip"'
    before = client.get("/stats").get_json()["worker"]
    response = get(client, text, **{"Accept-Encoding": "gzip", "If-None-Match": gzipped.headers["ETag"]})
    after = client.get("/stats").get_json()["worker"]
    assert response.status_code == 304 and response.data == b""
    assert response.headers["ETag"] == gzipped.headers["ETag"]
    assert {n: after[n] - before[n] for n in ("hits", "misses", "searches")} == {
        "hits": 0,
        "misses": 0,
        "searches": 0,
    }


def test_a_stale_if_none_match_gets_the_full_answer(client):
    response = get(client, "x2/1o1/3", **{"If-None-Match": '"not-this-one"'})
    assert response.status_code == 200 and response.get_json()["value"] == "draw"


def test_an_unproven_answer_is_no_store_without_an_etag(client):
    response = get(client, "/".join(["15"] * 15))
    assert response.status_code == 200 and not response.get_json()["proven"]
    assert response.headers["Cache-Control"] == "no-store"
    assert "ETag" not in response.headers
    # Not even a guessed ETag turns a position that cannot be proven into a 304.
    assert get(client, "/".join(["15"] * 15), **{"If-None-Match": "*"}).status_code == 200


BAD = [
    ("missing board", {}, 400, "board is required"),
    ("unknown parameter", {"board": "3/3/3", "depth": "2"}, 400, "unknown parameter 'depth'"),
    ("wrong row lengths", {"board": "x2/1o/3"}, 400, "row 0 has 3 cells, row 1 has 2"),
    ("bad character", {"board": "x2/1q1/3"}, 400, "row 1, character 1: bad character 'q'"),
    ("zero run", {"board": "0/3/3"}, 400, "without leading zeros"),
    ("run overflows its row", {"board": "x2/1o3/3"}, 400, "row 0 has 3 cells, row 1 has 5"),
    ("run longer than any row", {"board": "16/3/3"}, 400, "a run of 16 empty cells"),
    ("row past the largest board", {"board": "x15/3/3"}, 400, "row 0 has more than 15 cells"),
    ("empty row", {"board": "3//3"}, 400, "row 1 is empty"),
    ("too many rows", {"board": "/".join(["3"] * 16)}, 400, "16 rows, more than 15"),
    ("too few rows", {"board": "3/3"}, 400, "rows must be between 3 and 15, not 2"),
    ("k not a number", {"board": "3/3/3", "k": "three"}, 400, "k must be a whole number"),
    ("k negative", {"board": "3/3/3", "k": "-3"}, 400, "k must be a whole number"),
    ("k out of range", {"board": "3/3/3", "k": "4"}, 400, "k must be between 3 and 3"),
    ("game over (a line)", {"board": "xxx/oo1/3"}, 409, GAME_OVER),
    ("game over (full)", {"board": "xox/xox/oxo"}, 409, GAME_OVER),
    ("unreachable counts", {"board": "xx1/3/3"}, 409, "impossible counts"),
    ("unreachable play after a line", {"board": "xxx/ooo/3"}, 409, ""),
]


@pytest.mark.parametrize(
    ("query", "status", "message"), [case[1:] for case in BAD], ids=[case[0] for case in BAD]
)
def test_bad_queries_get_a_clear_json_error_that_is_not_stored(client, query, status, message):
    response = client.get("/position", query_string=query)
    assert response.status_code == status
    assert response.mimetype == "application/json"
    assert message in response.get_json()["error"]
    assert response.headers["Cache-Control"] == "no-store"
    assert "ETag" not in response.headers


def test_a_parameter_given_twice_is_refused(client):
    response = client.get("/position?board=3/3/3&board=x2/3/3")
    assert response.status_code == 400
    assert "given more than once" in response.get_json()["error"]


def test_errors_are_json_even_for_a_browser(client):
    response = client.get("/position?board=3", headers={"Accept": "text/html"})
    assert response.status_code == 400 and response.mimetype == "application/json"


def test_post_is_not_allowed_and_says_so(client):
    response = client.post("/position", json={"board": ["..."] * 3})
    assert response.status_code == 405 and "use GET" in response.get_json()["error"]


def test_its_searches_share_the_client_s_allowance_and_what_is_known_stays_free(tmp_path):
    #  x . . .     . x . .     . . . .
    #  . o . .     . . o .     . x . .     4x4 k=4, 14 empty cells: each a search the first time
    #  . . . .     . . . .     . . o .
    #  . . . .     . . . .     . . . .
    settings = {"CACHE_DIR": str(tmp_path / "cache"), "SEARCH_SECONDS_PER_MINUTE": "0.000001"}
    client = create_app(settings).test_client()
    first = get(client, "x3/1o2/4/4", k=4)
    assert first.status_code == 200
    refused = get(client, "1x2/2o1/4/4", k=4)
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert refused.headers["Cache-Control"] == "no-store" and "ETag" not in refused.headers
    third = ["....", ".x..", "..o.", "...."]
    assert client.post("/analyze", json={"board": third, "k": 4}).status_code == 429
    # Known positions, revalidations and small positions cost nothing.
    assert get(client, "3x/2o1/4/4", k=4).status_code == 200  # a mirror image of the first: a cache hit
    assert get(client, "x2/3/3").status_code == 200  # 3x3: never charged
    assert get(client, "x3/1o2/4/4", k=4, **{"If-None-Match": first.headers["ETag"]}).status_code == 304


#  . o . . . x
#  . . . . o x
#  . . . . o .     5x6 k=4, X to move, 23 empty cells: within what the solver is tried on,
#  . . . . . x     yet not proven even in a whole second (a heuristic answer)
#  . . x . . .
UNPROVEN_5X6 = "1o3x/4ox/4o1/5x/2x3"


@pytest.fixture(scope="module")
def short_budget(tmp_path_factory):
    return create_app({"CACHE_TYPE": "null", "SEARCH_BUDGET": "0.05"}).test_client()


def test_if_none_match_star_on_an_unproven_answer_is_the_full_answer_never_immutable(short_budget):
    board = Board.from_position_text(UNPROVEN_5X6, k=4)
    assert board.empty.bit_count() <= exact_max_empties(board.rules)  # a tag could have been given
    response = get(short_budget, UNPROVEN_5X6, 4, **{"If-None-Match": "*"})
    assert response.status_code == 200 and response.get_json()["proven"] is False
    assert response.headers["Cache-Control"] == "no-store" and "ETag" not in response.headers


@pytest.mark.parametrize("if_match", ['"not-this-one"', "W/{tag}", '"other", W/{tag}'])
def test_an_if_match_that_names_no_tag_of_the_answer_is_412_in_words(client, if_match):
    tag = get(client, "x2/1o1/3").headers["ETag"]
    response = get(client, "x2/1o1/3", **{"If-Match": if_match.format(tag=tag)})
    assert response.status_code == 412 and response.mimetype == "application/json"
    assert "If-Match names no tag of this position's answer" in response.get_json()["error"]
    assert response.headers["Cache-Control"] == "no-store" and "ETag" not in response.headers


@pytest.mark.parametrize("if_match", ["{tag}", '"other", {tag}', "*"])
def test_an_if_match_that_names_the_answer_s_tag_gets_the_answer(client, if_match):
    tag = get(client, "x2/1o1/3").headers["ETag"]
    response = get(client, "x2/1o1/3", **{"If-Match": if_match.format(tag=tag)})
    assert response.status_code == 200 and response.headers["ETag"] == tag
    # If-Match is checked first, then If-None-Match: both hold here, so a 304.
    both = get(client, "x2/1o1/3", **{"If-Match": if_match.format(tag=tag), "If-None-Match": tag})
    assert both.status_code == 304


def test_an_unproven_answer_has_no_tag_so_only_if_match_star_holds(short_budget):
    tag = position_etag(Board.from_position_text(UNPROVEN_5X6, k=4))
    refused = get(short_budget, UNPROVEN_5X6, 4, **{"If-Match": tag})
    assert refused.status_code == 412 and "not proven has none" in refused.get_json()["error"]
    assert get(short_budget, UNPROVEN_5X6, 4, **{"If-Match": "*"}).status_code == 200


def test_if_match_takes_a_gzipped_copy_s_tag_too(client):
    gzipped = get(client, "x2/1o1/3", **{"Accept-Encoding": "gzip"}).headers["ETag"]
    assert gzipped.endswith(':gzip"')
    assert get(client, "x2/1o1/3", **{"If-Match": gzipped}).status_code == 200
