"""A strength match between two arena players at a fixed time per move, from paired random openings.

Each opening (2 to 4 stones on random cells within two of the centre, x and o
in turn, drawn from the seed) is played twice, each player taking x once, so
neither side profits from a lucky opening.  ``--jobs N`` plays N games at a
time, each in a process of its own (the two games of a pair side by side
with ``--jobs 2``).  One line per game goes to stderr as it ends; the result,
in Markdown, goes to stdout: wins, draws and losses as x and as o, the
average game length (stones on the board at the end) for each player's games
as x and as o, the missed defences as x and as o (``--audit-seconds``), and
player A's score with the Elo difference and its 95% interval.

The statistics treat each opening pair as one sample (the pentanomial model of
paired games, ``match_stats``): the two games of a pair share their opening,
so they are not independent draws.  ``--sprt elo0,elo1`` stops the match as
soon as the SPRT on the pair scores accepts one of the two (alpha = beta =
0.05), or at ``--games``.

``--audit-seconds S`` counts, after the match and over ``--jobs`` processes,
each player's missed defences (``missed_defences``): moves after which the
opponent went on to win by a forced sequence that an S-second threat search
(VCF, then VCT) would have seen from the position before the move, and that
another move would have refused.

    .venv/bin/python bench/match.py perfect baseline --size 15x15 --k 5 --budget 0.4 --games 16

``--b-checkout DIR`` takes player B from another checkout's ``tictactoe`` (imported
beside this one under another name, and shown as ``name@DIR``), to measure an
engine against its own earlier version:

    git worktree add --detach /tmp/before main
    nice -n 19 .venv/bin/python bench/match.py perfect perfect --b-checkout /tmp/before \\
        --budget 1.0 --games 100 --jobs 2 --audit-seconds 10

``--record FILE`` writes the games as JSON lines; ``--replay FILE`` reads such a
file instead of playing (to audit or tabulate a match again).

Times per move are wall-clock deadlines: results depend on the machine's
speed and load, so a rerun on a busy machine may differ.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import importlib.util
import json
import random
import sys
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from match_stats import estimate, sprt_llr, sprt_verdict
from missed_defences import LostGame, missed_defence

from tictactoe.algorithms import Engine
from tictactoe.game.board import Board
from tictactoe.game.rules import Cell, Rules
from tictactoe.tools.arena import Standing, get_player, play_game

OPENING_STONES = (2, 4)  # fewest and most stones of a random opening
OPENING_RADIUS = 2  # opening stones lie within this many cells (Chebyshev) of the centre
# Where a checkout keeps the modules the foreign player needs (the flat layout came first).
FOREIGN_MODULES = (
    {"arena": "tools.arena", "board": "game.board", "rules": "game.rules"},
    {"arena": "arena", "board": "board", "rules": "rules"},
)


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
        layout = next(
            paths for paths in FOREIGN_MODULES if (root / (paths["arena"].replace(".", "/") + ".py")).exists()
        )
        self.modules = {part: importlib.import_module(f"{package}.{path}") for part, path in layout.items()}
        self.player = self.modules["arena"].get_player(name)
        self.name = f"{name}@{checkout}"

    def search(self, board: Board, deadline: float | None = None, rng: random.Random | None = None) -> Any:
        """The other checkout's engine's answer on the same position (rebuilt from the moves)."""
        rules = board.rules
        theirs = self.modules["board"].Board(self.modules["rules"].Rules(rules.rows, rules.cols, rules.k))
        for cell in board.history:
            theirs.play(cell)
        return self.player.search(theirs, deadline=deadline, rng=rng)


def load_player(name: str, checkout: str | None) -> Engine | ForeignPlayer:
    """This checkout's player ``name``, or that of ``checkout``."""
    return get_player(name) if checkout is None else ForeignPlayer(name, checkout)


@dataclass(frozen=True)
class PlayedGame:
    """One game of the match: its pair, who was x (0: A), the opening's length, every move, the winner.

    ``costs`` holds each player's (moves, seconds) in the game, A first.
    """

    pair: int
    x_player: int
    opening: int
    moves: list[Cell]
    winner: int | None
    seconds: float
    costs: list[tuple[int, float]]


