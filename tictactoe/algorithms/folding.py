"""A trace cut down to a tree a page can draw: whole levels while they fit, bigger subtrees folded.

A search tree can be far too big to show (549,946 nodes for plain minimax on
the empty 3x3 board), so ``fold`` picks at most ``cap`` nodes of one subtree:

1. level by level from the subtree's root, whole levels while they fit;
2. then, of the last level's subtrees, the smallest first, each whole while it fits;
3. every node left with hidden descendants is *folded*: it carries the exact
   count of its subtree's nodes, cut-offs, table hits and leaves.

So the nodes shown, each counted as 1 or, when folded, as its subtree's size,
add up to the subtree's size exactly: for the root, the engine's node count.
A folded node is opened by folding again from it (its number is its name).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..game.rules import Cell
from .trace import CUT, HIT, KINDS, LEAF, NO_MOVE, OPEN, Trace

# Nodes in one folded view: enough to see a few levels, few enough for the page.
DEFAULT_CAP = 1000


@dataclass(frozen=True)
class Inside:
    """What a folded subtree holds, itself included."""

    nodes: int
    cuts: int
    hits: int
    leaves: int


@dataclass(frozen=True)
class ShownNode:
    """One node of a folded view.

    ``index`` is its place in the visiting order (its name), ``parent`` its
    parent's (None for the search's root).  ``alpha`` and ``beta`` are the
    window on entry (infinite for minimax, which has none); ``score`` is None
    for a node the search left open.  ``skipped`` are a cut-off's untried
    moves.  ``folded`` is set when its descendants are not shown.
    """

    index: int
    parent: int | None
    depth: int
    move: Cell | None
    alpha: float
    beta: float
    score: int | None
    kind: str
    skipped: tuple[Cell, ...]
    size: int
    folded: Inside | None


def fold(trace: Trace, root: int = 0, cap: int = DEFAULT_CAP) -> list[ShownNode]:
    """At most ``cap`` (>= 1) nodes of the subtree of node ``root``, in visiting order.

    Raises ``IndexError`` when the trace has no node ``root``.
    """
    if not 0 <= root < len(trace):
        raise IndexError(f"the search has no node {root}: its nodes are 0 to {len(trace) - 1}")
    shown = [root]
    level = [root]
    while True:
        below = [child for node in level for child in trace.children(node)]
        if not below or len(shown) + len(below) > cap:
            break
        shown += below
        level = below
    # The last level: open its small subtrees whole while they fit, smallest first.
    for node in sorted(level, key=lambda node: trace.sizes[node]):
        size = trace.sizes[node]
        if size > 1 and len(shown) + size - 1 <= cap:
            shown += range(node + 1, node + size)
    shown.sort()
    visible = set(shown)
    parent_of: dict[int, int | None] = {
        child: node for node in shown for child in trace.children(node) if child in visible
    }
    parent_of[root] = _parent(trace, root)
    return [_shown(trace, node, parent_of[node], visible) for node in shown]


def _parent(trace: Trace, node: int) -> int | None:
    """The node's parent: the last node before it one level up (None for the root)."""
    depth = trace.depths[node]
    for earlier in range(node - 1, -1, -1):
        if trace.depths[earlier] < depth:
            return earlier
    return None


def _shown(trace: Trace, node: int, parent: int | None, visible: set[int]) -> ShownNode:
    size = trace.sizes[node]
    # Folded: it has descendants and the first of them (the next node) is hidden.
    folded = None
    if size > 1 and node + 1 not in visible:
        folded = Inside(size, trace.count(CUT, node), trace.count(HIT, node), trace.count(LEAF, node))
    kind = trace.kinds[node]
    move = trace.moves[node]
    return ShownNode(
        index=node,
        parent=parent,
        depth=trace.depths[node],
        move=None if move == NO_MOVE else move,
        alpha=trace.alphas[node],
        beta=trace.betas[node],
        score=None if kind == OPEN else trace.scores[node],
        kind=KINDS[kind],
        skipped=trace.skipped.get(node, ()),
        size=size,
        folded=folded,
    )
