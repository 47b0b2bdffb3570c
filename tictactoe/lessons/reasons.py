"""A move's reason in words a learner knows, and what the rule ladder says, held against the solver.

``move_reasons(board)`` names, for every legal move, the first of these it
does (``sight`` reads the cells; k is the line's length)::

    wins                                  it completes k in a row
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
from ..game.rules import Cell, Rules
from ..game.values import Value
from .ladder import CENTRE, CORNERS, EDGES, OPPOSITE, Advice, Rung, advice, blocks_all_forks, teaches
from .sight import OPEN_MIN_K, sight

# The words of what the ladder says, by rule: "{} at c3" takes the moves' names.
_SAYS = {
    Rung.WIN: "win at {}",
    Rung.BLOCK: "block at {}",
    Rung.FORK: "make a fork at {}",
    Rung.BLOCK_FORK: "block the fork at {}",
    Rung.BLOCK_FORKS: "block the forks by making two in a row at {}",
    Rung.FORCE: "make two in a row at {}",
    Rung.CENTRE: "take the centre",
    Rung.OPPOSITE_CORNER: "take the opposite corner",
    Rung.EMPTY_CORNER: "take a corner",
    Rung.EMPTY_SIDE: "take an edge",
}
_WORTH = {Value.WIN: 2, Value.DRAW: 1, Value.LOSS: 0}
_NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}


@dataclass(frozen=True)
class RuleAdvice:
    """What the ladder says on a position: its rule, its moves, whether each of them keeps the
    position's value (None when no values were given), and the sentence that says so."""

    rung: Rung
    moves: tuple[Cell, ...]
    holds: bool | None
    words: str


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
    words: str


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
    opens = open_word(rules) if rules.k >= OPEN_MIN_K else ""
    # In the order tried: the cells of each, its deed and its words ({} takes the move's name).
    kinds = (
        (mine.wins, Deed.WIN, "wins"),
        (theirs.wins, Deed.BLOCK, "blocks the win at {}"),
        (mine.forks, Deed.FORK, f"makes {fork_word(rules)}"),
        (theirs.forks, Deed.BLOCK_FORK, f"blocks the {fork_word(rules, article=False)} at {{}}"),
        (blocked, Deed.BLOCK_FORKS, "blocks the fork by making two in a row"),
        (mine.threats, Deed.THREAT, f"makes {threat_word(rules)}"),
        (theirs.open_cells, Deed.BLOCK_OPEN, f"blocks the {opens}"),
        (mine.open_makers, Deed.OPEN, f"makes an {opens}"),
    )
    reasons: dict[Cell, Reason | None] = {}
    for cell in board.legal_moves():
        bit = bits[cell]
        found = next(
            (
                Reason(deed, words.format(cell_label(rules, cell)))
                for cells, deed, words in kinds
                if cells & bit
            ),
            None,
        )
        reasons[cell] = found or (_place(board, cell) if ladder else None)
    return reasons


def fork_word(rules: Rules, article: bool = True) -> str:
    """Two winning cells at once in words: "a fork" on k = 3, "a double threat" above."""
    word = "fork" if rules.k == 3 else "double threat"
    return f"a {word}" if article else word


def threat_word(rules: Rules) -> str:
    """One winning cell made, in words: "two in a row" (k = 3), "three in a row" (k = 4), "a four" (k = 5)."""
    if rules.k == 5:
        return "a four"
    return f"{_NUMBERS.get(rules.k - 1, str(rules.k - 1))} in a row"


def open_word(rules: Rules) -> str:
    """An open line of k-2 stones in words: "open three" on five in a row, "open two" on k = 4."""
    if rules.k < OPEN_MIN_K:
        raise ValueError(f"no open lines to speak of with k={rules.k}")
    return f"open {_NUMBERS.get(rules.k - 2, str(rules.k - 2))}"


def _place(board: Board, cell: Cell) -> Reason:
    """Rules 5 to 8 of the ladder in words, for a 3x3 move none of the others describes."""
    if cell == CENTRE:
        return Reason(Deed.CENTRE, "takes the centre")
    if cell in CORNERS:
        opponent = board.stones_of(other(board.to_move))
        if opponent & board.geometry.bits[OPPOSITE[cell]]:
            return Reason(Deed.OPPOSITE_CORNER, "takes the opposite corner")
        return Reason(Deed.EMPTY_CORNER, "takes an empty corner")
    assert cell in EDGES
    return Reason(Deed.EMPTY_EDGE, "takes an empty edge")


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
    says = _says(board.rules, said)
    if values is None:
        return RuleAdvice(said.rung, said.moves, None, f"The rule says {says}.")
    value = max(values.values(), key=_WORTH.__getitem__)
    keepers = tuple(sorted(cell for cell, v in values.items() if v == value))
    holds = all(cell in keepers for cell in said.moves)
    if value == Value.LOSS:
        return RuleAdvice(said.rung, said.moves, holds, f"The rule says {says}; every move loses here.")
    if holds:
        return RuleAdvice(said.rung, said.moves, True, f"The rule says {says}, and it keeps the {value}.")
    return RuleAdvice(
        said.rung, said.moves, False, f"The rule says {says}; here only {places(keepers)} keeps the {value}."
    )


def _says(rules: Rules, said: Advice) -> str:
    """What a rule says, with its moves where its words name them."""
    return _SAYS[said.rung].format(or_list([cell_label(rules, cell) for cell in said.moves]))


def places(cells: Sequence[Cell]) -> str:
    """3x3 cells in words by their kind where they share one: "the centre", "the edge b1", "a corner (a1
    or c3)"; else their names ("a1 or b2")."""
    rules = Rules(3, 3, 3)
    names = or_list([cell_label(rules, cell) for cell in cells])
    kinds = {"centre" if c == CENTRE else "corner" if c in CORNERS else "edge" for c in cells}
    if len(kinds) != 1:
        return names
    kind = kinds.pop()
    if kind == "centre":
        return "the centre"
    if len(cells) == 1:
        return f"the {kind} {names}"
    return f"{'an' if kind == 'edge' else 'a'} {kind} ({names})"


def or_list(names: Sequence[str]) -> str:
    """Names joined as people list choices: "a1", "a1 or c3", "a1, b2 or c3"."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} or {names[-1]}"
