"""The page's offline player against the engine: every 3x3 position, and the win check on every size.

Offline, the page answers for the server (static/js/offline.js): 3x3 against the engine from the
engine's own table of values (tictactoe/tools/solved_table.py, static/data/), and how any board
stands from its win check (static/js/rules.js).  The same cases go through the engine and the
web layer's answer fields here and, under node, through the page's modules
(``tests/js/offline_cases.mjs``).  One sweep, computed once for every test here:

- the 4,520 positions of 3x3 where the game goes on: /analyze's and GET /position's answers
  field by field (every legal move with its value and plies, the best moves, the position's
  value), the moves each level draws from (``quick_candidates``, the best moves at perfect),
  and an offline /move that plays one of them;
- the 5,478 reachable 3x3 positions and 10,140 seeded random positions (60 of each size from 3x3
  to 15x15, half with a short k and half with any from 3 to the longer side, reached by random
  moves): /state's status and winning
  line, and the cells where each side would win at once.
"""

from __future__ import annotations

import functools
import json
import random
import shutil
import subprocess

from tests.servers import ROOT
from tictactoe import MAX_SIZE, MIN_K, MIN_SIZE, Board, Rules, Solver, Status, quick_candidates
from tictactoe.tools.counting import reachable_positions
from tictactoe.tools.solved_table import table_json
from web.api.answers import analysis_fields
from web.api.positions import position_fields
from web.cache.solved import Answer
from web.pages.closed_sets import OFFLINE_RULES, OFFLINE_TABLE

HARNESS = ROOT / "tests" / "js" / "offline_cases.mjs"
TABLE = ROOT / "static" / OFFLINE_TABLE
RANDOM_PER_SIZE = 60
# What /analyze adds about the position to analysis_fields (the rest is one request's work).
KNOWN = ("value", "plies", "proven", "source")


