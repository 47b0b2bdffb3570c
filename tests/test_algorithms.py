"""The teaching engines: exact values on every 3x3 position, node counts, the interface.

Expected values come from the independent minimax of tests/minimax.py (which
the production solver matches on every position, test_solver.py) and from the reference facts: the
3x3 game tree has 549,946 nodes, the 4,520 non-terminal positions split
2,836 / 1,052 / 632 into wins, draws and losses for the side to move.
"""

from __future__ import annotations

import random
import time

import pytest

from tests import minimax
from tictactoe import Board, GameOverError
from tictactoe.algorithms import ENGINES, UnknownEngineError, describe_engines, get_engine
from tictactoe.algorithms.base import INFINITY
from tictactoe.algorithms.mcts import MonteCarloTreeSearch
from tictactoe.algorithms.minimax import Minimax
from tictactoe.algorithms.table import Bound, Entry, TranspositionTable
from tictactoe.tools.arena import play_match
from tictactoe.tools.counting import reachable_positions
from tictactoe.tools.experiments import NEGASCOUT_ON_TT, root_moves_apart

CENTRE = 4
EXACT_ENGINES = ["minimax", "alphabeta", "alphabeta-ordered", "alphabeta-tt", "negascout", "perfect"]
PRUNING_ENGINES = [ENGINES[name] for name in ("alphabeta", "alphabeta-ordered", "alphabeta-tt", "negascout")]
# Engines without a table: their principal variations run to the end of the game
# (an exact table entry would cut a line short where it was found).
NO_TABLE_ENGINES = ["minimax", "alphabeta", "alphabeta-ordered", "negascout"]
# A few positions to play from, drawn as the board's text form (x to move unless noted).
POSITIONS = {
    "empty 3x3": (["...", "...", "..."], None),
    # o to move, must block x's row at c1 (x wins in one otherwise).
    "3x3 block": (["xx.", ".o.", "..."], None),
    # x to move wins at once on c3 (the diagonal a1-b2-c3), or in three by a fork on b1.
    "3x3 x wins": (["x.o", ".x.", "o.."], None),
    "4x4 k=3": (["....", ".x..", "..o.", "...."], 3),
}


def key(board: Board) -> tuple[int, int]:
    """A position's identity: its stones."""
    return board.x, board.o


@pytest.fixture(scope="module")
def nonterminal() -> list[Board]:
    """The 4,520 non-terminal positions reachable from the empty 3x3 board."""
    return [board for board in reachable_positions() if not board.is_over()]


@pytest.fixture(scope="module")
def perfect_values(nonterminal) -> dict[tuple[int, int], str]:
    """The value of every non-terminal position for the side to move, from the independent
    oracle (tests/minimax.py; the production solver agrees with it on all of them, test_solver.py)."""
    return {key(board): minimax.solve(tuple(board.to_text()), 3)[0] for board in nonterminal}


@pytest.fixture(scope="module")
def minimax_pass():
    """One plain minimax search of the empty board, recording the value of every position in it."""
    seen: dict[tuple[int, int], set[int]] = {}

    def record(board: Board, score: int) -> None:
        if not board.is_over():
            seen.setdefault(key(board), set()).add(score)

    result = Minimax(on_value=record).search(Board())
    return result, seen


def board_after(*moves: int, rows=("...", "...", "..."), k=None) -> Board:
    board = Board.from_text(list(rows), k=k)
    for move in moves:
        board.play(move)
    return board


# -- the oracle ---------------------------------------------------------------


def test_the_oracle_counts_match_the_reference(perfect_values):
    values = list(perfect_values.values())
    assert len(values) == 4_520
    assert (values.count("win"), values.count("draw"), values.count("loss")) == (2_836, 1_052, 632)


# -- exact values on every position ---------------------------------------------


@pytest.mark.slow
def test_minimax_agrees_with_perfect_on_every_position(minimax_pass, perfect_values):
    """Checked in one pass over the whole tree, not with 4,520 searches.

    Searching each position afresh would visit 2,125,535 nodes (about four
    times the tree); the tree from the empty board contains every reachable
    position, and plain minimax has no window and no memory, so the value it
    computes for a position inside the tree is exactly what a fresh search of
    that position returns.  The engine itself memoizes nothing: the hook only
    records what it computes.
    """
    _, seen = minimax_pass
    names = {1: "win", 0: "draw", -1: "loss"}
    assert set(seen) == set(perfect_values)
    assert all(len(scores) == 1 for scores in seen.values())
    assert {position: names[scores.pop()] for position, scores in seen.items()} == perfect_values


