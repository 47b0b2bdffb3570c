"""A search's nodes in the order it visits them: what the lab's "watch the search" replays.

The depth-first teaching engines (``minimax`` and the alpha-beta family) take
an optional ``tracer``; without one they pay a single ``is not None`` test per
node.  With one, every call of the search reports::

    enter(board, alpha, beta)  # as the node's count is taken
    leave(score, kind, moves, cut)  # as it returns, with how it ended

so the trace holds exactly the nodes the engine counts, in preorder: node 0 is
the root, and the subtree of node ``i`` is the run ``i .. i + size[i] - 1``.
A node is therefore named by its number (its place in the visiting order):
moves alone would not do, since NegaScout may visit one child twice (a null
window, then a re-search).

Per node, the trace keeps its depth, the move that led to it, the window on
entry, the score it returned and its kind (``KINDS``); for a cut-off, the
moves it never tried.  Storage is compact (arrays, bytes: about 16 bytes a
node), so the 549,946 nodes of plain minimax on the empty 3x3 board fit.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Sequence
from typing import Protocol

from ..game.board import Board
from ..game.rules import Cell
from .base import INFINITY, EngineResult, Score

# How a node ended.  The codes are bytes in ``Trace.kinds``; KINDS names them.
EXACT = 0  # searched to the end inside its window: its score is exact
LEAF = 1  # a finished game: its score is the utility
HIT = 2  # settled by the transposition table, nothing searched below it
CUT = 3  # a cut-off (fail high): a move reached beta, the rest were skipped
FAIL_LOW = 4  # every move scored at most alpha: the score is an upper bound
OPEN = 5  # not returned: the search stopped (its deadline or node budget) inside it
KINDS = ("exact", "leaf", "hit", "cut", "fail-low", "open")
NO_MOVE = 255  # the root's "move" in ``Trace.moves``


class Tracer(Protocol):
    """What a depth-first engine reports of each node, when it is given one."""

    def enter(self, board: Board, alpha: float = -INFINITY, beta: float = INFINITY) -> None:
        """A node is visited (its count was just taken), with its window on entry."""

    def leave(self, score: Score, kind: int, moves: Sequence[Cell] = (), cut: int = -1) -> None:
        """The node entered last and not yet left returns ``score``; ``kind`` is one of ``KINDS``.

        For a ``CUT``, ``moves`` are the moves in the order tried and ``cut``
        the index of the one that reached beta: the moves after it were skipped.
        """


class Traceable(Protocol):
    """A depth-first teaching engine whose search takes a ``tracer``."""

    name: str

    def search(
        self,
        board: Board,
        deadline: float | None = None,
        rng: random.Random | None = None,
        max_nodes: int | None = None,
        tracer: Tracer | None = None,
    ) -> EngineResult: ...


class Trace:
    """The nodes of one search in visiting order (see the module's docstring)."""

    def __init__(self) -> None:
        self.depths = bytearray()
        self.moves = bytearray()
        # Windows are small integers or infinite: single floats hold both exactly.
        self.alphas = array("f")
        self.betas = array("f")
        self.scores = array("b")
        self.kinds = bytearray()
        self.sizes = array("i")
        self.skipped: dict[int, tuple[Cell, ...]] = {}
        self._open: list[int] = []  # the nodes entered and not yet left, root first

    def __len__(self) -> int:
        return len(self.kinds)

    def enter(self, board: Board, alpha: float = -INFINITY, beta: float = INFINITY) -> None:
        """Record a node (the engine counted it first, and stopped instead past its budget)."""
        index = len(self.kinds)
        depth = len(self._open)
        self.depths.append(depth)
        self.moves.append(board.history[-1] if depth else NO_MOVE)
        self.alphas.append(alpha)
        self.betas.append(beta)
        self.scores.append(0)
        self.kinds.append(OPEN)
        self.sizes.append(1)
        self._open.append(index)

    def leave(self, score: Score, kind: int, moves: Sequence[Cell] = (), cut: int = -1) -> None:
        """Close the node entered last: its score, kind, size and skipped moves."""
        index = self._open.pop()
        self.scores[index] = score
        self.kinds[index] = kind
        self.sizes[index] = len(self.kinds) - index
        if kind == CUT and cut + 1 < len(moves):
            self.skipped[index] = tuple(moves[cut + 1 :])

    def close_open(self) -> None:
        """After a stopped search: give the nodes it left open their sizes (their kind stays ``OPEN``)."""
        while self._open:
            index = self._open.pop()
            self.sizes[index] = len(self.kinds) - index

    def children(self, index: int) -> list[int]:
        """The nodes one level below ``index``, in visiting order."""
        found = []
        child, end = index + 1, index + self.sizes[index]
        while child < end:
            found.append(child)
            child += self.sizes[child]
        return found

    def count(self, kind: int, index: int) -> int:
        """How many nodes of ``kind`` the subtree of ``index`` holds (itself included)."""
        return self.kinds.count(kind, index, index + self.sizes[index])


def trace_search(
    engine: Traceable, board: Board, deadline: float | None = None, max_nodes: int | None = None
) -> tuple[EngineResult, Trace]:
    """Run ``engine`` on ``board`` with a fresh ``Trace``; the two agree on every node.

    Stopped by the deadline or at ``max_nodes`` nodes, the result is not finished
    and the trace's open nodes are closed.  Raises ``GameOverError`` on a
    finished board.
    """
    trace = Trace()
    result = engine.search(board, deadline=deadline, max_nodes=max_nodes, tracer=trace)
    trace.close_open()
    return result, trace