def random_games(rng: random.Random, rows: int, cols: int, games: int) -> list[Board]:
    """Games of random moves on rows x cols, half of them with a short k (which ends games), half
    with any k; each stopped at a random ply (at the last one half the time) or where it ended."""
    longest = max(rows, cols)
    short, any_k = min(rng.choice([MIN_K, 4, 5]), longest), rng.randint(MIN_K, longest)
    return [random_game(rng, Rules(rows, cols, k)) for k in (short, any_k) for _ in range(games // 2)]


def random_game(rng: random.Random, rules: Rules) -> Board:
    """One game of random moves under ``rules`` (see ``random_games``)."""
    geometry = rules.geometry
    order = list(range(rules.cells))
    rng.shuffle(order)
    stop = rules.cells if rng.random() < 0.5 else rng.randint(0, rules.cells)

    # X's and O's stones after each number of moves.
    x_after, o_after = [0], [0]
    for ply, cell in enumerate(order):
        x_after.append(x_after[-1] | (geometry.bits[cell] if ply % 2 == 0 else 0))
        o_after.append(o_after[-1] | (geometry.bits[cell] if ply % 2 == 1 else 0))

    def sides(plies: int) -> tuple[int, int]:
        return x_after[plies], o_after[plies]

    # A line, once made, stays: the game's end is the first ply with one, found by bisection.
    if any(map(geometry.has_line, sides(stop))):
        low, high = 0, stop  # no line after ``low`` moves, a line after ``high``
        while high - low > 1:
            middle = (low + high) // 2
            low, high = (low, middle) if any(map(geometry.has_line, sides(middle))) else (middle, high)
        stop = high
    board = Board(rules)
    board.x, board.o = sides(stop)
    return board


def status_of(board: Board) -> dict:
    """/state's answer for ``board``: status, line and side to move, as the engine's outcome says."""
    outcome = board.outcome()
    if outcome is None:
        return {"status": Status.IN_PROGRESS, "line": None, "to_move": board.to_move}
    status = Status.DRAW if outcome.winner is None else Status.won_by(outcome.winner)
    line = None if outcome.winner is None else [list(board.rules.row_col(cell)) for cell in outcome.line]
    return {"status": status, "line": line, "to_move": None}


def cells(rules: Rules, found: list[int]) -> list[dict]:
    """Cells as the API names them, in cell order."""
    return [dict(zip(("row", "col"), rules.row_col(cell), strict=True)) for cell in sorted(found)]


@functools.cache
def sweep() -> tuple[list[Board], list[Board], dict]:
    """The positions (3x3, the game on), the boards (every 3x3 one and the random ones) and what the
    page's modules answer for them."""
    every = reachable_positions(OFFLINE_RULES)
    positions = [board for board in every if not board.is_over()]
    rng = random.Random(44)
    sizes = [(rows, cols) for rows in range(MIN_SIZE, MAX_SIZE + 1) for cols in range(MIN_SIZE, MAX_SIZE + 1)]
    boards = every + [game for rows, cols in sizes for game in random_games(rng, rows, cols, RANDOM_PER_SIZE)]
    given = {
        "positions": [board.to_text() for board in positions],
        "boards": [{"board": board.to_text(), "k": board.rules.k} for board in boards],
    }
    node = shutil.which("node")
    assert node is not None, "node is not installed"
    done = subprocess.run(
        [node, str(HARNESS)], input=json.dumps(given), capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    return positions, boards, json.loads(done.stdout)


@functools.cache
def engine_answers() -> list[Answer]:
    """The engine's answer for each 3x3 position of the sweep, every move's value included, as the web
    layer holds it (best moves in cell order)."""
    positions, _, _ = sweep()
    solver = Solver(OFFLINE_RULES)
    return [Answer.posted(solver.solve(board, all_moves=True), None, False, 0.0) for board in positions]


def test_the_table_is_the_engines_own():
    # static/data/ holds what `python -m tictactoe table` prints today: regenerate it when this fails.
    assert TABLE.read_text() == table_json(OFFLINE_RULES)


def test_offline_hints_and_review_give_the_servers_answer_on_every_position():
    positions, _, page = sweep()
    assert len(positions) == 4_520
    for board, answer, analyze, position in zip(
        positions, engine_answers(), page["analyze"], page["position"], strict=True
    ):
        # /analyze: every legal move with its value and plies, the best moves, the position's value.
        server = {**analysis_fields(board, answer), **{name: getattr(answer, name) for name in KNOWN}}
        assert {name: analyze[name] for name in server} == server, board
        # GET /position: the same, its moves best first (the review's one read), without the server's
        # words: each move's reason and the rule ladder's advice.
        server_position = position_fields(board, answer)
        unsaid = [{**move, "reason": None} for move in server_position["moves"]]
        assert {**position, "offline": None} == {
            **server_position,
            "moves": unsaid,
            "rule": None,
            "offline": None,
        }, board


def test_every_level_chooses_among_the_engines_own_moves_on_every_position():
    positions, _, page = sweep()
    answers = engine_answers()
    for level in ("easy", "medium"):
        for board, chosen in zip(positions, page["candidates"][level], strict=True):
            assert chosen == cells(board.rules, quick_candidates(board, level)), (level, board)
    for board, answer, chosen, move in zip(
        positions, answers, page["candidates"]["perfect"], page["moves"], strict=True
    ):
        assert chosen == cells(board.rules, answer.best_moves), board
        # An offline /move at perfect plays one of them, and says how the game then stands.
        assert move["move"] in chosen, board
        cell = board.rules.cell(move["move"]["row"], move["move"]["col"])
        board.play(cell)
        try:
            after = {"board": board.to_text(), **status_of(board)}
        finally:
            board.undo()
        assert {name: move[name] for name in ("board", "status", "line")} == {
            name: after[name] for name in ("board", "status", "line")
        }, board
        assert (move["value"], move["plies"], move["proven"]) == (answer.value, answer.plies, True), board


def test_the_win_check_agrees_with_the_engines_on_every_size():
    _, boards, page = sweep()
    sizes = {(board.rules.rows, board.rules.cols) for board in boards}
    assert len(sizes) == (MAX_SIZE - MIN_SIZE + 1) ** 2
    ends = {"in_progress": 0, "x_won": 0, "o_won": 0, "draw": 0}
    for board, state, winning in zip(boards, page["state"], page["winning"], strict=True):
        expected = status_of(board)
        assert {name: state[name] for name in expected} == expected, board
        ends[state["status"]] += 1
        if board.is_over():
            continue  # a finished game has no move left to win with
        geometry = board.geometry
        for side, stones in (("x", board.x), ("o", board.o)):
            found = geometry.cells_of(geometry.winning_cells(stones, board.empty))
            assert winning[side] == cells(board.rules, found), (side, board)
    # The cases hold games won by each side, drawn and going on, on boards of every size.
    assert min(ends.values()) > 100, ends
