"""The puzzles' routes: list them, read one, the day's one, and play a move judged by the engine.

::

    GET  /puzzles?board=3x3k3&task=win&after=ID&limit=20   200 a page of puzzles, in id order
    GET  /puzzles/daily                                     200 the day's puzzle (UTC date)
    GET  /puzzles/{id}                                      200 the puzzle
    POST /puzzles/{id}/moves  {"moves": [{"row", "col"}], "reveal": false}   200 the engine's verdict

The three GETs answer the same bytes to everyone until a deploy changes the
puzzles: each has a strong ``ETag`` of its body and ``Cache-Control: public``
(an hour; the day's puzzle until the day ends), and an ``If-None-Match`` that
names it gets 304.  A browser that asks for a page there (``Accept`` prefers
``text/html``) gets the puzzles page opened on that puzzle instead, so a
puzzle's address is its link (``Vary: Accept``).

The move is judged by ``tictactoe.judge`` against the puzzle's proof; no search
runs.  Refusals, each in words: 400 a query or body that is not what the
route takes; 404 no such puzzle; 409 a move the puzzle refuses (an earlier
move that is not the puzzle's, a cell taken or off its board, a solved puzzle).
"""

from __future__ import annotations

import datetime
import hashlib
import re
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, jsonify, request

from tictactoe import (
    MAX_SIZE,
    PUZZLE_ID_PATTERN,
    Puzzle,
    PuzzleSet,
    Rules,
    Task,
    judge,
    puzzle_boards,
    puzzle_goal,
    puzzle_set,
)
from web.http.compression import etag_variants
from web.http.errors import PUZZLES_BLUEPRINT, ApiError
from web.http.json_body import Field, checked, fields_schema, json_object, read_fields, read_json_body, show
from web.openapi.declarations import Answer, Refusal, Schema, declare
from web.openapi.fields import Cell
from web.puzzles.shapes import DailyPuzzle, PuzzleAnswer, PuzzleList, PuzzleMoveAnswer
from web.runtime.app_entry import AppEntry
from web.runtime.lru import BoundedLRU
from web.runtime.offload import off_event_loop
from web.telemetry.request_log import note
from web.words.languages import answer_with_page
from web.words.speech import say, spoken

bp = Blueprint(PUZZLES_BLUEPRINT, __name__)

# A page of the puzzles page: its body, status and headers (web/pages/routes.py makes it).
PageResponse = tuple[str, int, dict[str, str]]
# Makes the puzzles page opened on a puzzle id, "daily", or None (the next puzzle for the player).
PageMaker = Callable[[str | None], PageResponse]

LIST_PARAMETERS = ("board", "task", "after", "limit")
DEFAULT_LIMIT = 20
MAX_LIMIT = 100
MAX_MOVES = MAX_SIZE * MAX_SIZE
MAX_AGE = 3600  # seconds a copy of a GET answer is fresh: a deploy may change the puzzles
# Answers a worker keeps rendered: every puzzle, every day's, and the pages of lists asked most, within
# a few MiB whatever the lists asked (a page of 100 puzzles is 30 to 60 KB).
RENDERED_KEPT = 2048
RENDERED_BYTES = 4 * 2**20
DAILY = "daily"
# The rules that have puzzles, by key (5x5k4), smallest board first: the files' names, read at import.
BOARDS = puzzle_boards()
MOVES_EXAMPLE = '{"moves": [{"row": 1, "col": 1}]}'


# A JSON answer of the GETs as sent: its bytes and its strong ETag.
Rendered = tuple[bytes, str]


class Puzzles:
    """The puzzles of an app: the page maker the pages room hands in, the engine's set of puzzles,
    and this worker's memo of the GETs' answers, each rendered once (the same bytes until a deploy
    changes the puzzles)."""

    def __init__(self, page: PageMaker) -> None:
        self.page = page
        self.rendered: BoundedLRU[str, Rendered] = BoundedLRU(
            RENDERED_KEPT, weigh=lambda rendered: len(rendered[0]), max_weight=RENDERED_BYTES
        )
        self._set: PuzzleSet | None = None
        # The files are read once a process, a few hundred milliseconds of CPU: off the event loop,
        # so that the worker's other connections are answered meanwhile.
        self._read = off_event_loop(1)

    def set(self) -> PuzzleSet:
        """The engine's puzzles (read from their files at the first call of the process)."""
        if self._set is None:
            self._set = self._read(puzzle_set)
        return self._set


