"""Threat-space search: forced wins by continuous fours (VCF) and by continuous threats (VCT).

For boards with k >= 4 (five in a row above all), after Allis' threat-space
search.  The words, drawn for k = 5 (everything scales with k)::

    five    x x x x x      k in a row: the game is won
    four    x x . x x      a window with k-1 of a side's stones and one empty
                           cell, its *winning cell*: the opponent must take it now
    three   . x x x . .    a position where one more stone (a *four-maker*) makes
                           two winning cells at once (an open four . x x x x . or
                           two fours): unless answered now, it wins

The search is an AND/OR search on plain bitboards.  The attacker picks one
move (OR); the defender's every relevant reply must be refuted (AND).  A win it
reports is a proof: it holds against every legal reply, because the replies it
does not search provably lose:

- after a four, the defender must take the winning cell (it has no five of its
  own: that is checked first); any other reply loses to the five;
- after a three, the defender's reply must touch the three's cells: a
  four-maker ``b`` that makes two winning cells, or one of those cells; or make
  a four of its own (a counter-four, which the attacker must then block).  Any
  other reply loses in three more plies: ``b``, any move, the five;
- the attacker has a winning cell: it wins; the defender has one: the attacker
  must block it (two: the attack fails), and the block is its move.

VCF plays only fours, so every reply is forced and the search is narrow; VCT
also plays moves that make a three.  After its first threat the attacker
only plays threes that share a line (within k-1 cells) with one of its
earlier threats, as in Allis' dependency-based search: an independent three
could have been played first, and the restriction keeps the search narrow (it
may miss a win; it never invents one).  Depth counts the attacker's chosen
moves; a table remembers positions proven (with the depth that sufficed) and
positions refuted (with the depth that failed; a miss, never a proof).  The
search stops at its clock's deadline or a node limit (``SearchTimeout``): a
timeout proves nothing.

``examine(board, deadline)`` is what ``analyse`` asks before its heuristic
search: the side to move's own forced win if there is one, else, when the
opponent would have one if it were to move, the moves that refute it; and
when none does, on boards up to 7x7, a proof of loss: a win of the
opponent's found after every legal move.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from ..game.board import Board
from ..game.clock import THREATS, WALL_TIME, Clock, SearchTimeout, Timer
from ..game.rules import Bitboard, Cell, Rules, one_bits, per_rules
from .lines import FOUR, RAISER, WIN, Lines

# VCF sequences are narrow (every reply forced): this many fours cost little.
VCF_DEPTH = 16
# VCT branches at every three; deeper sequences rarely finish in a move's budget.
VCT_DEPTH = 6
TICK_NODES = 64  # how often the deadline is read (a node costs about ten microseconds)
# A reply outside the three's cells loses to: the four-maker, any move, the five.
OUTSIDE_REPLY_PLIES = 4
# Of the time to the caller's deadline: the shares (from the start) by which the
# search for the side to move's own win stops, the search for the opponent's win
# stops, and the tests of the moves that might refute it stop.  The rest is left to
# the caller's heuristic search, which then only chooses among the defences.  With
# the slow threat search of the first rounds, a ply of that search was worth more
# (0.15, 0.3 and 0.7 lost to the baseline; 0.05, 0.1 and 0.25 drew level); with the
# window counts and the deepening's forcing extensions, finding the opponent's
# threat in time matters more.  With the defences tested in rounds (``_holders``),
# giving them up to 0.92 drew level with 0.75 and their previous tests (100 games at
# 1 s on 15x15, -7 Elo +- 57): the heuristic search's choice among them is worth its
# time (docs/benchmarks.md, "Five in a row: strength at equal time").
OWN_WIN_SHARE = 0.1
THREAT_SHARE = 0.4
DEFENCE_SHARE = 0.75
# When no defence was found, the share by which the proof that none exists (every
# legal move tested, ``_loss_proof``) stops.  It is tried only then, where the
# heuristic search that the rest of the time is for can only choose how to lose.
LOSS_SHARE = 0.9
# The first time given to each test of a defence (``_holders``), in seconds: about what
# the search takes to find a win of a few threats on 15x15.
FIRST_SLICE = 0.01
# Proofs a table keeps (about 400 bytes each) before it starts again: the tables kept
# between the moves of a game (``kept_proofs``) stay within a few megabytes a process.
PROOFS_KEPT = 20_000
# ... and only on boards with at most this many empty cells (7x7 and smaller): the
# boards where an answer is meant to be proven, and where testing every move fits.
# On 15x15 the heuristic search keeps its time for choosing how to resist.
LOSS_PROOF_MAX_EMPTIES = 49


# (attacker, defender, attacker to move) -> (depth, plies, cells, move) of a proof: a table of proofs.
Proofs = dict[tuple[Bitboard, Bitboard, bool], tuple[int, int, Bitboard, Bitboard]]


@dataclass(frozen=True)
class ThreatWin:
    """A forced win found by threat search: the first move, plies to the five, the cells involved.

    ``plies`` counts both sides' moves up to and including the five, against the
    longest defence the proof considers; ``depth`` counts the attacker's chosen
    threats.  ``cells`` is a bitboard of every cell the proof uses (moves,
    replies searched, winning cells): a defence of the position must touch one
    of them or make threats of its own.
    """

    move: Cell
    plies: int
    cells: Bitboard
    depth: int


class ThreatSearch:
    """Threat-space search for one set of rules (k >= 4), with its tables; not thread-safe.

    ``vct=False`` plays fours only (VCF).  The search stops at ``clock``'s
    deadline (None: no limit) and after ``max_nodes`` nodes (None: no limit).
    ``proven`` is its table of proofs, when it is to be shared (``kept_proofs``).
    """

    def __init__(
        self,
        rules: Rules,
        vct: bool = True,
        clock: Clock | None = None,
        max_nodes: int | None = None,
        lines: Lines | None = None,
        proven: Proofs | None = None,
    ) -> None:
        if rules.k < 4:
            raise ValueError(f"threat search needs k >= 4, not k={rules.k}")
        self.rules = rules
        self.geometry = rules.geometry
        self.k = rules.k
        self.full = self.geometry.full
        self.vct = vct
        self.clock = clock
        self.max_nodes = max_nodes
        self.nodes = 0
        self.rays = rays(rules)
        # The shapes of the position at hand, line by line, possibly shared with other searches.
        self.lines = Lines(rules) if lines is None else lines
        self.proven: Proofs = {} if proven is None else proven
        self.makers: dict[tuple[Bitboard, Bitboard], Bitboard] = {}  # ``three_makers``' answers
        # The same key -> the greatest depth at which the attack failed.
        self.refuted: dict[tuple[Bitboard, Bitboard, bool], int] = {}

    # -- shapes on the bitboards ---------------------------------------------------

    def shapes(self, mine: Bitboard, theirs: Bitboard) -> tuple[Bitboard, Bitboard, Bitboard]:
        """For ``mine``: the winning cells, the four-makers, and the cells that raise a k-3 window.

        A window counts when it holds none of ``theirs``: with k-1, k-2 or k-3 of
        ``mine``, its empty cells are the winning cells, the four-makers, and the
        cells that bring a window to k-2 (where threes are made).
        """
        side = self.lines.side(mine, theirs)
        cells = self.lines.cells
        return cells(side, WIN), cells(side, FOUR), cells(side, RAISER)

    def winning_cells(self, mine: Bitboard, theirs: Bitboard) -> Bitboard:
        """The empty cells where one more of ``mine`` makes k in a row."""
        return self.lines.cells(self.lines.side(mine, theirs), WIN)

    def four_makers(self, mine: Bitboard, theirs: Bitboard) -> Bitboard:
        """The empty cells where a stone of ``mine`` makes a four (a winning cell)."""
        return self.lines.cells(self.lines.side(mine, theirs), FOUR)

    def three_cells(self, attacker: Bitboard, defender: Bitboard) -> Bitboard:
        """The cells of the attacker's standing threes: the four-makers that win twice, and their wins.

        For an attacker with no winning cell; empty when it has no three.  A
        defender's reply that touches none of these cells (and makes no four)
        loses in ``OUTSIDE_REPLY_PLIES``.
        """
        return self.lines.three_cells(self.lines.side(attacker, defender))

    def three_makers(self, mine: Bitboard, theirs: Bitboard) -> Bitboard:
        """The empty cells, not four-makers, where a stone of ``mine`` makes a new three."""
        key = (mine, theirs)
        found = self.makers.get(key)
        if found is None:
            if len(self.makers) >= PROOFS_KEPT:
                self.makers.clear()
            # Memoised: each deeper iteration of ``find`` asks again at the same attacks.
            found = self.makers[key] = self.lines.makers(self.lines.side(mine, theirs))
        return found

    # -- the AND/OR search ---------------------------------------------------------

    def tick(self) -> None:
        """Count a node; raise ``SearchTimeout`` past the deadline or the node limit."""
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchTimeout()
        if self.clock is not None and not self.nodes % TICK_NODES:
            self.clock.check(self.nodes)

    def attack(
        self, attacker: Bitboard, defender: Bitboard, depth: int, focus: Bitboard = -1
    ) -> tuple[int, Bitboard] | None:
        """The attacker, to move, wins with at most ``depth`` chosen threats: ``(plies, cells)``, or None.

        Threes are played only on ``focus`` (fours anywhere).  None means no
        such win was found (not that none exists).
        """
        return self._remembered(
            (attacker, defender, True), depth, lambda: self._attack(attacker, defender, depth, focus)
        )

    def defend(
        self, attacker: Bitboard, defender: Bitboard, depth: int, focus: Bitboard = -1
    ) -> tuple[int, Bitboard] | None:
        """The defender is to move: ``(plies, cells)`` when every reply loses, else None."""
        return self._remembered(
            (attacker, defender, False), depth, lambda: self._defend(attacker, defender, depth, focus)
        )

    def _remembered(
        self,
        key: tuple[Bitboard, Bitboard, bool],
        depth: int,
        search: Callable[[], tuple[int, Bitboard, Bitboard] | None],
    ) -> tuple[int, Bitboard] | None:
        """``search()``'s ``(plies, cells, move)`` as ``(plies, cells)``, through the tables.

        A proof found at some depth holds at any greater depth; a failure at
        some depth means failure at any smaller one.
        """
        known = self.proven.get(key)
        if known is not None and known[0] <= depth:
            return known[1], known[2]
        if self.refuted.get(key, -1) >= depth:
            return None
        self.tick()
        found = search()
        if found is None:
            self.refuted[key] = depth
            return None
        plies, cells, move = found
        if len(self.proven) >= PROOFS_KEPT:
            self.proven.clear()  # a bound on the memory of a table kept between moves
        self.proven[key] = (depth, plies, cells, move)
        return plies, cells

    def _attack(
        self, attacker: Bitboard, defender: Bitboard, depth: int, focus: Bitboard
    ) -> tuple[int, Bitboard, Bitboard] | None:
        wins = self.winning_cells(attacker, defender)
        if wins:
            return 1, wins, wins & -wins
        threats = self.winning_cells(defender, attacker)
        if threats:
            if threats & (threats - 1):
                return None  # two fives to stop: the attack has lost the initiative
            # The block is forced; it costs no depth (it is not a chosen threat).
            found = self.defend(attacker | threats, defender, depth, focus)
            return None if found is None else (1 + found[0], threats | found[1], threats)
        if depth <= 0 or not self.full & ~(attacker | defender):
            return None
        candidates = list(one_bits(self.four_makers(attacker, defender)))
        if self.vct:
            # Only moves that make a three: after any other, no threat stands and the
            # defender is free (and were a three standing already, a four would win first).
            candidates += one_bits(self.three_makers(attacker, defender) & focus)
        for move in candidates:
            narrowed = self.rays[move] if focus == -1 else focus | self.rays[move]
            found = self.defend(attacker | move, defender, depth - 1, narrowed)
            if found is not None:
                return 1 + found[0], move | found[1], move
        return None

    def _defend(
        self, attacker: Bitboard, defender: Bitboard, depth: int, focus: Bitboard
    ) -> tuple[int, Bitboard, Bitboard] | None:
        empty = self.full & ~(attacker | defender)
        if not empty or self.winning_cells(defender, attacker):
            return None  # a draw, or the defender wins first
        wins = self.winning_cells(attacker, defender)
        if wins & (wins - 1):
            return 2, wins, 0  # one block, then the other five
        if wins:
            found = self.attack(attacker, defender | wins, depth, focus)
            return None if found is None else (1 + found[0], wins | found[1], 0)
        if not self.vct:
            return None
        three = self.three_cells(attacker, defender)
        if not three:
            return None  # no threat stands: the defender is free
        counter = self.four_makers(defender, attacker)
        replies = (three | counter) & empty
        plies = OUTSIDE_REPLY_PLIES if empty & ~replies else 0
        cells = replies
        # Counter-fours first: they are the likeliest refutations.
        for reply in [*one_bits(counter), *one_bits(replies & ~counter)]:
            found = self.attack(attacker, defender | reply, depth, focus)
            if found is None:
                return None
            plies = max(plies, 1 + found[0])
            cells |= found[1]
        return plies, cells, 0

    def best_move(self, attacker: Bitboard, defender: Bitboard) -> Bitboard:
        """The first move of the proof found for this attacker-to-move position (after ``attack``)."""
        return self.proven[(attacker, defender, True)][3]

    def proof_holds(self, attacker: Bitboard, defender: Bitboard, extra: Bitboard) -> bool:
        """Whether the proof in this search's table for the attacker (to move) still wins with
        ``extra`` added to the defender's stones.

        The proof is followed through the table of proven positions; at each of
        its nodes the rules' facts are read again with the extra stone (the
        defender's fives and counter-fours, the attacker's fives and threes), as
        ``_attack`` and ``_defend`` read them.  False whenever the position asks
        for a move the proof did not search (or the table has lost it): then only
        a search can tell.  A few table look-ups where a search takes thousands of nodes.
        """
        known: dict[tuple[Bitboard, Bitboard, bool], bool] = {}
        full = self.full

        def holds(mine: Bitboard, theirs: Bitboard, to_move: bool) -> bool:
            key = (mine, theirs, to_move)
            if key not in known:
                known[key] = key in self.proven and node(mine, theirs, to_move)
            return known[key]

        def node(mine: Bitboard, theirs: Bitboard, to_move: bool) -> bool:
            stones = theirs | extra
            if to_move:
                if self.winning_cells(mine, stones):
                    return True
                move = self.proven[(mine, theirs, True)][3]
                threats = self.winning_cells(stones, mine)
                if threats and threats != move:
                    return False
                return not move & extra and holds(mine | move, theirs, False)
            empty = full & ~(mine | stones)
            if not empty or self.winning_cells(stones, mine):
                return False
            wins = self.winning_cells(mine, stones)
            if wins & (wins - 1):
                return True
            if wins:
                return holds(mine, theirs | wins, True)
            three = self.three_cells(mine, stones)
            if not three:
                return False
            replies = (three | self.four_makers(stones, mine)) & empty
            return all(holds(mine, theirs | reply, True) for reply in one_bits(replies))

        return holds(attacker, defender, True)

    def find(self, attacker: Bitboard, defender: Bitboard, max_depth: int | None = None) -> ThreatWin | None:
        """The attacker's (to move) forced win with the fewest threats up to ``max_depth``, or None.

        Raises ``SearchTimeout`` at the deadline or node limit.
        """
        last = max_depth if max_depth is not None else VCT_DEPTH if self.vct else VCF_DEPTH
        for depth in range(1, last + 1):
            found = self.attack(attacker, defender, depth)
            if found is not None:
                move = self.best_move(attacker, defender)
                return ThreatWin(self.geometry.cell_of[move], found[0], found[1], depth)
        return None


@per_rules
def rays(rules: Rules) -> dict[Bitboard, Bitboard]:
    """For each cell's bit, the cells sharing a window with it: its four lines, k-1 cells each way."""
    geometry = rules.geometry
    rays = dict.fromkeys(geometry.bits, 0)
    for line in geometry.lines:
        for bit in geometry.line_bits[line]:
            rays[bit] |= line
    return rays