@pytest.mark.parametrize("engine", [*PRUNING_ENGINES, NEGASCOUT_ON_TT], ids=lambda engine: engine.name)
def test_pruning_engine_agrees_with_perfect_on_every_position(engine, nonterminal, perfect_values):
    """A fresh search of each of the 4,520 positions (a few seconds per engine)."""
    wrong = {}
    for board in nonterminal:
        result = engine.search(board)
        if not result.finished or result.value != perfect_values[key(board)]:
            wrong[tuple(board.to_text())] = (result.value, perfect_values[key(board)])
    assert wrong == {}


# -- node counts ----------------------------------------------------------------


@pytest.mark.slow
def test_plain_minimax_visits_the_whole_game_tree(minimax_pass):
    result, _ = minimax_pass
    assert result.nodes == 549_946
    assert result.leaves == 255_168  # every complete game
    assert (result.value, result.finished) == ("draw", True)


@pytest.mark.parametrize("moves", [(), (CENTRE,)], ids=["empty board", "after x takes the centre"])
def test_each_enhancement_visits_fewer_nodes(moves, minimax_pass):
    board = board_after(*moves)
    nodes = {
        name: get_engine(name).search(board).nodes
        for name in ("alphabeta", "alphabeta-ordered", "alphabeta-tt", "negascout")
    }
    # The empty board's minimax search is the module's one pass (it takes seconds).
    nodes["minimax"] = (minimax_pass[0] if not moves else get_engine("minimax").search(board)).nodes
    assert nodes["minimax"] > nodes["alphabeta"] > nodes["alphabeta-ordered"] > nodes["alphabeta-tt"]
    # negascout is alphabeta (row-major, no table) with null windows.
    assert nodes["negascout"] < nodes["alphabeta"]


def test_published_figures_reproduced_under_their_counting():
    """The blog's 30,709 counts each first move's search apart; the paper's 25,872 counts leaves."""
    assert root_moves_apart("alphabeta") == 30_709
    assert get_engine("minimax").search(board_after(CENTRE)).leaves == 25_872


# -- the interface -----------------------------------------------------------------


@pytest.mark.parametrize("position", POSITIONS)
@pytest.mark.parametrize("name", list(ENGINES))
def test_every_engine_returns_a_legal_move_and_leaves_the_board_alone(name, position):
    rows, k = POSITIONS[position]
    board = Board.from_text(rows, k=k)
    before = (board.to_text(), list(board.history))
    engine = get_engine(name) if name != "mcts" else MonteCarloTreeSearch(playouts=200)
    # A deadline stops the slow searches (minimax on the empty board, the plain ones on
    # 4x4); no time is asserted: the move must be legal whether the search finished or not.
    result = engine.search(board, deadline=time.monotonic() + 0.2, rng=random.Random(1))
    assert result.move in board.legal_moves()
    assert (board.to_text(), list(board.history)) == before
    if result.principal_variation:
        assert result.principal_variation[0] == result.move
        line = board.copy()
        for move in result.principal_variation:
            line.play(move)  # raises if the line is not a legal sequence of moves


@pytest.mark.parametrize("name", EXACT_ENGINES)
def test_exact_engines_see_the_win(name):
    result = get_engine(name).search(Board.from_text(POSITIONS["3x3 x wins"][0]))
    assert (result.value, result.finished) == ("win", True)


@pytest.mark.parametrize("name", ["alphabeta-ordered", "alphabeta-tt", "perfect"])
def test_engines_that_order_wins_first_take_the_immediate_win(name):
    """A win scores +1 however slow (base.py), so only the order makes an engine take it at once.

    Row-major minimax plays b1 here: a fork that wins two moves later.
    """
    board = Board.from_text(POSITIONS["3x3 x wins"][0])
    assert get_engine(name).search(board).move == 8
    assert get_engine("minimax").search(board).move == 1