_ENTRY: AppEntry[Puzzles] = AppEntry("puzzles")  # the puzzles' entry of app.extensions
# Make an app's puzzles (``web.puzzles.init_app`` does, once); ``app``'s puzzles; the current request's app's.
attach = _ENTRY.attach
puzzles_of = _ENTRY.of
current_puzzles = _ENTRY.current


def _cells(value: object) -> list[tuple[int, int]]:
    """The moves as (row, col) pairs; ``ApiError`` 400 in words for anything else."""
    if not isinstance(value, list):
        raise ApiError(
            400, f'moves must be an array of cells such as [{{"row": 1, "col": 1}}], not {show(value)}'
        )
    if len(value) > MAX_MOVES:
        raise ApiError(400, f"moves holds {len(value)} cells: a puzzle has at most {MAX_MOVES}")
    cells = []
    for index, move in enumerate(value, 1):
        if not isinstance(move, dict) or set(move) != {"row", "col"}:
            raise ApiError(400, f'move {index} must be an object {{"row": r, "col": c}}, not {show(move)}')
        row, col = move["row"], move["col"]
        for name, number in (("row", row), ("col", col)):
            if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number < MAX_SIZE:
                raise ApiError(400, f"move {index}'s {name} must be a whole number from 0 to {MAX_SIZE - 1}")
        cells.append((row, col))
    return cells


CELL_SCHEMA = {
    "type": "object",
    "required": ["row", "col"],
    "additionalProperties": False,
    "properties": {
        "row": {"type": "integer", "minimum": 0, "maximum": MAX_SIZE - 1},
        "col": {"type": "integer", "minimum": 0, "maximum": MAX_SIZE - 1},
    },
}
MOVES = Field(
    "moves",
    {
        "type": "array",
        "items": CELL_SCHEMA,
        "maxItems": MAX_MOVES,
        "description": "The player's moves in the puzzle so far, counted from 0, the new one last (the"
        " earlier ones must be those the puzzle accepted). With reveal, the moves accepted so far.",
    },
    check=_cells,
    missing=f"moves is required: the moves played in the puzzle, such as {MOVES_EXAMPLE}",
)
REVEAL = Field(
    "reveal",
    {
        "type": "boolean",
        "default": False,
        "description": "true: answer the solution's next move after moves instead of judging one.",
    },
    check=checked("reveal", lambda value: isinstance(value, bool), "true or false"),
    default=False,
)
MOVE_FIELDS = (MOVES, REVEAL)

# -- the routes' declarations (web/openapi/): what each takes and answers ---------------------------

PUZZLE_ID: Schema = {"type": "string", "pattern": PUZZLE_ID_PATTERN, "example": "3x3k3-1a2b3c"}
PUZZLE_PARAMETER: Schema = {
    "name": "puzzle_id",
    "in": "path",
    "required": True,
    "schema": PUZZLE_ID,
    "description": "The puzzle's id: its rules' key and six hex digits.",
}
LIST_QUERY: Schema = {
    "name": "list",
    "in": "query",
    "required": False,
    "style": "form",
    "explode": True,
    "schema": {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "board": {"type": "string", "enum": BOARDS, "description": "The rules: rows x cols, k in a row."},
            "task": {"type": "string", "enum": [str(task) for task in Task]},
            "after": {**PUZZLE_ID, "description": "The list from the first id after this one."},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": DEFAULT_LIMIT},
        },
    },
    "description": "board, task, after and limit, each at most once.",
}
# A browser that prefers text/html gets the puzzles page where these answer JSON.
PAGE = {"text/html": {"type": "string", "description": "The puzzles page, opened on this answer's puzzle."}}


def _caching(freshness: str) -> dict[str, tuple[Schema, str]]:
    """The headers of a GET's answer (and of its 304), fresh as ``freshness`` says."""
    return {
        "ETag": ({"type": "string"}, "Strong validator of the answer's bytes: send it in If-None-Match."),
        "Cache-Control": ({"type": "string"}, freshness),
        "Vary": ({"type": "string"}, "Accept: a page for a browser that prefers text/html, JSON otherwise."),
    }


