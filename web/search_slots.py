"""Search slots: the engine as the web app runs it, within a budget and a cap on searches.

Each worker has a few slots; a search takes one, waiting at most one search
budget for it (a slot frees within that), or is refused (``Busy``: the client
retries), so a burst of hard positions cannot pile up searches behind each
other.  The wait matters under gunicorn's gevent worker, which takes as many
connections as arrive: a third search arriving at a worker with two slots
waits a moment instead of being refused while the other worker idles.

A ``Solver`` keeps its transposition table between requests (later positions
of the same game reuse most of it), but it is not thread-safe, so every thread
gets its own, one per set of rules it has seen recently, each table bounded.
"""

from __future__ import annotations

import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from tictactoe import Board, Rules, Solver, SolveResult, analyse
from tictactoe.algorithms.base import Engine as TeachingEngine
from tictactoe.algorithms.base import EngineResult
from tictactoe.algorithms.trace import Trace, Traceable, trace_search

from .offload import off_event_loop

# Rule sets (board size and k) whose solver a thread keeps warm at once.
SOLVERS_PER_THREAD = 4


class Busy(Exception):
    """Every search slot of this worker is taken; the client should retry shortly."""


class SearchSlots:
    """Runs searches within ``budget`` seconds, at most ``max_searches`` at once per worker.

    Not an engine itself: the production solver (``search``) and the lab's
    teaching engines (``run``) both run through these slots.  ``admit()``, when
    given, is called before every search and may refuse it by raising (the
    per-client rate limit, web/rate_limit.py).
    """

    def __init__(
        self, budget: float, max_searches: int, table_limit: int, admit: Callable[[], None] | None = None
    ) -> None:
        self.budget = budget
        self.admit = admit
        self.table_limit = table_limit
        self._slots = threading.BoundedSemaphore(max_searches)
        self._local = threading.local()
        self._run = off_event_loop(threads=max_searches)

    def search(self, board: Board, all_moves: bool) -> SolveResult:
        """Analyse ``board`` within the budget; raises ``Busy`` when no search slot is free."""
        with self._search_slot():
            return self._run(self._analyse, board, all_moves)

    def run(self, board: Board, teaching: TeachingEngine, rng: random.Random | None = None) -> EngineResult:
        """Run a teaching engine on ``board`` with the budget as its deadline (no cache).

        Raises ``Busy`` when no search slot is free, ``GameOverError`` on a finished board.
        """
        with self._search_slot():
            return self._run(self._teach, board, teaching, rng)

    def trace(
        self, board: Board, engine: Traceable, seconds: float, max_nodes: int
    ) -> tuple[EngineResult, Trace]:
        """Run a depth-first teaching engine with a ``Trace``, stopped after ``seconds`` or ``max_nodes``.

        Raises ``Busy`` when no search slot is free, ``GameOverError`` on a finished board.
        """
        with self._search_slot():
            return self._run(self._trace, board, engine, seconds, max_nodes)

    def _trace(
        self, board: Board, engine: Traceable, seconds: float, max_nodes: int
    ) -> tuple[EngineResult, Trace]:
        return trace_search(engine, board, deadline=time.monotonic() + seconds, max_nodes=max_nodes)

    def _analyse(self, board: Board, all_moves: bool) -> SolveResult:
        # In the searching thread: its solvers are its own.
        return analyse(board, budget=self.budget, all_moves=all_moves, solver=self._solver(board.rules))

    def _teach(self, board: Board, teaching: TeachingEngine, rng: random.Random | None) -> EngineResult:
        # The deadline starts when the search does, not when it was queued.
        return teaching.search(board, deadline=time.monotonic() + self.budget, rng=rng)

    @contextmanager
    def _search_slot(self) -> Iterator[None]:
        """Hold one of the worker's search slots, or raise ``Busy`` when none frees within the budget.

        ``admit()`` goes first: a client over its limit is refused without taking a slot.
        """
        if self.admit is not None:
            self.admit()
        if not self._slots.acquire(timeout=self.budget):
            raise Busy()
        try:
            yield
        finally:
            self._slots.release()

    def _solver(self, rules: Rules) -> Solver:
        """This thread's solver for ``rules``, made on first use (the least recent dropped)."""
        solvers = getattr(self._local, "solvers", None)
        if solvers is None:
            solvers = self._local.solvers = OrderedDict()
        solver = solvers.get(rules)
        if solver is None:
            solver = solvers[rules] = Solver(rules, table_limit=self.table_limit)
            while len(solvers) > SOLVERS_PER_THREAD:
                solvers.popitem(last=False)
        solvers.move_to_end(rules)
        return solver