class _KeptProofs:
    """The tables of proofs (VCF's, VCT's) kept between the moves searched in this process.

    A proof is a fact about its position, whatever the game that reached it, so
    the next move's searches start from the last one's: the position after my
    defence and the opponent's reply was often met while testing that defence.
    One set of rules at a time: a request for others starts new tables.
    """

    def __init__(self) -> None:
        self.rules: Rules | None = None
        self.tables: dict[bool, Proofs] = {}

    def tables_for(self, rules: Rules) -> dict[bool, Proofs]:
        """The VCF (False) and VCT (True) tables of ``rules``, new if the rules changed."""
        if rules != self.rules:
            self.rules, self.tables = rules, {False: {}, True: {}}
        return self.tables


_KEPT = _KeptProofs()


def kept_proofs(rules: Rules) -> dict[bool, Proofs]:
    """The process's tables of proofs for ``rules``, by VCT (True) or VCF (False), kept between moves."""
    return _KEPT.tables_for(rules)


class _Searches:
    """Runs threat searches under one deadline and counts their nodes.

    One search of each kind (VCF, VCT) serves every call, so its tables of
    proven and refuted positions carry over: the tests of the defences against
    one threat meet the same positions again and again.  The proofs carry over
    to the next move's searches too (``kept_proofs``).  ``deadline`` is an
    instant of ``timer``, which is charged every node searched.
    """

    def __init__(
        self,
        rules: Rules,
        deadline: float | None,
        max_nodes: int | None = None,
        timer: Timer = WALL_TIME,
    ) -> None:
        self.rules = rules
        self.timer = timer
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.nodes = 0
        self.lines = Lines(rules)  # moved from position to position by the searches
        kept = kept_proofs(rules)
        self.searches = {
            vct: ThreatSearch(rules, vct=vct, max_nodes=max_nodes, lines=self.lines, proven=kept[vct])
            for vct in (False, True)
        }

    def win(
        self,
        attacker: Bitboard,
        defender: Bitboard,
        vct: bool = True,
        vcf_depth: int = VCF_DEPTH,
        vct_depth: int = VCT_DEPTH,
    ) -> ThreatWin | None:
        """The attacker's (to move) win by VCF, then (``vct``) by VCT; raises ``SearchTimeout``."""
        for mode in (False, True) if vct else (False,):
            search = self.searches[mode]
            clock = Clock(self.deadline, timer=self.timer, search=THREATS)
            search.clock, search.nodes = clock, 0  # the node limit is per call
            try:
                found = search.find(attacker, defender, vct_depth if mode else vcf_depth)
            finally:
                clock.settle(search.nodes)
                self.nodes += search.nodes
            if found is not None:
                return found
        return None


