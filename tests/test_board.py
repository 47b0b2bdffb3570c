"""Rules and board: the text form, its two kinds of error, moves, outcome, symmetry."""

import pickle
import random
import time
from collections.abc import Callable

import pytest

from tictactoe import (
    Board,
    BoardFormatError,
    GameOverError,
    IllegalMoveError,
    IllegalPositionError,
    Rules,
    Solver,
    analyse,
    quick_move,
)
from tictactoe.algorithms.registry import ENGINES
from tictactoe.book.lookup import book_path
from tictactoe.search.deepening import deepen

# (input, k, error type, words the message must contain)
BAD_INPUTS = [
    ("x..", None, BoardFormatError, "list of row strings"),
    (None, None, BoardFormatError, "list of row strings"),
    ({"a": 1}, None, BoardFormatError, "list of row strings"),
    ([], None, BoardFormatError, "no rows"),
    (["x..", ".o.", 3], None, BoardFormatError, "row 2 must be a string"),
    (["x..", ".o", "..."], None, BoardFormatError, "same length"),
    (["x..", ".o.", "...."], None, BoardFormatError, "row 2 has 4"),
    (["x..", ".q.", "..."], None, BoardFormatError, "bad character 'q' at row 1, column 1"),
    (["x..", ". .", "..."], None, BoardFormatError, "bad character ' '"),
    (["x..", ".0.", "..."], None, BoardFormatError, "bad character '0'"),
    (["x.", ".o"], None, BoardFormatError, "rows must be between 3 and 15"),
    (["..", "..", ".."], None, BoardFormatError, "cols must be between 3 and 15"),
    (["." * 16] * 16, None, BoardFormatError, "between 3 and 15, not 16"),
    (["..."] * 3, 2, BoardFormatError, "k must be between 3 and 3"),
    (["..."] * 3, 4, BoardFormatError, "not 4"),
    (["...."] * 4, 5, BoardFormatError, "k must be between 3 and 4 on a 4x4 board"),
    (["..."] * 3, "3", BoardFormatError, "k must be an integer"),
    (["..."] * 3, True, BoardFormatError, "k must be an integer"),
    (["..."] * 3, 3.0, BoardFormatError, "k must be an integer"),
    (["xx.", "...", "..."], None, IllegalPositionError, "impossible counts: 2 x and 0 o"),
    (["o..", "...", "..."], None, IllegalPositionError, "impossible counts: 0 x and 1 o"),
    (["xxx", "ooo", "x.."], None, IllegalPositionError, "both x and o have a line"),
    (["xxx", "oo.", "..o"], None, IllegalPositionError, "x has a line but o moved after it"),
    (["ooo", "xx.", "xx."], None, IllegalPositionError, "o has a line but x moved after it"),
    # X has two separate lines: the game would have ended at the first one.
    (
        ["xxx....", "oo.o...", ".......", "xxx....", "o.o...."],
        3,
        IllegalPositionError,
        "no single last move completes",
    ),
]


@pytest.mark.parametrize("rows, k, error, words", BAD_INPUTS)
def test_bad_input_raises_the_right_error_naming_the_problem(rows, k, error, words):
    with pytest.raises(error) as caught:
        Board.from_text(rows, k=k)
    assert words in str(caught.value)


def test_the_two_kinds_of_error_are_distinct_value_errors():
    assert issubclass(BoardFormatError, ValueError)
    assert issubclass(IllegalPositionError, ValueError)
    assert not issubclass(BoardFormatError, IllegalPositionError)
    assert not issubclass(IllegalPositionError, BoardFormatError)


def test_a_line_made_by_the_last_move_through_two_windows_is_legal():
    #   x x x x x      one move (the middle) completes two overlapping windows of 3
    board = Board.from_text(["xxxxx", "oo.oo", "....."], k=3)
    assert board.outcome().winner == "x"


def test_text_round_trips_and_upper_case_is_accepted():
    board = Board.from_text(["X.o", ".x.", "..O"])
    assert board.to_text() == ["x.o", ".x.", "..o"]
    assert Board.from_text(board.to_text()) == board


def test_default_k():
    assert Board.from_text(["..."] * 3).rules.k == 3
    assert Board.from_text(["...."] * 4).rules.k == 4
    assert Board.from_text(["......."] * 7).rules.k == 5
    assert Board.from_text(["...."] * 3).rules.k == 3


def test_side_to_move_follows_from_the_counts():
    assert Board.from_text(["...", "...", "..."]).to_move == "x"
    assert Board.from_text(["x..", "...", "..."]).to_move == "o"
    assert Board.from_text(["x..", ".o.", "..."]).to_move == "x"


def test_outcome_names_the_winner_and_the_cells_of_the_line():
    #   x o .
    #   o x .
    #   . . x     X wins on the diagonal
    board = Board.from_text(["xo.", "ox.", "..x"])
    outcome = board.outcome()
    assert outcome.winner == "x"
    assert [board.rules.row_col(c) for c in outcome.line] == [(0, 0), (1, 1), (2, 2)]
    assert board.legal_moves() == []


def test_a_full_board_without_a_line_is_a_draw():
    board = Board.from_text(["xox", "xoo", "oxx"])
    assert board.outcome() is not None and board.outcome().winner is None
    assert board.legal_moves() == []


def test_playing_on_a_finished_game_or_an_occupied_cell_is_refused():
    board = Board.from_text(["xxx", "oo.", "..."])
    with pytest.raises(GameOverError):
        board.play(5)
    board = Board.from_text(["x..", "...", "..."])
    with pytest.raises(IllegalMoveError, match="occupied"):
        board.play(0)
    with pytest.raises(IllegalMoveError, match="off the"):
        board.play(9)


