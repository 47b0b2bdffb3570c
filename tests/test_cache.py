"""The shared cache of solved positions, in one process (Flask's test client).

Entries: what is stored, that symmetric positions share one, that a hit still
varies the move, that garbage or wrong-schema entries are ignored and replaced,
that unproven results are never stored.  Failures: an unusable folder still
answers 200.  Single-flight and the search cap, with threads.
"""

from __future__ import annotations

import shutil
import struct
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.apps import make_app
from tests.oracle import move_values, optimal_moves, position_value
from tests.search_gate import SearchGate
from tests.servers import FOUR_BY_FOUR, TEST_SECRET, free_port
from tictactoe import ENGINE_VERSION, Board, SolveResult, Source
from web.assembly import create_app
from web.cache.entries import ENTRY_FORMAT, decode_entry, position_key
from web.cache.health import BREAKER_OPEN
from web.parts import parts
from web.runtime.breaker import Breaker

EMPTY = ["...", "...", "..."]


def stats(client) -> dict:
    return client.get("/stats").get_json()["worker"]


def backend(app):
    return parts(app).solved.backend.store


def stored_entry(app, key: str, canon: Board):
    """The entry the store holds for ``key``, its signature checked."""
    signer = parts(app).solved.backend.signer
    return decode_entry(signer.check(key, backend(app).get(key)), canon)


def sign(app, key: str, entry: dict) -> dict:
    """An entry signed as the app signs what it stores."""
    return parts(app).solved.backend.signer.sign(key, entry)


def key_of(board_rows, k=None) -> tuple[str, Board]:
    canon, _ = Board.from_text(board_rows, k=k).canonical()
    return position_key(canon), canon


def test_keys_name_the_engine_version_rules_and_canonical_position():
    key, _ = key_of(["..x", "...", "..."])
    assert key == f"solved:v{ENGINE_VERSION}:3x3k3:x../.../..."
    # all 8 images of a position share the key
    assert {
        key_of(image)[0] for image in (["x..", "...", "..."], ["...", "...", "x.."], ["...", "...", "..x"])
    } == {key}


def test_hits_and_misses_are_counted_and_symmetric_positions_share_an_entry(tmp_path):
    client = make_app(tmp_path).test_client()
    first = client.post("/move", json={"board": ["x..", "...", "..."]}).get_json()
    assert first["cached"] is False and first["nodes"] > 0
    counts = stats(client)
    assert (counts["hits"], counts["misses"], counts["searches"], counts["stored"]) == (0, 1, 1, 1)

    again = client.post("/move", json={"board": ["x..", "...", "..."]}).get_json()
    mirrored = client.post("/move", json={"board": ["...", "...", "..x"]}).get_json()
    assert again["cached"] is True and mirrored["cached"] is True and mirrored["nodes"] == 0
    # the mirrored answer is in the mirrored board's own cells
    assert mirrored["move"]["row"] * 3 + mirrored["move"]["col"] in optimal_moves("........x")
    counts = stats(client)
    assert (counts["hits"], counts["misses"], counts["searches"]) == (2, 1, 1)
    total = client.get("/stats").get_json()["total"]
    assert (total["hits"], total["misses"], total["searches"]) == (2, 1, 1)