def _cached(shape: object, words: str, freshness: str) -> dict[int, Answer]:
    """A GET's answers: 200 the JSON of ``shape`` (or the page), 304 for a copy that is current."""
    headers = _caching(freshness)
    return {
        200: Answer(shape, words, headers=headers, also=PAGE),
        304: Answer(None, "Not modified: the copy whose ETag was sent is current.", headers=headers),
    }


IF_NONE_MATCH: Schema = {
    "name": "If-None-Match",
    "in": "header",
    "required": False,
    "schema": {"type": "string"},
    "description": "ETags of a copy the client holds: 304 when one matches.",
}
HOUR = f"public, max-age={MAX_AGE}"
BAD_QUERY = Refusal(
    400,
    "A parameter the route does not take, or one given twice; on the list, a board with no puzzles, a"
    " task that is not win or draw, an after that is not a puzzle's id, a limit out of 1.."
    f"{MAX_LIMIT}. The message says which.",
)
NO_PUZZLE = Refusal(404, "No puzzle has this id (a browser gets the puzzles page, saying so).")
NOT_A_MOVE = Refusal(
    400,
    "The body is not what the route takes: not JSON, an unknown field, moves that are not cells"
    f" (whole numbers 0..{MAX_SIZE - 1}), a reveal that is not true or false. The message says which.",
)
REFUSED_MOVE = Refusal(
    409,
    "The puzzle refuses the move: an earlier move is not the puzzle's, the cell is taken or off the"
    " puzzle's board, or the puzzle is solved already. The message says which.",
)
SOLVED_BY_PROOF = (
    " In each, every step has exactly one move that keeps the value, proven by the solver (on five in a"
    " row: by searching every move to the puzzle's horizon); the solution stays on the server."
)


@bp.get("/puzzles")
@declare(
    "A page of proven puzzles",
    "The puzzles of a board and a task (either may be left out), in id order, limit at a time; next"
    " is the id to ask after for the next page (null at the end)." + SOLVED_BY_PROOF + " The same"
    f" bytes until a deploy: Cache-Control: {HOUR}, with a strong ETag. A browser that prefers"
    " text/html gets the puzzles page.",
    parameters=(LIST_QUERY, IF_NONE_MATCH),
    answers=_cached(PuzzleList, "The page of puzzles.", HOUR),
    refusals=(BAD_QUERY,),
)
def puzzle_list() -> Response | PageResponse:
    """A page of puzzles (or the puzzles page): see GET /puzzles in /openapi.json."""
    if _prefers_page():
        return _page(None)
    query = _query()
    board = _board(query.get("board"))
    task = _task(query.get("task"))
    after = query.get("after")
    if after is not None and not _matches(PUZZLE_ID_PATTERN, after):
        raise ApiError(400, f"after must be a puzzle's id such as 3x3k3-1a2b3c, not {show(after)}")
    limit = _limit(query.get("limit"))

    def answer() -> PuzzleList:
        puzzles = current_puzzles().set()
        rules = next((rules for rules in puzzles.rules() if rules.key() == board), None)
        page = puzzles.select(rules, task, after, limit)
        return {
            "puzzles": [puzzle_fields(puzzle) for puzzle in page.puzzles],
            "next": page.next,
            "total": page.total,
        }

    key = f"list|{board or ''}|{task or ''}|{after or ''}|{limit}"
    return _cacheable(key, answer, MAX_AGE)


@bp.get("/puzzles/daily")
@declare(
    "The day's puzzle",
    "The same puzzle for everyone on a UTC date, fresh until the day ends (public, max-age: the"
    " seconds to UTC midnight), with a strong ETag. A browser that prefers text/html gets the puzzles"
    " page opened on it.",
    parameters=(IF_NONE_MATCH,),
    answers=_cached(DailyPuzzle, "The day's puzzle.", "public, max-age=<seconds to UTC midnight>"),
    refusals=(BAD_QUERY,),
)
def daily_puzzle() -> Response | PageResponse:
    """The day's puzzle (or the puzzles page opened on it): see GET /puzzles/daily in /openapi.json."""
    if _prefers_page():
        return _page(DAILY)
    _query(())
    now = datetime.datetime.now(datetime.UTC)
    day = now.date()
    tomorrow = datetime.datetime.combine(day + datetime.timedelta(days=1), datetime.time(), datetime.UTC)

    def answer() -> DailyPuzzle:
        return {"date": day.isoformat(), "puzzle": puzzle_fields(current_puzzles().set().daily(day))}

    return _cacheable(f"daily|{day.isoformat()}", answer, max(1, int((tomorrow - now).total_seconds())))


