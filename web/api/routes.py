"""The JSON API: POST /move, /analyze, /state; GET /engines, /healthz, /livez, /stats, /openapi.json.

With an ``engine`` field, /move and /analyze run that teaching engine
(``tictactoe.algorithms``) afresh, within the search budget, and never touch
the shared cache: the lab shows what each search really costs.
"""

from __future__ import annotations

import dataclasses
import os
import time

from flask import Blueprint, Response, current_app, jsonify, request

from tictactoe import ENGINE_VERSION, Board, Level, Status, choose_move
from tictactoe.algorithms.base import EngineResult
from tictactoe.algorithms.registry import describe_engines
from web.api import metrics_page, move_memo, teaching
from web.api.answers import analysis_fields
from web.api.openapi import build_spec
from web.api.payload import parse_position_request, read_position_request
from web.api.shapes import (
    AnalysisAnswer,
    EngineAnalysisAnswer,
    EnginesAnswer,
    FoundFields,
    MoveAnswer,
    SolverFields,
    StateAnswer,
    StatsAnswer,
    StatusFields,
    TeachingFields,
)
from web.cache import Answer, SolvedPositions
from web.http.errors import API_BLUEPRINT
from web.http.json_body import read_json_body
from web.parts import current
from web.telemetry.request_log import note

bp = Blueprint(API_BLUEPRINT, __name__)
bp.register_blueprint(metrics_page.bp)  # GET /metrics is the API's too: JSON errors, no-store


MOVE_PATH = "/move"
JSON = "application/json"  # what jsonify names its answers


@bp.post(MOVE_PATH)
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
def engines() -> Response:
    """The engines that /move and /analyze take as ``engine``, in teaching order."""
    answer: EnginesAnswer = {"engines": describe_engines()}
    return jsonify(answer)


@bp.get("/livez")
def livez() -> Response:
    """Liveness for a platform's checks: the worker answers (no cache touched)."""
    return jsonify(status="alive")


@bp.get("/healthz")
def healthz() -> Response:
    """200 when the cache backend made a real round trip a moment ago, else 503 (web/cache/health.py)."""
    positions = current().solved
    ok, detail = current().health.status()
    response = jsonify(
        status="ok" if ok else "unavailable",
        cache={"backend": positions.backend.name, "ok": ok, "detail": detail},
        engine=ENGINE_VERSION,
        worker=os.getpid(),
    )
    response.status_code = 200 if ok else 503
    return response


@bp.get("/stats")
def stats() -> Response:
    """Counters of this worker and, where the backend keeps them, of all workers."""
    positions = current().solved
    answer: StatsAnswer = {**positions.stats.snapshot(), "backend": positions.backend.name}
    return jsonify(answer)


@bp.get("/openapi.json")
def openapi() -> Response:
    """The OpenAPI 3 description of this API."""
    response = jsonify(build_spec())
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