def test_analyze_needs_move_values_and_upgrades_a_move_entry(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    client.post("/move", json={"board": ["x..", ".o.", "..."]})
    key, canon = key_of(["x..", ".o.", "..."])
    assert stored_entry(app, key, canon).moves is None
    analysis = client.post("/analyze", json={"board": ["x..", ".o.", "..."]}).get_json()
    assert analysis["cached"] is False  # the /move entry lacks the moves' values
    assert stored_entry(app, key, canon).moves is not None
    assert client.post("/analyze", json={"board": ["..x", ".o.", "..."]}).get_json()["cached"]
    assert client.post("/move", json={"board": ["...", ".o.", "..x"]}).get_json()["cached"]


def test_a_cache_hit_still_varies_the_move(tmp_path):
    client = make_app(tmp_path).test_client()
    client.post("/move", json={"board": EMPTY})  # every first move draws: 9 optimal moves
    seeded = [client.post("/move", json={"board": EMPTY, "seed": seed}).get_json() for seed in range(60)]
    assert all(body["cached"] for body in seeded)
    chosen = {body["move"]["row"] * 3 + body["move"]["col"] for body in seeded}
    assert chosen == optimal_moves(".........") == set(range(9))
    # the same seed gives the same move; no seed is random
    repeat = client.post("/move", json={"board": EMPTY, "seed": 5}).get_json()
    assert repeat["move"] == seeded[5]["move"]
    unseeded = {
        tuple(client.post("/move", json={"board": EMPTY}).get_json()["move"].values()) for _ in range(40)
    }
    assert len(unseeded) > 1


def test_hits_vary_among_optimal_moves_only(tmp_path):
    client = make_app(tmp_path).test_client()
    board = [".x.", "...", "..."]  # an edge: several replies hold the draw for O
    chosen = set()
    for seed in range(40):
        body = client.post("/move", json={"board": board, "seed": seed}).get_json()
        chosen.add(body["move"]["row"] * 3 + body["move"]["col"])
    assert chosen == optimal_moves(".x.......") and len(chosen) > 1


def raw_file(app, key: str):
    """The path of the cache file of ``key`` (cachelib's naming: SHA-256 of the key)."""
    return backend(app).path_of(key)


# A well-formed entry for x . . / . o . / . . . (its canonical image), before each case spoils it.
ENTRY = {"format": ENTRY_FORMAT, "value": "draw", "plies": 7, "best": [1], "moves": None, "source": "proof"}
GARBAGE = {
    "not-json-bytes": b"\x80\x04\x95garbage pickle\x00\xff",
    "json-string": "garbage",
    "json-list": [1, 2, 3],
    "json-number": 42,
    "missing-fields": {"format": ENTRY_FORMAT, "value": "draw"},
    "extra-field": {**ENTRY, "trust": "me"},
    "other-format": {**ENTRY, "format": 99},
    # format 2 had no source: such entries are replaced, not guessed at
    "format-2-without-source": {"format": 2, "value": "draw", "plies": 7, "best": [1], "moves": None},
    "unknown-source": {**ENTRY, "source": "oracle"},
    "heuristic-source": {**ENTRY, "source": "heuristic"},
    "unknown-value": {**ENTRY, "value": "maybe"},
    "plies-too-many": {**ENTRY, "plies": 9},
    "win-on-even-ply": {**ENTRY, "value": "win", "plies": 2},
    "plies-bool": {**ENTRY, "plies": True},
    "best-occupied": {**ENTRY, "best": [0]},
    "best-off-board": {**ENTRY, "best": [99]},
    "best-empty": {**ENTRY, "best": []},
    "best-unsorted": {**ENTRY, "best": [2, 1]},
    "best-not-list": {**ENTRY, "best": "1"},
    "moves-missing-a-cell": {**ENTRY, "moves": [[1, "draw", 7]]},
    "moves-disagree-with-best": {**ENTRY, "moves": [[c, "draw", 7] for c in (1, 2, 3, 5, 6, 7, 8)]},
    "moves-disagree-with-value": {
        **ENTRY,
        "value": "win",
        "best": [1, 2, 3, 5, 6, 7, 8],
        "moves": [[c, "draw", 7] for c in (1, 2, 3, 5, 6, 7, 8)],
    },
}


@pytest.mark.parametrize("garbage", GARBAGE.values(), ids=GARBAGE.keys())
def test_garbage_and_wrong_schema_entries_are_ignored_and_replaced(tmp_path, garbage):
    app = make_app(tmp_path)
    client = app.test_client()
    board = ["x..", ".o.", "..."]
    key, canon = key_of(board)
    if isinstance(garbage, bytes):  # not even the serializer's format
        path = raw_file(app, key)
        with open(path, "wb") as f:
            f.write(struct.pack("I", 0) + garbage)
    elif isinstance(garbage, dict):  # signed, so that what is checked is the schema
        assert backend(app).set(key, sign(app, key, garbage))
    else:
        assert backend(app).set(key, garbage)
    for endpoint in ("/move", "/analyze"):
        body = client.post(endpoint, json={"board": board}).get_json()
        assert body["cached"] is False and body["proven"] is True
        assert (body["value"], body["plies"]) == position_value("x...o....")
    move = client.post("/move", json={"board": board}).get_json()
    assert move["cached"] is True
    assert move["move"]["row"] * 3 + move["move"]["col"] in optimal_moves("x...o....")
    if isinstance(garbage, bytes):  # replaced in place: the garbage was where the cache reads
        assert garbage not in path.read_bytes()
    # Bytes the serializer cannot read come back from cachelib as a miss; what it
    # can read but does not fit the schema is counted as invalid.
    assert stats(client)["invalid"] >= (0 if isinstance(garbage, bytes) else 1)
    entry = stored_entry(app, key, canon)  # replaced by a valid one
    assert {c: (mv.value, mv.plies) for c, mv in entry.moves.items()} == move_values("".join(canon.to_text()))


@pytest.mark.parametrize("tamper", ["unsigned", "wrong-mac", "signed-for-another-key"])
def test_entries_the_app_did_not_sign_are_never_served(tmp_path, tamper):
    """A well-formed entry with a losing move: only its signature can tell it is not ours.

    x x .      O to move: only (0, 2) draws; the planted entry says (1, 0)
    . o .
    . . .
    """
    app = make_app(tmp_path)
    client = app.test_client()
    board = ["xx.", ".o.", "..."]
    key, _canon = key_of(board)
    client.post("/analyze", json={"board": board})
    genuine = parts(app).solved.backend.signer.check(key, backend(app).get(key))
    forged = {
        **genuine,
        "value": "draw",
        "plies": 6,
        "best": [3],
        "moves": [[c, "draw" if c == 3 else "loss", 6 if c == 3 else 2] for c, _, _ in genuine["moves"]],
    }
    planted = {
        "unsigned": forged,
        "wrong-mac": {**forged, "mac": "0" * 64},
        "signed-for-another-key": sign(app, key + "x", forged),
    }[tamper]
    assert backend(app).set(key, planted)
    fresh = make_app(tmp_path).test_client()  # a worker with nothing in its memory
    for _ in range(5):
        body = fresh.post("/move", json={"board": board}).get_json()
        assert body["move"] == {"row": 0, "col": 2}
        assert (body["value"], body["plies"]) == ("draw", 6)
    assert stats(fresh)["invalid"] >= 1


def test_a_cached_answer_still_says_how_it_was_known(tmp_path):
    """The engine's ``source`` is stored with the entry and comes back with every hit.

    x . .      mirrored: . . x     both served from one entry
    . o .                . o .
    . . .                . . .
    """
    app = make_app(tmp_path)
    positions = parts(app).solved
    searched = positions.solve(Board.from_text(["x..", ".o.", "..."]))
    key, canon = key_of(["x..", ".o.", "..."])
    assert not searched.cached and stored_entry(app, key, canon).source == searched.source
    fresh = parts(make_app(tmp_path)).solved  # reads the store, not memory
    hit = fresh.solve(Board.from_text(["..x", ".o.", "..."]))
    assert hit.cached and hit.source == searched.source == Source.PROOF
    assert isinstance(hit, SolveResult)  # what tictactoe.pick_best takes


def test_a_valid_entry_passes_the_checks_on_every_position(tmp_path):
    """decode_entry accepts what the server stores, for every position reached by play."""
    app = make_app(tmp_path)
    client = app.test_client()
    for first in range(9):
        board = Board.from_text(EMPTY)
        board.play(first)
        text = board.to_text()
        client.post("/analyze", json={"board": text})
        key, canon = key_of(text)
        entry = stored_entry(app, key, canon)
        assert (entry.value, entry.plies) == position_value("".join(canon.to_text()))


def test_unproven_results_are_never_stored(tmp_path):
    client = make_app(tmp_path, SEARCH_BUDGET="0.01").test_client()
    # 5x5, four in a row, five stones (one past the opening book): a cold proof
    # takes about 30,000 nodes, far beyond 10 ms
    board = ["x...o", "x....", "....x", ".....", "..o.."]
    for _ in range(2):
        body = client.post("/move", json={"board": board, "k": 4}).get_json()
        assert body["proven"] is False and body["cached"] is False
        assert body["value"] is None and body["plies"] is None
        assert isinstance(body["depth"], int)
    counts = stats(client)
    assert counts["stored"] == 0 and counts["unproven"] == 2 and counts["searches"] == 2


def test_boards_too_big_to_prove_skip_the_cache(tmp_path):
    client = make_app(tmp_path, SEARCH_BUDGET="0.05").test_client()
    body = client.post("/move", json={"board": ["." * 15] * 15}).get_json()
    assert body["proven"] is False and body["cached"] is False
    counts = stats(client)
    assert (counts["hits"], counts["misses"], counts["searches"]) == (0, 0, 1)


# -- failures -------------------------------------------------------------------


def test_a_cache_dir_that_cannot_be_created_still_answers(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    app = create_app({"CACHE_DIR": str(blocker / "cache")})  # even root cannot mkdir here
    client = app.test_client()
    for _ in range(2):
        body = client.post("/move", json={"board": ["x..", ".o.", "..."]})
        assert body.status_code == 200 and body.get_json()["cached"] is False
    assert client.post("/analyze", json={"board": ["x..", ".o.", "..."]}).status_code == 200
    health = client.get("/healthz")
    assert health.status_code == 503
    assert health.get_json()["cache"] == {
        "backend": "filesystem",
        "ok": False,
        "detail": "cache folder unusable",
    }
    assert str(tmp_path) not in health.get_data(as_text=True)


def test_a_cache_dir_that_breaks_at_runtime_still_answers(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    assert client.get("/healthz").status_code == 200
    solved = tmp_path / "cache" / "solved"
    shutil.rmtree(solved)
    solved.write_text("now a file: nothing can be read or written below it")
    for board in (["x..", ".o.", "..."], [".x.", ".o.", "..."], ["xo.", "...", "..."]):
        response = client.post("/move", json={"board": board})
        assert response.status_code == 200
        assert response.get_json()["cached"] is False and response.get_json()["proven"]
    # What this worker solved stays in its memory, store or no store.
    assert client.post("/move", json={"board": ["xo.", "...", "..."]}).get_json()["cached"]
    assert client.post("/analyze", json={"board": ["x..", ".o.", "..."]}).status_code == 200
    health = client.get("/healthz")
    assert health.status_code == 503 and health.get_json()["status"] == "unavailable"
    assert stats(client)["cache_errors"] >= 3


def test_a_broken_lock_folder_still_answers(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    locks = tmp_path / "cache" / "locks"
    shutil.rmtree(locks)
    locks.write_text("not a folder")
    body = client.post("/move", json={"board": ["x..", ".o.", "..."]}).get_json()
    assert body["proven"] is True and body["cached"] is False
    assert client.post("/move", json={"board": ["x..", ".o.", "..."]}).get_json()["cached"]
    assert client.get("/stats").get_json()["total"]["hits"] == 1


def test_healthz_ok_and_null_backend(tmp_path):
    ok = make_app(tmp_path).test_client().get("/healthz")
    assert ok.status_code == 200
    assert ok.get_json()["cache"] == {"backend": "filesystem", "ok": True, "detail": "read and write ok"}
    null = create_app({"CACHE_TYPE": "null"}).test_client()
    assert null.get("/healthz").status_code == 200
    for _ in range(2):
        assert null.post("/move", json={"board": EMPTY}).get_json()["cached"] is False
    # The counters live in the app's metrics, not in a cache: there is a total all the same.
    assert null.get("/stats").get_json()["total"]["searches"] == 2


def test_redis_that_does_not_answer_is_503_on_healthz_and_200_on_moves():
    app = create_app(
        {
            "REDIS_URL": f"redis://127.0.0.1:{free_port()}/0",  # nothing listens
            "CACHE_SECRET": TEST_SECRET,
        }
    )
    client = app.test_client()
    for endpoint, board in (
        ("/move", ["x..", ".o.", "..."]),
        ("/analyze", [".x.", ".o.", "..."]),
        ("/move", ["xo.", "...", "..."]),
    ):
        response = client.post(endpoint, json={"board": board})
        assert response.status_code == 200 and response.get_json()["proven"] is True
        assert response.get_json()["cached"] is False
    assert stats(client)["cache_errors"] >= 1
    health = client.get("/healthz")  # the moves' failures opened the breaker: no probe
    assert health.status_code == 503
    assert health.get_json()["cache"]["detail"] == BREAKER_OPEN
    assert client.get("/stats").get_json()["total"]["cache_errors"] >= 1


def test_the_breaker_skips_a_failed_backend_until_it_answers_again():
    breaker = Breaker(cooldown=3600)
    assert breaker.allows()
    breaker.trip()
    assert not breaker.allows()
    breaker.reset()
    assert breaker.allows()
    folder = Breaker(cooldown=0)  # the file-system cache: never skipped
    folder.trip()
    assert folder.allows()


# -- single-flight and the search cap ---------------------------------------------


def test_concurrent_requests_for_one_position_search_once(tmp_path):
    """Eight requests for one position: the first one's search is held until the seven others
    are all waiting for it, so they overlap for certain; exactly one search, seven waits."""
    app = make_app(tmp_path, SEARCH_BUDGET="2")
    gate = SearchGate(tmp_path / "gate")
    gate.install(parts(app).solved)

    def ask(_):
        return app.test_client().post("/move", json=FOUR_BY_FOUR).get_json()

    with ThreadPoolExecutor(8) as pool:
        answers = pool.map(ask, range(8))
        gate.wait_for(searches=1, waiting=7)
        gate.release()
        answers = list(answers)
    assert all(a["proven"] for a in answers)
    assert {(a["value"], a["plies"]) for a in answers} == {(answers[0]["value"], answers[0]["plies"])}
    assert sum(not a["cached"] for a in answers) == 1
    counts = app.test_client().get("/stats").get_json()["worker"]
    assert (counts["searches"], counts["waited"], counts["hits"]) == (1, 7, 0)


def test_a_lock_that_is_never_released_only_delays(tmp_path):
    app = make_app(tmp_path, SINGLE_FLIGHT_WAIT="0.2")
    board = ["x..", ".o.", "..."]
    key, _ = key_of(board)
    held = parts(app).solved.backend.locks.lock(key)
    assert held.try_acquire()  # as if another worker were stuck in this search
    try:
        body = app.test_client().post("/move", json={"board": board}).get_json()
    finally:
        held.release()
    assert body["proven"] is True and body["cached"] is False
    assert (body["value"], body["plies"]) == position_value("x...o....")


def test_busy_when_every_search_slot_is_taken(tmp_path):
    # 4x4 k=4 positions (a search takes a slot), and a 3x3 one (a free search: no slot):
    #
    #   x . . .     x o . .     x o .
    #   . . . .     . . . .     . . .
    #   . . . .     . . . .     . . .
    #   . . . .     . . . .
    known, unknown = ["x...", "....", "....", "...."], ["xo..", "....", "....", "...."]
    app = make_app(tmp_path, MAX_CONCURRENT_SEARCHES="1", SEARCH_QUEUE_WAIT="0")
    client = app.test_client()
    client.post("/move", json={"board": known, "k": 4})  # cached from now on
    slots = parts(app).solved.slots.slots
    assert slots.try_acquire("another")  # another client is searching
    try:
        busy = client.post("/move", json={"board": unknown, "k": 4})
        hit = client.post("/move", json={"board": known, "k": 4})
        small = client.post("/move", json={"board": ["xo.", "...", "..."]})  # needs no slot
    finally:
        slots.release("another")
    assert busy.status_code == 503 and busy.headers["Retry-After"] == "1"
    assert "busy" in busy.get_json()["error"]
    assert hit.status_code == 200 and hit.get_json()["cached"] is True
    assert small.status_code == 200 and small.get_json()["cached"] is False
    assert stats(client)["busy"] == 1
    assert client.post("/move", json={"board": unknown, "k": 4}).status_code == 200
