"""Iterative deepening with a heuristic evaluation, for positions too big to prove in time.

``iterate(board)`` is a generator: it yields the static choice (depth 0) and
then the best move of each deeper negamax alpha-beta search, so its caller
decides when to stop; ``deepen(board, deadline)`` drives it against a clock
and returns an unproven ``SolveResult``.

Scores are from the side to move's view.  Tactics are scored exactly and, as
in the solver, absolutely, by the cells still empty when the game ends::

    a win  completed when e cells are still empty  scores   WIN_SCORE + e
    a loss completed when e cells are still empty  scores -(WIN_SCORE + e)
    a full board                                    scores   0
    anything else                                   the evaluation, far below WIN_SCORE

so a faster win and a slower loss score higher, and a score does not depend
on the path to its position (the transposition table stores it as is).

What each part of the search is for:

- a win in one ends the node at once, two threats of the opponent's are a
  loss in two, and a single threat leaves one move, which is searched without
  using up depth, so forcing lines are read to their end;
- candidates are the empty cells near stones (threat cells up to two away,
  other cells next to a stone on big boards): far cells almost never matter;
- moves are ordered by the transposition table's best move, then by threat
  tiers (``evaluation.move_tiers``), then by nearness, so alpha-beta cuts early;
- a transposition table keyed by the stones, with a depth and lower and upper
  bounds, saves searching positions reached by other move orders again;
- at the root the previous depth's best move is searched first: an unfinished
  depth whose first move was searched is still safe to use.

With ``forcing`` (the default; k >= 4 only) the search also reads threes, with
the shapes the threat search keeps line by line (``lines.Lines``):

- an open three of the side to move (a cell that makes two winning cells at
  once) is a win in three plies, scored at once: one block cannot stop both;
- an open three of the opponent's leaves only its own cells and the side to
  move's fours as moves that do not lose, so only those are searched, and an
  answer on the three's cells costs no depth (as a block of a four does not):
  a line of threes is read a ply a three;
- at the horizon a quiescence search plays on: the side to move may stand on
  the evaluation or make a four (the block is forced and costs no depth), and
  must answer an opponent's open three (no standing on the evaluation then),
  up to ``QUIESCENCE_PLIES`` such moves deep; fours only on its first ply.

``forcing=False`` is the search as it was before (the strength matches' baseline).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..game.board import Board
from ..game.clock import DEEPENING, WALL_TIME, Clock, Progress, SearchTimeout, Timer
from ..game.errors import GameOverError
from ..game.rules import Bitboard, Cell, one_bits
from ..game.values import Source
from ..tactics.lines import FOUR, RAISER, Lines
from .evaluation import evaluator
from .solver import SolveResult

WIN_SCORE = 1 << 40  # beyond any evaluation; a score at or past it is a forced result
INFINITY = 1 << 50
TICK_NODES = 256  # how often the search polls its caller (deadline, progress)
TABLE_LIMIT = 100_000  # entries; a table is cleared past it (each about 250 bytes)
# On boards up to this many cells every cell within two of a stone is a
# candidate; on bigger ones, beyond the adjacent cells only threat cells are.
SMALL_BOARD_CELLS = 64
# Threes are a game's tactics from k = 4 on (as in the threat search); below it the
# forcing extensions are off.
FORCING_MIN_K = 4
# How many of the side to move's moves the quiescence search plays past the horizon
# (answers to open threes, a four on its first ply; the forced blocks are free).
QUIESCENCE_PLIES = 4
# A loss the quiescence search found with some answers left out: below every
# evaluation, above every proven loss, and not decided.
LIKELY_LOSS = -(WIN_SCORE // 2)

# poll(nodes): whether to stop now (a ``Clock`` is one).
Poll = Callable[[int], bool]
# negamax(me, opp, empties, depth, alpha, beta) -> score for ``me``, on stacked boards.
Negamax = Callable[[Bitboard, Bitboard, int, int, int, int], int]


@dataclass(frozen=True)
class Iteration:
    """What one depth of the search found.

    ``complete`` is False for a depth the poll interrupted: its ``move`` is then
    the best of the root moves it finished (the previous depth's best is the
    first of them) or, if none finished, the previous depth's best.
    """

    depth: int
    move: Cell
    score: int | None
    nodes: int
    complete: bool = True

    @property
    def decided(self) -> bool:
        """Whether the score is a forced win or loss (deeper searches change nothing)."""
        return self.score is not None and abs(self.score) >= WIN_SCORE


class _Search:
    """The negamax search of one position's descendants, with its table and node count."""

    def __init__(self, board: Board, poll: Poll | None, forcing: bool = True) -> None:
        self.geometry = geometry = board.geometry
        self.evaluator = evaluator(board.rules)
        self.poll = poll
        self.nodes = 0
        self.table: dict[tuple[Bitboard, Bitboard], tuple[int, int, int, Bitboard]] = {}
        self.threats: dict[Bitboard, Bitboard] = {}
        self.rest_radius = 2 if board.rules.cells <= SMALL_BOARD_CELLS else 1
        stride = geometry.stride
        self._steps = (1, stride)
        self.full = geometry.full
        # The threat shapes of the node at hand (None: no forcing extensions).
        self.lines = Lines(board.rules) if forcing and board.rules.k >= FORCING_MIN_K else None
        self.negamax = self._make_negamax()

    # -- helpers ---------------------------------------------------------------

    def completing(self, stones: Bitboard) -> Bitboard:
        """The stacked cells completing a line of these stacked stones (memoised: they recur)."""
        found = self.threats.get(stones)
        if found is None:
            found = self.threats[stones] = self.evaluator.completing(stones)
        return found

    def near(self, stones: Bitboard, radius: int) -> Bitboard:
        """The cells within ``radius`` (Chebyshev) of these stones, stones included."""
        full = self.full
        for _ in range(radius):
            for step in self._steps:
                # A row step then a column step make the 3x3 square; the guard
                # bits (cleared by ``full``) stop row wrap-around.
                stones = (stones | stones << step | stones >> step) & full
        return stones

    def ordered_moves(
        self, me: Bitboard, opp: Bitboard, first: Bitboard = 0, allowed: Bitboard = 0
    ) -> Iterator[Bitboard]:
        """The candidate moves, most promising first: ``first`` (if a candidate), tiers, the rest.

        Candidates are empty cells near stones; on an empty board, the centre.
        ``allowed`` (when not 0) are the only moves to consider: all of them
        are candidates.  A generator: after a cut-off the later tiers are never
        split into moves.
        """
        occupied = me | opp
        if not occupied:
            yield self.geometry.bits[self.geometry.order[0]]
            return
        pool = allowed & ~occupied if allowed else self.near(occupied, 2) & ~occupied
        if first & pool:
            yield first
            pool ^= first
        for tier in self.evaluator.move_tiers(me, opp):
            cells = tier & pool
            pool ^= cells
            yield from one_bits(cells)
        yield from one_bits(pool if allowed else pool & self.near(occupied, self.rest_radius))

    def tick(self) -> None:
        """Ask the caller whether to go on; raise ``SearchTimeout`` if not.  Keeps the tables small."""
        if self.poll is not None and self.poll(self.nodes):
            raise SearchTimeout()
        if len(self.table) > TABLE_LIMIT:
            self.table.clear()
        if len(self.threats) > TABLE_LIMIT:
            self.threats.clear()

    # -- the search --------------------------------------------------------------

    def _make_negamax(self) -> Negamax:
        """Build the recursive negamax with everything it needs bound as locals, for speed."""
        full = self.full
        completing = self.completing
        evaluate = self.evaluator.evaluate
        stacked_bits = self.evaluator.stacked_bits
        stacked_full = self.evaluator.stacked_full
        plain = self.evaluator.plain
        ordered_moves = self.ordered_moves
        table = self.table
        table_get = table.get
        tick = self.tick
        counter = self
        lines = self.lines

        def negamax(me: Bitboard, opp: Bitboard, empties: int, depth: int, alpha: int, beta: int) -> int:
            """The score for the side to move (``me``, no line yet), searched ``depth`` plies.

            ``me`` and ``opp`` are stacked boards (``evaluation``); their plain
            lane is ``& full``.  Fail-soft contract: a result <= alpha is an
            upper bound on the depth-limited score, a result >= beta a lower
            bound, anything between is exact.
            """
            counter.nodes += 1
            if not counter.nodes % TICK_NODES:
                tick()
            empty = stacked_full ^ me ^ opp
            if completing(me) & empty:
                return WIN_SCORE + empties - 1
            threats = completing(opp) & empty
            if threats:
                threats = plain(threats)  # one cell may complete lines in several lanes
                if threats & (threats - 1):
                    return -(WIN_SCORE + empties - 2)
                # One move does not lose at once: play it without spending depth.
                return -negamax(opp, me | stacked_bits[threats], empties - 1, depth, -beta, -alpha)
            if not empties:
                return 0
            allowed = 0  # not 0: the only moves that do not lose (an open three stands)
            danger = 0  # the cells of the opponent's open threes: answering costs no depth
            if lines is not None:
                side = lines.side(me & full, opp & full)
                if lines.three_cells(side):
                    return WIN_SCORE + empties - 3  # an open four next: one block cannot stop both
                danger = lines.three_cells(1 - side)
                if danger:
                    allowed = danger | lines.cells(side, FOUR)
                if depth <= 0:
                    # On the horizon's first ply the side to move may make fours, past it
                    # not: chains of fours multiply the tree.  Answering a three, every
                    # four is a defence; otherwise only fours that also raise a window
                    # towards a three (a four that makes a three is then seen to win).
                    mine_fours = lines.cells(side, FOUR) if not depth or danger else 0
                    if danger:
                        moves = danger | mine_fours if not depth else danger
                        partial = bool(mine_fours & ~moves)
                    else:
                        moves = mine_fours & lines.cells(side, RAISER)
                        partial = False
                    return quiesce(me, opp, empties, depth, alpha, beta, moves, bool(danger), partial)
            if depth <= 0:
                return evaluate(me, opp)
            # I win no sooner than my next move: mate-distance pruning.
            if alpha >= WIN_SCORE + empties - 3:
                return alpha
            mine = me & full
            theirs = opp & full
            key = (mine, theirs)
            entry = table_get(key)
            first = 0
            if entry is not None:
                entry_depth, low, high, first = entry
                if entry_depth >= depth:
                    if low >= beta or low == high:
                        return low
                    if high <= alpha:
                        return high
            best = -INFINITY
            best_move = 0
            window_low = alpha
            for bit in ordered_moves(mine, theirs, first, allowed):
                # An answer to an open three is as forced as a block of a four: a three
                # and its answer then cost one ply, so a line of threes is read deeper.
                child_depth = depth if bit & danger else depth - 1
                score = -negamax(opp, me | stacked_bits[bit], empties - 1, child_depth, -beta, -alpha)
                if score > best:
                    best = score
                    best_move = bit
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            break
            if best <= window_low:
                table[key] = (depth, -INFINITY, best, best_move)
            elif best >= beta:
                table[key] = (depth, best, INFINITY, best_move)
            else:
                table[key] = (depth, best, best, best_move)
            return best

        def quiesce(
            me: Bitboard,
            opp: Bitboard,
            empties: int,
            depth: int,
            alpha: int,
            beta: int,
            moves: Bitboard,
            answer: bool,
            partial: bool,
        ) -> int:
            """Past the horizon: stand on the evaluation, or play one of ``moves`` (fours, answers).

            ``moves`` are plain cells: fours of the side to move, or, with
            ``answer`` (an open three of the opponent's stands), the answers to
            it; there is then no standing on the evaluation, which would ignore
            the open four to come.  ``partial``: some answers (fours) are left
            out, so a loss found is only ``LIKELY_LOSS``.  Fail-soft, as
            ``negamax``; no table.
            """
            if depth <= -QUIESCENCE_PLIES:
                return evaluate(me, opp)
            if answer:
                best = -INFINITY
            else:
                best = evaluate(me, opp)
                if best >= beta:
                    return best
                alpha = max(alpha, best)
            for bit in one_bits(moves):
                score = -negamax(opp, me | stacked_bits[bit], empties - 1, depth - 1, -beta, -alpha)
                if score > best:
                    best = score
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            break
            if partial and best <= -WIN_SCORE:
                return LIKELY_LOSS  # not proven: a four left out might have saved it
            return best

        return negamax

    def root(
        self,
        me: Bitboard,
        opp: Bitboard,
        moves: list[Bitboard],
        depth: int,
        finished: list[tuple[int, Bitboard]],
    ) -> None:
        """Search each root move ``depth`` plies deep, appending ``(score, move)`` as each ends.

        ``me`` and ``opp`` are stacked boards, ``moves`` plain one-bit boards.
        A score after the first is exact only when it beats the ones before;
        otherwise it is an upper bound, enough to rank it below them.  Raises
        ``SearchTimeout`` when the poll says so, with ``finished`` holding what ended.
        """
        empties = (self.full & ~(me | opp)).bit_count()
        stacked_bits = self.evaluator.stacked_bits
        alpha = -INFINITY
        for bit in moves:
            score = -self.negamax(opp, me | stacked_bits[bit], empties - 1, depth - 1, -INFINITY, -alpha)
            finished.append((score, bit))
            alpha = max(alpha, score)