def find_win(
    board: Board,
    deadline: float | None = None,
    vct: bool = True,
    max_depth: int | None = None,
    max_nodes: int | None = None,
) -> ThreatWin | None:
    """The side to move's forced win by fours (then, with ``vct``, threes and fours), or None.

    VCF is tried first (it is cheap), then VCT.  None when no win was found
    within the depth, the deadline or the node limit (per search).  Raises
    ``ValueError`` for k < 4.
    """
    me, opp = board.sides()
    return threat_win(board.rules, me, opp, deadline, vct, max_depth, max_nodes)


def threat_win(
    rules: Rules,
    attacker: Bitboard,
    defender: Bitboard,
    deadline: float | None = None,
    vct: bool = True,
    max_depth: int | None = None,
    max_nodes: int | None = None,
) -> ThreatWin | None:
    """``find_win`` for ``attacker`` as if it were to move, whoever is to move on the board.

    Asked with the opponent as attacker, it is the threat the side to move must
    refute.  Raises ``ValueError`` for k < 4.
    """
    try:
        searches = _Searches(rules, deadline, max_nodes)
        if max_depth is None:
            return searches.win(attacker, defender, vct)
        return searches.win(attacker, defender, vct, max_depth, max_depth)
    except SearchTimeout:
        return None


@dataclass(frozen=True)
class Tactics:
    """What threat search says about a position, for the side to move.

    ``win``: its own forced win, if found.  ``threat``: the opponent's forced
    win if the opponent were to move (None when none was found).
    ``defences``: when there is such a threat, the moves to choose among:
    those found to refute it (the opponent, to move after them, has no threat
    win any more) or, failing those, the likeliest ones (see
    ``_refutations``); None when there is nothing to refute.  ``lost``: when
    every legal move lets the opponent win by threats, each move's refutation
    (the opponent's win, to move after it): a proof that the side to move has
    lost; ``defences`` are then the moves whose refutation is longest.
    ``nodes``: the nodes of every search made.
    """

    win: ThreatWin | None = None
    threat: ThreatWin | None = None
    defences: list[Cell] | None = None
    lost: dict[Cell, ThreatWin] | None = None
    nodes: int = 0


