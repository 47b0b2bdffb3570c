"""Monte-Carlo tree search with UCT: no evaluation, no proof, just random games.

Source: Kocsis & Szepesvari, "Bandit based Monte-Carlo planning" (ECML 2006)
for UCT; Coulom (2006) for the tree search; the four steps as in Browne et
al., "A survey of Monte Carlo tree search methods" (2012) and AIMA (ch. 5)::

    function MCTS(root, playouts)
        repeat playouts times:
            node := SELECT(root)      # descend by UCB1 while every move has a child
            node := EXPAND(node)      # add one untried move's child
            result := SIMULATE(node)  # play uniformly random moves to the end
            BACKPROPAGATE(node, result)
        return the root's most visited move

    UCB1(child) = wins(child) / visits(child)
                  + c * sqrt(ln visits(parent) / visits(child)),   c = 0.7 here

A win counts 1, a draw 1/2, a loss 0, for the side that made the move into
the node.  Why it works instead of pruning: the tree grows where UCB1 sends
it, towards the moves that win most often, while the second term keeps
trying the others (it tends to infinity for a move that is never tried), so
in the limit the most visited move is the minimax move.  It never proves a
value: ``value`` is None, and the note gives the chosen move's win rate.

Node: one position added to the tree, the root included, so at most
``playouts + 1``; the positions of the random playouts are not nodes.
Leaves: the playouts, each of which ends in a finished game.
Playouts: 1000 by default (``DEFAULT_PLAYOUTS``), about 0.05 s a move on
3x3; a deadline, or a node budget smaller than the playouts, stops earlier.
The exploration constant is tuned, not the textbook's: with UCB1's
c = sqrt(2) (Auer et al. 2002) and 1000 playouts it answered a corner opening
with a losing corner in 3 of 40 seeds, and lost 1 of 1,000 games to ``easy``;
with c = 0.7 it took the centre in all 40 and lost none of the 1,000
(docs/lab.md).  A smaller c spends more playouts on the
moves that look best, which is what a game of forced replies rewards.
"""

from __future__ import annotations

import math
import random

from ..game.board import Board, O, X, other
from ..game.phrase import Phrase
from ..game.rules import Cell
from .base import EngineResult, NodeClock

DEFAULT_PLAYOUTS = 1000
EXPLORATION = 0.7  # below UCB1's sqrt(2): see the module's docstring
DEFAULT_SEED = 0  # without an rng the search is still reproducible
WIN_REWARD, DRAW_REWARD, LOSS_REWARD = 1.0, 0.5, 0.0


class Node:
    """A position in the tree, reached by ``move``, with its playouts' statistics.

    ``wins`` counts rewards for ``mover``, the side that played ``move``.
    ``untried`` holds the moves without a child yet, in random order.
    """

    def __init__(
        self,
        board: Board,
        rng: random.Random,
        move: Cell | None = None,
        parent: Node | None = None,
        mover: str | None = None,
    ) -> None:
        self.board = board
        self.move = move
        self.parent = parent
        self.mover = mover
        self.untried = board.legal_moves()  # [] once the game is over
        rng.shuffle(self.untried)
        self.children: list[Node] = []
        self.visits = 0
        self.wins = 0.0

    @property
    def reached_by(self) -> Cell:
        """The move that reached this node; raises ``ValueError`` on the root, reached by none."""
        if self.move is None:
            raise ValueError("the root is reached by no move")
        return self.move

    def ucb1(self, exploration: float, log_parent_visits: float) -> float:
        """The upper confidence bound on this move's win rate (Auer et al. 2002)."""
        return self.wins / self.visits + exploration * math.sqrt(log_parent_visits / self.visits)


