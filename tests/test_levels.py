"""Levels of play: perfect never gives up value, medium and easy are beatable but not silly."""

import json
import random

import pytest

from tictactoe import (
    LEVELS,
    Board,
    GameOverError,
    Level,
    Rules,
    Solver,
    Status,
    analyse,
    choose_move,
    quick_move,
)


def play_game(levels: dict[str, str], rng: random.Random, rules: Rules = Rules()) -> str | None:
    """Play one game, each side at its level; return the winner or None for a draw."""
    board = Board(rules)
    solvers = {side: Solver(rules) for side in "xo"}
    while not board.is_over():
        side = board.to_move
        board.play(choose_move(board, levels[side], rng=rng, solver=solvers[side]).move)
    return board.outcome().winner


@pytest.mark.parametrize("opponent", LEVELS)
def test_perfect_never_loses_as_either_side(opponent):
    rng = random.Random(11)
    for game in range(60):
        perfect_side = "xo"[game % 2]
        levels = {perfect_side: "perfect", "xo"[1 - game % 2]: opponent}
        winner = play_game(levels, rng)
        assert winner in (perfect_side, None)


def test_perfect_against_perfect_is_always_a_draw():
    rng = random.Random(12)
    assert {play_game({"x": "perfect", "o": "perfect"}, rng) for _ in range(20)} == {None}


def test_medium_is_beatable_by_perfect():
    rng = random.Random(13)
    winners = [play_game({"x": "perfect", "o": "medium"}, rng) for _ in range(40)]
    assert winners.count("x") > 0


def test_easy_takes_a_win_in_one():
    #   x x .      X to move wins at (0, 2)
    #   o o .      (O also threatens (1, 2): easy still takes its own win)
    #   . . .
    board = Board.from_text(["xx.", "oo.", "..."])
    rng = random.Random(14)
    assert {quick_move(board, "easy", rng) for _ in range(30)} == {2}


def test_medium_blocks_a_loss_in_one_and_easy_does_not_always():
    #   x x .      O to move must block at (0, 2)
    #   o . .
    #   . . .
    board = Board.from_text(["xx.", "o..", "..."])
    rng = random.Random(15)
    assert {quick_move(board, "medium", rng) for _ in range(30)} == {2}
    assert len({quick_move(board, "easy", rng) for _ in range(30)}) > 1


def test_medium_prefers_its_own_win_to_a_block():
    board = Board.from_text(["xx.", "oo.", "x.."])
    # O to move: O wins at (1, 2); X threatens (0, 2).
    rng = random.Random(16)
    assert {quick_move(board, "medium", rng) for _ in range(20)} == {5}


@pytest.mark.parametrize("level", LEVELS)
def test_no_level_moves_on_a_finished_game(level):
    with pytest.raises(GameOverError):
        choose_move(Board.from_text(["xxx", "oo.", "..."]), level, rng=random.Random(1))


def test_an_unknown_level_is_refused():
    with pytest.raises(ValueError, match="unknown level 'expert'"):
        choose_move(Board(), "expert")


def test_perfect_takes_the_fastest_win():
    #   x . .
    #   x o .      X can win at once at (2, 0); a slower win exists too
    #   . o .
    board = Board.from_text(["x..", "xo.", ".o."])
    assert choose_move(board, "perfect", rng=random.Random(3)).move == 6


def test_without_an_rng_every_level_chooses_reproducibly():
    #   x . .
    #   . o .      perfect: several best moves (all draws); easy and medium: any move
    #   . . .
    board = Board.from_text(["x..", ".o.", "..."])
    for level in LEVELS:
        moves = {choose_move(board, level).move for _ in range(5)}
        assert len(moves) == 1, level
    decision = choose_move(board, "perfect")
    assert len(decision.result.best_moves) > 1
    assert decision.move == decision.result.best_moves[0]


def test_the_perfect_level_plays_a_best_move_of_the_analysis_it_is_given():
    board = Board.from_text(["x..", ".o.", "..."])
    analysed = []

    def analyst(position):
        analysed.append(position.to_text())
        return analyse(position, budget=None)

    decision = choose_move(board, "perfect", random.Random(5), analyst=analyst)
    assert analysed == [board.to_text()]
    assert decision.move in decision.result.best_moves
    assert choose_move(board, "easy", random.Random(5), analyst=analyst).result is None
    assert len(analysed) == 1  # a quick level searches nothing


def test_perfect_plays_big_boards_within_its_budget_without_a_proof():
    board = Board(Rules(15, 15, 5))
    decision = choose_move(board, "perfect", rng=random.Random(4), budget=0.3)
    assert decision.result.proven is False
    assert board.empty & board.geometry.bits[decision.move]


def test_levels_and_statuses_are_the_strings_the_api_has_always_spoken():
    # StrEnum members go into JSON as their strings, so no answer changes a byte.
    assert json.dumps(list(Level)) == '["easy", "medium", "perfect"]'
    assert tuple(Level) == LEVELS
    assert json.dumps(list(Status)) == '["in_progress", "x_won", "o_won", "draw"]'
    assert (Status.won_by("x"), Status.won_by("o")) == ("x_won", "o_won")
