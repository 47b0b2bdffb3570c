"""Iterative deepening and its evaluation: contract, tactics, and agreement with brute force.

Positions are drawn as rows (``x``, ``o``, ``.``); a ``*`` is an empty cell
the test cares about (the expected answer).  Small drawings are centred on a
15x15 board by ``centred``.  Nothing here asserts a time: searches are bounded
by ``max_depth`` or by a poll that counts nodes.
"""

from __future__ import annotations

import random
import time

import pytest

from tests.diagrams import centred, position
from tictactoe.game.board import Board
from tictactoe.game.clock import DEEPENING, THREATS, NodeTime
from tictactoe.game.errors import GameOverError
from tictactoe.game.rules import Rules
from tictactoe.search.analysis import analyse
from tictactoe.search.deepening import TICK_NODES, WIN_SCORE, deepen, iterate
from tictactoe.search.evaluation import evaluator
from tictactoe.search.solver import WIN, SolveResult, solve
from tictactoe.tactics.threats import ThreatSearch, find_win

FAR = 1e9  # a deadline that never comes: the depth is bounded some other way


def sides(board: Board) -> tuple[int, int]:
    """The side to move's stones and the opponent's."""
    return (board.x, board.o) if board.to_move == "x" else (board.o, board.x)


def threats_after(board: Board, cell: int) -> int:
    """How many cells win for the player who just played ``cell`` (taken back afterwards)."""
    board.play(cell)
    mover = board.o if board.to_move == "x" else board.x
    count = board.geometry.winning_cells(mover, board.empty).bit_count()
    board.undo()
    return count


def assert_legal(board: Board, result: SolveResult) -> None:
    """The result is an unproven answer whose move is an empty cell of the board."""
    assert isinstance(result, SolveResult)
    assert result.proven is False and result.value is None and result.plies is None
    assert result.depth is not None and result.depth >= 0
    move = result.best_moves[0]
    assert 0 <= move < board.rules.cells
    assert board.empty & board.geometry.bits[move], f"{move} is occupied"


MIDDLE_GAME = centred(
    [  # from a self-play game; X to move, nothing forced
        "....o....",
        "..oxxx...",
        ".xxxo....",
        ".xooo....",
        ".....o...",
        "..o.x.o..",
        "..ox.....",
        "..x......",
    ]
)


# -- the contract --------------------------------------------------------------------


def test_a_short_deadline_still_gives_a_well_formed_unproven_result():
    board = Board.from_text(MIDDLE_GAME)
    assert board.stones == 20
    result = deepen(board, deadline=time.monotonic() + 0.2)
    assert_legal(board, result)


def test_a_deadline_already_past_gives_the_static_choice():
    board = Board.from_text(MIDDLE_GAME)
    result = deepen(board, deadline=time.monotonic() - 1.0)
    assert_legal(board, result)
    assert result.depth == 0


def test_with_time_the_result_is_unproven_and_searched():
    board = Board.from_text(MIDDLE_GAME)
    result = deepen(board, deadline=FAR, max_depth=2)
    assert_legal(board, result)
    assert result.depth == 2 and result.nodes > 0


def test_the_empty_board_opens_in_the_centre():
    board = Board(Rules(15, 15, 5))
    assert deepen(board, deadline=FAR, max_depth=2).best_moves == [7 * 15 + 7]


def test_a_finished_game_raises():
    board, _ = position(["xxx", "oo.", "..."])
    with pytest.raises(GameOverError):
        deepen(board, deadline=FAR)


def test_an_interrupted_depth_is_yielded_last():
    board = Board.from_text(MIDDLE_GAME)
    for budget in (1, 300, 1000, 5000):
        found = list(iterate(board, poll=lambda nodes, budget=budget: nodes >= budget))
        assert [it.depth for it in found] == list(range(len(found)))
        assert all(it.complete for it in found[:-1]) and not found[-1].complete
        assert all(board.empty & board.geometry.bits[it.move] for it in found)


def test_progress_is_reported_and_the_deadline_kept_on_a_fake_clock(monkeypatch):
    class FakeClock:
        """A monotonic clock that moves 0.1 s each time it is read."""

        now = 0.0

        def monotonic(self):
            self.now += 0.1
            return self.now

    clock = FakeClock()
    monkeypatch.setattr("tictactoe.game.clock.time", clock)
    reports = []
    board = Board.from_text(MIDDLE_GAME)
    result = deepen(board, deadline=3.0, progress=lambda nodes, seconds: reports.append((nodes, seconds)))
    assert_legal(board, result)
    assert reports and all(seconds >= 0.5 for _, seconds in reports)
    assert clock.now < 3.5  # it stopped at the first reading past the deadline