class MonteCarloTreeSearch:
    """UCT with uniformly random playouts, a fixed number of them per move."""

    name = "mcts"
    description: str = Phrase(
        "Monte-Carlo tree search with UCT (Kocsis & Szepesvari 2006), {count} random playouts a move",
        count=DEFAULT_PLAYOUTS,
    )

    def __init__(self, playouts: int = DEFAULT_PLAYOUTS, exploration: float = EXPLORATION) -> None:
        if playouts < 1:
            raise ValueError(f"mcts needs at least 1 playout, not {playouts}")
        self.playouts = playouts
        self.exploration = exploration

    def search(
        self,
        board: Board,
        deadline: float | None = None,
        rng: random.Random | None = None,
        max_nodes: int | None = None,
    ) -> EngineResult:
        """Run the playouts (or stop at ``deadline``, or once the tree holds ``max_nodes``) and play
        the most visited move."""
        board.require_moves()
        rng = rng or random.Random(DEFAULT_SEED)
        clock = NodeClock(deadline, max_nodes)
        root = Node(board.copy(), rng)
        clock.nodes = 1
        done = 0
        # At least one playout, so that there is always a move to return.
        while done < self.playouts and not (done and (clock.spent() or clock.expired())):
            node = self._select(root)
            if node.untried:
                node = self._expand(node, rng)
                clock.nodes += 1
            self._backpropagate(node, self._simulate(node.board, rng))
            done += 1
        return self._result(root, clock, done)

    # -- the four steps ----------------------------------------------------------

    def _select(self, node: Node) -> Node:
        """Descend by UCB1 while every move of the node has a child."""
        exploration = self.exploration
        while not node.untried and node.children:
            log_visits = math.log(node.visits)
            node = max(node.children, key=lambda child: child.ucb1(exploration, log_visits))
        return node

    @staticmethod
    def _expand(node: Node, rng: random.Random) -> Node:
        """Add the child of one untried move."""
        board = node.board.copy()
        mover = board.to_move
        move = node.untried.pop()
        board.play(move)
        child = Node(board, rng, move, node, mover)
        node.children.append(child)
        return child

    @staticmethod
    def _simulate(board: Board, rng: random.Random) -> str | None:
        """Play uniformly random moves to the end; the winner, or None for a draw.

        The board is left as it was: the playout runs on copies of the stones.
        """
        outcome = board.outcome()
        if outcome is not None:
            return outcome.winner
        # Why bitboards and not Board.play: playouts are most of the time MCTS
        # takes, and Board.play checks the whole outcome before and after each
        # move, where a playout needs one line test for the side that moved.
        geometry = board.geometry
        stones = {X: board.x, O: board.o}
        mover = board.to_move
        moves = board.legal_moves()
        rng.shuffle(moves)  # a random order of the empty cells is a uniformly random playout
        for move in moves:
            stones[mover] |= geometry.bits[move]
            if geometry.has_line(stones[mover]):
                return mover
            mover = other(mover)
        return None

    @staticmethod
    def _backpropagate(node: Node | None, winner: str | None) -> None:
        """Add the playout's result to every node on the path, for the side that moved into it."""
        while node is not None:
            node.visits += 1
            if node.mover is not None:
                node.wins += (
                    DRAW_REWARD if winner is None else WIN_REWARD if winner == node.mover else LOSS_REWARD
                )
            node = node.parent

    # -- the answer ----------------------------------------------------------------

    def _result(self, root: Node, clock: NodeClock, done: int) -> EngineResult:
        """The most visited root move, its line of most visited moves, and its win rate."""
        line: list[Cell] = []
        node = root
        while node.children:
            node = max(node.children, key=lambda child: child.visits)
            line.append(node.reached_by)
        best = max(root.children, key=lambda child: child.visits)
        percent = round(100 * best.wins / best.visits)
        if done < self.playouts:
            note = Phrase(
                "Stopped {stopped} after {done} of its {count} playouts: the move won {percent}% of its"
                " {visits}, an estimate, not a proof.",
                stopped=clock.stopped_by(),
                done=done,
                count=self.playouts,
                percent=percent,
                visits=best.visits,
            )
        else:
            note = Phrase(
                "{count} playout: the move won {percent}% of it, an estimate, not a proof.",
                "{count} playouts: the move won {percent}% of its {visits}, an estimate, not a proof.",
                count=done,
                percent=percent,
                visits=best.visits,
            )
        return EngineResult(
            best.reached_by,
            None,
            clock.nodes,
            clock.elapsed(),
            done == self.playouts,
            line,
            note,
            leaves=done,
        )
