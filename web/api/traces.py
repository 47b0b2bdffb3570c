"""GET /trace: a teaching engine's search tree, node by node, folded to fit a page.

``GET /trace?board=x2/1o1/3&k=3&engine=alphabeta`` runs the engine afresh with
a tracer (``tictactoe.algorithms.trace``) and answers its result and the nodes
it visited, in order, with their windows, scores and cut-offs, at most
``folding.DEFAULT_CAP`` of them: bigger subtrees come folded, each with its
exact counts.  ``&node=N`` answers the subtree of node N (its number in the
visiting order) folded the same way: the page opens a folded branch with it.

Bounded as every teaching search is (web/api/teaching.py): boards up to 4x4
only (422 otherwise), and a search stops at its node budget (enough for every
3x3 tree: plain minimax on the empty board visits 549,946), never at a
deadline; then ``finished`` is false and the tree is the part searched.  The
searches are deterministic, so a finished trace is cacheable,
each worker keeps its last few traces, so that opening branch after branch of
one search runs it once, and the requests for a trace that is being searched
wait for that search (web/searches/shared_runs.py): a class opening the same
experiment at once costs each worker one search of it.
"""

from __future__ import annotations

import math

from flask import Blueprint, Response, jsonify, request

from tictactoe import MIN_K, Board
from tictactoe.algorithms.base import EngineResult
from tictactoe.algorithms.folding import DEFAULT_CAP, ShownNode, fold
from tictactoe.algorithms.registry import TRACEABLE
from tictactoe.algorithms.trace import CUT, HIT, Trace
from web.api.payload import CANNOT_PLAY, NOT_A_BOARD
from web.api.positions import read_position_query, text_case
from web.api.shapes import TraceAnswer, TraceNode
from web.api.teaching import MAX_SIDE, require_small, shared_wait
from web.http.errors import TRACES_BLUEPRINT, ApiError
from web.openapi.declarations import Answer, Refusal, declare
from web.parts import current
from web.searches.lab_runs import TEACHING_NODES
from web.searches.rate_limit import RATE_LIMITED
from web.searches.slots import NO_SLOT

bp = Blueprint(TRACES_BLUEPRINT, __name__)

PARAMETERS = ("board", "k", "engine", "node")
DEFAULT_ENGINE = "alphabeta"
MAX_NODE_DIGITS = 7  # no trace has 10 million nodes
FINISHED_MAX_AGE = 86_400  # a finished trace never changes (for one engine version)


