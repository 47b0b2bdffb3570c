"""The API's answers, declared once: each view builds one of these TypedDicts (mypy checks it),
and /openapi.json's schema of each is made from it (web/openapi/schemas.py), closed.

The fields are declared in the order the answers have them on the wire (the
JSON provider keeps insertion order); the string under a field is its words in
the document.  The answers' pieces are TypedDicts too, so that a view builds its
whole answer from checked parts.  The error body is
``web.http.error_body.ErrorBody`` (every room refuses with it), the /stats
counters ``web.cache.stats.StatsSnapshot``.
"""

# No ``from __future__ import annotations`` here: under Python 3.11 a TypedDict sees
# NotRequired only in an evaluated annotation, and pydantic reads the classes
# (typing_extensions' TypedDict: pydantic needs it before Python 3.12).
from typing import Annotated, Literal, NotRequired

from pydantic import Field
from typing_extensions import TypedDict

from tictactoe import Level, Player, Source, Status, Value
from tictactoe.algorithms.registry import ENGINES, TRACEABLE
from tictactoe.algorithms.trace import KINDS
from web.cache.stats import StatsSnapshot
from web.config import BACKENDS
from web.openapi.fields import Cell, Count, InRow, Line, Pair, Rows, Worker, one_of

# A proven count of moves to the end of a game: 1 or more, or null when not proven.
Plies = Annotated[int, Field(ge=1)] | None
EngineName = Annotated[str, one_of(tuple(ENGINES))]


class StatusFields(TypedDict):
    """How the game on a board stands, and its winning line as [row, col] pairs."""

    status: Status
    line: Line


class TeachingFields(TypedDict):
    """What a teaching engine's search adds to /move and /analyze."""

    engine: EngineName
    """The teaching engine that searched."""
    finished: bool
    """Whether the engine finished its search (false: stopped at its node budget; the move is
    then its best so far, and note says so)."""
    note: str
    """The engine's own words on the search."""
    nodes: Count
    """Positions the engine searched."""
    leaves: Count | None
    """Finished games reached (playouts for mcts), or null."""
    ms: Annotated[float, Field(ge=0)]
    """The search's time, in ms."""
    principal_variation: list[Pair]
    """The expected line of play as [row, col], starting with the move; [] when none."""
    worker: Worker


class SolverFields(TypedDict):
    """What the solver behind the shared cache knows of the posted position, and what it cost."""

    value: Value | None
    """The posted position's value under perfect play, for the side to move (/analyze) or the
    side that moved (/move); null unless proven (at a level that searches nothing: unless already
    cached)."""
    plies: Plies
    """Moves left in the game from the posted position under perfect play; null unless proven."""
    proven: bool
    """Whether value and plies are proven (false when the search ran out of budget; the move is
    then the best found)."""
    source: Source | None
    """How the answer is known: proof (a full search proved it), book (proven offline, from the
    opening book), threats (a forced sequence of threats was found: the side to move's, or with
    value loss the opponent's after every legal move; plies then count the sequences found),
    heuristic (the best move of a search that ran out of budget: a guess). Kept by the cache: a
    hit says how the entry was solved. Null when no engine analysis stands behind the answer (a
    teaching engine, or a level's move with nothing known)."""
    cached: bool
    """Whether the result came from the shared cache."""
    depth: int | None
    """Depth of the heuristic search when not proven, else null."""
    nodes: Count
    """Positions searched."""
    ms: Annotated[float, Field(ge=0)]
    """Time spent on the answer (cache and search), in ms."""
    worker: Worker


class FoundFields(SolverFields):
    """What is known of the posted position for /move: the solver's figures, or a teaching engine's."""

    engine: NotRequired[EngineName]
    """With engine: the teaching engine that chose the move."""
    finished: NotRequired[bool]
    """With engine: whether its search finished (false: stopped at its node budget)."""
    note: NotRequired[str]
    """With engine: the engine's own words on the search."""
    leaves: NotRequired[Count | None]
    """With engine: finished games reached (playouts for mcts), or null."""
    principal_variation: NotRequired[list[Pair]]
    """With engine: the expected line of play as [row, col], starting with the move."""