def examine(board: Board, deadline: float, vct: bool = True, timer: Timer = WALL_TIME) -> Tactics:
    """Own forced win first, else the opponent's threat and the moves that refute it.

    ``vct=False`` searches continuous fours only (for both sides): fast and
    deep, but blind to wins that need threes.

    ``deadline`` is the caller's whole deadline: each search stops at its share
    of the time to it (``OWN_WIN_SHARE``, ``THREAT_SHARE``, ``DEFENCE_SHARE``),
    and what the time did not allow is reported as not found, with
    one exception that costs nothing to know: an opponent's standing three
    leaves only its own cells and my fours as replies that do not lose at
    once, so those are the defences even when the searches run out of time.
    ``deadline`` is an instant of ``timer`` (the wall clock by default).
    Raises ``ValueError`` for k < 4.
    """
    start = timer.now()
    span = max(0.0, deadline - start)
    me, opp = board.sides()
    searches = _Searches(board.rules, start + span * OWN_WIN_SHARE, timer=timer)
    try:
        win = searches.win(me, opp, vct)
    except SearchTimeout:
        win = None
    if win is not None:
        return Tactics(win=win, nodes=searches.nodes)
    probe = ThreatSearch(board.rules, lines=searches.lines)
    if probe.winning_cells(opp, me):
        # A four: the block is forced, nothing to choose; but after it, the
        # opponent may still win, which one search shows.
        return _lost_or_not(
            board, me, opp, searches, Tactics(nodes=searches.nodes), start + span * THREAT_SHARE, vct
        )
    _, my_fours, my_raisers = probe.shapes(me, opp)
    standing = probe.three_cells(opp, me)
    searches.deadline = start + span * THREAT_SHARE
    try:
        threat = searches.win(opp, me, vct)
    except SearchTimeout:
        defences = _cells(board, standing | my_fours) if standing else None
        return Tactics(defences=defences, nodes=searches.nodes)
    if threat is None:
        return Tactics(nodes=searches.nodes)
    if standing:
        # Every other reply loses: these are all the candidates there are.
        candidates = [*one_bits(standing), *one_bits(my_fours & ~standing)]
    else:
        candidates = [
            *one_bits(threat.cells & board.empty),
            *one_bits(my_fours & ~threat.cells),
            *one_bits(my_raisers & ~my_fours & ~threat.cells),
        ]
    searches.deadline = start + span * DEFENCE_SHARE
    defences, hopeless = _refutations(board, me, opp, candidates, searches, vct)
    if not defences:
        # The threat cannot be stopped: delay it.
        defences = _cells(board, (threat.cells | my_fours) & board.empty)
    tactics = Tactics(threat=threat, defences=defences, nodes=searches.nodes)
    if not hopeless:
        return tactics
    return _lost_or_not(board, me, opp, searches, tactics, start + span * LOSS_SHARE, vct)