def test_a_budget_counted_in_nodes_ends_at_the_same_node_every_time():
    """On a ``NodeTime`` timer the budget is nodes: the same search, the same move, the same count."""
    board = Board.from_text(MIDDLE_GAME)
    found = []
    for _ in range(2):
        timer = NodeTime({THREATS: 100_000, DEEPENING: 10_000})
        result = analyse(board, budget=0.3, timer=timer)
        found.append((result.best_moves, result.nodes, result.depth, timer.nodes))
    assert found[0] == found[1]
    spent = found[0][3]
    assert spent[THREATS] > 0 and spent[DEEPENING] > 0
    # Past its deadline a search stops at its next reading of the timer: a batch of nodes late.
    assert spent[THREATS] / 100_000 + spent[DEEPENING] / 10_000 <= 0.3 + TICK_NODES / 10_000


# -- tactics ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rows",
    [
        centred(
            [  # X to move
                ".......",
                "oxxxx*.",
                "..ooo..",
            ]
        ),
        centred(
            [  # O to move: its win comes before blocking X's four
                "*oooo*x",
                ".xxxx..",
                ".......",
            ]
        ),
    ],
)
def test_takes_a_win_in_one_on_15x15_with_or_without_time(rows):
    board, wins = position(rows)
    assert deepen(board, deadline=FAR, max_depth=3).best_moves[0] in wins
    assert deepen(board, deadline=time.monotonic() - 1).best_moves[0] in wins


@pytest.mark.parametrize(
    "rows, k",
    [
        (
            centred(
                [
                    "oxxxx*.",
                    "...o...",
                    ".o.....",
                ]
            ),
            5,
        ),
        (
            [
                ".......",
                ".......",
                ".oxxxx*",
                "..o....",
                "...o...",
                ".......",
                ".......",
            ],
            5,
        ),
    ],
)
def test_blocks_a_four(rows, k):
    board, block = position(rows, k)
    assert board.to_move == "o"
    assert deepen(board, deadline=FAR, max_depth=3).best_moves[0] in block
    assert deepen(board, deadline=time.monotonic() - 1).best_moves[0] in block


OPEN_THREE = centred(
    [
        ".........",
        "..x......",
        "..*ooo*..",
        "....x....",
        ".......x.",
    ]
)


def test_an_unblocked_open_three_loses():
    board, _ = position(OPEN_THREE)
    board.play(0)  # a corner, far away
    assert any(threats_after(board, cell) >= 2 for cell in board.legal_moves())


def test_blocks_an_open_three_on_15x15():
    board, blocks = position(OPEN_THREE)
    move = deepen(board, deadline=FAR, max_depth=3).best_moves[0]
    assert move in blocks
    board.play(move)
    assert all(threats_after(board, reply) < 2 for reply in board.legal_moves())


def test_makes_a_double_threat_to_win_in_three_plies():
    board, _ = position(
        [
            "......",
            "......",
            ".xx...",
            ".o....",
            "..o...",
            "......",
        ],
        k=4,
    )
    found = list(iterate(board, poll=None, max_depth=3))
    last = found[-1]
    assert last.score >= WIN_SCORE
    assert threats_after(board, last.move) >= 2


def test_picks_a_winning_move_where_the_solver_proves_a_win():
    rng = random.Random(7)
    checked = 0
    for board in random_positions(rng, count=120, sizes=[(4, 4, 3)]):
        truth = solve(board, all_moves=True)
        if truth.value != WIN:
            continue
        move = deepen(board, deadline=FAR).best_moves[0]
        assert truth.move_values[move].value == WIN, board
        checked += 1
    assert checked >= 20


# -- any position ------------------------------------------------------------------------


def random_positions(rng: random.Random, count: int, sizes: list[tuple[int, int, int]] | None = None):
    """Positions made by random play from the empty board, each stopped before the game ends."""
    for _ in range(count):
        if sizes:
            rows, cols, k = rng.choice(sizes)
        else:
            rows, cols = rng.randint(3, 15), rng.randint(3, 15)
            k = rng.randint(3, max(rows, cols))
        board = Board(Rules(rows, cols, k))
        for _ in range(rng.randint(0, rows * cols - 1)):
            board.play(rng.choice(board.legal_moves()))
            if board.is_over():
                board.undo()
                break
        yield board


