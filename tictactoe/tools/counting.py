"""Exhaustive counts of positions and games ("perft"), made with the real ``Board``.

The counts are a correctness gate for the board: a wrong outcome, move list or
move would change them.  Every figure for 3x3 is a published, independently
confirmed fact, for example::

    count_games().total            == 255_168   move sequences to a finished game
    game_tree_nodes()              == 549_946   nodes of the game tree, root included
    count_positions().total        == 5_478     positions reachable from the empty board
    count_positions(True).total    == 765       the same, up to the board's symmetries
    count_games_up_to_symmetry()   == 26_830

Nothing walks the 255,168 games one by one.  The positions are explored once,
ply by ply (a position is its stones: every game that reaches it continues the
same way), and games are counted by dynamic programming over that graph:

    paths(empty board) = 1
    paths(child)       = sum of paths(parent) over the moves parent -> child

so a finished position ends ``paths`` games, and the game tree has
``sum(paths)`` nodes.

Only small boards can be enumerated: up to ``MAX_CELLS`` cells.  3x4 and 4x3
(112 thousand positions) take a few seconds; bigger boards are refused, as
the number of positions grows about threefold with every cell.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from ..game.board import Board, O, Outcome, X
from ..game.rules import Bitboard, Rules

TIC_TAC_TOE = Rules(3, 3, 3)
MAX_CELLS = 12

Key = tuple[Bitboard, Bitboard]  # (x, o): a position, whatever the moves that led to it


@dataclass(frozen=True)
class Tally:
    """How many of something ended each way: X won, O won, or drawn."""

    x_wins: int = 0
    o_wins: int = 0
    draws: int = 0

    @property
    def total(self) -> int:
        """All of them, whatever the ending."""
        return self.x_wins + self.o_wins + self.draws

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.x_wins + other.x_wins, self.o_wins + other.o_wins, self.draws + other.draws)

    @classmethod
    def of(cls, outcome: Outcome, count: int = 1) -> Tally:
        """``count`` items that all ended with this outcome."""
        if outcome.winner == X:
            return cls(x_wins=count)
        if outcome.winner == O:
            return cls(o_wins=count)
        return cls(draws=count)


@dataclass(frozen=True)
class GameCounts:
    """Complete games (move sequences from the empty board to a finished game).

    ``by_ply[p]`` tallies the games that end after exactly ``p`` moves.
    """

    by_ply: tuple[Tally, ...]

    @property
    def ends(self) -> Tally:
        """All games, split by how they ended."""
        return sum(self.by_ply, Tally())

    @property
    def total(self) -> int:
        """The number of complete games."""
        return self.ends.total


@dataclass(frozen=True)
class PositionCounts:
    """Positions reachable from the empty board (or their symmetry classes).

    ``by_ply[p]`` counts those with ``p`` stones; ``terminal`` tallies the
    finished ones by how they ended.
    """

    by_ply: tuple[int, ...]
    terminal: Tally

    @property
    def total(self) -> int:
        """Every position, the empty board included."""
        return sum(self.by_ply)

    @property
    def nonterminal(self) -> int:
        """The positions where the game goes on."""
        return self.total - self.terminal.total


class _Graph:
    """Every reachable position of one rule set, with its outcome and its moves.

    ``layers[p]`` maps the key of each position with ``p`` stones to its board
    (with the moves of one game that reaches it as history); ``children[key]``
    lists the key after each legal move, one entry per move, for unfinished positions.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.outcome: dict[Key, Outcome | None] = {}
        self.children: dict[Key, tuple[Key, ...]] = {}
        root = Board(rules)
        self.layers: list[dict[Key, Board]] = [{_key(root): root}]
        while True:
            layer: dict[Key, Board] = {}
            for key, board in self.layers[-1].items():
                self.outcome[key] = board.outcome()
                if self.outcome[key] is None:
                    self.children[key] = self._expand(board, layer)
            if not layer:
                break
            self.layers.append(layer)

    @staticmethod
    def _expand(board: Board, layer: dict[Key, Board]) -> tuple[Key, ...]:
        """The keys after each legal move of an unfinished board; new ones go into ``layer``."""
        children = []
        for cell in board.legal_moves():
            # play/undo on the parent itself: only a child not seen yet is copied.
            board.play(cell)
            child = _key(board)
            if child not in layer:
                layer[child] = board.copy()
            board.undo()
            children.append(child)
        return tuple(children)

    def paths(self) -> list[dict[Key, int]]:
        """Per ply, how many move sequences from the empty board reach each position."""
        counts = [dict.fromkeys(self.layers[0], 1)]
        while len(counts) < len(self.layers):
            following: dict[Key, int] = {}
            for key, paths in counts[-1].items():
                for child in self.children.get(key, ()):
                    following[child] = following.get(child, 0) + paths
            counts.append(following)
        return counts