def _lost_or_not(
    board: Board,
    me: Bitboard,
    opp: Bitboard,
    searches: _Searches,
    tactics: Tactics,
    deadline: float,
    vct: bool = True,
) -> Tactics:
    """``tactics`` with ``lost`` set when ``_loss_proof`` proves the side to move lost by ``deadline``.

    Tried only on boards with at most ``LOSS_PROOF_MAX_EMPTIES`` empty cells.
    """
    if board.empty.bit_count() > LOSS_PROOF_MAX_EMPTIES:
        return tactics
    searches.deadline = deadline
    try:
        lost = _loss_proof(board, me, opp, searches, vct)
    except SearchTimeout:
        lost = None
    if lost is None:
        return dataclasses.replace(tactics, nodes=searches.nodes)
    longest = max(refutation.plies for refutation in lost.values())
    defences = [cell for cell, refutation in lost.items() if refutation.plies == longest]
    return dataclasses.replace(tactics, defences=defences, lost=lost, nodes=searches.nodes)


def _loss_proof(
    board: Board, me: Bitboard, opp: Bitboard, searches: _Searches, vct: bool = True
) -> dict[Cell, ThreatWin] | None:
    """For every legal move of ``me`` (to move), the opponent's threat win after it; None if one has none.

    Every legal move is tested, so a full answer is a proof of loss that does
    not lean on which replies the threat search considers.  A move that lets
    an opponent's winning cell stand loses to the five at once.  Raises
    ``SearchTimeout`` at ``searches``' deadline.
    """
    probe = searches.searches[False]  # any search of ``searches`` reads their shared lines
    if probe.winning_cells(me, opp):
        return None  # my own five is on the board to take
    fives = probe.winning_cells(opp, me)
    cell_of = board.geometry.cell_of
    lost = {}
    for move in one_bits(board.empty):
        standing = fives & ~move
        if standing:
            five = standing & -standing
            lost[cell_of[move]] = ThreatWin(cell_of[five], 1, five, 0)
            continue
        refutation = searches.win(opp, me | move, vct)
        if refutation is None:
            return None
        lost[cell_of[move]] = refutation
    return lost


