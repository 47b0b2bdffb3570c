"""Search slots: the engine as the web app runs it, within a budget and a cap on searches.

Each worker has a few slots, shared fairly across clients (web/searches/fair_slots.py:
a slot that frees goes to the waiting client, by address, that holds the
fewest), so one address flooding the server queues behind its own searches and
every other address gets the next free slot.  A search waits for its slot at
most ``queue_wait`` seconds (SEARCH_QUEUE_WAIT), then is refused (``Busy``: the
client retries).  Every search runs off the worker's event loop, in a thread
(web/runtime/offload.py), so the worker's other connections are served meanwhile.

Each search is charged to the requesting client's allowance (web/searches/rate_limit.py)
for the time it held its slot, and may be refused (``RateLimited``) before it
queues and again when its turn comes (after a wait, its client may have spent
its time meanwhile).  A search on a board of at most ``FREE_CELLS`` cells (3x3,
whose whole tree the solver's table proves in a few thousand nodes) is free:
never checked, charged, queued or refused, it takes no slot, only a thread of
its own.  A trace (the lab's watched search, up to ten budgets long) may hold at
most ``max_searches - 1`` of a worker's slots (at least one), so traces alone
never take every slot from other clients' searches.

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
from contextlib import ExitStack, contextmanager
from typing import Protocol

from flask import Flask, Response

from tictactoe import Board, Rules, Solver, SolveResult, analyse
from tictactoe.algorithms.base import Engine as TeachingEngine
from tictactoe.algorithms.base import EngineResult
from tictactoe.algorithms.trace import Trace, Traceable, trace_search
from web.http.errors import error_response
from web.openapi.declarations import Refusal
from web.runtime.lru import BoundedLRU
from web.runtime.offload import off_event_loop
from web.searches.fair_slots import FairSlots

# Rule sets (board size and k) whose solver a thread keeps warm at once, and the
# bytes their tables and memos may take together (each solver an equal share, which
# bounds it: tictactoe.Solver's ``memory``).  A worker holds its searching threads
# times this (docs/deploy.md, "Memory").
SOLVERS_PER_THREAD = 2
SOLVER_BYTES_PER_THREAD = 40 * 1024 * 1024


# A board of at most this many cells (3x3) is searched for free: its whole tree is
# proven in a few thousand nodes, a few milliseconds (docs/reliability.md).
FREE_CELLS = 9

RETRY_AFTER_SECONDS = 1  # a slot frees as soon as a search ends: searches take at most the budget
# What a route that searches may answer when no slot came free (/openapi.json).
NO_SLOT = Refusal(
    503,
    "No search slot of this worker came free while the search waited its turn (SEARCH_QUEUE_WAIT;"
    " the slots are shared fairly across client addresses); try again after Retry-After seconds.",
    RETRY_AFTER_SECONDS,
)


class Busy(Exception):
    """No search slot of this worker came free within the wait; the client should retry shortly."""

    def __init__(self, waited: float) -> None:
        super().__init__(f"no search slot came free in {waited:g} s")
        self.waited = waited


def init_app(app: Flask) -> None:
    """Answer ``Busy`` with a 503 that says so and when to try again."""

    @app.errorhandler(Busy)
    def busy(error: Busy) -> Response:
        response = error_response(
            503,
            f"the server is busy with other searches (none ended in the {error.waited:g} s this one"
            f" waited): try again in {RETRY_AFTER_SECONDS} s",
        )
        response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response


class Allowance(Protocol):
    """The requesting client's search time: ``check`` may refuse a search, ``charge`` pays for one."""

    def check(self) -> None:
        """Raise (``RateLimited``) when the client may not start a search now."""

    def charge(self, seconds: float) -> None:
        """Charge the client for ``seconds`` of search."""


def one_client() -> str:
    """Every request's client, where clients are not told apart (the command line, benches)."""
    return ""


