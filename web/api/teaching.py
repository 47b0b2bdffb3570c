"""The lab's teaching engines as the API runs them: small boards, a node budget, each search once.

With an ``engine`` field, /move and /analyze run that teaching engine
(``tictactoe.algorithms``) instead of the production solver behind the shared
cache, and GET /trace watches one.  The lab is where a search's cost is shown,
so every one of them stops at the same place on any machine and under any load:

- a board of at most ``MAX_SIDE`` x ``MAX_SIDE`` (422 otherwise): a tree worth
  watching, a search that ends;
- a node budget of ``TEACHING_NODES``, never a deadline: every 3x3 tree fits
  (plain minimax on the empty board visits 549,946 nodes); a search that
  spends it stops there, the same search at the same node every time, and says
  so.  ``mcts`` plays its 1,000 playouts (its tree's nodes are fewer), and
  ``perfect`` proves every such board outright;
- so the same request gets the same moves, values and counts, and each worker
  keeps its last results (web/searches/lab_runs.py): a class opening the same
  experiment at once costs it one search of each engine, the requests that
  arrive while it runs waiting for it (web/searches/shared_runs.py).  A
  request whose random choices are drawn afresh (an unseeded ``/move`` with
  ``mcts``) is searched every time.
"""

from __future__ import annotations

import random

from tictactoe import Board
from tictactoe.algorithms.base import EngineResult
from tictactoe.algorithms.registry import get_engine
from web.http.errors import ApiError
from web.openapi.declarations import Refusal
from web.parts import current
from web.searches.lab_runs import TEACHING_NODES

MAX_SIDE = 4
# A request waits for another's search of the same thing as long as that one may wait for its
# slot, and this much more while it runs (the longest, minimax traced on the empty 3x3 board,
# takes about 5 s alone): beyond it, 503 as for a search that found no slot.
SEARCH_SECONDS = 10.0

# What /move, /analyze and /trace answer for a board too big to teach on (/openapi.json).
TOO_BIG_TO_TEACH = Refusal(
    422,
    f"With engine: a board larger than {MAX_SIDE}x{MAX_SIDE}, which the teaching engines do not search"
    " (leave engine out: the production solver answers).",
)


def require_small(board: Board) -> None:
    """``ApiError`` 422 unless ``board`` is one a teaching engine searches (up to ``MAX_SIDE`` a side)."""
    rules = board.rules
    if max(rules.rows, rules.cols) > MAX_SIDE:
        raise ApiError(
            422,
            f"the teaching engines search boards up to {MAX_SIDE}x{MAX_SIDE}, not {rules.rows}x{rules.cols}:"
            " for a bigger board leave engine out (the production solver answers)",
        )


def shared_wait() -> float:
    """How long a request waits for another's search of the same thing (see ``SEARCH_SECONDS``)."""
    return current().settings.search_queue_wait + SEARCH_SECONDS


def run(board: Board, name: str, seed: int | None, draws: random.Random | None = None) -> EngineResult:
    """The teaching engine ``name`` (checked already) on ``board``, within its node budget.

    ``seed`` seeds its random choices (None: ``mcts`` draws from its own fixed
    seed); with ``draws`` they come from there instead, and the search is
    neither kept nor shared.  Raises ``ApiError`` 422 for a board too big,
    ``Busy`` or ``RateLimited`` from the search slots.
    """
    require_small(board)
    made = current()
    engine = get_engine(name)
    if draws is not None:
        return made.slots.run(board, engine, draws, TEACHING_NODES)
    rng = None if seed is None else random.Random(seed)
    key = (name, board.text_key(), seed)
    return made.teaching.get(key, lambda: made.slots.run(board, engine, rng, TEACHING_NODES), shared_wait())
