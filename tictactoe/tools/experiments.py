"""The lab's two experiments, reproducible: ``python -m tictactoe.tools.experiments``.

(a) every engine's first move on the empty 3x3 board, (b) its reply after X
takes the centre: move, value, nodes, leaves and time, beside the figures the
documents this project grew from published (``docs/lab.md`` explains each
difference); then the blog's way of counting, and every engine's nodes over
all 4,520 positions.  Node and leaf counts are exact and repeat on every run
(mcts is seeded); times depend on the machine.  Prints Markdown tables to
stdout, in about 40 seconds (most of it plain minimax).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TextIO

from ..algorithms.alphabeta_ordered import ordered_moves
from ..algorithms.base import Engine
from ..algorithms.negascout import NegaScout
from ..algorithms.registry import ENGINES, get_engine
from ..algorithms.table import TranspositionTable
from ..game.board import Board
from ..game.notation import cell_label
from ..game.rules import Cell
from .counting import reachable_positions

CENTRE = 4

# Not registered: NegaScout built on alphabeta-tt (its ordering and table),
# shown to make the point of docs/lab.md about what null windows can still save.
NEGASCOUT_ON_TT = NegaScout(
    ordered_moves,
    TranspositionTable,
    name="negascout on alphabeta-tt",
    description="NegaScout with alphabeta-tt's ordering and table",
)


@dataclass(frozen=True)
class Experiment:
    """A position to search (moves from the empty 3x3 board) and the published figures for it."""

    title: str
    moves: tuple[Cell, ...]
    published: dict[str, str]


EXPERIMENTS = (
    Experiment(
        "(a) first move on the empty 3x3 board",
        (),
        {
            "minimax": "549,945 search steps (blog, plain minimax)",
            "alphabeta": "30,709 (blog, alpha-beta)",
            "alphabeta-ordered": "21,667 (blog, alpha-beta with the killer heuristic)",
            "alphabeta-tt": "7,381 (blog, minimax with a transposition table)",
        },
    ),
    Experiment(
        "(b) reply after X takes the centre",
        (CENTRE,),
        {
            "minimax": "25,872 states (paper, plain negamax)",
            "alphabeta": "1,053 (paper, alpha-beta, worst order)",
            "alphabeta-ordered": "815 (paper, alpha-beta, best order: centre, corners, edges)",
            "alphabeta-tt": "256 (paper, alpha-beta with a transposition table)",
        },
    ),
)


@dataclass(frozen=True)
class Row:
    """One engine's search of an experiment's position."""

    engine: str
    move: str
    value: str
    nodes: int
    leaves: int | None
    milliseconds: float
    published: str


def lab_engines() -> list[Engine]:
    """The registered engines in teaching order, then the unregistered NegaScout variant."""
    return [*ENGINES.values(), NEGASCOUT_ON_TT]


def board_after(moves: tuple[Cell, ...]) -> Board:
    """The 3x3 board after these moves from the empty board."""
    board = Board()
    for move in moves:
        board.play(move)
    return board


def run_experiment(experiment: Experiment, engines: list[Engine] | None = None) -> list[Row]:
    """Search the experiment's position with each engine (default: ``lab_engines()``)."""
    rows = []
    for engine in engines or lab_engines():
        board = board_after(experiment.moves)
        result = engine.search(board)
        rows.append(
            Row(
                engine.name,
                cell_label(board.rules, result.move),
                result.value or "unknown",
                result.nodes,
                result.leaves,
                result.seconds * 1000,
                experiment.published.get(engine.name, ""),
            )
        )
    return rows


def root_moves_apart(name: str) -> int:
    """Nodes of an engine that searches each first move on its own, root not counted.

    That is how a program that loops over the root moves, calling the search
    on each with a fresh full window, counts: no bound passes between them.
    """
    board = Board()
    total = 0
    for move in board.legal_moves():
        board.play(move)
        total += get_engine(name).search(board).nodes
        board.undo()
    return total


def nodes_over_all_positions(engine: Engine) -> int:
    """The engine's nodes summed over fresh searches of all 4,520 non-terminal 3x3 positions."""
    return sum(engine.search(board).nodes for board in reachable_positions() if not board.is_over())


def markdown_table(rows: list[Row]) -> str:
    """The rows as a Markdown table."""
    lines = [
        "| engine | move | value | nodes | leaves | time (ms) | published |",
        "| --- | --- | --- | ---: | ---: | ---: | --- |",
    ]
    for row in rows:
        leaves = "" if row.leaves is None else f"{row.leaves:,}"
        lines.append(
            f"| {row.engine} | {row.move} | {row.value} | {row.nodes:,} | {leaves} |"
            f" {row.milliseconds:,.1f} | {row.published} |"
        )
    return "\n".join(lines)


def write_lab(out: TextIO) -> None:
    """Run both experiments and the counting check, and print them as Markdown."""
    for experiment in EXPERIMENTS:
        out.write(f"### {experiment.title}\n\n{markdown_table(run_experiment(experiment))}\n\n")
        out.flush()
    out.write(
        "### Counted as the blog counts: each first move searched apart, root not counted\n\n"
        f"alphabeta: {root_moves_apart('alphabeta'):,} nodes (blog: 30,709)\n\n"
    )
    out.write(
        "### Nodes summed over all 4,520 non-terminal positions, each searched afresh\n\n"
        "| engine | nodes |\n| --- | ---: |\n"
    )
    for engine in lab_engines():
        if engine.name != "mcts":  # its count is its playouts, the same everywhere
            out.write(f"| {engine.name} | {nodes_over_all_positions(engine):,} |\n")
            out.flush()


if __name__ == "__main__":
    write_lab(sys.stdout)
