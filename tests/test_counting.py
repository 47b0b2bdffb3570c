"""Exhaustive counts ("perft") of tic-tac-toe, checked against the published figures.

The expected 3x3 numbers are the reference facts (confirmed elsewhere by
exhaustive enumeration), not output of this code.  A second, deliberately
plain walker written here (strings, its own line test, no ``Board``) checks
the same counts on 3x3 and on 3x4 k=3, where no published figure is at hand.
"""

from __future__ import annotations

from collections import Counter
from operator import itemgetter

import pytest

from tictactoe import Board, Rules, Symmetry
from tictactoe.tools.counting import (
    MAX_CELLS,
    GameCounts,
    Tally,
    count_games,
    count_games_up_to_symmetry,
    count_positions,
    game_tree_nodes,
    positions_by_ply,
    reachable_positions,
)

# -- the reference figures for 3x3 ------------------------------------------


def test_complete_games_split_by_winner():
    games = count_games()
    assert games.total == 255_168
    assert games.ends == Tally(x_wins=131_184, o_wins=77_904, draws=46_080)


def test_complete_games_by_length():
    expected = {
        5: Tally(x_wins=1_440),
        6: Tally(o_wins=5_328),
        7: Tally(x_wins=47_952),
        8: Tally(o_wins=72_576),
        9: Tally(x_wins=81_792, draws=46_080),
    }
    by_ply = count_games().by_ply
    assert len(by_ply) == 10
    for ply, tally in enumerate(by_ply):
        assert tally == expected.get(ply, Tally()), f"games ending at ply {ply}"


def test_game_tree_nodes_root_included():
    assert game_tree_nodes() == 549_946


def test_reachable_positions_per_ply():
    positions = count_positions()
    assert positions.by_ply == (1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78)
    assert positions.total == 5_478


def test_terminal_and_nonterminal_positions():
    positions = count_positions()
    assert positions.terminal == Tally(x_wins=626, o_wins=316, draws=16)
    assert positions.terminal.total == 958
    assert positions.nonterminal == 4_520


def test_positions_up_to_symmetry():
    classes = count_positions(up_to_symmetry=True)
    assert classes.total == 765
    assert classes.terminal == Tally(x_wins=91, o_wins=44, draws=3)
    assert classes.terminal.total == 138
    assert classes.nonterminal == 627


def test_games_up_to_symmetry():
    assert count_games_up_to_symmetry() == 26_830


# -- the list of positions that other tests use ------------------------------


def test_reachable_positions_are_distinct_legal_and_replayable():
    boards = reachable_positions()
    assert len(boards) == 5_478
    assert len(set(boards)) == 5_478
    assert boards[0] == Board()
    for board in boards:
        # The text form parses back (the board's own reachability check agrees)...
        assert Board.from_text(board.to_text()) == board
        # ...and the history is a game that leads to the position.
        replay = Board(board.rules)
        for cell in board.history:
            replay.play(cell)
        assert replay == board


def test_positions_by_ply_have_that_many_stones_and_are_copies():
    layers = positions_by_ply()
    assert [len(layer) for layer in layers] == list(count_positions().by_ply)
    for ply, layer in enumerate(layers):
        assert all(board.stones == ply for board in layer)
    # Callers may mutate what they get: the next call is not affected.
    board = layers[1][0]
    board.play(board.legal_moves()[0])
    assert all(board.stones == 1 for board in positions_by_ply()[1])


def test_symmetry_classes_partition_the_positions():
    """The orbits of the 765 classes, measured with ``Board.transformed``, add up to 5,478."""
    by_class: dict[str, Board] = {}
    for board in reachable_positions():
        by_class.setdefault(board.canonical_key(), board)
    assert len(by_class) == 765
    symmetries = Rules().geometry.symmetries
    orbit_sizes = []
    for board in by_class.values():
        orbit = {board.transformed(Symmetry(perm)) for perm in symmetries}
        orbit_sizes.append(len(orbit))
    assert sum(orbit_sizes) == 5_478
    assert Counter(orbit_sizes)[1] > 0  # the empty board is its own image


def test_too_big_a_board_is_refused():
    with pytest.raises(ValueError, match="cells"):
        count_games(Rules(4, 4, 3))
    assert Rules(4, 4, 3).cells > MAX_CELLS