class MovePlayed(TypedDict):
    """The move of a /move answer and the game after it."""

    move: Cell
    """The cell the engine played."""
    player: Player
    """The side that moved."""
    board: Rows
    """The board after the move."""
    status: Status
    """The game after the move."""
    line: Line
    level: Level
    """The level that played."""
    k: InRow


class MoveAnswer(MovePlayed, FoundFields):
    """The body of a 200 from POST /move: the move played, then what is known of the posted position."""


class MoveValueAnswer(Cell):
    """A legal move of an analysis, its value and plies for the side making it, and whether it is best."""

    value: Value | None
    """For the side making the move; null unless proven."""
    plies: Plies
    """Moves to the end of the game counting this one; null unless proven."""
    best: bool


class PositionFields(TypedDict):
    """The posted position and its moves, as /analyze and GET /position describe them."""

    board: Rows
    """The posted board (lower case)."""
    k: InRow
    player: Player
    """The side to move."""
    best: Annotated[list[Cell], Field(min_length=1)]
    """Every optimal move when proven, else the best found."""
    moves: list[MoveValueAnswer]
    """Every legal move: row by row from /analyze; best first from GET /position (quicker wins,
    then draws, then slower losses; row by row among equals and when values are unknown)."""


class AnalysisAnswer(PositionFields, SolverFields):
    """The body of a 200 from POST /analyze (without engine): the moves, then the solver's figures."""


class ReasonedMove(MoveValueAnswer):
    """A legal move of GET /position: its value and plies, whether it is best, and its reason in words."""

    reason: str | None
    """What the move does, in words a learner knows: the first of wins, blocks the win at c3, makes a
    fork (a double threat), blocks the fork, makes two in a row (three in a row, a four), blocks or
    makes an open three (k >= 4), and on 3x3 takes the centre, the opposite corner, an empty corner
    or an empty edge; null for none."""


class RuleAnswer(TypedDict):
    """On 3x3: what the rule ladder children learn says (win, block, fork, block a fork, centre,
    opposite corner, empty corner, empty side), held against the solver."""

    holds: bool | None
    """Whether every move the rule names keeps the position's value (null when the values are not
    proven)."""
    words: str
    """What the rule says, and what holds instead where it is wrong: The rule says take the centre;
    here only c2, a3 or c3 keeps the win."""


class PositionAnswer(TypedDict):
    """The body of a 200 from GET /position: /analyze's fields about the position, not the request's
    work, each move with its reason, and on 3x3 what the rule ladder says."""

    board: Rows
    """The posted board (lower case)."""
    k: InRow
    player: Player
    """The side to move."""
    best: Annotated[list[Cell], Field(min_length=1)]
    """Every optimal move when proven, else the best found."""
    moves: list[ReasonedMove]
    """Every legal move, best first (quicker wins, then draws, then slower losses; row by row among
    equals and when values are unknown)."""
    value: Value | None
    """The position's value for the side to move; null unless proven."""
    plies: Plies
    """Moves left in the game under perfect play; null unless proven."""
    proven: bool
    """Whether value and plies are proven."""
    source: Source
    """How the answer is known: proof, book or threats (proven), heuristic (not proven)."""
    depth: int | None
    """Depth of the heuristic search when not proven, else null."""
    rule: RuleAnswer | None
    """On 3x3: what the rule ladder says there; null on other boards."""


class EngineChoice(TypedDict):
    """The posted position and a teaching engine's move and value for it."""

    board: Rows
    """The posted board (lower case)."""
    k: InRow
    player: Player
    """The side to move."""
    move: Cell
    """The engine's choice."""
    value: Value | None
    """The position's value for the side to move as the engine proved it (no plies), or null."""


