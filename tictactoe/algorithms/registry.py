"""The engines by name: one place that lists them, finds one, and describes them all."""

from __future__ import annotations

from typing import TypedDict

from .alphabeta import AlphaBeta
from .alphabeta_ordered import AlphaBetaOrdered
from .alphabeta_tt import AlphaBetaTT
from .base import Engine
from .mcts import MonteCarloTreeSearch
from .minimax import Minimax
from .negascout import NegaScout
from .perfect import Perfect
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
    """An engine's name and a line on it, as GET /engines lists them."""

    name: str
    description: str


class UnknownEngineError(ValueError):
    """No engine has this name; the message lists the names there are."""


def get_engine(name: str) -> Engine:
    """The engine called ``name``; raises ``UnknownEngineError`` naming the known ones."""
    try:
        return ENGINES[name]
    except (KeyError, TypeError):
        raise UnknownEngineError(f"unknown engine {name!r}: choose one of {', '.join(ENGINES)}") from None


def describe_engines() -> list[EngineDescription]:
    """Every engine as ``{"name": ..., "description": ...}``, in teaching order."""
    return [{"name": engine.name, "description": engine.description} for engine in ENGINES.values()]