def _cells(board: Board, cells: Bitboard) -> list[Cell]:
    """The cells of a bitboard, lowest bit first."""
    cell_of = board.geometry.cell_of
    return [cell_of[bit] for bit in one_bits(cells)]


def _refutations(
    board: Board,
    me: Bitboard,
    opp: Bitboard,
    candidates: list[Bitboard],
    searches: _Searches,
    vct: bool = True,
) -> tuple[list[Cell], bool]:
    """The candidates after which the opponent's threat search finds no win by ``searches``' deadline.

    A candidate after which the threat's own proof still holds (``proof_holds``)
    loses without a search.  First every candidate is tested against
    continuous fours alone (cheap); those that lose to them are dropped (with ``vct=False``, the rest are the
    answer).  The rest are tested by the full search (VCF, then VCT up to
    ``VCT_DEPTH`` threats), in rounds of doubling time (``_holders``).
    Returns the candidates not found to lose; when every one was found to
    lose to threes, the survivors of the fours (they resist longer); when none
    survives the fours, [].  The flag says whether every candidate was found
    to lose.
    """
    cell_of = board.geometry.cell_of
    deadline = searches.deadline
    assert deadline is not None, "examine gives its searches a deadline"

    def standing(moves: list[Bitboard], mode: bool) -> list[Bitboard]:
        """The moves after which the threat's proof (if the search of ``mode`` found it) no longer holds."""
        search = searches.searches[mode]
        if (opp, me, True) not in search.proven:
            return moves
        return [move for move in moves if not search.proof_holds(opp, me, move)]

    # Fours first: a loss by continuous fours is found in milliseconds.
    sure, unsure = _holders(
        standing(candidates, False),
        lambda move: searches.win(opp, me | move, vct=False) is not None,
        searches,
    )
    holding = sorted(sure + unsure, key=candidates.index)
    if not holding or not vct or searches.timer.now() >= deadline:
        return [cell_of[move] for move in holding], not holding
    open_to_search = standing(holding, True)
    if not open_to_search:
        return [cell_of[move] for move in holding], True
    sure, unsure = _holders(open_to_search, lambda move: searches.win(opp, me | move) is not None, searches)
    if not sure and not unsure:
        return [cell_of[move] for move in holding], True
    # A search that ended without a win is a stronger sign than one stopped by the clock.
    return [cell_of[move] for move in sure or unsure], False


