"""A move's reason in words a learner knows, and what the rule ladder says, held against the solver.

``move_reasons(board)`` names, for every legal move, the first of these it
does (``sight`` reads the cells; k is the line's length)::

    wins the game                         it completes k in a row
    blocks the win at c3                  it takes the opponent's winning cell
    makes a fork / a double threat        it makes two winning cells at once
    blocks the fork at a3                 it takes the opponent's fork cell
    blocks the fork by making two in a row  (3x3) two in a row, no fork left
    makes two in a row / a four ...       it makes one winning cell (a threat)
    blocks the open three                 (k >= 4) a cell of the opponent's open k-2
    makes an open three                   (k >= 4) it makes an open k-2 line
    takes the centre / the opposite corner / an empty corner / an empty edge  (3x3)

and None when it does none of them (a quiet move on a big board).  On
five in a row a threat is a *four*; on other boards it is named by its
stones (*three in a row* for k = 4).  ``rule_advice(board, values)`` says
what the ladder (``tictactoe.lessons.ladder``) says on a 3x3 position and,
given every move's value from the solver, whether it is right there: "The
rule says take a corner; here only an edge (a2 or b1) keeps the draw."
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from ..game.board import Board, other
from ..game.notation import cell_label
from ..game.phrase import Choices, Phrase
from ..game.rules import Cell, Rules
from ..game.values import Value
from .ladder import CENTRE, CORNERS, EDGES, OPPOSITE, Rung, advice, blocks_all_forks, teaches
from .sight import OPEN_MIN_K, sight


def _says(rung: Rung, cells: Choices) -> Phrase:
    """What a rule of the ladder says, with the moves it names where its words name them."""
    if rung is Rung.WIN:
        return Phrase("win at {cells}", cells=cells)
    if rung is Rung.BLOCK:
        return Phrase("block at {cells}", cells=cells)
    if rung is Rung.FORK:
        return Phrase("make a fork at {cells}", cells=cells)
    if rung is Rung.BLOCK_FORK:
        return Phrase("block the fork at {cells}", cells=cells)
    if rung is Rung.BLOCK_FORKS:
        return Phrase("block the forks by making two in a row at {cells}", cells=cells)
    if rung is Rung.FORCE:
        return Phrase("make two in a row at {cells}", cells=cells)
    if rung is Rung.CENTRE:
        return Phrase("take the centre")
    if rung is Rung.OPPOSITE_CORNER:
        return Phrase("take the opposite corner")
    if rung is Rung.EMPTY_CORNER:
        return Phrase("take a corner")
    return Phrase("take an edge")


_WORTH = {Value.WIN: 2, Value.DRAW: 1, Value.LOSS: 0}


@dataclass(frozen=True)
class RuleAdvice:
    """What the ladder says on a position: its rule, its moves, whether each of them keeps the
    position's value (None when no values were given), and the sentence that says so."""

    rung: Rung
    moves: tuple[Cell, ...]
    holds: bool | None
    words: Phrase


class Deed(StrEnum):
    """What a move does, the first that applies, in the order ``move_reasons`` tries them."""

    WIN = "win"
    BLOCK = "block"
    FORK = "fork"
    BLOCK_FORK = "block fork"
    BLOCK_FORKS = "block forks"  # 3x3: two in a row that leaves the opponent no fork cell
    THREAT = "threat"
    BLOCK_OPEN = "block open"
    OPEN = "open"
    CENTRE = "centre"
    OPPOSITE_CORNER = "opposite corner"
    EMPTY_CORNER = "empty corner"
    EMPTY_EDGE = "empty edge"


# The deeds a learner would call active (a win, a block, a threat, a fork): a wrong move that does one
# of them tempts; one that only takes a place does not (unless the ladder names it).
TACTICS = frozenset(Deed) - {Deed.CENTRE, Deed.OPPOSITE_CORNER, Deed.EMPTY_CORNER, Deed.EMPTY_EDGE}


@dataclass(frozen=True)
class Reason:
    """A move's deed and its words ("blocks the win at c3")."""

    deed: Deed
    words: Phrase


def move_reasons(board: Board) -> dict[Cell, Reason | None]:
    """Every legal move's reason (see the module docstring), None where none applies."""
    if board.is_over():
        return {}
    rules, mover = board.rules, board.to_move
    seen = sight(board)
    mine, theirs = seen.of(mover), seen.of(other(mover))
    bits = board.geometry.bits
    ladder = teaches(rules)
    # 3x3's rule 4: the moves that make two in a row and leave the opponent no fork cell.
    blocked = 0
    if ladder and theirs.forks:
        blocked = sum(bits[cell] for cell in board.legal_moves() if blocks_all_forks(board, cell))
    # In the order tried: the cells that do each deed.
    kinds = (
        (mine.wins, Deed.WIN),
        (theirs.wins, Deed.BLOCK),
        (mine.forks, Deed.FORK),
        (theirs.forks, Deed.BLOCK_FORK),
        (blocked, Deed.BLOCK_FORKS),
        (mine.threats, Deed.THREAT),
        (theirs.open_cells if rules.k >= OPEN_MIN_K else 0, Deed.BLOCK_OPEN),
        (mine.open_makers if rules.k >= OPEN_MIN_K else 0, Deed.OPEN),
    )
    reasons: dict[Cell, Reason | None] = {}
    for cell in board.legal_moves():
        bit = bits[cell]
        found = next(
            (
                Reason(deed, deed_words(rules, deed, cell_label(rules, cell)))
                for cells, deed in kinds
                if cells & bit
            ),
            None,
        )
        reasons[cell] = found or (_place(board, cell) if ladder else None)
    return reasons


