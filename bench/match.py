"""A strength match between two arena players at a fixed time per move, from random openings.

Each opening (2 to 4 stones on random cells within two of the centre, x and o
in turn, drawn from the seed) is played twice, each player taking x once, so
neither side profits from a lucky opening.  One line per game goes to stderr
as it ends; the table, in Markdown, goes to stdout: wins, draws and losses as
x and as o, and the average game length (stones on the board at the end) for
each player's games as x and as o.

    .venv/bin/python bench/match.py perfect baseline --size 15x15 --k 5 --budget 0.4 --games 16

``--b-checkout DIR`` takes player B from another checkout's ``tictactoe`` (imported
beside this one under another name, and shown as ``name@DIR``), to measure an
engine against its own earlier version:

    git worktree add --detach /tmp/before main
    .venv/bin/python bench/match.py perfect perfect --b-checkout /tmp/before --games 8

Times per move are wall-clock deadlines: results depend on the machine's
speed and load, so a rerun on a busy machine may differ.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tictactoe.game.board import Board
from tictactoe.game.rules import Cell, Rules
from tictactoe.tools.arena import Standing, get_player, play_game

OPENING_STONES = (2, 4)  # fewest and most stones of a random opening
OPENING_RADIUS = 2  # opening stones lie within this many cells (Chebyshev) of the centre


def random_opening(rules: Rules, rng: random.Random) -> list[Cell]:
    """2 to 4 distinct cells near the centre, played in this order (x first)."""
    centre_r, centre_c = rules.rows // 2, rules.cols // 2
    near = [
        rules.cell(r, c)
        for r in range(rules.rows)
        for c in range(rules.cols)
        if max(abs(r - centre_r), abs(c - centre_c)) <= OPENING_RADIUS
    ]
    return rng.sample(near, rng.randint(*OPENING_STONES))


class ForeignPlayer:
    """An arena player of another checkout's ``tictactoe``, fed this checkout's boards by their moves."""

    def __init__(self, name: str, checkout: str) -> None:
        root = Path(checkout).resolve() / "tictactoe"
        package = f"tictactoe_{abs(hash(str(root)))}"
        spec = importlib.util.spec_from_file_location(
            package, root / "__init__.py", submodule_search_locations=[str(root)]
        )
        assert spec is not None and spec.loader is not None, f"no tictactoe package in {checkout}"
        sys.modules[package] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sys.modules[package])
        self.modules = {
            part: importlib.import_module(f"{package}.{part}") for part in ("arena", "board", "rules")
        }
        self.player = self.modules["arena"].get_player(name)
        self.name = f"{name}@{checkout}"

    def search(self, board: Board, deadline: float | None = None, rng: random.Random | None = None) -> Any:
        """The other checkout's engine's answer on the same position (rebuilt from the moves)."""
        rules = board.rules
        theirs = self.modules["board"].Board(self.modules["rules"].Rules(rules.rows, rules.cols, rules.k))
        for cell in board.history:
            theirs.play(cell)
        return self.player.search(theirs, deadline=deadline, rng=rng)


@dataclass
class Record:
    """One player's games by colour, each as (outcome, stones at the end): 0 won, 1 drawn, 2 lost."""

    name: str
    games: dict[str, list[tuple[int, int]]] = field(default_factory=lambda: {"x": [], "o": []})

    def tally(self, colour: str) -> list[int]:
        """Wins, draws and losses in this colour."""
        outcomes = [outcome for outcome, _ in self.games[colour]]
        return [outcomes.count(outcome) for outcome in (0, 1, 2)]

    def lengths(self, colour: str, outcome: int | None = None) -> list[int]:
        """The stones at the end of its games in this colour (only those with ``outcome``, if given)."""
        return [stones for result, stones in self.games[colour] if outcome is None or result == outcome]


def average(values: list[int]) -> str:
    """The mean to one decimal, or a dash when there is nothing to average."""
    return f"{sum(values) / len(values):.1f}" if values else "-"


def play(
    name_a: str,
    name_b: str,
    rules: Rules,
    games: int,
    budget: float,
    seed: int,
    b_checkout: str | None = None,
) -> tuple[Record, Record, tuple[Standing, Standing]]:
    """Play ``games`` games (rounded up to pairs), each opening with both colour assignments.

    With ``b_checkout``, player B is the engine ``name_b`` of that checkout.
    """
    player_b = get_player(name_b) if b_checkout is None else ForeignPlayer(name_b, b_checkout)
    name_b = player_b.name
    players = (get_player(name_a), player_b)
    records = (Record(name_a), Record(name_b))
    standings = (Standing(name_a), Standing(name_b))
    seeds = random.Random(seed)
    for pair in range((games + 1) // 2):
        opening = random_opening(rules, seeds)
        for x_player in (0, 1):
            rng = random.Random(seeds.getrandbits(64))
            started = time.monotonic()
            moves, winner = play_game(players, x_player, rules, rng, budget, standings, opening)
            for index, record in enumerate(records):
                colour = "x" if index == x_player else "o"
                outcome = 1 if winner is None else 0 if winner == index else 2
                record.games[colour].append((outcome, len(moves)))
            ending = "draw" if winner is None else f"{records[winner].name} wins"
            print(
                f"game {2 * pair + x_player + 1}: x {records[x_player].name},"
                f" o {records[1 - x_player].name}, opening {opening}: {ending} with"
                f" {len(moves)} stones ({time.monotonic() - started:.0f} s); moves {moves}",
                file=sys.stderr,
                flush=True,
            )
    return records[0], records[1], standings


def table(records: tuple[Record, Record], standings: tuple[Standing, Standing]) -> str:
    """The Markdown table of a match."""
    header = (
        "| player | as x: W-D-L | as o: W-D-L | total W-D-L | stones as x | stones as o |"
        " stones in o's losses | ms a move |"
    )
    lines = [header, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for record, standing in zip(records, standings, strict=True):
        x, o = record.tally("x"), record.tally("o")
        total = [a + b for a, b in zip(x, o, strict=True)]
        ms = standing.seconds / max(standing.moves, 1) * 1000
        lines.append(
            f"| {record.name} | {'-'.join(map(str, x))} | {'-'.join(map(str, o))} |"
            f" {'-'.join(map(str, total))} | {average(record.lengths('x'))} |"
            f" {average(record.lengths('o'))} | {average(record.lengths('o', 2))} |"
            f" {ms:.0f} |"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engine_a", help="the first player (x in the first game of each pair)")
    parser.add_argument("engine_b", help="the second player")
    parser.add_argument("--size", default="15x15", help="RxC (default 15x15)")
    parser.add_argument("--k", type=int, default=5, help="stones in a row to win (default 5)")
    parser.add_argument("--budget", type=float, default=0.4, help="seconds a move (default 0.4)")
    parser.add_argument("--games", type=int, default=16, help="games, rounded up to pairs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--b-checkout", help="take player B from this checkout's tictactoe")
    args = parser.parse_args()
    rows, cols = (int(part) for part in args.size.lower().split("x"))
    rules = Rules(rows, cols, args.k)
    a, b, standings = play(
        args.engine_a, args.engine_b, rules, args.games, args.budget, args.seed, args.b_checkout
    )
    print(
        f"{args.engine_a} against {b.name}: {rules}, {args.budget} s a move,"
        f" {2 * ((args.games + 1) // 2)} games, seed {args.seed}\n"
    )
    print(table((a, b), standings), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
