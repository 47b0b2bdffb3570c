"""An independent reference: plain memoized minimax over the text form.

Written for the tests only, sharing nothing with the engine: boards are tuples
of row strings, lines are listed by walking the grid, and a position's value is
found by trying every move.  Slow, obviously correct, used as the oracle.
"""

from __future__ import annotations

from functools import cache


@cache
def lines_of(rows: int, cols: int, k: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every run of k cells in a row, column or diagonal, as (row, col) tuples."""
    found = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = tuple((r + dr * i, c + dc * i) for i in range(k))
                if all(0 <= rr < rows and 0 <= cc < cols for rr, cc in cells):
                    found.append(cells)
    return tuple(found)


@cache
def lines_through(rows: int, cols: int, k: int, r: int, c: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """The runs of ``lines_of`` that contain cell (r, c)."""
    return tuple(line for line in lines_of(rows, cols, k) if (r, c) in line)


def winner(board: tuple[str, ...], k: int) -> str | None:
    """'x' or 'o' when that side has k in a row, else None."""
    for line in lines_of(len(board), len(board[0]), k):
        first = board[line[0][0]][line[0][1]]
        if first != "." and all(board[r][c] == first for r, c in line):
            return first
    return None


def to_move(board: tuple[str, ...]) -> str:
    """X when the counts are equal, else O."""
    text = "".join(board)
    return "x" if text.count("x") == text.count("o") else "o"


def moves(board: tuple[str, ...]) -> list[tuple[int, int]]:
    """Empty cells, row-major."""
    return [(r, c) for r, row in enumerate(board) for c, ch in enumerate(row) if ch == "."]


def play(board: tuple[str, ...], r: int, c: int) -> tuple[str, ...]:
    """The board with the side to move's stone at (r, c)."""
    row = board[r]
    return (*board[:r], row[:c] + to_move(board) + row[c + 1 :], *board[r + 1 :])


def rank(value: str, plies: int) -> tuple[int, int]:
    """An ordering key: a win beats a draw beats a loss; faster wins, slower losses."""
    if value == "win":
        return (2, -plies)
    if value == "draw":
        return (1, 0)
    return (0, plies)


@cache
def solve(board: tuple[str, ...], k: int) -> tuple[str, int]:
    """(value, plies) for the side to move; the game must not be over."""
    return max((move_value(board, k, r, c) for r, c in moves(board)), key=lambda vp: rank(*vp))


@cache
def move_value(board: tuple[str, ...], k: int, r: int, c: int) -> tuple[str, int]:
    """(value, plies) of playing (r, c), for the side making the move; the game must not be over."""
    after = play(board, r, c)
    # Nobody had a line before the move, so a line now runs through (r, c): only those are looked
    # at (scanning every line at every node made the oracle several times slower).
    mover = after[r][c]
    if any(
        all(after[rr][cc] == mover for rr, cc in line)
        for line in lines_through(len(board), len(board[0]), k, r, c)
    ):
        return ("win", 1)
    if all("." not in row for row in after):
        return ("draw", 1)
    value, plies = solve(after, k)
    flipped = {"win": "loss", "loss": "win", "draw": "draw"}[value]
    return (flipped, plies + 1)


def best_moves(board: tuple[str, ...], k: int) -> set[tuple[int, int]]:
    """Every move whose (value, plies) is the best available."""
    values = {(r, c): move_value(board, k, r, c) for r, c in moves(board)}
    top = max(rank(*vp) for vp in values.values())
    return {move for move, vp in values.items() if rank(*vp) == top}


def empty_board(rows: int, cols: int) -> tuple[str, ...]:
    """The empty board of that size."""
    return ("." * cols,) * rows


def reachable(rows: int, cols: int, k: int) -> set[tuple[str, ...]]:
    """Every position reachable from the empty board, finished ones included."""
    seen = set()
    stack = [empty_board(rows, cols)]
    while stack:
        board = stack.pop()
        if board in seen:
            continue
        seen.add(board)
        if winner(board, k) is None:
            stack.extend(play(board, r, c) for r, c in moves(board))
    return seen


def is_over(board: tuple[str, ...], k: int) -> bool:
    """Whether someone has a line or the board is full."""
    return winner(board, k) is not None or not moves(board)
