"""bench/match.py's measurement: pair scores, Elo and its interval, the SPRT, and missed defences."""

from __future__ import annotations

import sys

import pytest

from tests.diagrams import position
from tests.servers import ROOT
from tictactoe.game.board import Board
from tictactoe.game.rules import Cell, Rules

sys.path.insert(0, str(ROOT / "bench"))

from match import PlayedGame, pair_scores, play, records
from match_stats import elo, estimate, sprt_verdict
from missed_defences import LostGame, missed_defence

AUDIT_SECONDS = 5.0  # a deadline no search of these small positions comes near


def history(rows: list[str]) -> tuple[Board, list[Cell], set[Cell]]:
    """The drawn position's board, a legal move order reaching it (x first), and its ``*`` cells."""
    board, marked = position(rows, k=5)
    cells = board.geometry.cells_of
    xs, os = cells(board.x), cells(board.o)
    order = [cell for pair in zip(xs, os, strict=False) for cell in pair] + xs[len(os) :]
    return board, order, marked


# O to move.  X's open three makes an open four at * (or at the cell left of
# it), a win by continuous fours; a stone at * refuses it (X is left a three
# closed at one end and nothing else).  O plays elsewhere (6, 6), X plays *,
# O blocks one end of the four, X completes the other.
OPEN_THREE = [
    "o........",
    ".........",
    ".........",
    ".........",
    "..xxx*...",
    ".........",
    ".........",
    ".........",
    "........o",
]


def lost_to_the_open_three() -> tuple[LostGame, int]:
    """The game drawn above, x winning, and the index of O's move to (6, 6)."""
    board, opening, marked = history(OPEN_THREE)
    (star,) = marked
    cell = board.rules.cell
    moves = (*opening, cell(6, 6), star, cell(4, 1), cell(4, 6))
    return LostGame(board.rules, moves, len(opening), "x"), len(opening)


def test_a_move_that_allows_a_vcf_is_a_missed_defence():
    game, elsewhere = lost_to_the_open_three()
    assert missed_defence(game, AUDIT_SECONDS) == elsewhere


def test_a_move_in_a_position_already_lost_is_not_a_missed_defence():
    """Counted from after X's open four: O's block cannot refuse both ends."""
    game, elsewhere = lost_to_the_open_three()
    from_the_four = LostGame(game.rules, game.moves, elsewhere + 2, game.winner)
    assert missed_defence(from_the_four, AUDIT_SECONDS) is None


def game(pair: int, x_player: int, winner: int | None) -> PlayedGame:
    """A game with the given result and no moves that matter."""
    return PlayedGame(pair, x_player, 0, [0, 1, 2], winner, 1.0, [(2, 0.2), (1, 0.1)])


def test_each_opening_pair_is_one_sample_of_a_s_score():
    games = [game(0, 0, 0), game(0, 1, 0), game(1, 0, 0), game(1, 1, 1), game(2, 0, None), game(2, 1, 1)]
    games.append(game(3, 0, 0))  # its pair is unfinished: no sample
    assert pair_scores(games) == [1.0, 0.5, 0.25]


def test_missed_defences_are_counted_for_the_loser_by_colour():
    games = [game(0, 0, 0), game(0, 1, 0), game(1, 0, None)]
    a, b = records(("a", "b"), games, [3, 4, None])
    assert (a.missed, b.missed) == ({"x": 0, "o": 0}, {"x": 1, "o": 1})
    assert a.tally("x") == [1, 1, 0] and a.tally("o") == [1, 0, 0] and b.score("o") == 0.25


def test_level_scores_mean_no_elo_and_an_interval_around_it():
    found = estimate([0.5, 0.25, 0.75, 0.5] * 10)
    assert found.score == 0.5 and found.elo == 0
    low, high = found.interval
    assert low == pytest.approx(-high) and low < 0 < high


def test_pairs_that_disagree_less_give_a_narrower_interval():
    """Pentanomial: the same mean from split pairs (1/2 each) is surer than from 0s and 1s."""
    split = estimate([0.5, 0.75] * 20).interval
    spread = estimate([0.0, 1.0, 0.75, 0.5] * 10).interval
    assert split[1] - split[0] < spread[1] - spread[0]


def test_elo_is_the_logistic_curve():
    assert elo(0.64) == pytest.approx(100, abs=1)
    assert elo(0.36) == pytest.approx(-100, abs=1)


def test_the_sprt_accepts_what_the_pairs_clearly_show():
    assert sprt_verdict([1.0, 0.75, 1.0, 0.5] * 20, 0, 100) == "H1"
    assert sprt_verdict([0.0, 0.25, 0.5, 0.25] * 20, 0, 100) == "H0"
    assert sprt_verdict([1.0, 0.5], 0, 100) is None


def test_a_match_stops_once_the_sprt_decides():
    """alphabeta-tt beats easy in most games: the SPRT accepts elo1 long before 200 games."""
    games = play(
        "alphabeta-tt", "easy", Rules(3, 3, 3), games=200, budget=None, seed=5, jobs=2, sprt=(0, 200)
    )
    scores = pair_scores(games)
    assert len(games) < 200 and sprt_verdict(scores, 0, 200) == "H1"
    a, b = records(("alphabeta-tt", "easy"), games, None)
    assert a.tally("x")[0] + a.tally("o")[0] > b.tally("x")[0] + b.tally("o")[0]
    assert sorted((game.pair, game.x_player) for game in games)[:4] == [(0, 0), (0, 1), (1, 0), (1, 1)]