def _holders(
    moves: list[Bitboard], loses: Callable[[Bitboard], bool], searches: _Searches
) -> tuple[list[Bitboard], list[Bitboard]]:
    """The moves not found to lose by ``searches``' deadline, in order: those whose search ended, the rest.

    Each round tests the moves whose search ran out of time in the round before,
    each with twice the time (from ``FIRST_SLICE`` seconds): the search after a
    losing move usually finds the win in milliseconds, while the search after a
    move that holds may run to any deadline, so no move that holds keeps the
    others untested.  A move whose search was still running at the deadline
    holds, unproven (the second list).  Testing stops once at most one move is
    left that was not found to lose: there is nothing more to choose.
    """
    deadline = searches.deadline
    assert deadline is not None
    held: list[Bitboard] = []
    pending, time_slice = list(moves), FIRST_SLICE
    timer = searches.timer
    while pending and len(held) + len(pending) > 1 and timer.now() < deadline:
        timed_out = []
        for move in pending:
            searches.deadline = min(deadline, timer.now() + time_slice)
            try:
                if not loses(move):
                    held.append(move)
            except SearchTimeout:
                timed_out.append(move)
        pending, time_slice = timed_out, time_slice * 2
    searches.deadline = deadline
    return sorted(held, key=moves.index), pending


__all__ = [
    "LOSS_SHARE",
    "VCF_DEPTH",
    "VCT_DEPTH",
    "Tactics",
    "ThreatSearch",
    "ThreatWin",
    "examine",
    "find_win",
    "threat_win",
]
