"""The API's answers, declared once: each view builds one of these TypedDicts (mypy checks it)
and web/api/openapi.py generates the answer's schema (properties and ``required``) from it.

The fields are declared in the order the answers have them on the wire (the
JSON provider keeps insertion order).  The answers' pieces are TypedDicts too,
so that a view builds its whole answer from checked parts.  The error body is
``web.http.error_body.ErrorBody`` (every room refuses with it), the
/stats counters ``web.cache.stats.StatsSnapshot``, and an engine's entry
``tictactoe.algorithms.registry.EngineDescription``.
"""

# No ``from __future__ import annotations`` here: under Python 3.11 a TypedDict
# sees NotRequired only in an evaluated annotation, and the schema reads the
# required keys from the class.
from typing import NotRequired, TypedDict

from tictactoe import Level, Player, Source, Status, Value
from tictactoe.algorithms.registry import EngineDescription
from web.cache.stats import StatsSnapshot


class CellAnswer(TypedDict):
    """A cell as the API names it."""

    row: int
    col: int


class StatusFields(TypedDict):
    """How the game on a board stands, and its winning line as [row, col] pairs."""

    status: Status
    line: list[list[int]] | None


class TeachingFields(TypedDict):
    """What a teaching engine's search adds to /move and /analyze."""

    engine: str
    finished: bool
    note: str
    nodes: int
    leaves: int | None
    ms: float
    principal_variation: list[list[int]]
    worker: int


class SolverFields(TypedDict):
    """What the solver behind the shared cache knows of the posted position, and what it cost."""

    value: Value | None
    plies: int | None
    proven: bool
    source: Source | None
    cached: bool
    depth: int | None
    nodes: int
    ms: float
    worker: int


class FoundFields(SolverFields):
    """What is known of the posted position for /move: the solver's figures, or a teaching engine's."""

    engine: NotRequired[str]
    finished: NotRequired[bool]
    note: NotRequired[str]
    leaves: NotRequired[int | None]
    principal_variation: NotRequired[list[list[int]]]


class MovePlayed(TypedDict):
    """The move of a /move answer and the game after it."""

    move: CellAnswer
    player: Player
    board: list[str]
    status: Status
    line: list[list[int]] | None
    level: Level
    k: int


class MoveAnswer(MovePlayed, FoundFields):
    """The body of a 200 from POST /move: the move played, then what is known of the posted position."""


class MoveValueAnswer(CellAnswer):
    """A legal move of an analysis, its value and plies for the side making it, and whether it is best."""

    value: Value | None
    plies: int | None
    best: bool


class PositionFields(TypedDict):
    """The posted position and its moves, as /analyze and GET /position describe them."""

    board: list[str]
    k: int
    player: Player
    best: list[CellAnswer]
    moves: list[MoveValueAnswer]


class AnalysisAnswer(PositionFields, SolverFields):
    """The body of a 200 from POST /analyze (without engine): the moves, then the solver's figures."""


class ReasonedMove(MoveValueAnswer):
    """A move of GET /position: its value, and the rule or threat it follows in words (or None)."""

    reason: str | None


class RuleAnswer(TypedDict):
    """What the rule ladder says on a 3x3 position, and whether every move it names keeps the value."""

    holds: bool | None
    words: str


class PositionAnswer(TypedDict):
    """The body of a 200 from GET /position: /analyze's fields about the position, not the request's work,
    each move with its reason, and on 3x3 what the rule ladder says there."""

    board: list[str]
    k: int
    player: Player
    best: list[CellAnswer]
    moves: list[ReasonedMove]
    value: Value | None
    plies: int | None
    proven: bool
    source: Source
    depth: int | None
    rule: RuleAnswer | None


class EngineChoice(TypedDict):
    """The posted position and a teaching engine's move and value for it."""

    board: list[str]
    k: int
    player: Player
    move: CellAnswer
    value: Value | None


class EngineAnalysisAnswer(EngineChoice, TeachingFields):
    """The body of a 200 from POST /analyze with engine: the engine's choice, then its search."""


class StateAnswer(TypedDict):
    """The body of a 200 from POST /state; ``to_move`` is None once the game is over."""

    board: list[str]
    k: int
    status: Status
    line: list[list[int]] | None
    to_move: Player | None


class EnginesAnswer(TypedDict):
    """The body of GET /engines: the teaching engines, in teaching order."""

    engines: list[EngineDescription]


class StatsAnswer(StatsSnapshot):
    """The body of GET /stats: the counters, then the name of the cache backend."""

    backend: str


class FoldedCounts(TypedDict):
    """What a folded node's subtree holds."""

    nodes: int
    cuts: int
    hits: int
    leaves: int


class TraceNode(TypedDict):
    """One shown node of a traced search; an infinite alpha or beta (or minimax's none) is None."""

    id: int
    parent: int | None
    depth: int
    move: list[int] | None
    alpha: int | None
    beta: int | None
    score: int | None
    kind: str
    skipped: list[list[int]]
    size: int
    folded: FoldedCounts | None


class TraceAnswer(TypedDict):
    """The body of a 200 from GET /trace: the search's result and counts, then the shown nodes."""

    board: list[str]
    k: int
    player: Player
    engine: str
    windows: bool
    move: CellAnswer
    value: Value | None
    finished: bool
    note: str
    nodes: int
    leaves: int | None
    cuts: int
    hits: int
    root: int
    cap: int
    tree: list[TraceNode]