# -- an independent walker ----------------------------------------------------


class PlainGame:
    """The m,n,k-game on a string of ``rows * cols`` characters ('x', 'o', '.').

    Written without the engine: lines by coordinates, moves by string slicing.
    """

    def __init__(self, rows: int, cols: int, k: int) -> None:
        self.rows, self.cols, self.k = rows, cols, k
        self.lines = []
        for r in range(rows):
            for c in range(cols):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    cells = [(r + dr * i, c + dc * i) for i in range(k)]
                    if all(0 <= rr < rows and 0 <= cc < cols for rr, cc in cells):
                        self.lines.append(itemgetter(*(rr * cols + cc for rr, cc in cells)))

    def winner(self, board: str) -> str | None:
        for line in self.lines:
            stones = line(board)
            if stones[0] != "." and stones.count(stones[0]) == self.k:
                return stones[0]
        return None

    def moves(self, board: str) -> list[str]:
        """The boards after each legal move, [] when the game is over."""
        if self.winner(board) or "." not in board:
            return []
        mover = "x" if board.count("x") == board.count("o") else "o"
        return [board[:i] + mover + board[i + 1 :] for i, ch in enumerate(board) if ch == "."]

    def empty(self) -> str:
        return "." * (self.rows * self.cols)


def walk(game: PlainGame) -> tuple[Counter, int, Counter]:
    """Games by (winner, length), game-tree nodes and positions by ply, by memoized recursion."""
    memo: dict[str, tuple[dict, int]] = {}  # every position reached, with its subtree

    def games(board: str) -> tuple[dict, int]:
        if board in memo:
            return memo[board]
        children = game.moves(board)
        if children:
            ends, nodes = {}, 1
            for child in children:
                child_ends, child_nodes = games(child)
                for end, count in child_ends.items():
                    ends[end] = ends.get(end, 0) + count
                nodes += child_nodes
        else:
            ply = board.count("x") + board.count("o")
            ends, nodes = {(game.winner(board), ply): 1}, 1
        memo[board] = ends, nodes
        return ends, nodes

    ends, nodes = games(game.empty())
    positions = Counter(board.count("x") + board.count("o") for board in memo)
    return Counter(ends), nodes, positions


def as_counter(games: GameCounts) -> Counter:
    counter = Counter()
    for ply, tally in enumerate(games.by_ply):
        for winner, count in (("x", tally.x_wins), ("o", tally.o_wins), (None, tally.draws)):
            if count:
                counter[winner, ply] = count
    return counter


@pytest.mark.parametrize("rows, cols, k", [(3, 3, 3), (3, 4, 3)])
def test_counts_agree_with_an_independent_walker(rows, cols, k):
    ends, nodes, positions = walk(PlainGame(rows, cols, k))
    rules = Rules(rows, cols, k)
    assert as_counter(count_games(rules)) == ends
    assert game_tree_nodes(rules) == nodes
    assert count_positions(rules).by_ply == tuple(positions[p] for p in range(len(positions)))


def test_games_up_to_symmetry_by_the_other_convention():
    """Merging only the moves a symmetry of the position maps onto each other gives 26,830 too.

    Written without the engine: the 8 symmetries of the square as index maps.
    """
    game = PlainGame(3, 3, 3)
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (r, 2 - c),
        lambda r, c: (2 - r, c),
        lambda r, c: (2 - r, 2 - c),
        lambda r, c: (c, r),
        lambda r, c: (2 - c, 2 - r),
        lambda r, c: (c, 2 - r),
        lambda r, c: (2 - c, r),
    ]
    perms = [[f(*divmod(i, 3))[0] * 3 + f(*divmod(i, 3))[1] for i in range(9)] for f in maps]

    def image(board: str, perm: list[int]) -> str:
        out = ["."] * 9
        for i, ch in enumerate(board):
            out[perm[i]] = ch
        return "".join(out)

    def games(board: str) -> int:
        if not game.moves(board):
            return 1
        fixing = [perm for perm in perms if image(board, perm) == board]
        orbits = {min(perm[i] for perm in fixing) for i, ch in enumerate(board) if ch == "."}
        mover = "x" if board.count("x") == board.count("o") else "o"
        return sum(games(board[:i] + mover + board[i + 1 :]) for i in orbits)

    assert games(game.empty()) == 26_830