class EngineAnalysisAnswer(EngineChoice, TeachingFields):
    """The body of a 200 from POST /analyze with engine: the engine's choice, then its search."""


class StateAnswer(TypedDict):
    """The body of a 200 from POST /state."""

    board: Rows
    k: InRow
    status: Status
    line: Line
    to_move: Player | None
    """The side to move, or null when the game is over."""


class EngineEntry(TypedDict):
    """A teaching engine: its name (what /move and /analyze take as engine) and a line on it."""

    name: EngineName
    description: str


class EnginesAnswer(TypedDict):
    """The body of GET /engines: the teaching engines, in teaching order."""

    engines: list[EngineEntry]


class StatsAnswer(StatsSnapshot):
    """The body of GET /stats: the counters, then the name of the cache backend."""

    backend: Annotated[str, one_of(BACKENDS)]


class CacheHealth(TypedDict):
    """The cache backend as the health check last found it."""

    backend: Annotated[str, one_of(BACKENDS)]
    ok: bool
    detail: str


class HealthAnswer(TypedDict):
    """The body of GET /healthz (200 when healthy, 503 otherwise)."""

    status: Annotated[str, one_of(("ok", "unavailable"))]
    cache: CacheHealth
    engine: str
    """The engine's version."""
    worker: Worker


class LivenessAnswer(TypedDict):
    """The body of GET /livez."""

    status: Literal["alive"]


class FoldedCounts(TypedDict):
    """What a folded node's subtree holds."""

    nodes: Count
    cuts: Count
    hits: Count
    leaves: Count


# A window's bound on entry: an integer, or null for an infinite one.
Bound = int | None


class TraceNode(TypedDict):
    """One shown node of a traced search."""

    id: Annotated[int, Field(ge=0)]
    """The node's place in the visiting order (0: the root)."""
    parent: Annotated[int, Field(ge=0)] | None
    depth: Annotated[int, Field(ge=0)]
    move: Pair | None
    """The move that led here as [row, col]; null at the root."""
    alpha: Bound
    """The window's alpha on entry; null: minus infinity (and for minimax, which has none)."""
    beta: Bound
    """The window's beta on entry; null: plus infinity (and for minimax, which has none)."""
    score: Annotated[int, Field(ge=-1, le=1)] | None
    """What the node returned for its side to move (+1 win, 0 draw, -1 loss; a bound when kind
    is cut or fail-low); null when the search stopped inside it."""
    kind: Annotated[str, one_of(KINDS)]
    """exact; leaf (a finished game); hit (settled by the transposition table); cut (a move reached
    beta, the rest were skipped); fail-low (every move scored at most alpha); open (the search
    stopped inside it)."""
    skipped: list[Pair]
    """A cut-off's moves never tried."""
    size: Annotated[int, Field(ge=1)]
    """Nodes in its subtree, itself included."""
    folded: FoldedCounts | None
    """Set when its descendants are not shown: what its subtree holds. Open it with node set to its id."""


class TraceAnswer(TypedDict):
    """The body of a 200 from GET /trace: the search's result and counts, then the shown nodes."""

    board: Rows
    k: InRow
    player: Player
    """The side to move."""
    engine: Annotated[str, one_of(tuple(TRACEABLE))]
    windows: bool
    """Whether the engine has alpha-beta windows (not minimax)."""
    move: Cell
    """The engine's choice."""
    value: Value | None
    finished: bool
    """Whether the search ended before its node budget."""
    note: str
    nodes: Annotated[int, Field(ge=1)]
    """The whole search's nodes: /analyze's figure."""
    leaves: Count | None
    cuts: Count
    hits: Count
    root: Annotated[int, Field(ge=0)]
    """The id of the first node in tree."""
    cap: Annotated[int, Field(ge=1)]
    """The most nodes tree holds."""
    tree: list[TraceNode]
    """The shown nodes, in visiting order."""