@bp.get("/puzzles/<puzzle_id>")
@declare(
    "A puzzle",
    "The position, the side to move, the task and its words, how many moves to find, the difficulty"
    " and rating, its link and embed." + SOLVED_BY_PROOF + f" Cache-Control: {HOUR}, with a strong"
    " ETag. A browser that prefers text/html gets the puzzles page opened on it: the link to share.",
    parameters=(PUZZLE_PARAMETER, IF_NONE_MATCH),
    answers=_cached(PuzzleAnswer, "The puzzle.", HOUR),
    refusals=(BAD_QUERY, NO_PUZZLE),
)
def puzzle(puzzle_id: str) -> Response | PageResponse:
    """A puzzle (or the puzzles page opened on it): see GET /puzzles/{id} in /openapi.json."""
    if _prefers_page():
        return _page(puzzle_id)
    _query(())
    found = _known(puzzle_id)
    return _cacheable(f"id|{found.id}", lambda: puzzle_fields(found), MAX_AGE)


@bp.post("/puzzles/<puzzle_id>/moves")
@declare(
    "Play a move in a puzzle",
    "The engine judges the last of moves (the earlier ones must be those the puzzle accepted) against"
    " the puzzle's proof, and says why in words: a right move gets the opponent's answer, played (or"
    " solved, and the line that follows), a wrong one the answer that refutes it and what it gives up;"
    " the player may try again. With reveal, the solution's next move instead. No search runs. Never"
    " cached (no-store).",
    body=fields_schema(MOVE_FIELDS),
    parameters=(PUZZLE_PARAMETER,),
    answers={200: Answer(PuzzleMoveAnswer, "The engine's verdict.")},
    refusals=(NOT_A_MOVE, NO_PUZZLE, REFUSED_MOVE),
)
def puzzle_move(puzzle_id: str) -> Response:
    """A move in a puzzle, judged by the engine: see POST /puzzles/{id}/moves in /openapi.json."""
    puzzle = _known(puzzle_id)
    body = read_fields(json_object(read_json_body(request), MOVES_EXAMPLE), MOVE_FIELDS)
    rules = puzzle.rules
    cells = []
    for row, col in body["moves"]:
        if row >= rules.rows or col >= rules.cols:
            # The schema cannot know the puzzle's board: a rule of this puzzle, so 409.
            raise ApiError(409, f"({row}, {col}) is not a cell of this puzzle's {rules} board")
        cells.append(rules.cell(row, col))
    note(board=rules.key())
    tried = judge(puzzle, cells, reveal=body["reveal"])
    answer: PuzzleMoveAnswer = {
        "id": puzzle.id,
        "move": _cell(rules, tried.move),
        "correct": tried.correct,
        "revealed": tried.revealed,
        "solved": tried.solved,
        "reply": None if tried.reply is None else _cell(rules, tried.reply),
        "refutation": None if tried.refutation is None else _cell(rules, tried.refutation),
        "board": tried.board.to_text(),
        "line": [_cell(rules, cell) for cell in tried.line],
        "words": say(tried.words),
    }
    response = jsonify(answer)
    response.headers["Cache-Control"] = "no-store"
    return response


def puzzle_fields(puzzle: Puzzle) -> PuzzleAnswer:
    """A puzzle as the API shows it (no solution)."""
    rules = puzzle.rules
    return {
        "id": puzzle.id,
        "rows": rules.rows,
        "cols": rules.cols,
        "k": rules.k,
        "board": puzzle.board().to_text(),
        "position": puzzle.position,
        "player": puzzle.player,
        "task": puzzle.task,
        "within": puzzle.within,
        "goal": say(puzzle_goal(puzzle)),
        "moves": len(puzzle.steps),
        "difficulty": puzzle.difficulty,
        "rating": puzzle.rating,
        "tempting": puzzle.tempting,
        "source": puzzle.source,
        "link": f"/puzzles/{puzzle.id}",
        "embed": f"/embed?puzzle={puzzle.id}",
    }


