"""Teaching engines: textbook game-tree searches behind one interface, registered by name.

    from tictactoe.algorithms import get_engine
    result = get_engine("alphabeta-tt").search(board, deadline=time.monotonic() + 1)
    result.move, result.value, result.nodes, result.finished

One module per engine (``minimax``, ``alphabeta``, ``alphabeta_ordered``,
``alphabeta_tt``, ``negascout``, ``mcts``, ``perfect``), each with the
pseudocode it follows, its source and what counts as a node; ``base`` holds
what they share and ``registry`` the names.  ``tictactoe.tools.experiments``
prints the tables of ``docs/lab.md``.
"""

from .base import Engine, EngineResult
from .registry import ENGINES, UnknownEngineError, describe_engines, get_engine

__all__ = ["ENGINES", "Engine", "EngineResult", "UnknownEngineError", "describe_engines", "get_engine"]