# The players of this process (one pair per worker process, loaded once).
_PLAYERS: list[Engine | ForeignPlayer] = []


def _load_players(name_a: str, name_b: str, b_checkout: str | None) -> None:
    """Load the match's two players into this (worker) process."""
    _PLAYERS[:] = [get_player(name_a), load_player(name_b, b_checkout)]


def _play_one(
    rules: Rules, pair: int, x_player: int, opening: list[Cell], seed: int, budget: float
) -> PlayedGame:
    """Play one game of the match in this worker process (``_load_players`` first)."""
    standings = (Standing("a"), Standing("b"))
    started = time.monotonic()
    players = (_PLAYERS[0], _PLAYERS[1])
    moves, winner = play_game(players, x_player, rules, random.Random(seed), budget, standings, opening)  # type: ignore[arg-type]
    costs = [(standing.moves, standing.seconds) for standing in standings]
    return PlayedGame(pair, x_player, len(opening), moves, winner, time.monotonic() - started, costs)


def schedule(rules: Rules, games: int, seed: int) -> Iterator[tuple[int, int, list[Cell], int]]:
    """The games to play, in order: (pair, x player, opening, seed), two per opening."""
    seeds = random.Random(seed)
    for pair in range((games + 1) // 2):
        opening = random_opening(rules, seeds)
        for x_player in (0, 1):
            yield pair, x_player, opening, seeds.getrandbits(64)


def pair_scores(games: list[PlayedGame]) -> list[float]:
    """Player A's score (points / 2) in each pair whose two games were both played, by pair."""
    by_pair: dict[int, list[PlayedGame]] = {}
    for game in games:
        by_pair.setdefault(game.pair, []).append(game)
    return [
        sum(0.5 if game.winner is None else 1.0 - game.winner for game in pair) / 2
        for _, pair in sorted(by_pair.items())
        if len(pair) == 2
    ]


def play(
    name_a: str,
    name_b: str,
    rules: Rules,
    games: int,
    budget: float,
    seed: int,
    b_checkout: str | None = None,
    jobs: int = 1,
    sprt: tuple[float, float] | None = None,
) -> list[PlayedGame]:
    """Play ``games`` games (rounded up to pairs), ``jobs`` at a time, each opening with both colours.

    With ``b_checkout``, player B is the engine ``name_b`` of that checkout.
    With ``sprt``, no new game starts once the SPRT on the finished pairs
    has decided (the games under way are finished).  Returns the games in the
    order they were scheduled.
    """
    label = (name_a, load_player(name_b, b_checkout).name)
    played: list[PlayedGame] = []
    plan = schedule(rules, games, seed)
    with ProcessPoolExecutor(jobs, initializer=_load_players, initargs=(name_a, name_b, b_checkout)) as pool:
        running: set[Future[PlayedGame]] = set()
        decided = False
        while True:
            while not decided and len(running) < jobs:
                task = next(plan, None)
                if task is None:
                    break
                running.add(pool.submit(_play_one, rules, *task, budget))
            if not running:
                break
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                game = future.result()
                played.append(game)
                x_name, o_name = label[game.x_player], label[1 - game.x_player]
                ending = "draw" if game.winner is None else f"{label[game.winner]} wins"
                print(
                    f"game {2 * game.pair + game.x_player + 1}: x {x_name}, o {o_name},"
                    f" opening {game.moves[: game.opening]}: {ending} with {len(game.moves)} stones"
                    f" ({game.seconds:.0f} s); moves {game.moves}",
                    file=sys.stderr,
                    flush=True,
                )
            if sprt is not None and not decided:
                decided = sprt_verdict(pair_scores(played), *sprt) is not None
    return sorted(played, key=lambda game: (game.pair, game.x_player))


@dataclass
class Record:
    """One player's games by colour, each as (outcome, stones at the end): 0 won, 1 drawn, 2 lost.

    ``missed`` counts its missed defences by colour (when audited).
    """

    name: str
    games: dict[str, list[tuple[int, int]]] = field(default_factory=lambda: {"x": [], "o": []})
    missed: dict[str, int] = field(default_factory=lambda: {"x": 0, "o": 0})
    moves: int = 0
    seconds: float = 0.0

    def tally(self, colour: str) -> list[int]:
        """Wins, draws and losses in this colour."""
        outcomes = [outcome for outcome, _ in self.games[colour]]
        return [outcomes.count(outcome) for outcome in (0, 1, 2)]

    def lengths(self, colour: str, outcome: int | None = None) -> list[int]:
        """The stones at the end of its games in this colour (only those with ``outcome``, if given)."""
        return [stones for result, stones in self.games[colour] if outcome is None or result == outcome]

    def score(self, colour: str) -> float:
        """Its points per game in this colour (a win 1, a draw 1/2)."""
        wins, draws, losses = self.tally(colour)
        return (wins + draws / 2) / max(wins + draws + losses, 1)


def records(
    names: tuple[str, str], games: list[PlayedGame], missed: list[int | None] | None
) -> tuple[Record, Record]:
    """Both players' records of ``games`` (with ``missed``: each game's missed defence index, or None)."""
    tallies = (Record(names[0]), Record(names[1]))
    for number, game in enumerate(games):
        for index, record in enumerate(tallies):
            colour = "x" if index == game.x_player else "o"
            outcome = 1 if game.winner is None else 0 if game.winner == index else 2
            record.games[colour].append((outcome, len(game.moves)))
            record.moves += game.costs[index][0]
            record.seconds += game.costs[index][1]
            if missed is not None and missed[number] is not None and outcome == 2:
                record.missed[colour] += 1
    return tallies


def average(values: list[int]) -> str:
    """The mean to one decimal, or a dash when there is nothing to average."""
    return f"{sum(values) / len(values):.1f}" if values else "-"


def table(tallies: tuple[Record, Record], audited: bool) -> str:
    """The Markdown table of a match."""
    header = (
        "| player | as x: W-D-L | as o: W-D-L | score as x | score as o | stones as x | stones as o |"
        " stones in o's losses | missed defences as x | as o | ms a move |"
    )
    lines = [header, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for record in tallies:
        x, o = record.tally("x"), record.tally("o")
        ms = record.seconds / max(record.moves, 1) * 1000
        missed = [str(record.missed[colour]) if audited else "-" for colour in ("x", "o")]
        lines.append(
            f"| {record.name} | {'-'.join(map(str, x))} | {'-'.join(map(str, o))} |"
            f" {record.score('x'):.2f} | {record.score('o'):.2f} |"
            f" {average(record.lengths('x'))} | {average(record.lengths('o'))} |"
            f" {average(record.lengths('o', 2))} | {missed[0]} | {missed[1]} | {ms:.0f} |"
        )
    return "\n".join(lines)


def verdict(name_a: str, games: list[PlayedGame], sprt: tuple[float, float] | None) -> str:
    """Player A's score with the Elo difference and its 95% interval (and the SPRT's state)."""
    scores = pair_scores(games)
    if not scores:
        return "no complete pair: no estimate"
    found = estimate(scores)
    low, high = found.interval
    counts = [sum(1 for score in scores if score == quarter / 4) for quarter in range(5)]
    text = (
        f"{name_a} scored {found.score:.3f} ± {1.96 * found.error:.3f} over {found.pairs} pairs"
        f" ({2 * found.pairs} games): Elo {found.elo:+.0f}, 95% interval [{low:+.0f}, {high:+.0f}]"
        f" (pairs scoring 0, 1/4, 1/2, 3/4, 1: {counts})"
    )
    if sprt is not None:
        state = sprt_verdict(scores, *sprt)
        accepted = {"H1": f"elo1 = {sprt[1]:g} accepted", "H0": f"elo0 = {sprt[0]:g} accepted"}
        text += (
            f"\nSPRT({sprt[0]:g}, {sprt[1]:g}): LLR {sprt_llr(scores, *sprt):.2f} (bounds ±2.94),"
            f" {accepted[state] if state else 'undecided'}"
        )
    return text


def audit(rules: Rules, games: list[PlayedGame], seconds: float, jobs: int) -> list[int | None]:
    """Each game's missed defence (the move's index), or None; decisive games audited ``jobs`` at a time."""
    lost = [
        LostGame(rules, tuple(game.moves), game.opening, "x" if game.winner == game.x_player else "o")
        if game.winner is not None
        else None
        for game in games
    ]
    with ProcessPoolExecutor(jobs) as pool:
        futures = [None if game is None else pool.submit(missed_defence, game, seconds) for game in lost]
        return [None if future is None else future.result() for future in futures]


def read_games(path: str) -> tuple[dict[str, Any], list[PlayedGame]]:
    """The match header and games written by ``--record``."""
    with open(path) as lines:
        header = json.loads(next(lines))
        games = [PlayedGame(**json.loads(line)) for line in lines]
    return header, games


def replay(paths: list[str]) -> tuple[dict[str, Any], list[PlayedGame]]:
    """The games of the recorded matches as one match (their pairs numbered on); raises ValueError
    when their players, rules or budget differ."""
    header, games = read_games(paths[0])
    for path in paths[1:]:
        more_header, more = read_games(path)
        if {**more_header, "seed": None} != {**header, "seed": None}:
            raise ValueError(f"{path} is not a match of the same players, rules and budget as {paths[0]}")
        offset = 1 + max(game.pair for game in games)
        games += [dataclasses.replace(game, pair=game.pair + offset) for game in more]
    header["seed"] = ", ".join(str(read_games(path)[0]["seed"]) for path in paths)
    return header, games


def write_games(path: str, header: dict[str, Any], games: list[PlayedGame]) -> None:
    """Write the match header and its games as JSON lines."""
    with open(path, "w") as out:
        out.write(json.dumps(header) + "\n")
        for game in games:
            out.write(json.dumps(asdict(game)) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engine_a", help="the first player (x in the first game of each pair)")
    parser.add_argument("engine_b", help="the second player")
    parser.add_argument("--size", default="15x15", help="RxC (default 15x15)")
    parser.add_argument("--k", type=int, default=5, help="stones in a row to win (default 5)")
    parser.add_argument("--budget", type=float, default=0.4, help="seconds a move (default 0.4)")
    parser.add_argument(
        "--games", type=int, default=16, help="games, rounded up to pairs (at most, with --sprt)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--b-checkout", help="take player B from this checkout's tictactoe")
    parser.add_argument("--jobs", type=int, default=1, help="games played at a time, one process each")
    parser.add_argument("--sprt", help="ELO0,ELO1: stop when the SPRT accepts one (alpha = beta = 0.05)")
    parser.add_argument(
        "--audit-seconds", type=float, help="count missed defences with this threat search time"
    )
    parser.add_argument("--record", help="write the games to this file (JSON lines)")
    parser.add_argument(
        "--replay",
        action="append",
        help="read the games from this file (--record) instead of playing; repeated: one match of them all",
    )
    args = parser.parse_args()
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    sprt = None
    if args.sprt:
        try:
            elo0, elo1 = (float(part) for part in args.sprt.split(","))
        except ValueError:
            parser.error(f"--sprt takes two numbers, ELO0,ELO1, not {args.sprt!r}")
        sprt = (elo0, elo1)
    if args.replay:
        header, games = replay(args.replay)
    else:
        rows, cols = (int(part) for part in args.size.lower().split("x"))
        name_b = load_player(args.engine_b, args.b_checkout).name
        header = {
            "names": [args.engine_a, name_b],
            "rows": rows,
            "cols": cols,
            "k": args.k,
            "budget": args.budget,
            "seed": args.seed,
        }
        rules = Rules(rows, cols, args.k)
        games = play(
            args.engine_a,
            args.engine_b,
            rules,
            args.games,
            args.budget,
            args.seed,
            args.b_checkout,
            args.jobs,
            sprt,
        )
        if args.record:
            write_games(args.record, header, games)
    rules = Rules(header["rows"], header["cols"], header["k"])
    names = (header["names"][0], header["names"][1])
    missed = None if args.audit_seconds is None else audit(rules, games, args.audit_seconds, args.jobs)
    print(
        f"{names[0]} against {names[1]}: {rules}, {header['budget']} s a move, {len(games)} games,"
        f" seed {header['seed']}"
        + ("" if missed is None else f", missed defences by a {args.audit_seconds:g} s threat search")
        + "\n"
    )
    print(table(records(names, games, missed), missed is not None))
    print()
    print(verdict(names[0], games, sprt), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
