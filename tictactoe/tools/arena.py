"""Matches between engines: N games, the two players taking turns to be X, seeded.

    match = play_match("mcts", "easy", games=20, seed=1)
    match.standings[0].wins, match.standings[0].draws, match.standings[0].losses

A player is any of ``tictactoe.algorithms.registry.PLAYERS``: the teaching
engines, ``baseline`` (the production engine without threat search, the
yardstick of strength matches) and the levels that search nothing (``QUICK_LEVELS``).
Player A is X in games 1, 3, 5... and player B in the others.  All
randomness of a match comes from its seed: each game gets its own
``random.Random`` drawn from it, shared by both players in turn, so the same
seed replays the same games, as long as no engine is stopped by ``budget``
(a deadline depends on the machine's speed).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..algorithms import Engine
from ..algorithms.registry import get_player
from ..game.board import Board
from ..game.rules import Cell, Rules


@dataclass
class Standing:
    """One player's results over a match, and what its searches cost."""

    name: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    moves: int = 0
    nodes: int = 0
    seconds: float = 0.0
    stopped: int = 0  # searches the deadline cut short (their moves are unproven guesses)

    @property
    def games(self) -> int:
        """Games played: wins, draws and losses."""
        return self.wins + self.draws + self.losses


@dataclass(frozen=True)
class Game:
    """One finished game: who was X (0 for player A, 1 for B), the moves, the winner's index."""

    number: int
    x_player: int
    moves: list[Cell]
    winner: int | None


@dataclass
class Match:
    """A match so far: rules, games planned, both players' standings (A first), games played."""

    rules: Rules
    seed: int | None
    planned: int
    standings: tuple[Standing, Standing]
    games: list[Game] = field(default_factory=list)


# Called after each game with the game just finished and the match so far.
Progress = Callable[[Game, Match], None]


def play_game(
    players: tuple[Engine, Engine],
    x_player: int,
    rules: Rules,
    rng: random.Random,
    budget: float | None,
    standings: tuple[Standing, Standing],
    opening: Sequence[Cell] = (),
) -> tuple[list[Cell], int | None]:
    """Play one game from the ``opening`` moves (none: the empty board); return moves and winner.

    The moves include the opening's; the winner is a player's index (None: a
    draw).  ``players[x_player]`` is X.  Each move is searched with a deadline of
    ``budget`` seconds (None: no limit), its cost added to the mover's standing.
    """
    board = Board(rules)
    for cell in opening:
        board.play(cell)
    seat = {"x": x_player, "o": 1 - x_player}
    while not board.is_over():
        mover = seat[board.to_move]
        deadline = None if budget is None else time.monotonic() + budget
        result = players[mover].search(board, deadline=deadline, rng=rng)
        standings[mover].moves += 1
        standings[mover].nodes += result.nodes
        standings[mover].seconds += result.seconds
        standings[mover].stopped += not result.finished
        board.play(result.move)
    outcome = board.outcome()
    assert outcome is not None, "the loop plays until the game is over"
    winner = outcome.winner
    return list(board.history), None if winner is None else seat[winner]


def play_match(
    name_a: str,
    name_b: str,
    games: int,
    rules: Rules = Rules(),
    seed: int | None = None,
    budget: float | None = None,
    progress: Progress | None = None,
) -> Match:
    """Play ``games`` games between two named players, A as X in the odd-numbered games.

    Raises ``UnknownEngineError`` for an unknown name and ``ValueError`` when
    ``games`` is not positive.
    """
    if games < 1:
        raise ValueError(f"a match needs at least 1 game, not {games}")
    players = (get_player(name_a), get_player(name_b))
    match = Match(rules, seed, games, (Standing(name_a), Standing(name_b)))
    seeds = random.Random(seed)
    for number in range(1, games + 1):
        x_player = (number - 1) % 2
        rng = random.Random(seeds.getrandbits(64))
        moves, winner = play_game(players, x_player, rules, rng, budget, match.standings)
        for index, standing in enumerate(match.standings):
            if winner is None:
                standing.draws += 1
            elif winner == index:
                standing.wins += 1
            else:
                standing.losses += 1
        game = Game(number, x_player, moves, winner)
        match.games.append(game)
        if progress is not None:
            progress(game, match)
    return match