def _forced_score(wins: Bitboard, threats: Bitboard, empty: Bitboard) -> int | None:
    """The score of a forced root move: a win now, a loss in two (two threats), or unknown."""
    if wins:
        return WIN_SCORE + empty.bit_count() - 1
    if threats & (threats - 1):
        return -(WIN_SCORE + empty.bit_count() - 2)
    return None


def iterate(
    board: Board,
    poll: Poll | None = None,
    max_depth: int | None = None,
    root_moves: list[Cell] | None = None,
    forcing: bool = True,
) -> Iterator[Iteration]:
    """Yield the best move after each depth: 0 (the static choice), 1, 2, ...

    ``root_moves`` (empty cells), when given, are the only moves considered at
    the root (the moves that refute a threat, say), in the search's order.

    ``poll(nodes)`` is called every ``TICK_NODES`` nodes; when it returns True
    the search stops, yields the interrupted depth (``complete=False``, with
    the best move among the root moves it finished, or the previous depth's
    best when none did) and ends.  It also ends after a forced move
    (a win in one, or one cell to block), a forced win or loss, ``max_depth``,
    or a depth reaching the end of the game.  ``forcing=False`` searches
    without the forcing extensions (threes, quiescence): the search as it was
    before them, move for move.  Raises ``GameOverError`` when the game is over.
    """
    geometry = board.geometry
    me, opp = board.sides()
    empty = board.empty
    if not empty or geometry.has_line(me) or geometry.has_line(opp):
        raise GameOverError()
    search = _Search(board, poll, forcing)
    cell_of = geometry.cell_of
    wins = geometry.winning_cells(me, empty)
    threats = geometry.winning_cells(opp, empty)
    forced = (wins or threats) & -(wins or threats)
    moves = [forced] if forced else list(search.ordered_moves(me, opp))
    if root_moves and not forced:
        allowed = {geometry.bits[cell] for cell in root_moves}
        moves = [bit for bit in moves if bit in allowed]
        moves += sorted(allowed - set(moves))
    yield Iteration(0, cell_of[moves[0]], None, 0)
    if forced:
        # The win, or the only move that does not lose at once: nothing to search.
        yield Iteration(1, cell_of[forced], _forced_score(wins, threats, empty), 1)
        return
    last = empty.bit_count() if max_depth is None else min(max_depth, empty.bit_count())
    stack = search.evaluator.stack
    previous = None
    for depth in range(1, last + 1):
        finished: list[tuple[int, Bitboard]] = []
        try:
            search.root(stack(me), stack(opp), moves, depth, finished)
        except SearchTimeout:
            # Safe: the previous best was searched first, so it is among the finished
            # moves, or it stands alone when none finished.
            score, bit = max(finished, key=lambda pair: pair[0], default=(previous, moves[0]))
            yield Iteration(depth, cell_of[bit], score, search.nodes, complete=False)
            return
        # Next depth: best first (stable, so ties keep the order that found them).
        ranked = sorted(finished, key=lambda pair: -pair[0])
        moves = [bit for _, bit in ranked]
        previous = ranked[0][0]
        result = Iteration(depth, cell_of[moves[0]], previous, search.nodes)
        yield result
        if result.decided:
            return


