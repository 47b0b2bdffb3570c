"""The perfect solver: negamax alpha-beta with a transposition table.

Scores count the distance to the end of the game and are absolute, not
relative to the search depth (as in Pascal Pons' connect-4 solver)::

    a win  completed when e cells are still empty  scores   e + 1
    a loss completed when e cells are still empty  scores -(e + 1)
    a draw                                          scores   0

so a faster win and a slower loss score higher, a position's score does not
depend on the path to it (the transposition table stores it as is), and the
score of a move is minus the score of the position it leads to.  From a
position with E empty cells, score s is ``E - s + 1`` plies to a win when
s > 0, ``E + s + 1`` plies to a loss when s < 0, and E plies to a full-board
draw when s = 0.

What makes it fast, each one a cut in the tree:

- a win in one is taken at once, with no search below it;
- a single threat of the opponent's must be blocked, so that is the only move;
  two threats are a loss in two;
- bounds from the empty cells: the side to move cannot score more than a win
  on its next turn, nor less than a loss on the opponent's second;
- early draws: a side with no line left that it could still complete cannot
  win, which caps (or floors) the score at 0 - both sides, and it is a draw;
- pairing strategies (``tictactoe.search.pairing``): a side whose every open window
  holds a whole pair of empty cells cannot win, the other side splitting each
  pair; and a move that leaves the opponent such a pairing holds the draw, so
  it cuts off at once where a draw is enough;
- a transposition table of lower and upper bounds, keyed by the position's
  canonical form under the board's symmetries, so mirror images share entries;
- move ordering: forced moves first; at nodes with 8 or more empty cells, by
  the weight of a cell in both sides' live windows (4^stones in each window
  through it), my windows counted twice where a draw is enough and 8 times
  over elsewhere (my own lines first: on a seeded sample of 5x5 k=4
  positions with 4 and 5 stones this took 3.2 times fewer nodes than the
  Erdos-Selfridge 2^stones with both sides alike); nearer the leaves,
  central cells (the most lines) first;
- null windows: the win/draw/loss value is found first with the window (-1, 1),
  and only then the exact distance.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from functools import partial
from operator import add
from typing import TypeVar

from ..game.board import Board
from ..game.clock import Clock, Progress, SearchTimeout
from ..game.rules import Bitboard, Cell, Rules, per_rules
from ..game.values import MoveValue, SolveResult, Value, score_to_value
from .pairing import MEMO_LIMIT as PAIRING_MEMO_LIMIT
from .pairing import Pairings

# Short names kept for importers; they are the Value members themselves.
WIN, DRAW, LOSS = Value.WIN, Value.DRAW, Value.LOSS

# Positions with fewer empty cells than this are keyed without the symmetry
# reduction: near the leaves it rarely merges anything and costs a min() per node.
SYMMETRY_MIN_EMPTIES = 4
# The table is cleared when it grows past this many entries (about 200 bytes each).
DEFAULT_TABLE_LIMIT = 4_000_000
# What one entry of the table and of each memo holds, in bytes (key, value and the
# dict's slot): measured from RSS over /analyze-like searches on 6x6 k=4, and above
# what tracemalloc finds (bench/entry_bytes.py, docs/deploy.md "Memory"); a live_lines
# entry also holds a pointer per window.  A solver given ``memory`` bounds itself by them.
TABLE_ENTRY_BYTES = 140
COMPLETING_ENTRY_BYTES = 110
OPEN_CELLS_ENTRY_BYTES = 100
LIVE_LINES_ENTRY_BYTES = 120
LIVE_LINES_WINDOW_BYTES = 8
# Of a solver's ``memory``, the table's share and the pairing test's; the memos take the
# rest.  The table is what a later position of the same game reuses; a memo refills
# within a search.
TABLE_SHARE = 0.6
PAIRING_SHARE = 0.1
# How often the deadline is checked and progress reported.  A search notices its
# deadline this many nodes late: 512 are about 20 ms at 27 empty cells (4,096 were
# 150 ms there, past the budget of an answer).  Reading the clock costs far less.
TICK_NODES = 512
PAIRING_MIN_EMPTIES = 10
PAIRING_REPLY_MIN_EMPTIES = 10
# How many times over a cell's weight for my own lines counts against its weight for the
# opponent's when moves are ranked: where a draw is enough (beta <= 0), and elsewhere
# (a win is needed, or the window still spans the draw).
MINE_DRAW = 2
MINE_WIN = 8

# A move as the search plays it: its bit, and what it adds to each symmetric image of the key.
Move = tuple[Bitboard, tuple[int, ...]]
# A side as the search sees it: its moves in order, and each move alone (for when it is forced).
Side = tuple[list[Move], dict[Bitboard, list[Move]]]
# negamax(me, opp, keys, my_side, opp_side, empties, alpha, beta) -> score for ``me``.
Search = Callable[[Bitboard, Bitboard, tuple[int, ...], Side, Side, int, int, int], int]
_T = TypeVar("_T")


class Solver:
    """A perfect player for one set of rules, keeping its transposition table between solves.

    The table is emptied past ``table_limit`` entries, and so is each memo.
    With ``memory`` (bytes), earlier when that many would not fit: the table
    takes ``TABLE_SHARE`` of it and the memos (the pairing test's included)
    the rest, less what they may grow by between two checks, so
    ``footprint()`` never exceeds ``memory``; ``ValueError`` when ``memory``
    is too few bytes for that.  Not thread-safe: give each thread its own.
    """

    def __init__(
        self, rules: Rules, table_limit: int = DEFAULT_TABLE_LIMIT, memory: int | None = None
    ) -> None:
        self.rules = rules
        self.geometry = rules.geometry
        self.table: dict[int, tuple[int, int]] = {}
        self.table_limit = table_limit
        self.memo_limit = table_limit
        self.memory = memory
        if memory is not None:
            # Between two checks (every TICK_NODES nodes) a node adds at most one
            # table entry; the memos are checked at each addition, and the pairing
            # memos may hold one entry over their limit.
            table_entries = int(memory * TABLE_SHARE) // TABLE_ENTRY_BYTES - TICK_NODES
            memo_bytes = int(memory * (1 - TABLE_SHARE - PAIRING_SHARE))
            memo_entries = memo_bytes // self.memo_entry_bytes()
            pairing_entries = int(memory * PAIRING_SHARE) // self.pairings.entry_bytes() - 1
            if min(table_entries, memo_entries, pairing_entries) < 1:
                raise ValueError(f"{memory} bytes are too few for a solver of {rules}")
            self.table_limit = min(table_limit, table_entries)
            self.memo_limit = min(table_limit, memo_entries)
            self.pairings.memo_limit = min(PAIRING_MEMO_LIMIT, pairing_entries)
        geometry = self.geometry
        syms = geometry.symmetries
        shift = rules.rows * geometry.stride
        # For each cell, the bit it adds to every symmetric image of the key
        # (X's stones in the low bits, O's above them), in static move order.
        self._moves_x: list[Move] = []
        self._moves_o: list[Move] = []
        for cell in geometry.order:
            images = [geometry.bits[perm[cell]] for perm in syms]
            self._moves_x.append((geometry.bits[cell], tuple(images)))
            self._moves_o.append((geometry.bits[cell], tuple(b << shift for b in images)))
        self._side_x: Side = (self._moves_x, {bit: [(bit, d)] for bit, d in self._moves_x})
        self._side_o: Side = (self._moves_o, {bit: [(bit, d)] for bit, d in self._moves_o})
        self._shift = shift
        # Nodes with at least this many empty cells order their moves by potential:
        # it costs a pass over the live windows, repaid only where subtrees are big.
        self.ordering_min = 8
        # Nodes with at least this many empty cells test for a pairing where one would
        # end the search there, and (the second) try each move for one before searching it:
        # a test costs a few nodes' time, repaid only above the smallest subtrees.
        self.pairing_min = PAIRING_MIN_EMPTIES
        self.pairing_reply_min = PAIRING_REPLY_MIN_EMPTIES
        # Memos of the two bitboard tests the search makes at every node.  A
        # side's stones recur across many positions, so most calls are hits.
        self.completing = _Memo(geometry.completing_cells, self.memo_limit)
        # The cells through which a side can still make a line, given the other's stones.
        self.open_cells = _Memo(lambda opp: geometry.reachable_by(geometry.full ^ opp), self.memo_limit)
        # The windows a side can still fill, given the other's stones.
        self.live_lines = _Memo(
            lambda opp: [line for line in geometry.lines if not line & opp], self.memo_limit
        )

    @functools.cached_property
    def pairings(self) -> Pairings:
        """The pairing test and its memos, made at the first solve (3x3's many cold solvers never need it)."""
        return Pairings(self.rules)

    def memo_entry_bytes(self) -> int:
        """Bytes of one entry in each of the three memos together, for these rules."""
        live_lines = LIVE_LINES_ENTRY_BYTES + LIVE_LINES_WINDOW_BYTES * len(self.geometry.lines)
        return COMPLETING_ENTRY_BYTES + OPEN_CELLS_ENTRY_BYTES + live_lines

    def footprint(self) -> int:
        """The bytes the table and the memos hold now, by the measured bytes per entry."""
        memos = max(len(self.completing), len(self.open_cells), len(self.live_lines))
        pairing = self.pairings.footprint() if "pairings" in self.__dict__ else 0
        return len(self.table) * TABLE_ENTRY_BYTES + memos * self.memo_entry_bytes() + pairing

    def cap(self) -> None:
        """Empty the table if it holds more than its limit (the memos see to their own)."""
        if len(self.table) > self.table_limit:
            self.table.clear()

    # -- public --------------------------------------------------------------

    def solve(
        self,
        board: Board,
        deadline: float | None = None,
        all_moves: bool = False,
        progress: Progress | None = None,
    ) -> SolveResult:
        """Solve the position exactly: value, plies, every optimal move.

        With ``all_moves`` the value and plies of every legal move are given
        too.  ``deadline`` is a ``time.monotonic()`` instant; past it the search
        raises ``SearchTimeout``.  ``progress(nodes, seconds)`` is called about
        twice a second during long searches.  Raises ``GameOverError`` when the
        game is over.
        """
        if board.rules != self.rules:
            raise ValueError(f"this solver plays {self.rules}, not {board.rules}")
        board.require_moves()
        run = _Run(self, deadline, progress)
        mover_is_x = board.to_move == "x"
        me, opp = (board.x, board.o) if mover_is_x else (board.o, board.x)
        keys = self._keys(board)
        my_side, opp_side = (self._side_x, self._side_o) if mover_is_x else (self._side_o, self._side_x)
        empty = self.geometry.full & ~(me | opp)
        empties = empty.bit_count()
        immediate = self.geometry.winning_cells(me, empty)

        def child_score(bit: Bitboard, delta: tuple[int, ...], alpha: int, beta: int) -> int:
            """The score, for the mover, of playing ``bit`` (searched in the window)."""
            if immediate & bit:
                return empties
            return -run.search(
                opp, me | bit, tuple(map(add, keys, delta)), opp_side, my_side, empties - 1, -beta, -alpha
            )

        # Moves that lead to the same position up to symmetry have the same
        # score: each class is searched once, through its first member.
        classes: dict[int, list[Move]] = {}
        for bit, delta in my_side[0]:
            if empty & bit:
                classes.setdefault(min(map(add, keys, delta)), []).append((bit, delta))
        move_values = None
        if all_moves:
            class_scores = [
                (members, exact_score(partial(child_score, *members[0]), empties))
                for members in classes.values()
            ]
            best = max(score for _, score in class_scores)
            cell_of = self.geometry.cell_of
            move_values = dict(
                sorted(
                    (cell_of[bit], score_to_value(score, empties))
                    for members, score in class_scores
                    for bit, _ in members
                )
            )
            best_bits = [bit for members, score in class_scores if score == best for bit, _ in members]
        else:
            best = exact_score(
                lambda a, b: run.search(me, opp, keys, my_side, opp_side, empties, a, b), empties
            )
            # A move is optimal when its score reaches the best.  No move scores
            # more, so the null window just below the best decides it (a wider
            # window would also prove what the move scores when it falls short).
            best_bits = [
                bit
                for members in classes.values()
                if child_score(*members[0], best - 1, best) >= best
                for bit, _ in members
            ]
        # A search too short to reach a tick is capped here, so many of them cannot add up.
        self.cap()
        value = score_to_value(best, empties)
        best_cells = sorted(self.geometry.cell_of[bit] for bit in best_bits)
        return SolveResult(
            value=value.value,
            plies=value.plies,
            best_moves=best_cells,
            nodes=run.nodes,
            seconds=run.clock.elapsed(),
            proven=True,
            move_values=move_values,
            score=best,
        )

    # -- internals -------------------------------------------------------------

    def _keys(self, board: Board) -> tuple[int, ...]:
        """The position's key under every symmetry (X low, O shifted up)."""
        bits = self.geometry.bits
        keys = []
        for perm in self.geometry.symmetries:
            key = 0
            for cell, bit in enumerate(bits):
                if board.x & bit:
                    key |= bits[perm[cell]]
                elif board.o & bit:
                    key |= bits[perm[cell]] << self._shift
            keys.append(key)
        return tuple(keys)


def exact_score(search_in: Callable[[int, int], int], empties: int) -> int:
    """The exact score from a fail-soft search in a window: its sign first, then its size.

    ``search_in(alpha, beta)`` searches one position (or move) whose score lies
    in -(empties + 1)..empties + 1.  The window (-1, 1) settles win, draw or
    loss cheaply; only a win or a loss needs the second, wider search.
    """
    score = search_in(-1, 1)
    if score > 0:
        score = search_in(score - 1, empties + 1)
    elif score < 0:
        score = search_in(-empties - 1, score + 1)
    return score


@per_rules
def window_cells(rules: Rules) -> dict[Bitboard, list[Cell]]:
    """Each window's cells by number: weights in a list indexed by cell are quicker than a dict by bit."""
    geometry = rules.geometry
    return {line: [geometry.cell_of[bit] for bit in bits] for line, bits in geometry.line_bits.items()}


class _Memo(dict[int, _T]):
    """A dict that computes and keeps ``function(key)`` for a missing key, emptied when full.

    It holds at most ``limit`` entries: checked at each miss, which is rarer
    than a hit, so that a small limit holds whatever a search does between ticks.
    """

    def __init__(self, function: Callable[[int], _T], limit: int) -> None:
        super().__init__()
        self.function = function
        self.limit = limit

    def __missing__(self, key: int) -> _T:
        if len(self) >= self.limit:
            self.clear()
        value = self[key] = self.function(key)
        return value


class _Run:
    """One solve's search: the recursive negamax, its node count and its clock."""

    def __init__(self, solver: Solver, deadline: float | None, progress: Progress | None) -> None:
        self.solver = solver
        self.clock = Clock(deadline, progress)
        self.nodes = 0
        self.search = self._make_search()

    def tick(self) -> None:
        """Called every TICK_NODES nodes: enforce the deadline, report progress, cap the table."""
        self.solver.cap()  # first: a search that times out here leaves its tables capped
        self.clock.check(self.nodes)

    def _make_search(self) -> Search:
        """Build the negamax function with everything it needs bound as locals, for speed."""
        solver = self.solver
        geometry = solver.geometry
        full = geometry.full
        completing = solver.completing
        open_cells = solver.open_cells
        live_lines = solver.live_lines
        # Erdos-Selfridge potential: the sum over a side's live windows of
        # 2^(its stones in the window), in units of 2^-k.  Every window counts at
        # least 1, so with this many windows or more the test cannot pass.
        half_potential = 1 << (geometry.rules.k - 1)

        cell_of = geometry.cell_of
        cells = geometry.rules.cells
        line_cells = window_cells(geometry.rules)
        ordering_min = solver.ordering_min
        pairing = solver.pairings.exists
        pairing_min = solver.pairing_min
        pairing_reply_min = solver.pairing_reply_min

        def by_potential(
            me: Bitboard, opp: Bitboard, moves: list[Move], playable: Bitboard, mine: int
        ) -> list[Move]:
            """The playable moves, the ones that weigh most in both sides' live windows first.

            A cell's weight is the sum over the live windows through it of 4^(the
            stones in it), for my windows ``mine`` times over, plus the same for
            the opponent's: a cell that adds to my lines, or takes from theirs.
            4^stones, not the Erdos-Selfridge 2^stones: a window with more stones
            in it is nearer a threat, and ranking by it took a quarter fewer nodes.
            """
            weight = [0] * cells
            for maker, breaker, scale in ((me, opp, mine), (opp, me, 1)):
                for line in live_lines[breaker]:
                    value = scale << 2 * (line & maker).bit_count()
                    for cell in line_cells[line]:
                        weight[cell] += value
            ranked = [move for move in moves if playable & move[0]]
            ranked.sort(key=lambda move: weight[cell_of[move[0]]], reverse=True)
            return ranked

        def cannot_complete(maker: Bitboard, breaker: Bitboard, limit: int) -> bool:
            """Whether the breaker can stop every line of the maker: potential below limit."""
            windows = live_lines[breaker]
            if len(windows) >= limit:
                return False
            total = 0
            for line in windows:
                total += 1 << (line & maker).bit_count()
            return total < limit

        table = solver.table
        table_get = table.get
        tick = self.tick
        counter = self

        def negamax(
            me: Bitboard,
            opp: Bitboard,
            keys: tuple[int, ...],
            my_side: Side,
            opp_side: Side,
            empties: int,
            alpha: int,
            beta: int,
        ) -> int:
            """The score for the side to move (``me``), which has no line yet.

            Fail-soft contract: a result <= alpha is an upper bound on the true
            score, a result >= beta a lower bound, anything between is exact.
            """
            counter.nodes += 1
            if not counter.nodes % TICK_NODES:
                tick()
            empty = full ^ me ^ opp
            if completing[me] & empty:
                return empties
            threats = completing[opp] & empty
            if threats & (threats - 1):
                return 1 - empties
            if empties <= 2:
                # I cannot win now, and my move (or block) leaves the opponent
                # no win with the last cell.
                return 0
            # Best case: I win on my next turn; worst: the opponent wins on
            # their second (they have no win on their first once any threat is blocked).
            high = empties - 2
            low = 3 - empties if empties > 3 else 0
            mine = open_cells[opp]
            theirs = open_cells[me]
            if not mine:
                high = 0
            if not theirs:
                low = 0
            if low == high:
                return low
            # Erdos-Selfridge: when a side's live windows' sum of 2^-(cells missing)
            # is below 1/2 (that side to move) or 1 (the other to move), the other
            # side can always stop every line, so that side cannot win.
            if high > 0 and cannot_complete(me, opp, half_potential):
                high = 0
            if low < 0 and cannot_complete(opp, me, 2 * half_potential):
                low = 0
            if low == high:
                return low
            # A pairing proves a side cannot win; tested only where that ends the search.
            if empties >= pairing_min:
                if high > 0 and alpha >= 0 and pairing(me, opp):
                    return 0
                if low < 0 and beta <= 0 and pairing(opp, me):
                    return 0
            key = min(keys) if empties >= SYMMETRY_MIN_EMPTIES else keys[0]
            entry = table_get(key)
            if entry is not None:
                if entry[0] > low:
                    low = entry[0]
                if entry[1] < high:
                    high = entry[1]
            if low >= beta:
                return low
            if high <= alpha:
                return high
            if low > alpha:
                alpha = low
            if high < beta:
                beta = high
            if alpha >= beta:
                return alpha
            window_low = alpha
            best = -empties - 1
            if threats:
                moves = my_side[1][threats]
                playable = threats
            else:
                moves = my_side[0]
                # A cell on no line either side can still make is a cell whose
                # owner never matters: all such cells are one move, tried once.
                live = empty & (mine | theirs)
                dead = empty ^ live
                playable = live | (dead & -dead)
            if empties >= pairing_reply_min and beta <= 0 and low < 0:
                # Where a draw is enough: a move that leaves the opponent a pairing
                # holds it, so this node cuts off without searching any move.
                for bit, _ in moves:
                    if playable & bit and pairing(opp, me | bit):
                        table[key] = (0, high)
                        return 0
            if not threats and empties >= ordering_min:
                # My own lines count most where a draw is not enough to cut off
                # (my winning tries first), less where it is (a counter-threat
                # is still the strongest defence).
                mine = MINE_DRAW if beta <= 0 else MINE_WIN
                moves = by_potential(me, opp, moves, playable, mine)
            for bit, delta in moves:
                if playable & bit:
                    score = -negamax(
                        opp,
                        me | bit,
                        tuple(map(add, keys, delta)),
                        opp_side,
                        my_side,
                        empties - 1,
                        -beta,
                        -alpha,
                    )
                    if score > best:
                        best = score
                        if score > alpha:
                            alpha = score
                            if alpha >= beta:
                                break
            if best <= window_low:
                table[key] = (low, best)
            elif best >= beta:
                table[key] = (best, high)
            else:
                table[key] = (best, best)
            return best

        return negamax


def solve(
    board: Board,
    budget: float | None = None,
    all_moves: bool = False,
    solver: Solver | None = None,
    progress: Progress | None = None,
) -> SolveResult:
    """Solve a position exactly with a fresh (cold) table, or with ``solver``'s table.

    ``budget`` is in seconds; past it ``SearchTimeout`` is raised.  See
    ``Solver.solve``.
    """
    solver = solver or Solver(board.rules)
    deadline = None if budget is None else time.monotonic() + budget
    return solver.solve(board, deadline=deadline, all_moves=all_moves, progress=progress)


__all__ = [
    "WIN",
    "DRAW",
    "LOSS",
    "MoveValue",
    "SolveResult",
    "Solver",
    "SearchTimeout",
    "score_to_value",
    "solve",
]
