"""The players by name, declared once: the levels, the teaching engines and the arena's baseline.

One place lists them, finds one, and describes them all: the API (/engines,
the request checks), its OpenAPI document, the arena, the command line and
the pages (``web/pages/closed_sets.py``) read them here.
"""

from __future__ import annotations

import random
import time
from typing import TypedDict

from ..game.board import Board
from ..game.values import Level
from ..search.levels import LEVEL_DESCRIPTIONS, LEVELS, QUICK_LEVELS, choose_move
from .alphabeta import AlphaBeta
from .alphabeta_ordered import AlphaBetaOrdered
from .alphabeta_tt import AlphaBetaTT
from .base import Engine, EngineResult
from .mcts import MonteCarloTreeSearch
from .minimax import Minimax
from .negascout import NegaScout
from .perfect import Baseline, Perfect
from .trace import Traceable

# In teaching order: each search engine improves on the one before it.
ENGINES: dict[str, Engine] = {
    engine.name: engine
    for engine in (
        Minimax(),
        AlphaBeta(),
        AlphaBetaOrdered(),
        AlphaBetaTT(),
        NegaScout(),
        MonteCarloTreeSearch(),
        Perfect(),
    )
}

# The depth-first engines whose search takes a tracer (trace.py), in teaching
# order: the ones the lab can show node by node.  Engines keep no state, so
# these instances search exactly as the ones above do.
TRACEABLE: dict[str, Traceable] = {
    engine.name: engine for engine in (Minimax(), AlphaBeta(), AlphaBetaOrdered(), AlphaBetaTT(), NegaScout())
}


class EngineDescription(TypedDict):
    """A player's name and a line on it, as GET /engines lists the engines and the page the levels."""

    name: str
    description: str


class LevelPlayer:
    """A quick level of play (``easy``, ``medium``) behind the engine interface: no search, no nodes."""

    def __init__(self, level: Level) -> None:
        self.level = level
        self.name: str = level
        self.description = LEVEL_DESCRIPTIONS[level]

    def search(
        self,
        board: Board,
        deadline: float | None = None,
        rng: random.Random | None = None,
        max_nodes: int | None = None,
    ) -> EngineResult:
        """The level's move (``choose_move``); raises ``GameOverError`` on a finished board."""
        start = time.monotonic()
        move = choose_move(board, self.level, rng).move
        return EngineResult(
            move, None, 0, time.monotonic() - start, True, [move], f"level {self.name}: no search"
        )


# Players of the arena only (not of the lab): the yardstick of the strength matches, and
# the levels that search nothing (the perfect level is the perfect engine).
_ARENA_ONLY: list[Engine] = [Baseline(), *[LevelPlayer(level) for level in QUICK_LEVELS]]
ARENA_PLAYERS: dict[str, Engine] = {player.name: player for player in _ARENA_ONLY}
# Everything that can play in the arena: the engines, the baseline, then the levels.
PLAYERS: dict[str, Engine] = {**ENGINES, **ARENA_PLAYERS}


class UnknownEngineError(ValueError):
    """No engine has this name; the message lists the names there are."""


def get_engine(name: str) -> Engine:
    """The engine called ``name``; raises ``UnknownEngineError`` naming the known ones."""
    try:
        return ENGINES[name]
    except (KeyError, TypeError):
        raise UnknownEngineError(f"unknown engine {name!r}: choose one of {', '.join(ENGINES)}") from None


def get_player(name: str) -> Engine:
    """The arena's player called ``name``; raises ``UnknownEngineError`` naming the known ones."""
    try:
        return PLAYERS[name]
    except (KeyError, TypeError):
        raise UnknownEngineError(f"unknown engine {name!r}: choose one of {', '.join(PLAYERS)}") from None


def player_names() -> list[str]:
    """Everything that can play in the arena: the engines, the baseline, then the levels."""
    return list(PLAYERS)


def describe_engines() -> list[EngineDescription]:
    """Every engine as ``{"name": ..., "description": ...}``, in teaching order."""
    return [{"name": engine.name, "description": engine.description} for engine in ENGINES.values()]


def describe_levels() -> list[EngineDescription]:
    """Every level as ``{"name": ..., "description": ...}``, weakest first."""
    return [{"name": level, "description": LEVEL_DESCRIPTIONS[level]} for level in LEVELS]