def deepen(
    board: Board,
    deadline: float,
    progress: Progress | None = None,
    max_depth: int | None = None,
    root_moves: list[Cell] | None = None,
    forcing: bool = True,
    timer: Timer = WALL_TIME,
) -> SolveResult:
    """The best move found by deepening until ``deadline`` (an instant of ``timer``: the wall clock's).

    Returns an unproven ``SolveResult``: ``best_moves == [move]`` and ``depth``
    the deepest depth completed (0 is the static choice, returned even when the
    deadline has passed).  ``progress(nodes, seconds)`` is called about twice a
    second.  ``max_depth`` caps the depth (for tests and fixed-depth play);
    ``root_moves`` limits the moves considered at the root and ``forcing=False``
    leaves out the forcing extensions (see ``iterate``).  Raises ``GameOverError`` when the game is over.
    """
    clock = Clock(deadline, progress, timer, DEEPENING)
    move: Cell | None = None
    depth = nodes = 0
    for found in iterate(board, clock, max_depth, root_moves, forcing):
        move, nodes = found.move, found.nodes
        if found.complete:
            depth = found.depth
        if clock.expired():
            break
    assert move is not None, "iterate yields its static choice (depth 0) first"
    return SolveResult(
        value=None,
        plies=None,
        best_moves=[move],
        nodes=nodes,
        seconds=clock.elapsed(),
        proven=False,
        depth=depth,
        source=Source.HEURISTIC,
    )


__all__ = ["Iteration", "iterate", "deepen", "WIN_SCORE"]