def random_game(rng: random.Random, rules: Rules) -> Board:
    """A board after random legal moves from empty, stopping at a random point or the end."""
    board = Board(rules)
    for _ in range(rng.randrange(rules.cells + 1)):
        moves = board.legal_moves()
        if not moves:
            break
        board.play(rng.choice(moves))
    return board


RULE_SETS = [
    Rules(3, 3, 3),
    Rules(4, 4, 4),
    Rules(3, 5, 3),
    Rules(6, 4, 4),
    Rules(7, 7, 5),
    Rules(15, 15, 5),
    Rules(5, 9, 4),
]


@pytest.mark.parametrize("rules", RULE_SETS, ids=str)
def test_play_then_undo_restores_the_board(rules):
    rng = random.Random(rules.cells)
    for _ in range(30):
        board = random_game(rng, rules)
        before = (board.x, board.o, board.to_text(), list(board.history))
        for cell in board.legal_moves():
            board.play(cell)
            assert board.undo() == cell
            assert (board.x, board.o, board.to_text(), board.history) == before


@pytest.mark.parametrize("rules", RULE_SETS, ids=str)
def test_the_canonical_key_is_the_same_under_every_symmetry(rules):
    rng = random.Random(rules.cells + 1)
    expected = 8 if rules.rows == rules.cols else 4
    assert len(rules.geometry.symmetries) == expected
    for _ in range(30):
        board = random_game(rng, rules)
        canon, symmetry = board.canonical()
        assert canon == board.transformed(symmetry)
        for perm in rules.geometry.symmetries:
            from tictactoe import Symmetry

            image = board.transformed(Symmetry(perm))
            assert image.canonical_key() == board.canonical_key()
            assert image.canonical()[0] == canon


def test_symmetries_are_distinct_permutations_that_preserve_lines():
    for rules in RULE_SETS:
        geometry = rules.geometry
        lines = {frozenset(geometry.cells_of(line)) for line in geometry.lines}
        perms = geometry.symmetries
        assert len(set(perms)) == len(perms)
        for perm in perms:
            assert sorted(perm) == list(range(rules.cells))
            assert {frozenset(perm[c] for c in line) for line in lines} == lines


def test_a_move_found_on_the_canonical_board_maps_back():
    #   . . .
    #   . . .      X in the bottom-right corner; the canonical board moves it
    #   . . x      to another corner, and the centre reply maps back to the centre
    board = Board.from_text(["...", "...", "..x"])
    canon, symmetry = board.canonical()
    back = symmetry.inverse()
    x_cell = canon.geometry.cells_of(canon.x)[0]
    assert back.apply(x_cell) == 8
    assert back.apply(4) == 4


@pytest.mark.parametrize("rules", RULE_SETS, ids=str)
def test_winning_cells_agree_with_playing_each_cell(rules):
    rng = random.Random(rules.cells + 2)
    geometry = rules.geometry
    for _ in range(20):
        board = random_game(rng, rules)
        if board.is_over():
            continue
        player = board.to_move
        mine = board.stones_of(player)
        found = set(geometry.cells_of(geometry.winning_cells(mine, board.empty)))
        expected = set()
        for cell in board.legal_moves():
            board.play(cell)
            if board.outcome() is not None and board.outcome().winner == player:
                expected.add(cell)
            board.undo()
        assert found == expected


def test_lines_are_counted_as_windows_of_k():
    # 3x3: 3 rows + 3 cols + 2 diagonals; 15x15 k=5: 2*15*11 straight + 2*11*11 diagonal
    assert len(Rules(3, 3, 3).geometry.lines) == 8
    assert len(Rules(15, 15, 5).geometry.lines) == 2 * 15 * 11 + 2 * 11 * 11
    assert len(Rules(4, 5, 4).geometry.lines) == 4 * 2 + 5 * 1 + 2 * 2


# A won game and a drawn one, the two ways a game ends.
WON = ["xxx", "oo.", "..."]
DRAWN = ["xox", "xoo", "oxx"]
# Every engine entry point asked for a move on a finished board, by name.
REFUSERS: dict[str, Callable[[Board], object]] = {
    "analyse": analyse,
    "solver": lambda board: Solver(board.rules).solve(board),
    "deepen": lambda board: deepen(board, deadline=time.monotonic() + 60),
    "easy": lambda board: quick_move(board, "easy", random.Random(1)),
    "medium": lambda board: quick_move(board, "medium", random.Random(1)),
    **{
        f"engine {name}": lambda board, engine=engine: engine.search(board, rng=random.Random(1))
        for name, engine in ENGINES.items()
    },
}
CASES = [(name, rows) for name in REFUSERS for rows in (WON, DRAWN)]
# On a full board every cell is taken, so only a won game reaches the refusal in play().
CASES.append(("play", WON))
REFUSERS["play"] = lambda board: board.play(5)


@pytest.mark.parametrize(("name", "rows"), CASES, ids=[f"{name}-{''.join(rows)}" for name, rows in CASES])
def test_a_finished_game_is_refused_in_the_same_words_everywhere(name, rows):
    with pytest.raises(GameOverError) as raised:
        REFUSERS[name](Board.from_text(rows))
    assert str(raised.value) == "the game is over: there is no move to make"
    assert str(pickle.loads(pickle.dumps(raised.value))) == str(raised.value)


def test_rules_have_one_label_for_people_and_one_key_for_stored_contracts():
    rules = Rules(5, 5, 4)
    assert rules.label() == str(rules) == "5x5 k=4"
    # The key's bytes are a contract: cache keys, book file names, the log lines' board field.
    assert rules.key() == "5x5k4"
    assert Board(rules).text_key() == "5x5k4:...../...../...../...../....."
    assert book_path(rules).name == "book-5x5k4.json.gz"