def deed_words(rules: Rules, deed: Deed, cell: str) -> Phrase:
    """What a move on ``cell`` (its name) does, in words, for the deeds ``move_reasons`` finds by the
    lines (the 3x3 places are ``_place``'s).  Two winning cells at once are "a fork" on k = 3 and "a
    double threat" above; one winning cell made is "two in a row" (k = 3), "three in a row" (k = 4), "a
    four" (k = 5); an open line of k-2 stones is "an open two" (k = 4), "an open three" (k = 5)."""
    fork = rules.k == 3
    if deed is Deed.WIN:
        return Phrase("wins the game")
    if deed is Deed.BLOCK:
        return Phrase("blocks the win at {cell}", cell=cell)
    if deed is Deed.FORK:
        return Phrase("makes a fork") if fork else Phrase("makes a double threat")
    if deed is Deed.BLOCK_FORK:
        if fork:
            return Phrase("blocks the fork at {cell}", cell=cell)
        return Phrase("blocks the double threat at {cell}", cell=cell)
    if deed is Deed.BLOCK_FORKS:
        return Phrase("blocks the fork by making two in a row")
    if deed is Deed.THREAT:
        if rules.k == 3:
            return Phrase("makes two in a row")
        if rules.k == 4:
            return Phrase("makes three in a row")
        if rules.k == 5:
            return Phrase("makes a four")
        return Phrase("makes {count} in a row", count=rules.k - 1)
    if rules.k < OPEN_MIN_K:
        raise ValueError(f"no open lines to speak of with k={rules.k}")
    if deed is Deed.BLOCK_OPEN:
        if rules.k == 4:
            return Phrase("blocks the open two")
        if rules.k == 5:
            return Phrase("blocks the open three")
        return Phrase("blocks the open line of {count}", count=rules.k - 2)
    if deed is Deed.OPEN:
        if rules.k == 4:
            return Phrase("makes an open two")
        if rules.k == 5:
            return Phrase("makes an open three")
        return Phrase("makes an open line of {count}", count=rules.k - 2)
    raise ValueError(f"{deed} is a place on the 3x3 board, not a deed of the lines")


def _place(board: Board, cell: Cell) -> Reason:
    """Rules 5 to 8 of the ladder in words, for a 3x3 move none of the others describes."""
    if cell == CENTRE:
        return Reason(Deed.CENTRE, Phrase("takes the centre"))
    if cell in CORNERS:
        opponent = board.stones_of(other(board.to_move))
        if opponent & board.geometry.bits[OPPOSITE[cell]]:
            return Reason(Deed.OPPOSITE_CORNER, Phrase("takes the opposite corner"))
        return Reason(Deed.EMPTY_CORNER, Phrase("takes an empty corner"))
    assert cell in EDGES
    return Reason(Deed.EMPTY_EDGE, Phrase("takes an empty edge"))


def rule_advice(board: Board, values: Mapping[Cell, Value] | None = None) -> RuleAdvice | None:
    """What the ladder says on ``board`` and, with every legal move's value, whether it is right.

    None off 3x3 or for a finished game.  The words: "The rule says take the
    centre." without values; with them, "The rule says take the centre, and it
    keeps the draw.", "The rule says take a corner; here only an edge (a2 or
    b1) keeps the draw." or, where every move loses, that it does.
    """
    if not teaches(board.rules) or board.is_over():
        return None
    said = advice(board)
    says = _says(said.rung, Choices([cell_label(board.rules, cell) for cell in said.moves]))
    if values is None:
        return RuleAdvice(said.rung, said.moves, None, Phrase("The rule says {rule}.", rule=says))
    value = max(values.values(), key=_WORTH.__getitem__)
    keepers = tuple(sorted(cell for cell, v in values.items() if v == value))
    holds = all(cell in keepers for cell in said.moves)
    if value == Value.LOSS:
        words = Phrase("The rule says {rule}; every move loses here.", rule=says)
    elif holds and value == Value.WIN:
        words = Phrase("The rule says {rule}, and it keeps the win.", rule=says)
    elif holds:
        words = Phrase("The rule says {rule}, and it keeps the draw.", rule=says)
    elif value == Value.WIN:
        words = Phrase(
            "The rule says {rule}; here only {moves} keeps the win.", rule=says, moves=places(keepers)
        )
    else:
        words = Phrase(
            "The rule says {rule}; here only {moves} keeps the draw.", rule=says, moves=places(keepers)
        )
    return RuleAdvice(said.rung, said.moves, holds, words)


def places(cells: Sequence[Cell]) -> str:
    """3x3 cells in words by their kind where they share one: "the centre", "the edge b1", "a corner (a1
    or c3)"; else their names ("a1 or b2")."""
    rules = Rules(3, 3, 3)
    names = Choices([cell_label(rules, cell) for cell in cells])
    kinds = {"centre" if c == CENTRE else "corner" if c in CORNERS else "edge" for c in cells}
    if len(kinds) != 1:
        return names
    kind = kinds.pop()
    if kind == "centre":
        return Phrase("the centre")
    if kind == "corner":
        return (
            Phrase("the corner {cell}", cell=names)
            if len(cells) == 1
            else Phrase("a corner ({cells})", cells=names)
        )
    return (
        Phrase("the edge {cell}", cell=names) if len(cells) == 1 else Phrase("an edge ({cells})", cells=names)
    )
