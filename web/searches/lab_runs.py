"""The lab's searches as a worker keeps and shares them: each teaching search and each trace once.

The lab's searches are the same for the same request (web/api/teaching.py): a
node budget, never a deadline.  So each worker keeps its last results, and a
search under way is shared by the requests that ask for it meanwhile
(web/searches/shared_runs.py): a class opening the same experiment at once
costs each worker one search of it.

- ``TeachingRuns``: the teaching engines' results for /move and /analyze, the
  last ``KEPT_RESULTS``, by engine, position and seed;
- ``TracedRuns``: /trace's traced searches, the last ``KEPT_TRACES``, fewer when
  their nodes together would pass ``KEPT_NODES``, by engine and position.
"""

from __future__ import annotations

from tictactoe.algorithms.base import EngineResult
from tictactoe.algorithms.trace import Trace
from web.runtime.lru import BoundedLRU
from web.searches.shared_runs import SharedRuns

# A teaching search's budget: every 3x3 tree fits (plain minimax on the empty board visits
# 549,946 nodes), so the same search stops at the same node on any machine.
TEACHING_NODES = 600_000
KEPT_RESULTS = 64  # per worker: the lab's two experiments with every engine, and more
# Per worker: the lab's two experiments with each of the four traceable engines that
# count nodes alike (the searches whose branches are being opened).
KEPT_TRACES = 8
# ... and their nodes together at most (about 16 bytes a node, 10 MiB): one full-size trace leaves
# room for no other.
KEPT_NODES = TEACHING_NODES

# The engine, the position (Board.text_key) and the seed of its random choices (None: none drawn).
TeachingKey = tuple[str, str, int | None]
TeachingRuns = SharedRuns[TeachingKey, EngineResult]
# The engine, and the position (Board.text_key: rules and rows).
TraceKey = tuple[str, str]
TracedRuns = SharedRuns[TraceKey, tuple[EngineResult, Trace]]


def _nodes(found: tuple[EngineResult, Trace]) -> int:
    """A kept search's weight: its trace's nodes."""
    return len(found[1])


class KeptTraces(BoundedLRU[TraceKey, tuple[EngineResult, Trace]]):
    """The last ``KEPT_TRACES`` traced searches of one app in this worker, by engine and position.

    Fewer when their nodes together would be more than ``KEPT_NODES``; the
    newest is always kept (no trace has more than ``TEACHING_NODES`` nodes).
    """

    def __init__(self) -> None:
        super().__init__(KEPT_TRACES, weigh=_nodes, max_weight=KEPT_NODES)

    def nodes(self) -> int:
        """The nodes of the kept traces together."""
        return self.weight


def kept_runs() -> TeachingRuns:
    """This worker's kept and running teaching searches (web/assembly.py makes one per app)."""
    return TeachingRuns(BoundedLRU(KEPT_RESULTS))


def kept_traces() -> TracedRuns:
    """This worker's kept and running traced searches (web/assembly.py makes one per app)."""
    return TracedRuns(KeptTraces())
