"""The perfect solver against an independent minimax, exhaustively on 3x3.

The oracle is tests/minimax.py: plain memoized minimax over the text form,
sharing no code with the engine.
"""

import random

import pytest

import tictactoe.search.analysis as analysis_module
import tictactoe.search.solver as solver_module
from tests import minimax
from tests.oracle import check_against_oracle
from tictactoe import Board, Rules, SearchTimeout, Solver, analyse, choose_move, solve
from tictactoe.game.values import Source, Value

ALL_3X3 = sorted(minimax.reachable(3, 3, 3))
LIVE_3X3 = [b for b in ALL_3X3 if not minimax.is_over(b, 3)]


def test_the_oracle_sees_the_published_position_counts():
    assert len(ALL_3X3) == 5478
    assert len(LIVE_3X3) == 4520


def test_every_move_of_every_3x3_position_matches_minimax_from_cold_tables():
    for rows in LIVE_3X3:
        check_against_oracle(rows, 3, Solver(Rules()))


def test_every_3x3_position_matches_minimax_with_one_warm_table_and_gives_the_published_figures():
    """One solver for all positions: entries left by earlier solves must never mislead later ones.

    The same pass counts the published figures about 3x3 under perfect play.
    """
    solver = Solver(Rules())
    tally = {"win": 0, "draw": 0, "loss": 0}
    immediate = with_slower_wins = single_saving_move = 0
    for rows in reversed(LIVE_3X3):
        result = check_against_oracle(rows, 3, solver)
        tally[result.value] += 1
        wins_now = [c for c, mv in result.move_values.items() if mv.value == "win" and mv.plies == 1]
        if wins_now:
            immediate += 1
            slower = [c for c, mv in result.move_values.items() if mv.value == "win" and mv.plies > 1]
            with_slower_wins += bool(slower)
            assert set(result.best_moves) == set(wins_now)
        if result.value != "loss":
            saving = [c for c, mv in result.move_values.items() if mv.value != "loss"]
            single_saving_move += len(saving) == 1
    assert tally == {"win": 2836, "draw": 1052, "loss": 632}
    assert (immediate, with_slower_wins) == (2358, 720)
    assert single_saving_move == 1838


def test_the_perfect_level_always_plays_a_best_move():
    rng = random.Random(2026)
    solver = Solver(Rules())
    for rows in LIVE_3X3:
        board = Board.from_text(list(rows))
        best = {board.rules.cell(r, c) for r, c in minimax.best_moves(rows, 3)}
        decision = choose_move(board, "perfect", rng=rng, solver=solver)
        assert decision.move in best, board


def test_perfect_play_varies_among_equal_moves():
    """On the empty board all nine moves draw: a seeded perfect player picks more than one."""
    rng = random.Random(7)
    firsts = {choose_move(Board(), "perfect", rng=rng).move for _ in range(40)}
    assert len(firsts) > 3


@pytest.mark.parametrize(
    "rows, cols, k, value, plies",
    [
        (3, 3, 3, "draw", 9),
        (4, 4, 3, "win", 5),
        (3, 4, 3, "win", 7),
        (4, 3, 3, "win", 7),
        (3, 5, 3, "win", 7),
        (4, 5, 3, "win", 5),
        (4, 4, 4, "draw", 16),
    ],
)
def test_known_mnk_results_from_the_empty_board(rows, cols, k, value, plies):
    result = solve(Board(Rules(rows, cols, k)))
    assert (result.value, result.plies, result.proven) == (value, plies, True)


def opening_values(first_move: tuple[int, int]) -> dict[tuple[int, int], str]:
    board = Board()
    board.play(board.rules.cell(*first_move))
    result = solve(board, all_moves=True)
    return {board.rules.row_col(cell): mv.value for cell, mv in result.move_values.items()}


def test_every_first_move_draws():
    result = solve(Board(), all_moves=True)
    assert {mv.value for mv in result.move_values.values()} == {"draw"}
    assert len(result.move_values) == 9


def test_after_a_corner_only_the_centre_draws():
    #   X . .
    #   . ? .     O's only drawing reply is the centre
    #   . . .
    values = opening_values((0, 0))
    assert [m for m, v in values.items() if v == "draw"] == [(1, 1)]
    assert set(values.values()) == {"draw", "loss"}