class SearchSlots:
    """Runs searches within ``budget`` seconds, at most ``max_searches`` at once per worker.

    Not an engine itself: the production solver (``search``) and the lab's
    teaching engines (``run``) both run through these slots.  ``client`` names
    the requesting client (its slots are shared fairly with the others');
    ``allowance``, when given, is checked before every search that is not free
    and charged after it (the per-client limit, web/searches/rate_limit.py);
    a search waits at most ``queue_wait`` seconds for a slot (default: the
    budget); ``clock`` measures what a search waited and held its slot for, and
    ``observe_wait`` is told each wait (the metrics).
    """

    def __init__(
        self,
        budget: float,
        max_searches: int,
        table_limit: int,
        allowance: Allowance | None = None,
        clock: Callable[[], float] = time.monotonic,
        client: Callable[[], str] = one_client,
        queue_wait: float | None = None,
        observe_wait: Callable[[float], None] | None = None,
    ) -> None:
        self.budget = budget
        self.allowance = allowance
        self.clock = clock
        self.client = client
        self.queue_wait = budget if queue_wait is None else queue_wait
        self.observe_wait = observe_wait
        self.table_limit = table_limit
        self.slots = FairSlots(max_searches)
        self.trace_slots = FairSlots(max(1, max_searches - 1))
        self._local = threading.local()
        # One thread more than slots: a free search never waits for a thread behind long ones.
        self._run = off_event_loop(threads=max_searches + 1)

    def search(self, board: Board, all_moves: bool) -> SolveResult:
        """Analyse ``board`` within the budget, off the event loop.

        A free search (a board of at most ``FREE_CELLS`` cells) runs at once,
        with no slot, check or charge, so 3x3 games never queue behind other
        clients' long searches.  Any other raises ``Busy`` when no search slot
        frees within ``queue_wait``, ``RateLimited`` when the client has spent
        its search time.
        """
        if board.rules.cells <= FREE_CELLS:
            return self._run(self._analyse_free, board, all_moves)
        with self._search_slot():
            return self._run(self._analyse, board, all_moves)

    def run(
        self, board: Board, teaching: TeachingEngine, rng: random.Random | None, max_nodes: int
    ) -> EngineResult:
        """Run a teaching engine on ``board`` to the end or its budget of ``max_nodes`` (no deadline).

        Raises ``Busy`` when no search slot frees within ``queue_wait``,
        ``RateLimited`` when the client has spent its search time,
        ``GameOverError`` on a finished board.
        """
        with self._search_slot():
            return self._run(self._teach, board, teaching, rng, max_nodes)

    def trace(self, board: Board, engine: Traceable, max_nodes: int) -> tuple[EngineResult, Trace]:
        """Run a depth-first teaching engine with a ``Trace``, to the end or its budget of ``max_nodes``.

        Raises ``Busy`` when no search slot (or no slot that traces may take)
        frees within ``queue_wait``, ``RateLimited`` when the client has spent
        its search time, ``GameOverError`` on a finished board.
        """
        with self._search_slot(trace=True):
            return self._run(trace_search, engine, board, None, max_nodes)

    def _analyse(self, board: Board, all_moves: bool) -> SolveResult:
        # In the searching thread: its solvers are its own.
        return analyse(board, budget=self.budget, all_moves=all_moves, solver=self._solver(board.rules))

    def _analyse_free(self, board: Board, all_moves: bool) -> SolveResult:
        # A fresh solver: a few thousand nodes at most, and the thread's warm ones stay for big boards.
        return analyse(board, budget=self.budget, all_moves=all_moves, solver=Solver(board.rules))

    def _teach(
        self, board: Board, teaching: TeachingEngine, rng: random.Random | None, max_nodes: int
    ) -> EngineResult:
        return teaching.search(board, rng=rng, max_nodes=max_nodes)

    @contextmanager
    def _search_slot(self, trace: bool = False) -> Iterator[None]:
        """Hold one of the worker's search slots for the requesting client, else raise ``Busy``.

        The allowance goes first: a client that has spent its search time is
        refused without queueing, and again when its turn comes after a wait.
        The search is charged the time it held the slot, whatever way it ends.
        A ``trace`` also holds one of the slots traces may take, the two
        waits together within ``queue_wait``.
        """
        allowance = self.allowance
        if allowance is not None:
            allowance.check()
        client = self.client()
        queued = self.clock()
        with ExitStack() as held:
            waited = False
            for slots in (self.trace_slots, self.slots) if trace else (self.slots,):
                waited |= self._take(slots, client, queued + self.queue_wait)
                held.callback(slots.release, client)
            start = self.clock()
            if self.observe_wait is not None:
                self.observe_wait(start - queued)
            if waited and allowance is not None:
                allowance.check()  # its searches that ran meanwhile may have spent its time
            try:
                yield
            finally:
                if allowance is not None:
                    allowance.charge(self.clock() - start)

    def _take(self, slots: FairSlots, client: str, deadline: float) -> bool:
        """Take one of ``slots`` for ``client``: True if it waited; ``Busy`` if none came by ``deadline``."""
        if slots.try_acquire(client):
            return False
        if slots.acquire(client, max(0.0, deadline - self.clock())):
            return True
        raise Busy(self.queue_wait)

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