@bp.get("/trace")
@declare(
    "A teaching engine's search tree, node by node",
    "Runs a depth-first teaching engine afresh on the position (boards up to"
    f" {MAX_SIDE}x{MAX_SIDE}) and answers the nodes it visited, in order, at most {DEFAULT_CAP} of"
    " them: whole levels while they fit, bigger subtrees folded with their exact counts, so that the"
    " shown nodes (each 1, or its folded size) add up to nodes. node=N answers the subtree of node N"
    f" instead. The search stops at its budget of {TEACHING_NODES:,} nodes, never at a deadline"
    " (finished is then false), so the same request gets the same tree: a finished trace never"
    " changes, it is cacheable.",
    parameters=(
        {
            "name": "trace",
            "in": "query",
            "required": True,
            "style": "form",
            "explode": True,
            "schema": {
                "type": "object",
                "required": ["board"],
                "additionalProperties": False,
                "properties": {
                    "board": {"type": "string", "minLength": 5, "maxLength": 19, "example": "x2/1o1/3"},
                    "k": {"type": "integer", "minimum": MIN_K, "maximum": MAX_SIDE},
                    "engine": {"type": "string", "enum": list(TRACEABLE), "default": DEFAULT_ENGINE},
                    "node": {
                        "type": "integer",
                        "minimum": 0,
                        "maximum": 10**MAX_NODE_DIGITS - 1,
                        "default": 0,
                    },
                },
                # 3 columns: 3 rows (k = 3) or 4 rows (k up to 4); 4 columns: 3 or 4 rows, k up to 4.
                "anyOf": [
                    text_case(3, MIN_K, 3, 3, 3),
                    text_case(3, MIN_K, 4, 4, 4),
                    text_case(4, MIN_K, 4, 3, 4),
                ],
            },
            "description": "board and k as for GET /position; engine (default"
            f" {DEFAULT_ENGINE}); node: the id of the node whose subtree to show (default 0).",
        },
    ),
    answers={200: Answer(TraceAnswer, "The search and its tree.")},
    refusals=(
        NOT_A_BOARD,
        CANNOT_PLAY,
        Refusal(422, f"A board larger than {MAX_SIDE}x{MAX_SIDE}, or a node this search does not have."),
        RATE_LIMITED,
        NO_SLOT,
    ),
)
def trace() -> Response:
    """A search's tree: see GET /trace in /openapi.json."""
    args = request.args
    board = read_position_query(args, PARAMETERS)
    engine = args.get("engine", DEFAULT_ENGINE)
    if engine not in TRACEABLE:
        raise ApiError(400, f"engine must be one of {', '.join(TRACEABLE)}, not {engine[:40]!r}")
    node_text = args.get("node", "0")
    if not (node_text.isascii() and node_text.isdigit()) or len(node_text) > MAX_NODE_DIGITS:
        raise ApiError(400, f"node must be a node's number such as 0 (the root), not {node_text[:20]!r}")
    require_small(board)
    board.require_moves()
    result, traced = _traced(board, engine)
    node = int(node_text)
    if node >= len(traced):
        raise ApiError(422, f"this search has no node {node}: its nodes are 0 to {len(traced) - 1}")
    response = jsonify(trace_fields(board, engine, result, traced, fold(traced, node, DEFAULT_CAP)))
    if result.finished:
        response.cache_control.public = True
        response.cache_control.max_age = FINISHED_MAX_AGE
    return response


def trace_fields(
    board: Board, engine: str, result: EngineResult, traced: Trace, shown: list[ShownNode]
) -> TraceAnswer:
    """The body: the search's result and counts, then the shown nodes in visiting order."""
    row, col = board.rules.row_col(result.move)
    return {
        "board": board.to_text(),
        "k": board.rules.k,
        "player": board.to_move,
        "engine": engine,
        "windows": engine != "minimax",
        "move": {"row": row, "col": col},
        "value": result.value,
        "finished": result.finished,
        "note": result.note,
        "nodes": result.nodes,
        "leaves": result.leaves,
        "cuts": traced.count(CUT, 0),
        "hits": traced.count(HIT, 0),
        "root": shown[0].index,
        "cap": DEFAULT_CAP,
        "tree": [_node_fields(board, node) for node in shown],
    }


def _node_fields(board: Board, node: ShownNode) -> TraceNode:
    """One node as JSON: an infinite alpha or beta (or minimax's none) is null."""
    cell = board.rules.row_col
    folded = node.folded
    return {
        "id": node.index,
        "parent": node.parent,
        "depth": node.depth,
        "move": None if node.move is None else list(cell(node.move)),
        "alpha": None if math.isinf(node.alpha) else int(node.alpha),
        "beta": None if math.isinf(node.beta) else int(node.beta),
        "score": node.score,
        "kind": node.kind,
        "skipped": [list(cell(move)) for move in node.skipped],
        "size": node.size,
        "folded": None
        if folded is None
        else {"nodes": folded.nodes, "cuts": folded.cuts, "hits": folded.hits, "leaves": folded.leaves},
    }


def _traced(board: Board, engine: str) -> tuple[EngineResult, Trace]:
    """The engine's traced search of ``board``: kept, under way for another request, or run now in a slot."""
    key = (engine, board.text_key())
    made = current()
    search = TRACEABLE[engine]
    return made.traces.get(key, lambda: made.slots.trace(board, search, TEACHING_NODES), shared_wait())
