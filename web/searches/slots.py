"""Search slots: the engine as the web app runs it, within a budget and a cap on searches.

Each worker has a few slots; a search takes one, waiting at most one search
budget for it (a slot frees within that), or is refused (``Busy``: the client
retries), so a burst of hard positions cannot pile up searches behind each
other.  The wait matters under gunicorn's gevent worker, which takes as many
connections as arrive: a third search arriving at a worker with two slots
waits a moment instead of being refused while the other worker idles.

Each search is charged to the requesting client's allowance (web/searches/rate_limit.py)
for the time it held its slot, and may be refused (``RateLimited``) before it
takes one; a search of a position with at most ``FREE_EMPTY_CELLS`` empty
cells is neither, and takes no slot.  A trace (the lab's watched search, up to ten budgets long)
may hold at most ``max_searches - 1`` of a worker's slots (at least one), so
traces alone never take every slot from other clients' searches.

A ``Solver`` keeps its transposition table between requests (later positions
of the same game reuse most of it), but it is not thread-safe, so every thread
gets its own, one per set of rules it has seen recently, all of them together
bounded in bytes.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol

from flask import Flask, Response

from tictactoe import Board, Rules, Solver, SolveResult, analyse
from tictactoe.algorithms.base import Engine as TeachingEngine
from tictactoe.algorithms.base import EngineResult
from tictactoe.algorithms.trace import Trace, Traceable, trace_search
from tictactoe.game.lru import BoundedLRU
from web.http.errors import error_response
from web.operations.offload import off_event_loop

# Rule sets (board size and k) whose solver a thread keeps warm at once, and the
# bytes their tables and memos may take together (each solver an equal share, which
# bounds it: tictactoe.Solver's ``memory``).  A worker holds its searching threads
# times this (docs/deploy.md, "Memory").
SOLVERS_PER_THREAD = 2
SOLVER_BYTES_PER_THREAD = 40 * 1024 * 1024


# A position with at most this many empty cells is searched for free: its tree
# holds at most a few thousand distinct positions, a few milliseconds of search
# (docs/reliability.md), and every 3x3 position is one.
FREE_EMPTY_CELLS = 9


RETRY_AFTER_SECONDS = 1  # a slot frees as soon as a search ends: searches take at most the budget


class Busy(Exception):
    """Every search slot of this worker is taken; the client should retry shortly."""


def register(app: Flask) -> None:
    """Answer ``Busy`` with a 503 that says so and when to try again."""

    @app.errorhandler(Busy)
    def busy(error: Busy) -> Response:
        response = error_response(503, "the server is busy with other searches: try again in a second")
        response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response


class Allowance(Protocol):
    """The requesting client's search time: ``check`` may refuse a search, ``charge`` pays for one."""

    def check(self) -> None:
        """Raise (``RateLimited``) when the client may not start a search now."""

    def charge(self, seconds: float) -> None:
        """Charge the client for ``seconds`` of search."""


class SearchSlots:
    """Runs searches within ``budget`` seconds, at most ``max_searches`` at once per worker.

    Not an engine itself: the production solver (``search``) and the lab's
    teaching engines (``run``) both run through these slots.  ``allowance``,
    when given, is checked before every search that is not free and charged
    after it (the per-client limit, web/searches/rate_limit.py); ``clock`` measures what
    a search held its slot for.
    """

    def __init__(
        self,
        budget: float,
        max_searches: int,
        table_limit: int,
        allowance: Allowance | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.budget = budget
        self.allowance = allowance
        self.clock = clock
        self.table_limit = table_limit
        self._slots = threading.BoundedSemaphore(max_searches)
        self._trace_slots = threading.BoundedSemaphore(max(1, max_searches - 1))
        self._local = threading.local()
        self._run = off_event_loop(threads=max_searches)

    def search(self, board: Board, all_moves: bool) -> SolveResult:
        """Analyse ``board`` within the budget.

        A free search (at most ``FREE_EMPTY_CELLS`` empty cells) runs at once,
        in the caller, with no slot, check or charge: a few milliseconds at
        most, so small positions never queue behind other clients' long
        searches (nor block the worker's loop for longer than that).  Any other
        raises ``Busy`` when no search slot is free, ``RateLimited`` when the
        client has spent its search time.
        """
        if board.empty.bit_count() <= FREE_EMPTY_CELLS:
            return analyse(board, budget=self.budget, all_moves=all_moves, solver=Solver(board.rules))
        with self._search_slot():
            return self._run(self._analyse, board, all_moves)

    def run(self, board: Board, teaching: TeachingEngine, rng: random.Random | None = None) -> EngineResult:
        """Run a teaching engine on ``board`` with the budget as its deadline (no cache).

        Raises ``Busy`` when no search slot is free, ``RateLimited`` when the
        client has spent its search time, ``GameOverError`` on a finished board.
        """
        with self._search_slot():
            return self._run(self._teach, board, teaching, rng)

    def trace(
        self, board: Board, engine: Traceable, seconds: float, max_nodes: int
    ) -> tuple[EngineResult, Trace]:
        """Run a depth-first teaching engine with a ``Trace``, stopped after ``seconds`` or ``max_nodes``.

        Raises ``Busy`` when no search slot (or no slot that traces may take) is
        free, ``RateLimited`` when the client has spent its search time,
        ``GameOverError`` on a finished board.
        """
        with self._search_slot(trace=True):
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
    def _search_slot(self, trace: bool = False) -> Iterator[None]:
        """Hold one of the worker's search slots, or raise ``Busy`` when none frees within the budget.

        The allowance goes first: a client that has spent its search time is
        refused without taking a slot.  The search is charged the time it held
        the slot, whatever way it ends.  A ``trace`` also holds one of the slots
        traces may take.
        """
        allowance = self.allowance
        if allowance is not None:
            allowance.check()
        with self._held(self._trace_slots, trace), self._held(self._slots, True):
            start = self.clock()
            try:
                yield
            finally:
                if allowance is not None:
                    allowance.charge(self.clock() - start)

    @contextmanager
    def _held(self, slots: threading.BoundedSemaphore, needed: bool) -> Iterator[None]:
        """Hold one of ``slots`` when ``needed``, waiting at most the budget, else raise ``Busy``."""
        if not needed:
            yield
            return
        if not slots.acquire(timeout=self.budget):
            raise Busy()
        try:
            yield
        finally:
            slots.release()

    def solvers(self) -> list[Solver]:
        """This thread's warm solvers, the least recently used first."""
        return self._thread_solvers().values()

    def _solver(self, rules: Rules) -> Solver:
        """This thread's solver for ``rules``, made on first use (the least recent dropped)."""
        solvers = self._thread_solvers()
        solver = solvers.get(rules)
        if solver is None:
            memory = SOLVER_BYTES_PER_THREAD // SOLVERS_PER_THREAD
            solver = Solver(rules, table_limit=self.table_limit, memory=memory)
            solvers.put(rules, solver)
        return solver

    def _thread_solvers(self) -> BoundedLRU[Rules, Solver]:
        """This thread's solvers by rules, made on first use."""
        solvers: BoundedLRU[Rules, Solver] | None = getattr(self._local, "solvers", None)
        if solvers is None:
            solvers = self._local.solvers = BoundedLRU(SOLVERS_PER_THREAD)
        return solvers
