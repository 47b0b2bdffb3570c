"""GET /trace: a teaching engine's search tree over HTTP, its counts, folding, errors and caching."""

from __future__ import annotations

import threading

import pytest

from tests.servers import wait_until
from tictactoe.algorithms.registry import TRACEABLE
from web.assembly import create_app
from web.parts import parts
from web.searches.lab_runs import KEPT_TRACES, KeptTraces
from web.searches.slots import Busy

HANG_GUARD = 30.0  # seconds: far above any wait here, far below "never"

# x . .
# . o .
# . . .
POSITION = "x2/1o1/3"


def shown_nodes(tree: list[dict]) -> int:
    """The tree's nodes, each counted as 1 or as its folded subtree's size."""
    return sum(node["folded"]["nodes"] if node["folded"] else 1 for node in tree)


@pytest.mark.parametrize("engine", list(TRACEABLE))
def test_the_tree_counts_what_analyze_counts(client, engine):
    analysed = client.post("/analyze", json={"board": ["x..", ".o.", "..."], "engine": engine}).get_json()
    response = client.get(f"/trace?board={POSITION}&engine={engine}")
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["engine"] == engine and body["finished"] is True and body["root"] == 0
    assert body["nodes"] == analysed["nodes"] == shown_nodes(body["tree"]) == body["tree"][0]["size"]
    assert body["move"] == analysed["move"] and body["value"] == analysed["value"] == "draw"
    assert body["windows"] is (engine != "minimax")
    assert len(body["tree"]) <= body["cap"]
    assert response.headers["Cache-Control"] == "public, max-age=86400"


def test_a_folded_branch_opens_with_its_exact_count(client):
    body = client.get("/trace?board=3/3/3&engine=alphabeta").get_json()
    assert body["nodes"] == 18_297 == shown_nodes(body["tree"])
    folded = [node for node in body["tree"] if node["folded"]]
    assert folded
    for node in folded[:3]:
        branch = client.get(f"/trace?board=3/3/3&engine=alphabeta&node={node['id']}").get_json()
        assert branch["root"] == node["id"] and branch["tree"][0]["parent"] == node["parent"]
        assert shown_nodes(branch["tree"]) == node["folded"]["nodes"] == node["size"]
        assert sum(n["kind"] == "cut" for n in branch["tree"]) <= node["folded"]["cuts"]


def test_cut_offs_carry_their_windows_and_skipped_moves(client):
    # x o x      x to move: b2 draws; after a3, o's reply b2 draws too,
    # o . x      which is all x can hope for there (beta = 0 for o): b3 is skipped.
    # . . o
    tree = client.get("/trace?board=xox/o1x/2o&engine=alphabeta").get_json()["tree"]
    a3 = next(node for node in tree if node["depth"] == 1 and node["move"] == [2, 0])
    assert a3["kind"] == "cut" and a3["skipped"] == [[2, 1]]
    assert (a3["alpha"], a3["beta"]) == (None, 0)  # null: minus infinity
    assert tree[0]["alpha"] is None and tree[0]["beta"] is None


def test_table_hits_are_marked(client):
    body = client.get("/trace?board=3/3/3&engine=alphabeta-tt").get_json()
    assert body["hits"] == 166 and body["nodes"] == 916
    assert sum(node["kind"] == "hit" for node in body["tree"]) == 166  # all shown: 916 fit