def test_never_plays_an_occupied_cell():
    rng = random.Random(2024)
    for n, board in enumerate(random_positions(rng, count=300)):
        assert_legal(board, deepen(board, deadline=time.monotonic() - 1))
        assert_legal(board, deepen(board, deadline=FAR, max_depth=2 if n % 10 == 0 else 1))


# -- the evaluation against brute force ------------------------------------------------------


def window_weights(rules: Rules) -> tuple[list[int], list[int]]:
    """The weight of a live window holding c stones, for the side to move and the other side."""
    ev = evaluator(rules)
    mine, theirs = [0], [0]
    for c in range(1, rules.k):
        mine.append(mine[-1] + ev.my_steps[c])
        theirs.append(theirs[-1] + ev.their_steps[c])
    return mine, theirs


def test_the_evaluation_equals_a_sum_over_every_window():
    rng = random.Random(11)
    for board in random_positions(rng, count=150):
        me, opp = sides(board)
        mine, theirs = window_weights(board.rules)
        expected = 0
        for line in board.geometry.lines:
            held_me, held_opp = (me & line).bit_count(), (opp & line).bit_count()
            if not held_opp:
                expected += mine[held_me]
            if not held_me:
                expected -= theirs[held_opp]
        ev = evaluator(board.rules)
        assert ev.evaluate(ev.stack(me), ev.stack(opp)) == expected, board


def test_move_tiers_cover_the_cells_of_live_windows():
    rng = random.Random(12)
    for board in random_positions(rng, count=100):
        me, opp = sides(board)
        ev = evaluator(board.rules)
        tiers = ev.move_tiers(me, opp)
        expected = []
        for level in ev.tier_levels:
            level_tiers = []
            for own, other in ((me, opp), (opp, me)):
                cover = [0] * board.rules.cells
                for line in board.geometry.lines:
                    if not other & line and (own & line).bit_count() >= level:
                        for cell in board.geometry.cells_of(line):
                            cover[cell] += 1
                level_tiers.append(
                    [
                        sum(board.geometry.bits[c] for c, n in enumerate(cover) if n >= times)
                        for times in (2, 1)
                    ]
                )
            (mine_twice, mine_once), (theirs_twice, theirs_once) = level_tiers
            expected += [mine_twice, theirs_twice, mine_once, theirs_once]
        assert tiers == expected, board


# -- the forcing extensions, and the baseline without them --------------------------------------

# Seeded random positions (moves from the empty board) and what the search as it
# was before the forcing extensions found at each depth: (depth, move, score,
# nodes) to depth 3 (15x15) or 4 (7x7), recorded at main a631b01.  ``forcing=False`` must find exactly these.
BEFORE_FORCING = [
    (
        15,
        [115, 126, 140, 64, 85, 125],
        [(0, 70, None, 0), (1, 100, 2448, 37), (2, 100, 1552, 146), (3, 124, 1656, 2318)],
    ),
    (
        15,
        [97, 145, 82, 66, 129, 127, 100, 68, 95, 111, 157, 114, 80],
        [(0, 65, None, 0), (1, 67, 664, 52), (2, 113, -736, 264), (3, 113, -72, 5762)],
    ),
    (
        15,
        [112, 114, 98, 155, 96, 125, 83, 99, 111, 80, 157],
        [(0, 69, None, 0), (1, 110, 1720, 47), (2, 84, 232, 232), (3, 84, 1160, 2845)],
    ),
    (
        15,
        [124, 143, 112, 66, 141, 64, 95, 80, 84],
        [(0, 32, None, 0), (1, 94, 2672, 49), (2, 94, 1992, 202), (3, 94, 2648, 3612)],
    ),
    (
        15,
        [130, 111, 95, 100, 154, 139, 124, 115, 126, 68],
        [(0, 112, None, 0), (1, 125, 2872, 51), (2, 125, 2424, 202), (3, 125, 5336, 3271)],
    ),
    (15, [128, 82, 94, 114, 95, 66, 155, 127, 99, 142, 68], [(0, 98, None, 0), (1, 98, 1099511627987, 52)]),
    (
        7,
        [27, 30, 36, 0, 13, 29],
        [(0, 20, None, 0), (1, 34, 1624, 39), (2, 31, 0, 216), (3, 31, 1272, 1977), (4, 31, 96, 9567)],
    ),
    (
        7,
        [17, 41, 10, 2, 33, 31, 20, 4, 15, 23, 45, 26, 8],
        [(0, 1, None, 0), (1, 3, 1856, 35), (2, 25, 80, 171), (3, 1, 1440, 1723), (4, 3, 240, 5821)],
    ),
    (
        7,
        [24, 26, 18, 43, 16, 29, 11, 19, 23, 8, 45],
        [(0, 12, None, 0), (1, 15, 1392, 37), (2, 12, -928, 219), (3, 12, 1048, 1973), (4, 33, 248, 5418)],
    ),
]