def test_after_the_centre_only_the_corners_draw():
    values = opening_values((1, 1))
    assert sorted(m for m, v in values.items() if v == "draw") == [(0, 0), (0, 2), (2, 0), (2, 2)]


def test_after_an_edge_the_centre_adjacent_corners_and_opposite_edge_draw():
    #   . X .
    #   . . .     draws: the centre, (0,0), (0,2) and (2,1)
    #   . . .
    values = opening_values((0, 1))
    assert sorted(m for m, v in values.items() if v == "draw") == [(0, 0), (0, 2), (1, 1), (2, 1)]


def random_position(rng: random.Random, rows: int, cols: int, k: int, stones: int):
    """A position after ``stones`` random moves from empty, or None if the game ended first."""
    board = minimax.empty_board(rows, cols)
    for _ in range(stones):
        if minimax.is_over(board, k):
            return None
        board = minimax.play(board, *rng.choice(minimax.moves(board)))
    return None if minimax.is_over(board, k) else board


@pytest.mark.parametrize(
    "rows, cols, k, stones, count",
    [
        (4, 4, 4, 8, 300),
        (4, 4, 3, 8, 100),
        (3, 4, 3, 5, 100),
        (4, 5, 4, 12, 40),
    ],
)
def test_random_positions_match_minimax(rows, cols, k, stones, count):
    rng = random.Random(rows * 100 + cols * 10 + k)
    solver = Solver(Rules(rows, cols, k))
    checked = 0
    while checked < count:
        position = random_position(rng, rows, cols, k, stones + rng.randrange(3))
        if position is not None:
            check_against_oracle(position, k, solver)
            checked += 1


def test_a_search_past_its_deadline_raises_rather_than_guessing():
    with pytest.raises(SearchTimeout):
        solve(Board(Rules(5, 5, 4)), budget=0.01)


def test_analyse_marks_an_unfinished_search_as_not_proven():
    board = Board(Rules(7, 7, 5))
    result = analyse(board, budget=0.2)
    assert result.proven is False
    assert result.value is None and result.plies is None
    assert board.empty & board.geometry.bits[result.best_moves[0]]


def test_analyse_proves_what_fits_in_its_budget():
    result = analyse(Board.from_text(["x..", ".o.", "..."]), budget=5)
    assert result.proven and result.value == "draw"


# . . . . . .
# . . . . . .
# . . x . o x     o to move, 27 empty cells, a draw (the 5x6 book holds it:
# . . . . . .     left out here, as for the 3-stone positions it does not hold)
# . . . . . .
FIVE_BY_SIX_DRAW = (["......", "......", "..x.ox", "......", "......"], Value.DRAW)
# o . . . . .
# x . . . x .
# . . . . . .     x to move, 30 empty cells, and o wins in 8 plies: threat
# . o . o . .     search and the heuristic search alone leave it unproven
# x . . . . .
# . . . . . .
SIX_BY_SIX_LOSS = (["o.....", "x...x.", "......", ".o.o..", "x.....", "......"], Value.LOSS)


@pytest.mark.parametrize(("rows", "value"), [FIVE_BY_SIX_DRAW, SIX_BY_SIX_LOSS])
def test_analyse_tries_the_solver_up_to_30_empty_cells_with_k_4_only(monkeypatch, rows, value):
    monkeypatch.setattr("tictactoe.search.analysis.book_answer", lambda board, all_moves=False: None)
    result = analyse(Board.from_text(rows, k=4), budget=60)
    assert (result.value, result.proven, result.source) == (value, True, Source.PROOF)

    def untouchable(rules):
        raise AssertionError(f"the solver was tried on {rules}")

    # The same stones with k=5 are left to threat and heuristic search.
    monkeypatch.setattr("tictactoe.search.analysis.Solver", untouchable)
    assert analyse(Board.from_text(rows, k=5), budget=0.2).source == Source.HEURISTIC


