"""Threat-search speed on fixed positions: nodes, time, nodes a second; optionally against another checkout.

The positions are the tactical ones of ``tests/test_threats.py`` (the wins by
fours and threes, searched to the end) and seeded random 15x15 middle games
(12 to 22 stones near the centre, VCT searched up to ``NODE_LIMIT`` nodes).
Each search starts with cold tables.  Equal node counts on both sides of a
comparison show the searches did the same work; the time is the difference.

    .venv/bin/python bench/threat_speed.py
    git worktree add /tmp/before main
    .venv/bin/python bench/threat_speed.py --compare /tmp/before

Times are CPU seconds of this process (``time.process_time``), so other jobs
on the machine slow them less than wall-clock times, but not entirely.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

# Appended, not put first: under --compare the other checkout comes first on PYTHONPATH and must win.
sys.path.append(str(Path(__file__).resolve().parent.parent))

from tests.diagrams import centred, position
from tests.test_threats import COUNTER_FOUR, FOUR_THREE, ONE_END, THREE_THREE, VCF_3, VCF_5, VCF_7, VCF_9
from tictactoe.game.board import Board
from tictactoe.game.clock import SearchTimeout
from tictactoe.game.rules import Bitboard, Rules
from tictactoe.tactics.threats import ThreatSearch

NODE_LIMIT = 3000  # nodes a random position's search may use
RANDOM_POSITIONS = 12
SEED = 10
REPEATS = 3  # each search is timed this many times, the fastest kept

# name, drawing, board size, VCT?
TACTICAL = [
    ("VCF 3 fours", VCF_3, 15, False),
    ("VCF 5 fours", VCF_5, 15, False),
    ("VCF 7 fours", VCF_7, 15, False),
    ("VCF 9 fours", VCF_9, 15, False),
    ("four-three (VCT)", FOUR_THREE, 15, True),
    ("three-three (VCT)", THREE_THREE, 15, True),
    ("one end (x's VCT)", ONE_END, 15, True),
    ("counter-four (x's VCT)", COUNTER_FOUR, 15, True),
]


def random_board(rules: Rules, rng: random.Random) -> Board:
    """12 to 22 random stones within 4 cells of the centre, x first, no line made."""
    while True:
        board = Board(rules)
        middle = rules.rows // 2
        near = [
            rules.cell(r, c) for r in range(middle - 4, middle + 5) for c in range(middle - 4, middle + 5)
        ]
        for cell in rng.sample(near, rng.randrange(12, 23)):
            board.play(cell)
            if board.is_over():
                break
        else:
            return board


# (name, rules, attacker's stones, defender's, VCT?, node limit)
Position = tuple[str, Rules, Bitboard, Bitboard, bool, int | None]


def positions() -> list[Position]:
    """The benchmark's positions, the attacker to move."""
    found: list[Position] = []
    for name, drawing, size, vct in TACTICAL:
        board, _ = position(centred(drawing, size))
        # In the defence positions o is to move: the search is for x's threat.
        attacker, defender = (board.x, board.o) if name.endswith("(x's VCT)") else board.sides()
        found.append((name, board.rules, attacker, defender, vct, None))
    rng = random.Random(SEED)
    for index in range(RANDOM_POSITIONS):
        board = random_board(Rules(15, 15, 5), rng)
        found.append(
            (f"random {index + 1} ({board.stones} stones)", board.rules, *board.sides(), True, NODE_LIMIT)
        )
    return found


# name, nodes, CPU seconds, the win found
Row = tuple[str, int, float, str]


def measure() -> list[Row]:
    """Search every position (fastest of ``REPEATS``): nodes, CPU seconds, the win found."""
    rows = []
    for name, rules, me, opp, vct, limit in positions():
        best = float("inf")
        for _ in range(REPEATS):
            search = ThreatSearch(rules, vct=vct, max_nodes=limit)
            started = time.process_time()
            try:
                win = search.find(me, opp)
                found = "none" if win is None else f"cell {win.move}, depth {win.depth}, {win.plies} plies"
            except SearchTimeout:
                found = "node limit"
            best = min(best, time.process_time() - started)
        rows.append((name, search.nodes, best, found))
    return rows


def speed(nodes: int, seconds: float) -> str:
    """Nodes, milliseconds and nodes a second, as table cells."""
    return f" {nodes:,} | {seconds * 1000:.1f} | {nodes / seconds:,.0f} |"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--compare", metavar="CHECKOUT", help="also run another checkout, side by side")
    parser.add_argument("--json", action="store_true", help="print the raw measurements as JSON")
    args = parser.parse_args()
    rows = measure()
    if args.json:
        print(json.dumps(rows))
        return 0
    others: list[Row] = []
    header = "| position | nodes | ms | nodes/s |"
    if args.compare:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([args.compare, os.getcwd()])}
        command = [sys.executable, os.path.abspath(__file__), "--json"]
        others = [tuple(row) for row in json.loads(subprocess.check_output(command, env=env, text=True))]
        header += " before: nodes | ms | nodes/s | speed-up |"
    print(header + " found |")
    print("|" + " --- |" + " ---: |" * (header.count("|") - 2) + " --- |")
    for index, (name, nodes, seconds, found) in enumerate(rows):
        line = f"| {name} |" + speed(nodes, seconds)
        if others:
            _, other_nodes, other_seconds, other_found = others[index]
            line += speed(other_nodes, other_seconds) + f" {other_seconds / seconds:.1f}x |"
            if other_found != found:
                found += f" (before: {other_found})"
        print(line + f" {found} |")
    nodes, seconds = sum(row[1] for row in rows), sum(row[2] for row in rows)
    line = "| total |" + speed(nodes, seconds)
    if others:
        other_nodes, other_seconds = sum(row[1] for row in others), sum(row[2] for row in others)
        line += speed(other_nodes, other_seconds) + f" {other_seconds / seconds:.1f}x |"
    print(line + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