def _cell(rules: Rules, cell: int) -> Cell:
    row, col = rules.row_col(cell)
    return {"row": row, "col": col}


def _known(puzzle_id: str) -> Puzzle:
    """The puzzle of this id; ``ApiError`` 404 in words when there is none."""
    puzzle = current_puzzles().set().get(puzzle_id)
    if puzzle is None:
        raise ApiError(
            404,
            f"no puzzle has the id {show(puzzle_id)}: ids look like 3x3k3-1a2b3c (GET /puzzles lists some)",
        )
    return puzzle


def _query(names: tuple[str, ...] = LIST_PARAMETERS) -> dict[str, str]:
    """The query's parameters, each one of ``names`` and given once; ``ApiError`` 400 otherwise."""
    for name in request.args:
        if name not in names:
            takes = f"the parameters are {', '.join(names)}" if names else "it takes no parameters"
            raise ApiError(400, f"unknown parameter {name[:40]!r}: {takes}")
        if len(request.args.getlist(name)) > 1:
            raise ApiError(400, f"parameter {name!r} is given more than once: give it once")
    return dict(request.args)


def _board(text: str | None) -> str | None:
    """The key of the rules the list is of (``5x5k4``); ``ApiError`` 400 for rules with no puzzles."""
    if text is not None and text not in BOARDS:
        raise ApiError(
            400, f"board must be one of {', '.join(BOARDS)} (rows x cols, k in a row), not {show(text)}"
        )
    return text


def _task(text: str | None) -> Task | None:
    if text is None:
        return None
    if text not in set(Task):
        raise ApiError(400, f"task must be one of {', '.join(Task)}, not {show(text)}")
    return Task(text)


def _limit(text: str | None) -> int:
    if text is None:
        return DEFAULT_LIMIT
    if not (text.isascii() and text.isdigit() and len(text) <= 3) or not 1 <= int(text) <= MAX_LIMIT:
        raise ApiError(400, f"limit must be a whole number from 1 to {MAX_LIMIT}, not {show(text)}")
    return int(text)


def _matches(pattern: str, text: str) -> bool:
    return re.fullmatch(pattern.strip("^$"), text) is not None


def _prefers_page() -> bool:
    """Whether the client prefers a page to JSON here (a browser navigating to the address)."""
    accept = request.accept_mimetypes
    return accept.best_match(["application/json", "text/html"]) == "text/html" and (
        accept["text/html"] > accept["application/json"]
    )


def _page(start: str | None) -> PageResponse:
    answer_with_page()
    body, status, headers = current_puzzles().page(start)
    # The page's own Vary (its language: Accept-Language, Cookie) and this address's choice of a page.
    return body, status, {**headers, "Vary": f"Accept, {headers['Vary']}"}


def _cacheable(key: str, answer: Callable[[], Any], max_age: int) -> Response:
    """The answer ``key`` names as JSON in the request's language (``Vary: Accept-Language``) with a strong
    ETag of its bytes, public for ``max_age`` seconds (``answer()`` renders it the first time this worker
    is asked in that language); 304 for a request whose
    If-None-Match names it (or a gzipped copy's tag)."""
    kept = current_puzzles().rendered
    # The goals are words for a person, in the request's language: one rendering per language.
    key = f"{spoken()}|{key}"
    rendered = kept.get(key)
    if rendered is None:
        body = jsonify(answer()).get_data()
        rendered = (body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"')
        kept.put(key, rendered)
    body, tag = rendered
    named = next((t for t in etag_variants(tag) if request.if_none_match.contains_weak(t.strip('"'))), None)
    if named is None:
        response = Response(body, mimetype="application/json")
    else:
        response = Response(status=304)
        tag = named
    response.headers["ETag"] = tag
    response.headers["Cache-Control"] = f"public, max-age={max_age}"
    response.vary.add("Accept")
    return response
