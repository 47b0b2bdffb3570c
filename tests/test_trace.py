"""Traced searches and their folded views: the trace holds exactly the nodes the engine counts.

Every traceable engine, on 3x3 and small 4x4 positions (the empty 3x3 board
included): the trace's length is the engine's ``nodes``, subtree sizes nest,
and a folded view's nodes, each counted as 1 or as its folded size, add up
to the subtree's size.  One small position pins the windows and a cut-off.
"""

from __future__ import annotations

import math

import pytest

from tictactoe import Board
from tictactoe.algorithms.folding import fold
from tictactoe.algorithms.registry import ENGINES, TRACEABLE
from tictactoe.algorithms.trace import CUT, EXACT, HIT, KINDS, LEAF, OPEN, Trace, trace_search

POSITIONS = {
    "empty 3x3": (["...", "...", "..."], None),
    # x . .
    # . o .
    # . . .
    "x corner, o centre": (["x..", ".o.", "..."], None),
    # x x .      o to move: it must block at c1
    # . o .
    # . . .
    "3x3 block": (["xx.", ".o.", "..."], None),
    # x . o      x wins at c3 at once (or by a fork on b1)
    # . x .
    # o . .
    "3x3 x wins": (["x.o", ".x.", "o.."], None),
    # x . . .      4x4, k=3, o to move: 32,842 nodes for minimax
    # . x o .
    # o . o .
    # x . . x
    "4x4 k=3": (["x...", ".xo.", "o.o.", "x..x"], 3),
    # x o x .      4x4, k=4, o to move: 13,268 nodes for minimax
    # o x o .
    # x . o x
    # . . . .
    "4x4 k=4": (["xox.", "oxo.", "x.ox", "...."], 4),
}


def nodes_of(shown) -> int:
    """A folded view's nodes, each counted as 1 or as its folded subtree's size."""
    return sum(node.folded.nodes if node.folded else 1 for node in shown)


# Plain minimax on the empty board has a test of its own (one search, not two).
CASES = [
    (position, name)
    for position in POSITIONS
    for name in TRACEABLE
    if (position, name) != ("empty 3x3", "minimax")
]


@pytest.mark.parametrize("position, name", CASES)
def test_the_trace_holds_exactly_the_nodes_the_engine_counts(name, position):
    rows, k = POSITIONS[position]
    plain = ENGINES[name].search(Board.from_text(rows, k))
    result, trace = trace_search(TRACEABLE[name], Board.from_text(rows, k))
    assert result.finished and result.nodes == plain.nodes == len(trace) == trace.sizes[0]
    assert result.move == plain.move and result.value == plain.value
    assert result.leaves == trace.count(LEAF, 0)
    assert OPEN not in trace.kinds
    # Sizes nest: a node is itself plus its children's subtrees.
    for node in range(0, len(trace), max(1, len(trace) // 500)):
        assert trace.sizes[node] == 1 + sum(trace.sizes[child] for child in trace.children(node))
    shown = fold(trace)
    assert len(shown) <= 1000 and nodes_of(shown) == result.nodes
    for node in [node for node in shown if node.folded][:5]:
        assert nodes_of(fold(trace, node.index)) == node.folded.nodes == node.size


def test_the_empty_board_under_minimax_folds_549946_nodes():
    # 549,946: the whole 3x3 game tree, the count test_algorithms checks for the untraced search.
    result, trace = trace_search(TRACEABLE["minimax"], Board())
    assert result.nodes == len(trace) == trace.sizes[0] == 549_946
    shown = fold(trace)
    # Whole levels while they fit: the root, 9, 72 and 504 nodes; the last level folded.
    assert len(shown) == 1 + 9 + 72 + 504
    assert sum(1 for node in shown if node.folded) == 504
    assert nodes_of(shown) == 549_946
    assert all(math.isinf(node.alpha) and math.isinf(node.beta) for node in shown)


def test_a_cut_off_skips_the_reply_alpha_beta_need_not_look_at():
    # x o x      x to move: b2, a3 and b3 are empty.
    # o . x      b2 (tried first, row-major) draws: alpha is 0 at the root.
    # . . o      After a3, o's first reply b2 draws too: 0 >= beta = 0 for o,
    #            so o's other reply b3 is never searched (a cut-off).
    board = Board.from_text(["xox", "o.x", "..o"])
    result, trace = trace_search(TRACEABLE["alphabeta"], board)
    assert result.nodes == len(trace) == 12
    a3, b2, b3 = 6, 4, 7
    (first, second, third) = trace.children(0)
    assert [trace.moves[node] for node in (first, second, third)] == [b2, a3, b3]
    assert trace.scores[first] == 0 and KINDS[trace.kinds[first]] == "exact"
    # o's node after a3: the window is (-inf, 0), negated from the root's (0, +inf).
    assert (trace.alphas[second], trace.betas[second]) == (-math.inf, 0)
    assert trace.kinds[second] == CUT and trace.skipped[second] == (b3,)
    assert trace.kinds[third] == CUT and trace.skipped[third] == (a3,)
    # Minimax searches the two replies it skips: 16 nodes.
    assert ENGINES["minimax"].search(board).nodes == 16


def test_table_hits_end_their_node_and_are_counted():
    result, trace = trace_search(TRACEABLE["alphabeta-tt"], Board())
    assert result.nodes == 916
    hits = [node for node in range(len(trace)) if trace.kinds[node] == HIT]
    assert len(hits) == trace.count(HIT, 0) == 166
    assert all(trace.sizes[node] == 1 for node in hits)


def test_a_node_budget_stops_the_search_there_and_closes_the_open_nodes():
    result, trace = trace_search(TRACEABLE["minimax"], Board(), max_nodes=1000)
    assert not result.finished and result.value is None
    assert result.nodes == len(trace) == 1000  # the budget's nodes exactly, the next one not visited
    assert result.note.startswith("Stopped after its budget of 1,000 nodes, before any root move")
    assert trace.sizes[0] == len(trace) and trace.kinds[0] == OPEN
    assert nodes_of(fold(trace)) == 1000


def test_minimax_nodes_are_exact_or_leaves_and_fold_rejects_unknown_nodes():
    _, trace = trace_search(TRACEABLE["minimax"], Board.from_text(["xx.", ".o.", "..."]))
    assert set(trace.kinds) <= {EXACT, LEAF}
    with pytest.raises(IndexError, match="no node"):
        fold(trace, len(trace))
    assert len(Trace()) == 0
