"""What every teaching engine shares: the result type, the interface, scores and the clock.

Vocabulary::

    Score = int  # for the side to move: WIN_SCORE = +1, DRAW_SCORE = 0, LOSS_SCORE = -1
    EngineResult  # the move, its value, and what the search cost
    Engine  # name, description, search(board, deadline, rng, max_nodes)

Scores are the textbook's: +1, 0 and -1, with no credit for winning sooner
(the production solver counts plies; these engines do not).  So a teaching
engine may choose a slower win, but never a move of lower value, and any
engine in this package stops a search the moment a finished game is reached.

A *node* is one call of the search on one position, the root included, and a
finished position is a node too: plain minimax visits the whole 3x3 game tree,
549,946 nodes.  ``NodeClock.visit`` counts them against the search's node
budget (the lab's: the same counts and moves on any machine, under any load)
and, every so many, checks its deadline (the arena's: equal time a move).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from ..game.board import Board, Outcome
from ..game.clock import Clock, SearchTimeout
from ..game.phrase import Phrase
from ..game.rules import Cell
from ..game.values import Value

Score = int
# The textbook's scores; ``VALUE_OF_SCORE`` turns them into the engine's ``Value``.
WIN_SCORE, DRAW_SCORE, LOSS_SCORE = 1, 0, -1
INFINITY = math.inf  # the textbook's window: alpha-beta starts from (-inf, +inf)
# The textbook's "best := -inf" as a score: below every score, so the first
# move's score always replaces it (a node that is not finished has a move).
BELOW_ANY_SCORE: Score = LOSS_SCORE - 1
VALUE_OF_SCORE = {WIN_SCORE: Value.WIN, DRAW_SCORE: Value.DRAW, LOSS_SCORE: Value.LOSS}

# The deadline is read every this many nodes (the first node included): often
# enough to stop within a few milliseconds, rarely enough to cost nothing.
CHECK_EVERY = 1024


@dataclass(frozen=True)
class EngineResult:
    """What a search found, for the side to move on the searched board.

    ``move`` is a legal cell; ``value`` is a ``Value`` (win, draw or loss) when the
    search proved it and None otherwise (Monte-Carlo, or stopped at the
    deadline or at its node budget: then ``finished`` is False).  ``nodes`` counts what the engine's
    module documents; ``principal_variation`` is the expected line of play,
    starting with ``move``, or [] where the engine has none.
    """

    move: Cell
    value: Value | None
    nodes: int
    seconds: float
    finished: bool
    principal_variation: list[Cell] = field(default_factory=list)
    note: str = ""
    leaves: int | None = None


class Engine(Protocol):
    """One way of choosing a move.  Engines keep no state between searches.

    ``search`` leaves the board as it found it, raises ``GameOverError`` on a
    finished board, and returns by the ``deadline`` (a ``time.monotonic()``
    instant) or after ``max_nodes`` nodes (``NodeClock``; for ``mcts``, its
    tree's nodes), whichever comes first (None: no such limit), with
    ``finished=False`` if it had to stop.  ``rng`` (a ``random.Random``) drives
    any random choice; without it the engine is deterministic, and with a node
    budget and no deadline its whole result is, but for ``seconds``.
    """

    name: str
    description: str

    def search(
        self,
        board: Board,
        deadline: float | None = None,
        rng: random.Random | None = None,
        max_nodes: int | None = None,
    ) -> EngineResult: ...


class NodeClock(Clock):
    """A ``Clock`` that counts the nodes of one search, and stops it past its node budget or deadline.

    ``leaves`` is counted by the engines: the finished games they reach (what
    some texts count instead of nodes, as the calls of a static evaluation).
    A ``SearchTimeout`` unwinds a depth-first search back to its root;
    ``stopped_by`` then says which limit stopped it.
    """

    def __init__(self, deadline: float | None, max_nodes: int | None = None) -> None:
        super().__init__(deadline)
        self.max_nodes = max_nodes
        self.nodes = 0
        self.leaves = 0

    def visit(self) -> None:
        """Count one node, or raise ``SearchTimeout`` instead when the node budget is spent (the node is
        not visited); every ``CHECK_EVERY`` nodes, raise it past the deadline."""
        if self.spent():
            raise SearchTimeout()
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 1 and self.expired():
            raise SearchTimeout()

    def spent(self) -> bool:
        """Whether the node budget (if any) is spent: the search may visit no more nodes."""
        return self.max_nodes is not None and self.nodes >= self.max_nodes

    def stopped_by(self) -> str:
        """What stopped the search, in words: its node budget, or its deadline."""
        if self.spent():
            return Phrase("after its budget of {count} nodes", count=self.max_nodes)
        return Phrase("at its deadline")


def utility(outcome: Outcome) -> Score:
    """The score of a finished game for the side to move: it lost to the last move, or drew."""
    return DRAW_SCORE if outcome.winner is None else LOSS_SCORE


# A depth-first search from the root: fills ``line`` with the principal
# variation as root moves finish, and returns the root's score.
RootSearch = Callable[[Board, list[Cell]], Score]


def depth_first_result(
    board: Board, clock: NodeClock, root_search: RootSearch, order: Callable[[Board], list[Cell]]
) -> EngineResult:
    """Run a negamax-style search from the root and report it as an ``EngineResult``.

    The search runs on a copy, so ``board`` is untouched even when a limit
    unwinds it.  Stopped early, the result keeps the best root move searched
    to the end, or the first move in ``order`` if none was, and its note says
    so in one sentence.  Raises ``GameOverError`` on a finished board.
    """
    board.require_moves()
    line: list[Cell] = []
    try:
        score = root_search(board.copy(), line)
    except SearchTimeout:
        if line:
            move = line[0]
            note = Phrase(
                "Stopped {stopped}, with the best root move searched to the end so far; its value is"
                " unknown.",
                stopped=clock.stopped_by(),
            )
        else:
            move = order(board)[0]
            note = Phrase(
                "Stopped {stopped}, before any root move was searched to the end: the first move in its"
                " order; its value is unknown.",
                stopped=clock.stopped_by(),
            )
        return EngineResult(move, None, clock.nodes, clock.elapsed(), False, line, note, leaves=clock.leaves)
    return EngineResult(
        line[0],
        VALUE_OF_SCORE[score],
        clock.nodes,
        clock.elapsed(),
        True,
        line,
        Phrase("searched to the end"),
        leaves=clock.leaves,
    )
