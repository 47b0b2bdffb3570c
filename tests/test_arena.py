"""Matches between engines: tallies, alternating sides, seeds, progress, and the CLI's arena."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tictactoe import QUICK_LEVELS, Board, Rules, solve
from tictactoe.algorithms import UnknownEngineError
from tictactoe.algorithms.registry import player_names
from tictactoe.search.levels import LEVEL_DESCRIPTIONS
from tictactoe.tools.arena import get_player, play_match

ROOT = Path(__file__).resolve().parent.parent
CENTRE = 4


def run(*args: str) -> subprocess.CompletedProcess:
    """Run ``python -m tictactoe ARGS`` from the project root; a generous guard, not a timing."""
    return subprocess.run(
        [sys.executable, "-m", "tictactoe", *args], capture_output=True, text=True, cwd=ROOT, timeout=120
    )


def test_tallies_add_up_and_mirror_each_other():
    match = play_match("alphabeta-tt", "easy", games=9, seed=3)
    a, b = match.standings
    assert a.games == b.games == len(match.games) == 9
    assert (a.wins, a.draws, a.losses) == (b.losses, b.draws, b.wins)
    assert a.losses == 0  # an exact engine never loses at 3x3
    assert a.moves > 0 and a.nodes > 0 and b.nodes == 0  # a level does not search


def test_players_take_turns_to_be_x():
    """alphabeta-tt always opens in the centre; easy opens at random."""
    match = play_match("alphabeta-tt", "easy", games=6, seed=4)
    assert [game.x_player for game in match.games] == [0, 1, 0, 1, 0, 1]
    assert all(game.moves[0] == CENTRE for game in match.games if game.x_player == 0)
    assert {game.moves[0] for game in match.games if game.x_player == 1} != {CENTRE}


def test_a_seed_replays_the_same_games():
    def moves(seed: int) -> list[list[int]]:
        return [game.moves for game in play_match("easy", "medium", games=8, seed=seed).games]

    assert moves(11) == moves(11)
    assert moves(11) != moves(12)


def test_progress_is_reported_after_every_game():
    reports = []

    def progress(game, match):
        reports.append((game.number, len(match.games), match.standings[0].games))

    play_match("medium", "easy", games=5, seed=1, progress=progress)
    assert reports == [(n, n, n) for n in range(1, 6)]


def test_other_boards_are_played_to_the_end_and_perfect_never_gives_up_value():
    """4x4 k=3 is a first-player win by ply 5: perfect as x wins by its 3rd move; as o it
    keeps, move by move, the best value the position left it (a loss, then, but the slowest)."""
    rules = Rules(4, 4, 3)
    match = play_match("perfect", "easy", games=4, rules=rules, seed=5)
    first = match.games[0]
    assert (first.x_player, first.winner) == (0, 0)
    assert len(first.moves) <= 5
    for game in match.games:
        board = Board(rules)
        for ply, move in enumerate(game.moves):
            if (ply % 2 == 0) == (game.x_player == 0):  # the perfect side's move: one of the best
                assert move in solve(board).best_moves, (game.moves, ply)
            board.play(move)


def test_levels_and_engines_are_players():
    assert player_names()[-len(QUICK_LEVELS) :] == list(QUICK_LEVELS)
    assert get_player("easy").name == "easy"
    with pytest.raises(UnknownEngineError, match=r"unknown engine 'nope'.*easy, medium"):
        play_match("nope", "easy", games=1)
    with pytest.raises(ValueError, match="at least 1 game"):
        play_match("easy", "easy", games=0)


# -- the command line --------------------------------------------------------------------


def test_cli_arena_prints_the_tally_and_progress():
    proc = run("arena", "mcts", "easy", "--games", "4", "--seed", "1", "--size", "3x3")
    assert proc.returncode == 0, proc.stderr
    rows = {
        name: tuple(map(int, counts))
        for name, *counts in re.findall(r"^(mcts|easy)\s+(\d+)\s+(\d+)\s+(\d+)\s", proc.stdout, re.M)
    }
    assert sum(rows["mcts"]) == sum(rows["easy"]) == 4
    assert rows["mcts"] == (rows["easy"][2], rows["easy"][1], rows["easy"][0])
    assert "3x3 k=3, 4 games, seed 1" in proc.stdout
    progress = re.findall(r"^game (\d)/4: x (\w+), o (\w+): ", proc.stderr, re.M)
    assert progress == [
        ("1", "mcts", "easy"),
        ("2", "easy", "mcts"),
        ("3", "mcts", "easy"),
        ("4", "easy", "mcts"),
    ]


def test_cli_arena_rejects_an_unknown_engine():
    proc = run("arena", "mcts", "deep-blue", "--games", "2")
    assert proc.returncode == 2
    assert "unknown engine 'deep-blue'" in proc.stderr
    assert "minimax" in proc.stderr and "easy" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stdout == ""


def test_cli_arena_rejects_zero_games():
    proc = run("arena", "mcts", "easy", "--games", "0")
    assert proc.returncode == 2
    assert "must be at least 1" in proc.stderr


def test_the_quick_levels_play_as_the_levels_describe_themselves():
    for level in QUICK_LEVELS:
        player = get_player(level)
        assert player.description == LEVEL_DESCRIPTIONS[level]
        assert player_names().count(level) == 1
