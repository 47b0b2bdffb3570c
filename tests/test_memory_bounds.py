"""What a worker keeps in memory stays within its byte budgets, whatever boards and bodies arrive.

The solver's table and memos (a solver given ``memory``), the warm solvers of
a search thread, the per-worker copies of cache entries, the kept traces and
the fixed tables kept per rule set.  Sizes are the measured bytes per entry
the code declares (docs/deploy.md, "Memory"); no timing is involved.
"""

from __future__ import annotations

import random

import pytest

from bench.flood_cache import random_position
from tictactoe import Board, Rules
from tictactoe.game.rules import RULES_KEPT
from tictactoe.search.pairing import MEMO_LIMIT
from tictactoe.search.solver import DEFAULT_TABLE_LIMIT, Solver
from web.assembly import create_app
from web.cache.byte_budget import ENTRY_OVERHEAD_BYTES, ByteBudget
from web.parts import parts
from web.searches.lab_runs import KEPT_NODES, KeptTraces
from web.searches.slots import SOLVER_BYTES_PER_THREAD, SOLVERS_PER_THREAD, SearchSlots


def random_board(rules: Rules, stones: int, rng: random.Random) -> Board:
    """An unfinished position of ``stones`` random moves (seeded)."""
    return random_position(rng, rules.rows, rules.cols, rules.k, stones)


def test_a_solver_without_memory_keeps_the_command_lines_limits():
    solver = Solver(Rules(5, 5, 4))
    assert solver.table_limit == solver.memo_limit == DEFAULT_TABLE_LIMIT
    assert solver.pairings.memo_limit == MEMO_LIMIT


def test_a_solver_never_holds_more_than_its_memory_during_and_after_searches():
    memory = 3_000_000
    rules = Rules(4, 5, 4)
    small, free = Solver(rules, memory=memory), Solver(rules)
    seen: list[tuple[int, int]] = []
    capped = small.cap

    def watched_cap() -> None:  # called at every tick of a search and at its end
        before = small.footprint()
        capped()
        seen.append((before, small.footprint()))

    small.cap = watched_cap  # type: ignore[method-assign]
    rng = random.Random(7)
    for stones in (0, 1, 2, 1, 2):
        board = random_board(rules, stones, rng)
        result = small.solve(board, all_moves=True)
        assert result.move_values == free.solve(board, all_moves=True).move_values
    assert max(before for before, _ in seen) <= memory
    assert any(after < before for before, after in seen)  # the searches did outgrow a memo or the table


def test_a_solver_refuses_too_few_bytes():
    with pytest.raises(ValueError, match="too few"):
        Solver(Rules(4, 5, 4), memory=50_000)


def test_a_search_threads_solvers_stay_within_its_budget():
    slots = SearchSlots(budget=30.0, max_searches=1, table_limit=200_000)
    rng = random.Random(3)
    for rules in (Rules(4, 5, 4), Rules(5, 4, 4), Rules(4, 4, 4), Rules(4, 5, 4)):
        slots.search(random_board(rules, 4, rng), all_moves=True)
    # Outside a gevent worker every search runs in the calling thread (web/runtime/offload.py),
    # whose solvers these are.
    solvers = slots.solvers()
    assert [solver.rules for solver in solvers] == [Rules(4, 4, 4), Rules(4, 5, 4)][-SOLVERS_PER_THREAD:]
    assert all(solver.memory == SOLVER_BYTES_PER_THREAD // SOLVERS_PER_THREAD for solver in solvers)
    assert sum(solver.footprint() for solver in solvers) <= SOLVER_BYTES_PER_THREAD


def test_a_byte_budget_drops_the_oldest_and_refuses_what_never_fits():
    budget: ByteBudget[int, str] = ByteBudget(10_000)
    rng = random.Random(5)
    for key in range(300):
        budget.put(key, "v", rng.randrange(0, 3_000))
        assert budget.bytes <= 10_000
    kept = [key for key in range(300) if budget.get(key) is not None]
    assert kept == list(range(300 - len(kept), 300))  # the newest, in a run
    budget.put(299, "big", 10_000 - ENTRY_OVERHEAD_BYTES + 1)  # with its overhead, more than the whole budget
    assert budget.get(299) is None and budget.get(298) is not None and budget.bytes <= 10_000


def test_a_workers_copies_of_entries_stay_within_their_budget(tmp_path):
    app = create_app({"CACHE_DIR": str(tmp_path / "cache"), "SEARCH_SECONDS_PER_MINUTE": "off"})
    solved = parts(app).solved
    solved.local = ByteBudget(30_000)  # a small memory, so that it fills
    client = app.test_client()
    rng = random.Random(11)
    posted = set()
    for _ in range(60):
        board = random_board(Rules(4, 4, 4), 6, rng)
        posted.add(board.canonical_key())
        response = client.post("/analyze", json={"board": board.to_text(), "k": 4})
        assert response.status_code == 200
        assert solved.local.bytes <= 30_000
    assert 0 < len(solved.local) < len(posted)


def test_kept_traces_hold_at_most_their_nodes_together():
    class Sized:
        def __init__(self, nodes: int) -> None:
            self.nodes = nodes

        def __len__(self) -> int:
            return self.nodes

    kept = KeptTraces()
    big = KEPT_NODES // 2 + 1
    for n in range(4):
        kept.put(("alphabeta", 3, 3, 3, n, 0), (None, Sized(big)))  # type: ignore[arg-type]
        assert kept.nodes() <= KEPT_NODES
    assert kept.get(("alphabeta", 3, 3, 3, 3, 0)) is not None
    assert kept.get(("alphabeta", 3, 3, 3, 2, 0)) is None


def test_the_fixed_tables_of_rule_sets_are_kept_for_the_last_few_only():
    every = [Rules(rows, cols, 3) for rows in range(3, 16) for cols in range(3, 16)][: RULES_KEPT + 5]
    first = every[0].geometry
    assert every[0].geometry is first
    for rules in every[1:]:
        assert rules.geometry.rules == rules
    assert every[-1].geometry is every[-1].geometry
    assert every[0].geometry is not first  # dropped, and built again