def test_the_time_a_book_takes_to_read_counts_against_the_budget(monkeypatch):
    class StoppedClock:
        """A monotonic clock that moves only when told to."""

        now = 100.0

        def monotonic(self):
            return self.now

    clock = StoppedClock()

    def slow_book(board, all_moves=False):
        clock.now += 0.4  # the first lookup reads the book from disk
        return None

    deadlines = []

    class RecordingSolver:
        def __init__(self, rules):
            pass

        def solve(self, board, deadline=None, **options):
            deadlines.append(deadline)
            raise SearchTimeout()

    monkeypatch.setattr("tictactoe.search.analysis.time", clock)
    monkeypatch.setattr("tictactoe.search.analysis.book_answer", slow_book)
    monkeypatch.setattr("tictactoe.search.analysis.Solver", RecordingSolver)

    class Deepened(Exception):
        pass

    def recording_deepen(board, deadline, **options):
        deadlines.append(deadline)
        raise Deepened()

    monkeypatch.setattr("tictactoe.search.analysis.deepen", recording_deepen)
    # 4x4 k=3, 16 empty cells: the solver gets the whole budget, then the deepening what is left
    # (k=3: no threat search between them).
    with pytest.raises(Deepened):
        analyse(Board(Rules(4, 4, 3)), budget=1.0)
    assert deadlines[0] == 101.0
    assert deadlines[1] == pytest.approx(101.0 - analysis_module.RETURN_MARGIN)


def test_progress_is_reported_during_a_long_solve(monkeypatch):
    monkeypatch.setattr("tictactoe.game.clock.PROGRESS_SECONDS", 0.0)  # report at every tick
    # Ticks every 256 nodes: the pairing test proves this board in about a thousand nodes.
    monkeypatch.setattr(solver_module, "TICK_NODES", 256)
    reports = []
    board = Board(Rules(4, 5, 4))
    result = Solver(board.rules).solve(board, progress=lambda nodes, seconds: reports.append(nodes))
    assert len(reports) == result.nodes // solver_module.TICK_NODES
    assert reports == sorted(reports) and reports[-1] <= result.nodes


@pytest.mark.parametrize("empties", [1, 2, 5, 9, 25])
def test_higher_scores_are_the_moves_that_rank_higher(empties):
    # The solver picks its best moves by score: that must be MoveValue.rank()'s order.
    scores = range(-empties, empties + 1)
    ranks = [solver_module.score_to_value(score, empties).rank() for score in scores]
    assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)


@pytest.mark.parametrize(("mine_draw", "mine_win"), [(2, 8), (1, 1), (0, 0), (8, 2)])
def test_the_move_order_never_changes_a_value(monkeypatch, mine_draw, mine_win):
    """Moves are ranked by weights that depend on the window (``MINE_DRAW``, ``MINE_WIN``):
    whatever the weights, every move's value of seeded 4x4 k=4 positions with 9 or 10
    empty cells (ranked at every node down to 8 empty cells) is minimax's."""
    monkeypatch.setattr(solver_module, "MINE_DRAW", mine_draw)
    monkeypatch.setattr(solver_module, "MINE_WIN", mine_win)
    rng = random.Random(44)
    checked = 0
    while checked < 30:
        position = random_position(rng, 4, 4, 4, 6 + rng.randrange(2))
        if position is not None:
            check_against_oracle(position, 4, Solver(Rules(4, 4, 4)))
            checked += 1


def test_the_best_moves_are_the_moves_every_value_ranks_best():
    """``/move`` decides each class of move with a null window just below the best score;
    ``/analyze`` proves every move's exact value: on seeded 4x5 k=4 positions with 4 to 7
    stones (ranked moves, pairings and every window in play) the best moves agree."""
    rules = Rules(4, 5, 4)
    rng = random.Random(45)
    checked = 0
    while checked < 80:
        position = random_position(rng, 4, 5, 4, 4 + rng.randrange(4))
        if position is None:
            continue
        board = Board.from_text(list(position), k=4)
        short = Solver(rules).solve(board)
        full = Solver(rules).solve(board, all_moves=True)
        top = max(mv.rank() for mv in full.move_values.values())
        assert short.best_moves == [c for c, mv in full.move_values.items() if mv.rank() == top], board
        assert (short.value, short.plies) == (full.value, full.plies), board
        checked += 1
