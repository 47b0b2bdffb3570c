"""Entries of the shared cache: the stored form of a proven result, its key, and its checks.

An entry holds a proven result in the canonical position's cells::

    {
        "format": 3,
        "value": "draw",
        "plies": 7,
        "best": [1, 3],
        "moves": [[1, "draw", 7], [2, "loss", 6], ...] or null,
        "source": "proof",
    }

``moves`` is null when the result was stored by /move (which does not need
every move's value); ``source`` says how the result is known (a proven
``tictactoe.Source``).  Whatever is read back is checked against the position
it is for before it is used: an entry that does not fit is ``InvalidEntry``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeGuard

from tictactoe import ENGINE_VERSION, Board, Cell, MoveValue, SolveResult, Source, Value

# 2: entries are signed (web/cache/signing.py); 3: they say how the result is known.
# An entry of another format is invalid: it is ignored, counted and replaced.
ENTRY_FORMAT = 3
FIELDS = frozenset({"format", "value", "plies", "best", "moves", "source"})
# Only proven results are stored, so a heuristic answer never appears in an entry.
PROVEN_SOURCES = frozenset(Source) - {Source.HEURISTIC}


class InvalidEntry(ValueError):
    """A stored entry that is unreadable or does not fit the schema for its position."""


@dataclass(frozen=True)
class Entry:
    """A proven result in the canonical position's cells (what the cache stores)."""

    value: Value
    plies: int
    best: tuple[Cell, ...]
    moves: Mapping[Cell, MoveValue] | None
    source: Source

    @classmethod
    def of(cls, result: SolveResult) -> Entry:
        """The entry of a proven result; raises ``ValueError`` for an unproven one."""
        if not result.proven or result.value is None or result.plies is None:
            raise ValueError("only a proven result makes an entry")
        moves = None if result.move_values is None else dict(sorted(result.move_values.items()))
        return cls(result.value, result.plies, tuple(sorted(result.best_moves)), moves, result.source)

    def result(self) -> SolveResult:
        """The entry as the engine's result (in the canonical cells; no search, so no nodes)."""
        return SolveResult(
            value=self.value,
            plies=self.plies,
            best_moves=list(self.best),
            nodes=0,
            seconds=0.0,
            proven=True,
            move_values=None if self.moves is None else dict(self.moves),
            source=self.source,
        )


def position_key(canon: Board) -> str:
    """The cache key of a canonical position: engine version, rules and rows."""
    return f"solved:v{ENGINE_VERSION}:{canon.text_key()}"


def encode_entry(entry: Entry) -> dict[str, object]:
    """The stored form of an entry (JSON-ready, plain strings and numbers)."""
    moves = None
    if entry.moves is not None:
        moves = [[cell, str(mv.value), mv.plies] for cell, mv in sorted(entry.moves.items())]
    return {
        "format": ENTRY_FORMAT,
        "value": str(entry.value),
        "plies": entry.plies,
        "best": list(entry.best),
        "moves": moves,
        "source": str(entry.source),
    }


def decode_entry(raw: object, canon: Board) -> Entry:
    """Check a stored value against the canonical position it is for.

    Raises ``InvalidEntry`` unless it has exactly the fields of ``encode_entry``,
    values and plies that can occur with this many empty cells, best moves that
    are legal, a proven source, and (when present) a value for every legal move
    that agrees with the best moves and the position's value.
    """
    if not isinstance(raw, dict):
        raise InvalidEntry(f"not an object but {type(raw).__name__}")
    if set(raw) != FIELDS:
        raise InvalidEntry(f"fields {sorted(map(str, raw))}")
    if raw["format"] != ENTRY_FORMAT:
        raise InvalidEntry(f"format {raw['format']!r}")
    source = _source(raw["source"])
    legal = canon.legal_moves()
    empties = len(legal)
    position = _move_value(raw["value"], raw["plies"], empties)
    best = raw["best"]
    if (
        not isinstance(best, list)
        or not best
        or not all(_is_int(c) for c in best)
        or best != sorted(set(best))
        or not set(best) <= set(legal)
    ):
        raise InvalidEntry("best moves are not distinct legal cells in order")
    moves = raw["moves"]
    if moves is None:
        return Entry(position.value, position.plies, tuple(best), None, source)
    if not isinstance(moves, list) or not all(isinstance(m, list) and len(m) == 3 for m in moves):
        raise InvalidEntry("moves are not [cell, value, plies] triples")
    cells = [m[0] for m in moves]
    if not all(_is_int(c) for c in cells) or cells != legal:
        raise InvalidEntry("moves do not list every legal cell once, in order")
    values = {m[0]: _move_value(m[1], m[2], empties) for m in moves}
    top = max(mv.rank() for mv in values.values())
    if top != position.rank() or best != [c for c in cells if values[c].rank() == top]:
        raise InvalidEntry("move values disagree with the best moves or the position's value")
    return Entry(position.value, position.plies, tuple(best), values, source)


def _source(source: object) -> Source:
    """A proven ``Source`` named by ``source``, else ``InvalidEntry``."""
    known = {str(s): s for s in PROVEN_SOURCES}
    if not isinstance(source, str) or source not in known:
        raise InvalidEntry(f"source {source!r}")
    return known[source]


def _move_value(value: object, plies: object, empties: int) -> MoveValue:
    """A value and plies that can occur with ``empties`` empty cells, else ``InvalidEntry``.

    The side to move makes plies 1, 3, 5...: it wins on an odd ply, loses on an
    even one, and a draw fills the board.
    """
    values = {str(v): v for v in Value}
    if not isinstance(value, str) or value not in values or not _is_int(plies):
        raise InvalidEntry(f"value {value!r} with plies {plies!r}")
    known = values[value]
    fits = {
        Value.WIN: 1 <= plies <= empties and plies % 2 == 1,
        Value.LOSS: 2 <= plies <= empties and plies % 2 == 0,
        Value.DRAW: plies == empties,
    }[known]
    if not fits:
        raise InvalidEntry(f"{value} in {plies} plies with {empties} empty cells")
    return MoveValue(known, plies)


def _is_int(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a JSON integer (not a boolean, which Python counts as one)."""
    return isinstance(value, int) and not isinstance(value, bool)
