"""The JSON API: POST /move, /analyze, /state; GET /engines, /healthz, /livez, /stats, /openapi.json.

With an ``engine`` field, /move and /analyze run that teaching engine
(``tictactoe.algorithms``) afresh, within the search budget, and never touch
the shared cache: the lab shows what each search really costs.
"""

from __future__ import annotations

import dataclasses
import os
import time
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from tictactoe import ENGINE_VERSION, QUICK_LEVELS, Board, Level, Status, choose_move
from tictactoe.algorithms.base import EngineResult
from tictactoe.algorithms.registry import describe_engines
from web.api import metrics_page, move_memo, teaching
from web.api.answers import analysis_fields
from web.api.payload import (
    BODIES,
    CANNOT_PLAY,
    NOT_A_BOARD,
    body_schema,
    parse_position_request,
    read_position_request,
)
from web.api.shapes import (
    AnalysisAnswer,
    EngineAnalysisAnswer,
    EnginesAnswer,
    FoundFields,
    HealthAnswer,
    LivenessAnswer,
    MoveAnswer,
    SolverFields,
    StateAnswer,
    StatsAnswer,
    StatusFields,
    TeachingFields,
)
from web.api.teaching import MAX_SIDE, TOO_BIG_TO_TEACH
from web.cache import Answer, SolvedPositions
from web.http.errors import API_BLUEPRINT
from web.http.json_body import components, read_json_body
from web.openapi import declarations as declared
from web.openapi.declarations import declare
from web.openapi.document import document
from web.parts import current
from web.searches.lab_runs import TEACHING_NODES
from web.searches.rate_limit import RATE_LIMITED
from web.searches.slots import NO_SLOT
from web.telemetry.request_log import note

bp = Blueprint(API_BLUEPRINT, __name__)
bp.register_blueprint(metrics_page.bp)  # GET /metrics is the API's too: JSON errors, no-store


MOVE_PATH = "/move"
JSON = "application/json"  # what jsonify names its answers
# A route that searches: what it may refuse, and what the engine field adds to it.
SEARCH_REFUSALS = (NOT_A_BOARD, CANNOT_PLAY, RATE_LIMITED, NO_SLOT)
TEACHING = (
    f"With engine, that teaching engine searches instead, on a board of up to {MAX_SIDE}x{MAX_SIDE}"
    f" (422 beyond), to the end or its budget of {TEACHING_NODES:,} nodes, never a deadline, outside"
    " the shared cache: the same search gives the same answer."
)


@bp.post(MOVE_PATH)
@declare(
    "The engine's move",
    "Plays one move for the side to move in the posted position. value and plies describe the posted"
    " position for that side under perfect play (null unless proven); at a level that searches"
    f" nothing ({', '.join(QUICK_LEVELS)}) they are given only when the position is already in the"
    " cache (no search is made for them)."
    f" {TEACHING} The answer then adds engine, finished, note, leaves and principal_variation, value"
    " is the engine's own (null when it did not prove one), plies is null and level is ignored.",
    body=body_schema("move"),
    components=components(BODIES["move"]),
    answers={200: declared.Answer(MoveAnswer, "The move played and the new board.")},
    refusals=(*SEARCH_REFUSALS, TOO_BIG_TO_TEACH),
)
def move() -> Response:
    """Play the engine's move: see the Move schema in /openapi.json.

    A body answered from the cache before is answered from the view's memo of it
    (web/api/move_memo.py): unparsed, not looked up, its answer rendered once per
    move; the level still chooses the move.
    """
    started = time.perf_counter()
    raw = read_json_body(request)
    positions = current().solved
    memo = move_memo.recall(positions, raw)
    if memo is not None:
        return _answer_from(memo, positions, started)
    req = parse_position_request(raw, "move")
    board = req.board
    board.require_moves()
    rng = move_memo.draw_source(req.seed)
    if req.engine is not None:
        # Drawn afresh without a seed (mcts), else the same search every time: kept and shared.
        result = teaching.run(board, req.engine, req.seed, rng if req.seed is None else None)
        found: FoundFields | SolverFields = {
            "value": result.value,
            "plies": None,
            "proven": result.value is not None,
            "cached": False,
            "depth": None,
            "source": None,
            **_teaching_fields(board, req.engine, result),
        }
        return jsonify(_move_fields(board, result.move, req.level, found))
    decision = choose_move(board, req.level, rng, analyst=positions.solve)
    # A level that searches nothing reports the value only if it is already known.
    answer = decision.result if decision.result is not None else positions.peek(board)
    if answer is None or not (answer.cached and answer.proven):
        return jsonify(_move_fields(board, decision.move, req.level, _engine_fields(answer)))
    # Known from the cache: a fact that never changes, so the body's answer is kept to be given again
    # (choose_move reads the best moves, not every move's value).
    memo = move_memo.MoveMemo(req, dataclasses.replace(answer, move_values=None))
    response = _answer_from(memo, positions, started, decision.move)
    move_memo.remember(positions, raw, memo)
    return response