def played(size: int, moves: list[int]) -> Board:
    """The size x size, k = 5 board after these moves from the empty board."""
    board = Board(Rules(size, size, 5))
    for cell in moves:
        board.play(cell)
    return board


@pytest.mark.parametrize("size, moves, expected", BEFORE_FORCING)
def test_without_forcing_the_search_is_the_one_before_move_for_move(size, moves, expected):
    board = played(size, moves)
    depth = 3 if size == 15 else 4
    found = [(it.depth, it.move, it.score, it.nodes) for it in iterate(board, max_depth=depth, forcing=False)]
    assert found == expected


def test_the_baseline_engine_searches_without_forcing(monkeypatch):
    from tictactoe.algorithms.perfect import Baseline, Perfect
    from tictactoe.search import analysis

    seen = []

    def spy(board, **options):
        seen.append(options["forcing"])
        return deepen(board, deadline=FAR, max_depth=1, forcing=options["forcing"])

    monkeypatch.setattr(analysis, "deepen", spy)
    board = Board.from_text(MIDDLE_GAME)
    # The deadline bounds the threat search before the (spied) deepening; nothing is timed.
    Baseline().search(board, deadline=time.monotonic() + 0.5)
    Perfect().search(board, deadline=time.monotonic() + 0.5)
    assert seen == [False, True]


def opponent_fours_win(board: Board, cell: int) -> bool:
    """Whether, after ``cell``, the opponent wins by continuous fours (found by the threat search)."""
    board.play(cell)
    try:
        return find_win(board, vct=False) is not None
    finally:
        board.undo()


# X to move.  * starts a win of threes and fours that the plain search, two plies
# deep, does not see (it plays elsewhere); the forcing search reads the answers to
# the threes and the fours past its horizon, and proves the win.
FOUR_THREE_LINE = centred(
    [
        ".x...oo",
        "....xo.",
        "...*x..",
        "..x....",
        "......x",
        "x..oo..",
        ".o.....",
    ]
)


def test_the_forcing_search_sees_a_winning_line_past_its_depth():
    board, star = position(FOUR_THREE_LINE)
    assert board.to_move == "x"
    plain = list(iterate(board, max_depth=2, forcing=False))[-1]
    forcing = list(iterate(board, max_depth=2))[-1]
    assert plain.score is not None and plain.score < WIN_SCORE and plain.move not in star
    assert forcing.score is not None and forcing.score >= WIN_SCORE and forcing.move in star
    # The threat search agrees: after * every defence of o's loses.
    me, opp = board.sides()
    bit = board.geometry.bits[forcing.move]
    assert ThreatSearch(board.rules).defend(me | bit, opp, 4) is not None


# X to move.  O threatens a win by continuous fours; the plain search, one ply
# deep, does not see it and plays elsewhere; the forcing search reads o's fours
# past the horizon and plays * (a move after which o has no such win).
FOURS_AGAINST = centred(
    [
        "..o..x.",
        "...x...",
        "x...ox.",
        ".......",
        "..*o..o",
        ".oxo...",
        "ox..x..",
    ]
)


def test_the_forcing_search_stops_a_win_by_fours_the_plain_search_misses():
    board, star = position(FOURS_AGAINST)
    assert board.to_move == "x"
    plain = list(iterate(board, max_depth=1, forcing=False))[-1]
    forcing = list(iterate(board, max_depth=1))[-1]
    assert opponent_fours_win(board, plain.move)
    assert forcing.move in star and not opponent_fours_win(board, forcing.move)


def test_an_open_three_is_answered_one_ply_deep():
    board, blocks = position(OPEN_THREE)
    move = list(iterate(board, max_depth=1))[-1].move
    assert move in blocks
    board.play(move)
    assert all(threats_after(board, reply) < 2 for reply in board.legal_moves())


def test_an_own_open_three_is_a_win_at_once():
    board, _ = position(OPEN_THREE)
    board.play(0)  # o to move again, its open three standing
    found = list(iterate(board, max_depth=1))[-1]
    assert found.score is not None and found.score >= WIN_SCORE
    assert threats_after(board, found.move) >= 2
