"""The teaching engines over HTTP: GET /engines and the engine field of /move and /analyze."""

from __future__ import annotations

import pytest

from tictactoe import Board
from tictactoe.algorithms.registry import ENGINES
from web.parts import parts
from web.searches.lab_runs import TEACHING_NODES

# x . .
# . o .
# . . .
POSITION = ["x..", ".o.", "..."]
EMPTY_CELLS = {(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)}


def test_engines_lists_all_seven_in_teaching_order(client):
    response = client.get("/engines")
    assert response.status_code == 200
    engines = response.get_json()["engines"]
    assert [e["name"] for e in engines] == [
        "minimax",
        "alphabeta",
        "alphabeta-ordered",
        "alphabeta-tt",
        "negascout",
        "mcts",
        "perfect",
    ]
    assert all(isinstance(e["description"], str) and e["description"] for e in engines)


@pytest.mark.parametrize("name", list(ENGINES))
def test_every_engine_plays_a_legal_move(client, name):
    response = client.post("/move", json={"board": POSITION, "engine": name, "seed": 3})
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["engine"] == name and body["player"] == "x" and body["cached"] is False
    cell = (body["move"]["row"], body["move"]["col"])
    assert cell in EMPTY_CELLS
    assert body["board"][cell[0]][cell[1]] == "x"
    assert body["finished"] is True and isinstance(body["note"], str)
    assert body["nodes"] >= 1 and body["plies"] is None
    assert body["value"] in (None, "draw")  # x.. / .o. / ... is a draw
    assert body["principal_variation"][0] == list(cell)


@pytest.mark.parametrize("name", list(ENGINES))
def test_every_engine_analyses_a_position(client, name):
    response = client.post("/analyze", json={"board": POSITION, "engine": name})
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["engine"] == name and body["player"] == "x" and body["board"] == POSITION
    assert (body["move"]["row"], body["move"]["col"]) in EMPTY_CELLS
    assert body["finished"] is True
    assert "moves" not in body and "best" not in body


def test_exact_engines_prove_the_value_and_mcts_does_not(client):
    values = {
        name: client.post("/analyze", json={"board": POSITION, "engine": name}).get_json()["value"]
        for name in ENGINES
    }
    assert values == {**dict.fromkeys(ENGINES, "draw"), "mcts": None}


def test_the_same_analysis_repeats_exactly(client):
    first, second = (
        client.post("/analyze", json={"board": POSITION, "engine": "mcts"}).get_json() for _ in range(2)
    )
    assert first["move"] == second["move"] and first["nodes"] == second["nodes"]


def test_minimax_stops_at_its_node_budget_on_4x4_and_says_so_in_one_sentence(client):
    response = client.post("/move", json={"board": ["...."] * 4, "k": 4, "engine": "minimax"})
    assert response.status_code == 200
    body = response.get_json()
    assert body["finished"] is False and body["value"] is None and body["proven"] is False
    assert body["nodes"] == TEACHING_NODES  # its budget to the node: no deadline, whatever the load
    assert body["note"] == (
        f"Stopped after its budget of {TEACHING_NODES:,} nodes, before any root move was searched to the"
        " end: the first move in its order; its value is unknown."
    )
    assert body["board"] != ["...."] * 4  # it still played a move


@pytest.mark.parametrize("name", ENGINES)
def test_the_same_search_gives_the_same_answer_and_is_searched_once_a_worker(app, client, name):
    #   . . .
    #   . x .      the lab's second experiment: the reply after X takes the centre
    #   . . .
    board = ["...", ".x.", "..."]
    first = client.post("/analyze", json={"board": board, "engine": name}).get_json()
    again = client.post("/analyze", json={"board": board, "engine": name}).get_json()
    assert first == again  # ms included: the worker kept the search, and searched it once
    kept = parts(app).teaching.kept.get((name, Board.from_text(board).text_key(), None))
    assert kept is not None and kept.nodes == first["nodes"]


@pytest.mark.parametrize("path", ["/move", "/analyze"])
def test_a_board_bigger_than_4x4_is_a_422_for_a_teaching_engine(client, path):
    response = client.post(path, json={"board": ["....."] * 5, "k": 4, "engine": "alphabeta"})
    assert response.status_code == 422
    assert response.get_json()["error"].startswith("the teaching engines search boards up to 4x4, not 5x5")


def test_without_engine_the_answer_is_unchanged(client):
    body = client.post("/move", json={"board": POSITION}).get_json()
    assert "engine" not in body and body["plies"] == 7
    body = client.post("/analyze", json={"board": POSITION}).get_json()
    assert "engine" not in body and len(body["moves"]) == 7


def test_engine_results_are_not_cached(client):
    board = ["x..", "...", "..."]
    for _ in range(2):
        body = client.post("/move", json={"board": board, "engine": "alphabeta"}).get_json()
        assert body["cached"] is False and body["nodes"] > 1


@pytest.mark.parametrize("path", ["/move", "/analyze"])
@pytest.mark.parametrize("engine", ["deep-blue", 3, None, ""])
def test_an_unknown_engine_is_a_400_naming_the_valid_ones(client, path, engine):
    response = client.post(path, json={"board": POSITION, "engine": engine})
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error.startswith("engine must be one of minimax, alphabeta,")
    assert "perfect" in error


def test_state_takes_no_engine(client):
    response = client.post("/state", json={"board": POSITION, "engine": "minimax"})
    assert response.status_code == 400 and 'unknown field "engine"' in response.get_json()["error"]


def test_openapi_documents_engines(client):
    spec = client.get("/openapi.json").get_json()
    schemas = spec["components"]["schemas"]
    assert schemas["EngineName"]["enum"] == list(ENGINES)
    assert "/engines" in spec["paths"]
    for path in ("/move", "/analyze"):
        body = spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]
        assert body["schema"]["properties"]["engine"] == {"$ref": "#/components/schemas/EngineName"}
    state = spec["paths"]["/state"]["post"]["requestBody"]["content"]["application/json"]
    assert "engine" not in state["schema"]["properties"]
    assert "EngineAnalysisAnswer" in schemas