def _answer_from(
    memo: move_memo.MoveMemo, positions: SolvedPositions, started: float, cell: int | None = None
) -> Response:
    """The answer to a memo's body: the move its level chooses now (``cell`` when chosen already)."""
    req, answer = memo.request, memo.answer
    if cell is None:
        # The kept result is the analysis: the level decides, as it does for a new body.
        cell = choose_move(req.board, req.level, move_memo.draw_source(req.seed), analyst=memo.analysis).move
        positions.stats.add(hits=1)
        note(board=req.board.rules.key(), source=str(answer.source))

    def render(played: int) -> bytes:
        marked: SolverFields = {**_engine_fields(answer), "ms": move_memo.MS_MARK}  # type: ignore[typeddict-item]
        return jsonify(_move_fields(req.board.copy(), played, req.level, marked)).get_data()

    return current_app.response_class(memo.body(cell, render, started), content_type=JSON)


@bp.post("/analyze")
@declare(
    "The value of every legal move",
    "For hints: the value and plies of every legal move for the side to move, which moves are best,"
    " and the position's value. level is accepted and ignored (the analysis is always perfect)."
    f" {TEACHING} The answer is then that engine's search of the position (EngineAnalysisAnswer).",
    body=body_schema("analyze"),
    components=components(BODIES["analyze"]),
    answers={
        200: declared.Answer(
            AnalysisAnswer | EngineAnalysisAnswer,
            "The analysis (AnalysisAnswer), or with engine the engine's search (EngineAnalysisAnswer).",
        )
    },
    refusals=(*SEARCH_REFUSALS, TOO_BIG_TO_TEACH),
)
def analyze() -> Response:
    """Every legal move's value and plies: see the Analysis schema in /openapi.json."""
    req = read_position_request(request, "analyze")
    board = req.board
    board.require_moves()
    if req.engine is not None:
        # Deterministic (mcts from its own seed), so that the lab's figures repeat.
        result = teaching.run(board, req.engine, None)
        row, col = board.rules.row_col(result.move)
        searched: EngineAnalysisAnswer = {
            "board": board.to_text(),
            "k": board.rules.k,
            "player": board.to_move,
            "move": {"row": row, "col": col},
            "value": result.value,
            **_teaching_fields(board, req.engine, result),
        }
        return jsonify(searched)
    answer = current().solved.solve(board, all_moves=True)
    analysis: AnalysisAnswer = {**analysis_fields(board, answer), **_engine_fields(answer)}
    return jsonify(analysis)


@bp.post("/state")
@declare(
    "The status of a position",
    "Whether the game on this board goes on or how it ended, and the winning line. Finished games are"
    " answered here, not refused.",
    body=body_schema("state"),
    answers={200: declared.Answer(StateAnswer, "The position's status.")},
    refusals=(NOT_A_BOARD, CANNOT_PLAY),
)
def state() -> Response:
    """The status of a position (finished or not): see the State schema in /openapi.json."""
    board = read_position_request(request, "state").board
    fields = _status(board)
    answer: StateAnswer = {
        "board": board.to_text(),
        "k": board.rules.k,
        **fields,
        "to_move": board.to_move if fields["status"] == Status.IN_PROGRESS else None,
    }
    return jsonify(answer)


@bp.get("/engines")
@declare(
    "The teaching engines",
    "The names that /move and /analyze take as engine, in teaching order (each improves on the one"
    " before), with a line on each.",
    answers={200: declared.Answer(EnginesAnswer, "The engines.")},
)
def engines() -> Response:
    """The engines that /move and /analyze take as ``engine``, in teaching order."""
    answer: EnginesAnswer = {"engines": describe_engines()}
    return jsonify(answer)


