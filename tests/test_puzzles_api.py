"""The puzzles' API and pages: lists and puzzles cacheable with ETags, moves judged by the engine, the page
for a browser at the same addresses, the embed of a puzzle; and GET /position's reasons in words."""

from __future__ import annotations

import re

import pytest

from tictactoe import Task, puzzle_set

PUZZLES = puzzle_set()
# The two-step save of tests/test_puzzles.py: O to move on ..x / x.. / .o.; b2, then a1, then c2.
SAVE = next(p for p in PUZZLES if p.position == "2x/x2/1o1")
PAGE = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"  # what a browser sends


def cell(row: int, col: int) -> dict[str, int]:
    return {"row": row, "col": col}


def test_a_puzzle_says_what_it_asks_and_keeps_its_solution(client):
    answer = client.get(f"/puzzles/{SAVE.id}")
    assert answer.status_code == 200
    body = answer.get_json()
    assert body == {
        "id": SAVE.id,
        "rows": 3,
        "cols": 3,
        "k": 3,
        "board": ["..x", "x..", ".o."],
        "position": "2x/x2/1o1",
        "player": "o",
        "task": "draw",
        "within": None,
        "goal": "O to play and save the draw",
        "moves": 3,
        "difficulty": SAVE.difficulty,
        "rating": SAVE.rating,
        "tempting": SAVE.tempting,
        "source": "every 3x3 position",
        "link": f"/puzzles/{SAVE.id}",
        "embed": f"/embed?puzzle={SAVE.id}",
    }


def test_the_gets_are_cacheable_and_a_matching_etag_gets_304(client):
    for path in (f"/puzzles/{SAVE.id}", "/puzzles?board=3x3k3&task=draw", "/puzzles/daily"):
        answer = client.get(path)
        tag = answer.headers["ETag"]
        assert re.fullmatch(r'"[0-9a-f]{32}"', tag), path
        assert answer.headers["Cache-Control"].startswith("public, max-age="), path
        assert "Accept" in answer.headers["Vary"], path
        again = client.get(path, headers={"If-None-Match": tag})
        assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == tag, path


def test_the_list_pages_through_a_board_and_task_in_id_order(client):
    first = client.get("/puzzles?board=3x3k3&task=draw&limit=50").get_json()
    assert first["total"] == 85 and len(first["puzzles"]) == 50
    rest = client.get(f"/puzzles?board=3x3k3&task=draw&limit=50&after={first['next']}").get_json()
    ids = [p["id"] for p in first["puzzles"] + rest["puzzles"]]
    assert ids == sorted(ids) and len(set(ids)) == 85 and rest["next"] is None
    assert {p["task"] for p in first["puzzles"]} == {"draw"}
    everything = client.get("/puzzles?limit=100").get_json()
    assert everything["total"] == len(PUZZLES)


def test_the_daily_puzzle_is_fresh_until_the_day_ends(client):
    answer = client.get("/puzzles/daily")
    body = answer.get_json()
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", body["date"])
    assert PUZZLES.get(body["puzzle"]["id"]) is not None
    max_age = int(answer.headers["Cache-Control"].rsplit("=", 1)[1])
    assert 1 <= max_age <= 86_400


def test_a_right_move_gets_the_answer_and_the_next_step(client):
    answer = client.post(f"/puzzles/{SAVE.id}/moves", json={"moves": [cell(1, 1)]})
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    body = answer.get_json()
    assert (body["correct"], body["solved"], body["revealed"]) == (True, False, False)
    assert body["reply"] == cell(0, 1) and body["refutation"] is None
    assert body["board"] == [".xx", "xo.", ".o."]
    assert body["words"].startswith("Right: b2 blocks the fork at b2.")
    moves = [cell(*SAVE.rules.row_col(step.move)) for step in SAVE.steps]
    solved = client.post(f"/puzzles/{SAVE.id}/moves", json={"moves": moves}).get_json()
    assert solved["solved"] and solved["words"].endswith("Solved: the draw is safe from here.")
    assert solved["line"] == [cell(*SAVE.rules.row_col(c)) for c in SAVE.line]


def test_a_wrong_move_is_refused_with_its_reason_and_the_board_as_it_was(client):
    body = client.post(f"/puzzles/{SAVE.id}/moves", json={"moves": [cell(0, 0)]}).get_json()
    assert (body["correct"], body["solved"]) == (False, False)
    assert body["refutation"] == cell(1, 1) and body["reply"] is None
    assert body["board"] == ["..x", "x..", ".o."]
    assert body["words"] == (
        "Not a1: it blocks the fork at a1, but X answers b2, which makes a fork, and X wins. Try again."
    )


def test_reveal_shows_the_next_move(client):
    body = client.post(f"/puzzles/{SAVE.id}/moves", json={"moves": [], "reveal": True}).get_json()
    assert body["correct"] and body["revealed"] and body["move"] == cell(1, 1)


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"moves": [cell(0, 0), cell(2, 2)]}, 409, "move 1 (a1) is not the puzzle's"),
        ({"moves": [cell(0, 2)]}, 409, "c1 is taken"),
        ({"moves": [cell(5, 5)]}, 409, "(5, 5) is not a cell of this puzzle's 3x3 k=3 board"),
        ({"moves": []}, 409, "moves is empty"),
        ({}, 400, "moves is required"),
        ({"moves": "b2"}, 400, "moves must be an array of cells"),
        ({"moves": [{"row": 1}]}, 400, 'move 1 must be an object {"row": r, "col": c}'),
        ({"moves": [cell(1, 1)], "reveal": "yes"}, 400, "reveal must be true or false"),
        ({"moves": [cell(1, 1)], "hint": True}, 400, "unknown field"),
    ],
)
def test_a_move_the_puzzle_refuses_gets_a_4xx_in_words(client, body, status, words):
    answer = client.post(f"/puzzles/{SAVE.id}/moves", json=body)
    assert answer.status_code == status
    assert words in answer.get_json()["error"]