def _key(board: Board) -> Key:
    return (board.x, board.o)


@functools.lru_cache(maxsize=4)
def _graph(rules: Rules) -> _Graph:
    if rules.cells > MAX_CELLS:
        raise ValueError(
            f"{rules} has {rules.cells} cells: only boards of up to {MAX_CELLS} cells can be enumerated"
        )
    return _Graph(rules)


@functools.lru_cache(maxsize=4)
def _classes(rules: Rules) -> dict[Key, Key]:
    """The canonical key (symmetry class) of every reachable position."""
    return {key: _key(board.canonical()[0]) for layer in _graph(rules).layers for key, board in layer.items()}


def positions_by_ply(rules: Rules = TIC_TAC_TOE) -> list[list[Board]]:
    """Every position reachable from the empty board, grouped by the number of stones.

    Each board is a fresh copy (mutate it freely) whose history is one game
    that reaches it.  Raises ``ValueError`` for a board of more than ``MAX_CELLS`` cells.
    """
    return [[board.copy() for board in layer.values()] for layer in _graph(rules).layers]


def reachable_positions(rules: Rules = TIC_TAC_TOE) -> list[Board]:
    """Every position reachable from the empty board (empty board first, then by stones).

    Finished games are included.  Raises ``ValueError`` as ``positions_by_ply``.
    """
    return [board for layer in positions_by_ply(rules) for board in layer]


def count_positions(rules: Rules = TIC_TAC_TOE, up_to_symmetry: bool = False) -> PositionCounts:
    """Count the reachable positions, or with ``up_to_symmetry`` their symmetry classes.

    Raises ``ValueError`` for a board of more than ``MAX_CELLS`` cells.
    """
    graph = _graph(rules)
    by_ply = []
    terminal = Tally()
    for layer in graph.layers:
        keys = set(layer)
        if up_to_symmetry:
            # A symmetry keeps the stone count and the outcome, so a class is
            # counted on its ply and tallied by its canonical member's outcome.
            classes = _classes(rules)
            keys = {classes[key] for key in keys}
        by_ply.append(len(keys))
        for key in keys:
            outcome = graph.outcome[key]
            if outcome is not None:
                terminal += Tally.of(outcome)
    return PositionCounts(tuple(by_ply), terminal)


def count_games(rules: Rules = TIC_TAC_TOE) -> GameCounts:
    """Count the complete games (distinct move sequences to a finished game) by length and end.

    Raises ``ValueError`` for a board of more than ``MAX_CELLS`` cells.
    """
    graph = _graph(rules)
    by_ply = []
    for counts in graph.paths():
        tally = Tally()
        for key, paths in counts.items():
            outcome = graph.outcome[key]
            if outcome is not None:
                tally += Tally.of(outcome, paths)
        by_ply.append(tally)
    return GameCounts(tuple(by_ply))


def game_tree_nodes(rules: Rules = TIC_TAC_TOE) -> int:
    """The number of nodes of the full game tree, root included (one per move sequence).

    Raises ``ValueError`` for a board of more than ``MAX_CELLS`` cells.
    """
    return sum(sum(counts.values()) for counts in _graph(rules).paths())


def count_games_up_to_symmetry(rules: Rules = TIC_TAC_TOE) -> int:
    """Count the complete games when moves to symmetric positions are taken as one.

    The convention that gives 26,830 on 3x3: at every node of the game tree,
    children whose positions are images of each other under a symmetry of the
    board are merged into one, and the game tree is counted from there.  (On
    3x3 merging the moves that a symmetry fixing the parent maps onto each
    other gives the same number.)  Raises ``ValueError`` for a board of more
    than ``MAX_CELLS`` cells.
    """
    graph = _graph(rules)
    classes = _classes(rules)
    games: dict[Key, int] = {}
    # Leaves first: a position's games need its children's.
    for layer in reversed(graph.layers):
        for key in layer:
            if graph.outcome[key] is not None:
                games[key] = 1
                continue
            # Symmetric positions have the same number of games: one child per class.
            distinct = {classes[child]: child for child in graph.children[key]}
            games[key] = sum(games[child] for child in distinct.values())
    (root,) = graph.layers[0]
    return games[root]


__all__ = [
    "TIC_TAC_TOE",
    "MAX_CELLS",
    "Tally",
    "GameCounts",
    "PositionCounts",
    "positions_by_ply",
    "reachable_positions",
    "count_positions",
    "count_games",
    "game_tree_nodes",
    "count_games_up_to_symmetry",
]