@pytest.mark.parametrize(
    "query, status, message",
    [
        ("", 400, "board is required"),
        (f"board={POSITION}&engine=mcts", 400, "engine must be one of minimax,"),
        (f"board={POSITION}&engine=perfect", 400, "engine must be one of"),
        (f"board={POSITION}&node=-1", 400, "node must be"),
        (f"board={POSITION}&node=12345678", 400, "node must be"),
        (f"board={POSITION}&depth=3", 400, "unknown parameter 'depth'"),
        (f"board={POSITION}&node=1&node=2", 400, "more than once"),
        ("board=x2/1o1/3&k=x", 400, "k must be a whole number"),
        ("board=5/5/5/5/5", 422, "up to 4x4"),
        (f"board={POSITION}&node=999999", 422, "no node 999999"),
        ("board=xxx/oo1/3", 409, "the game is over"),
        ("board=xxx/3/3", 409, ""),
    ],
)
def test_bad_requests_get_a_clear_json_error(client, query, status, message):
    response = client.get(f"/trace?{query}")
    assert response.status_code == status
    assert message in response.get_json()["error"]
    assert response.headers["Cache-Control"] == "no-store"


def test_a_capped_search_says_it_did_not_finish(client, monkeypatch):
    monkeypatch.setattr("web.api.traces.TEACHING_NODES", 500)
    body = client.get("/trace?board=4/4/4/4&k=4&engine=minimax").get_json()
    assert body["finished"] is False and body["value"] is None
    assert body["nodes"] == 500 == shown_nodes(body["tree"])
    assert body["tree"][0]["kind"] == "open" and body["tree"][0]["score"] is None


def test_opening_branches_runs_the_search_once(tmp_path, monkeypatch):
    app = create_app({"CACHE_DIR": str(tmp_path)})
    client = app.test_client()
    slots = parts(app).solved.slots
    runs = []
    search = slots.trace
    monkeypatch.setattr(slots, "trace", lambda *args: runs.append(args[1].name) or search(*args))
    body = client.get("/trace?board=3/3/3&engine=alphabeta").get_json()
    for node in [node for node in body["tree"] if node["folded"]][:4]:
        assert client.get(f"/trace?board=3/3/3&engine=alphabeta&node={node['id']}").status_code == 200
    assert runs == ["alphabeta"]


def test_a_worker_keeps_its_last_traces():
    kept = KeptTraces()
    for key in range(KEPT_TRACES + 2):
        kept.put(("alphabeta", 3, 3, 3, key, 0), ("result", "trace"))
    assert kept.get(("alphabeta", 3, 3, 3, 1, 0)) is None
    assert kept.get(("alphabeta", 3, 3, 3, 2, 0)) is not None
    kept.put(("alphabeta", 3, 3, 3, KEPT_TRACES + 2, 0), ("result", "trace"))
    assert kept.get(("alphabeta", 3, 3, 3, 2, 0)) is not None  # used last: kept
    assert kept.get(("alphabeta", 3, 3, 3, 3, 0)) is None


def test_a_class_asking_for_one_trace_at_once_gets_one_search(tmp_path, monkeypatch):
    app = create_app({"CACHE_DIR": str(tmp_path)})
    slots, runs = parts(app).solved.slots, parts(app).traces
    go, searched = threading.Event(), []
    search = slots.trace

    def held(*args):
        searched.append(args[1].name)
        assert go.wait(HANG_GUARD)
        if len(searched) == 1:
            raise Busy(0.0)  # the first search's own client is refused: nobody else is
        return search(*args)

    monkeypatch.setattr(slots, "trace", held)
    statuses: list[int] = []
    bodies: list[dict] = []

    def pupil() -> None:
        reply = app.test_client().get("/trace?board=1x1/3/3&engine=alphabeta")
        statuses.append(reply.status_code)
        bodies.append(reply.get_json())

    pupils = [threading.Thread(target=pupil) for _ in range(5)]
    for thread in pupils:
        thread.start()
    wait_until(lambda: len(searched) == 1 and runs.waiting() == 4, what="four pupils to wait for the search")
    go.set()
    for thread in pupils:
        thread.join(HANG_GUARD)
    # The refused search is not shared: one of those waiting searched again, and the rest shared it.
    assert searched == ["alphabeta", "alphabeta"]
    assert sorted(statuses) == [200, 200, 200, 200, 503]
    answered = [body for body in bodies if "tree" in body]
    assert len(answered) == 4 and all(body == answered[0] for body in answered)