@pytest.mark.parametrize(
    ("path", "status", "words"),
    [
        ("/puzzles/3x3k3-000000", 404, "no puzzle has the id"),
        ("/puzzles?board=7x7k5", 400, "board must be one of 3x3k3"),
        ("/puzzles?task=lose", 400, "task must be one of win, draw"),
        ("/puzzles?limit=0", 400, "limit must be a whole number from 1 to 100"),
        ("/puzzles?after=b2", 400, "after must be a puzzle's id"),
        ("/puzzles?board=3x3k3&board=4x4k4", 400, "given more than once"),
        ("/puzzles?page=2", 400, "unknown parameter 'page'"),
        (f"/puzzles/{SAVE.id}?x=1", 400, "it takes no parameters"),
    ],
)
def test_a_bad_read_gets_a_4xx_in_words(client, path, status, words):
    answer = client.get(path)
    assert answer.status_code == status
    assert words in answer.get_json()["error"]
    post = client.post("/puzzles/3x3k3-000000/moves", json={"moves": [cell(1, 1)]})
    assert post.status_code == 404


def test_a_browser_gets_the_puzzles_page_at_the_same_addresses(client):
    for path, start in (("/puzzles", ""), (f"/puzzles/{SAVE.id}", SAVE.id), ("/puzzles/daily", "daily")):
        page = client.get(path, headers={"Accept": PAGE})
        assert page.status_code == 200 and page.mimetype == "text/html", path
        assert f'data-start="{start}"' in page.get_data(as_text=True)
        assert "Accept" in page.headers["Vary"] and page.headers["Cache-Control"] == "no-cache"
    card = client.get(f"/puzzles/{SAVE.id}", headers={"Accept": PAGE}).get_data(as_text=True)
    assert 'content="Tic-tac-toe puzzle: O to play and save the draw"' in card
    missing = client.get("/puzzles/3x3k3-000000", headers={"Accept": PAGE})
    assert missing.status_code == 404 and missing.mimetype == "text/html"
    # The game page links to the puzzles beside the lab.
    assert 'href="/puzzles">Puzzles</a>' in client.get("/").get_data(as_text=True)


def test_the_document_declares_the_page_and_the_boards_the_routes_take(app):
    from web.openapi.document import document

    paths = document(app)["paths"]
    for path in ("/puzzles", "/puzzles/{puzzle_id}", "/puzzles/daily"):
        assert set(paths[path]["get"]["responses"]["200"]["content"]) == {"application/json", "text/html"}
        assert "Vary" in paths[path]["get"]["responses"]["304"]["headers"]
    query = paths["/puzzles"]["get"]["parameters"][0]["schema"]["properties"]
    assert query["board"]["enum"] == [rules.key() for rules in PUZZLES.rules()]
    assert set(paths["/puzzles/{puzzle_id}/moves"]["post"]["responses"]) == {
        "200",
        "400",
        "404",
        "408",
        "409",
        "413",
    }


def test_the_embed_shows_a_puzzle(client):
    page = client.get(f"/embed?puzzle={SAVE.id}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert f'data-puzzle="{SAVE.id}"' in html and "js/puzzle-embed.js" in html
    assert client.get("/embed?puzzle=3x3k3-000000").status_code == 404
    assert client.get(f"/embed?puzzle={SAVE.id}&puzzle={SAVE.id}").status_code == 400


def test_get_position_names_each_move_s_reason_and_what_the_rule_says(client):
    # O to move on  x . .   the rule (make two in a row at an edge) holds; the corners lose.
    #               . o .
    #               . . x
    body = client.get("/position?board=x2/1o1/2x").get_json()
    reasons = {(m["row"], m["col"]): m["reason"] for m in body["moves"]}
    assert reasons[(0, 2)] == "blocks the fork at c1" and reasons[(0, 1)] == "makes two in a row"
    assert body["rule"] == {
        "holds": True,
        "words": "The rule says make two in a row at b1, a2, c2 or b3, and it keeps the draw.",
    }
    # Where the rule is wrong, it says so: X to move on o . x / . . . / . . .
    wrong = client.get("/position?board=o1x/3/3").get_json()["rule"]
    assert wrong == {
        "holds": False,
        "words": "The rule says take the centre; here only c2, a3 or c3 keeps the win.",
    }
    # Off 3x3 there is no ladder, but threats still have words.
    big = client.get("/position?board=5/oxx2/5/3o1/5&k=4").get_json()
    assert big["rule"] is None
    assert {m["reason"] for m in big["moves"]} >= {"makes three in a row"}


def test_the_tasks_are_the_engine_s():
    assert {str(task) for task in Task} == {"win", "draw"}


def test_a_worker_keeps_its_rendered_answers_within_their_bytes(app, client):
    from web.puzzles import puzzles_of
    from web.puzzles.routes import RENDERED_BYTES

    kept = puzzles_of(app).rendered
    before = kept.weight
    body = client.get("/puzzles?limit=100&after=3x3k3-000000").data
    # Each answer weighs its bytes (a page of 100 is 30 to 60 KB), within RENDERED_BYTES together
    # (web/runtime/lru.py's own tests show the bound holds).
    assert kept.weight - before == len(body) > 20_000
    assert kept.max_weight == RENDERED_BYTES