@pytest.mark.parametrize("name", NO_TABLE_ENGINES)
def test_principal_variation_plays_out_to_the_value(name):
    board = board_after(CENTRE)
    result = get_engine(name).search(board)
    for move in result.principal_variation:
        board.play(move)
    assert board.outcome().winner is None  # a draw, as the value says
    assert result.value == "draw"


@pytest.mark.parametrize("name", [*ENGINES])
def test_a_finished_board_is_an_error(name):
    board = Board.from_text(["xxx", "oo.", "..."])
    with pytest.raises(GameOverError, match="game is over"):
        get_engine(name).search(board)


@pytest.mark.parametrize("name", list(ENGINES))
def test_a_past_deadline_stops_every_engine_with_a_legal_move(name):
    # The production solver proves 4x4 k=4 in 35 nodes, before its first look at
    # the clock: it gets a board it cannot prove instead.
    rows, k = (["." * 15] * 15, 5) if name == "perfect" else (["...."] * 4, 4)
    board = Board.from_text(rows, k=k)
    result = get_engine(name).search(board, deadline=time.monotonic() - 1)
    assert result.finished is False
    assert result.value is None
    assert result.move in board.legal_moves()
    assert "deadline" in result.note


def test_minimax_on_4x4_stops_at_the_deadline_with_its_node_count():
    board = Board.from_text(["....", "....", "....", "...."], k=4)
    result = get_engine("minimax").search(board, deadline=time.monotonic() - 1)
    assert not result.finished
    assert result.nodes == 1  # the deadline is read at the root, before anything else


def test_the_table_stores_what_a_fail_soft_result_proves():
    board = board_after(CENTRE)
    table = TranspositionTable()
    table.store(board, -1, alpha=-1, beta=1)  # failed low: the score is at most -1
    assert table.entries[key(board)] == Entry(-1, Bound.UPPER)
    assert table.probe(board, 0, 1) == (-1, 0, -1)  # settled: below the window
    table.store(board, 1, alpha=-INFINITY, beta=0)  # failed high: at least 1
    assert table.probe(board, -INFINITY, INFINITY) == (None, 1, INFINITY)  # narrowed
    table.store(board, 0, alpha=-1, beta=1)  # inside the window: exact
    assert table.probe(board, -INFINITY, INFINITY)[0] == 0


# -- mcts -----------------------------------------------------------------------------


def test_mcts_is_reproducible_with_a_seed():
    board = board_after(0)
    engine = MonteCarloTreeSearch(playouts=300)
    first = engine.search(board, rng=random.Random(5))
    again = engine.search(board, rng=random.Random(5))
    assert (first.move, first.nodes, first.principal_variation) == (
        again.move,
        again.nodes,
        again.principal_variation,
    )
    assert first.value is None and first.leaves == 300


def test_mcts_needs_a_playout():
    with pytest.raises(ValueError, match="at least 1 playout"):
        MonteCarloTreeSearch(playouts=0)


@pytest.mark.slow
def test_mcts_never_loses_to_easy_in_200_games():
    """At its default playouts: 1,000 a move; a seeded match, so the same 200 games every run."""
    match = play_match("mcts", "easy", games=200, seed=2024)
    mcts, easy = match.standings
    assert mcts.losses == 0
    assert mcts.wins > easy.wins


def test_mcts_never_beats_perfect():
    match = play_match("mcts", "perfect", games=20, seed=7)
    assert match.standings[0].wins == 0


# -- the registry ------------------------------------------------------------------------


def test_the_registry_lists_every_engine_in_teaching_order():
    assert [entry["name"] for entry in describe_engines()] == [
        "minimax",
        "alphabeta",
        "alphabeta-ordered",
        "alphabeta-tt",
        "negascout",
        "mcts",
        "perfect",
    ]
    for entry in describe_engines():
        assert entry["description"] and "\n" not in entry["description"]
        assert get_engine(entry["name"]).name == entry["name"]


def test_an_unknown_engine_is_a_clear_error():
    with pytest.raises(
        UnknownEngineError, match="unknown engine 'deep-blue': choose one of minimax, alphabeta"
    ):
        get_engine("deep-blue")
    assert issubclass(UnknownEngineError, ValueError)