@bp.get("/livez")
@declare(
    "Liveness: the process answers",
    "200 as long as the worker can answer at all; it touches no cache (readiness, with the cache, is"
    " /healthz).",
    answers={200: declared.Answer(LivenessAnswer, "Alive.")},
)
def livez() -> Response:
    """Liveness for a platform's checks: the worker answers (no cache touched)."""
    answer: LivenessAnswer = {"status": "alive"}
    return jsonify(answer)


@bp.get("/healthz")
@declare(
    "Health of the app and its cache backend",
    "200 when the app answers and a probe key makes a real round trip through the cache backend; 503"
    " otherwise.",
    answers={
        200: declared.Answer(HealthAnswer, "Healthy."),
        503: declared.Answer(HealthAnswer, "The cache backend did not answer."),
    },
)
def healthz() -> Response:
    """200 when the cache backend made a real round trip a moment ago, else 503 (web/cache/health.py)."""
    positions = current().solved
    ok, detail = current().health.status()
    answer: HealthAnswer = {
        "status": "ok" if ok else "unavailable",
        "cache": {"backend": positions.backend.name, "ok": ok, "detail": detail},
        "engine": ENGINE_VERSION,
        "worker": os.getpid(),
    }
    response = jsonify(answer)
    response.status_code = 200 if ok else 503
    return response


@bp.get("/stats")
@declare(
    "Cache and search counters",
    "Counters of the worker that answers, and totals over every worker of this server since it"
    " started: the same counters as /metrics.",
    answers={200: declared.Answer(StatsAnswer, "Counters.")},
)
def stats() -> Response:
    """Counters of this worker and, where the backend keeps them, of all workers."""
    positions = current().solved
    answer: StatsAnswer = {**positions.stats.snapshot(), "backend": positions.backend.name}
    return jsonify(answer)


@bp.get("/openapi.json")
@declare(
    "This document",
    "The OpenAPI 3.2 description of this API, assembled from the declaration beside each route.",
    answers={200: declared.Answer(dict[str, Any], "The OpenAPI description.")},
)
def openapi() -> Response:
    """The OpenAPI description of this API (web/openapi/document.py)."""
    response = jsonify(document(current_app))
    response.cache_control.max_age = 300
    response.cache_control.public = True
    return response


def _status(board: Board) -> StatusFields:
    """The ``status`` and ``line`` fields of a board."""
    outcome = board.outcome()
    if outcome is None:
        return {"status": Status.IN_PROGRESS, "line": None}
    if outcome.winner is None:
        return {"status": Status.DRAW, "line": None}
    return {
        "status": Status.won_by(outcome.winner),
        "line": [list(board.rules.row_col(cell)) for cell in outcome.line],
    }


def _move_fields(board: Board, cell: int, level: Level, found: FoundFields | SolverFields) -> MoveAnswer:
    """The /move answer that plays ``cell`` on ``board`` (left as it was); ``found``: the engine's fields."""
    player = board.to_move
    board.play(cell)
    try:
        row, col = board.rules.row_col(cell)
        return {
            "move": {"row": row, "col": col},
            "player": player,
            "board": board.to_text(),
            **_status(board),
            "level": level,
            "k": board.rules.k,
            **found,
        }
    finally:
        board.undo()


def _engine_fields(answer: Answer | None) -> SolverFields:
    """value, plies, proven, source, cached, depth, nodes, ms and worker of an answer (or none)."""
    if answer is None:
        return {
            "value": None,
            "plies": None,
            "proven": False,
            "source": None,
            "cached": False,
            "depth": None,
            "nodes": 0,
            "ms": 0.0,
            "worker": os.getpid(),
        }
    note(source=str(answer.source))  # for the request's log line and the answers metric
    return {
        "value": answer.value,
        "plies": answer.plies,
        "proven": answer.proven,
        "source": answer.source,
        "cached": answer.cached,
        "depth": answer.depth,
        "nodes": answer.nodes,
        "ms": round(answer.seconds * 1000, 3),
        "worker": os.getpid(),
    }


def _teaching_fields(board: Board, name: str, result: EngineResult) -> TeachingFields:
    """engine, finished, note, nodes, leaves, ms, principal_variation and worker of a result."""
    return {
        "engine": name,
        "finished": result.finished,
        "note": result.note,
        "nodes": result.nodes,
        "leaves": result.leaves,
        "ms": round(result.seconds * 1000, 3),
        "principal_variation": [list(board.rules.row_col(c)) for c in result.principal_variation],
        "worker": os.getpid(),
    }
