"""The small types the answers' shapes are written in, each carrying its JSON Schema.

A shape's field is a plain Python type for mypy and the views (an ``int``, a
``list[str]``); ``Annotated`` adds what JSON Schema says beyond the type (a
minimum, a pattern, a closed set of strings), which pydantic reads when it
makes the document (web/openapi/schemas.py).  A field's words are the
attribute docstring under it, in its shape.
"""

from enum import StrEnum
from typing import Annotated, Any

from pydantic import Field
from typing_extensions import TypedDict

from tictactoe import MAX_SIZE, MIN_K, MIN_SIZE


def one_of(members: type[StrEnum] | tuple[str, ...]) -> Any:
    """A string field's closed set: a ``StrEnum``'s values, or the strings given (a field typed ``str``)."""
    return Field(json_schema_extra={"enum": [str(member) for member in members]})


# A count of things: 0 or more.
Count = Annotated[int, Field(ge=0)]
# A cell as the API's [row, col] pair, counted from 0.
Pair = Annotated[list[Annotated[int, Field(ge=0)]], Field(min_length=2, max_length=2)]
# A winning line: its cells as [row, col] pairs; None when nobody has won.
Line = Annotated[list[Pair] | None, Field(description="The winning line's cells as [row, col], or null.")]
# A board's rows as the API writes them: top row first, x, o and . (lower case).
Rows = list[Annotated[str, Field(pattern="^[xo.]+$")]]
# k, stones in a row to win.
InRow = Annotated[int, Field(ge=MIN_K)]
# A side of the board: rows or columns.
Side = Annotated[int, Field(ge=MIN_SIZE, le=MAX_SIZE)]
# A process id: which worker answered.
Worker = Annotated[int, Field(description="Process id of the worker that answered.")]


class Cell(TypedDict):
    """A cell as the API names it, counted from 0 (row 0 is the top row)."""

    row: Annotated[int, Field(ge=0)]
    col: Annotated[int, Field(ge=0)]
