"""A classroom on one server: 30 pupils behind one address, then a flood beside them, then the lab's traces.

Starts gunicorn as the README runs it (this project's gunicorn.conf.py: 2
gevent workers, the default file cache in a fresh temporary folder, the default
per-client search limit), bound to 127.0.0.1, and runs three phases:

1. ``players`` (``--players-seconds``, default 60): ``--players`` pupils (30),
   all from 127.0.0.1 as behind a school's one address, each playing 3x3 games
   on the game page with its default settings (X against the engine at
   ``--level``, the page's default ``medium``).  Each pupil sends what the page
   sends (static/js/game.js, api.js, review-panel.js): once, the page's load
   (``GET /``, ``GET /engines``); on each turn a hint (``POST /analyze``), then
   its move checked (``POST /state``) and the engine's reply (``POST /move``);
   when the game ends its review (``GET /position`` of every position before a
   move that this page has not asked for yet: the page keeps its answers).
   A dropped connection is retried once after 400 ms and a 503 after its
   Retry-After, as api.js does (never a 429); an error the page would then show is counted, and the pupil
   presses Retry after thinking when the game cannot go on without it (5 times
   at most, then New game).  The pupil thinks 0.3-1 s (seeded) before each of
   its actions (hint, move, new game); what the page sends on its own (the
   reply after the check, the review) goes at once, as the page sends it.
2. ``flood`` (``--flood-seconds``, default 40): the pupils go on while 4
   connections from the same address post fresh 15x15 positions (k=5, level
   perfect, a new seed each) to ``POST /move`` back to back (bench/fairness.py's
   flood: 50 ms pause after a refusal).  Goals: no refusal for the pupils, and
   429s with Retry-After for the flood.
3. ``lab class`` (at most ``--trace-seconds``, default 60): ``--players`` pupils
   behind one address, 127.0.0.3 (a fresh one, so that phase 2's flood does not
   decide their fate), open /lab's two experiments at once: each pupil's page
   watches the search of the empty 3x3 board, then of X in the centre, with the
   engines /lab has checked, one ``GET /trace`` after another as
   static/js/lab-watch.js sends them (through api.js: a refusal retried once),
   and the time each trace took is its wait; meanwhile another address, 127.0.0.2, asks hints
   (``POST /analyze``, the page's payload) of fresh 5x5 k=4 positions of 5 to
   8 stones, which need a search, thinking 0.3-1 s between them.  Reported:
   how many of its hints were answered or refused.

Throughout, a probe asks ``GET /livez`` every 0.5 s on a new connection
(goal in phase 2: within 1 s).  The table gives, per phase and request kind,
requests (each attempt), their statuses and p50/p99 latency; then the flood's
429s with Retry-After, /livez, the other address's hints, the errors the page
would have shown, and the client's own CPU time per phase (it shares the
machine's cores with the server).

    .venv/bin/python bench/classroom.py [--players-seconds 60] [--flood-seconds 40]
        [--trace-seconds 60] [--players 30] [--level medium] [--seed 1] [--env KEY=VALUE ...]

``--env`` passes settings to the server; the shell's own search-limit settings
are not passed on (the run is of the default limit unless ``--env`` says
otherwise).  Exits 1 when a goal is missed.  Traffic goes to 127.0.0.1 only,
from 127.0.0.1-3; every loop is bounded in time and count and stops by itself.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from load import cold_positions  # noqa: E402
from traffic import FLOODER_ADDRESS, Client, Reply, Tally, flood, percentile, random_15x15  # noqa: E402

from tests.servers import Gunicorn, wait_for_workers  # noqa: E402
from tictactoe import LEVELS, Rules  # noqa: E402
from tictactoe.algorithms.registry import ENGINES, TRACEABLE  # noqa: E402
from tictactoe.game.notation import position_text  # noqa: E402

PLAYER_ADDRESS = "127.0.0.1"
OTHER_ADDRESS = FLOODER_ADDRESS  # 127.0.0.2
TRACE_ADDRESS = "127.0.0.3"
# The server's per-client search limit, by its name before and after the lead's change: only --env sets it.
LIMIT_SETTINGS = ("SEARCH_RATE_LIMIT", "SEARCH_SECONDS_PER_MINUTE")

# The game page (static/js/settings.js DEFAULT_SETTINGS; api.js's retry).
PAGE_LEVEL = "medium"
PAGE_SIZE, PAGE_K = 3, 3
EMPTY = ["." * PAGE_SIZE] * PAGE_SIZE
CENTRE = ["...", ".x.", "..."]  # the lab's second experiment: the reply after X takes the centre
PAGE_RETRIES = 1
PAGE_RETRY_DELAY = 0.4  # seconds, times the attempt's number (api.js RETRY_DELAY_MS)
MAX_AUTO_RETRY_WAIT = 5  # seconds: a 503 whose Retry-After is longer is not retried (api.js)

THINK = (0.3, 1.0)  # seconds a pupil thinks before each of its actions
MAX_GAMES = 1_000  # per pupil: a bound the phases' time reaches first
RETRY_CLICKS = 5  # per turn: a pupil presses Retry at most this often, then starts a new game
FLOOD_CONNECTIONS = 4
WORKERS = 2
OTHER_POSITIONS = 300  # fresh 5x5 positions for the other address: more than a phase can ask
PROBE_EVERY = 0.5
LIVEZ_GOAL = 1.0

PLAYERS, FLOOD, TRACES = "1 players", "2 players + flood", "3 lab class"


class Page:
    """What static/js/api.js sends for one page: a dropped or busy (503) request is tried again once."""

    def __init__(self, client: Client, tally: Tally, until: float, stop: threading.Event) -> None:
        self.client, self.tally, self.until, self.stop = client, tally, until, stop

    def send(self, kind: str, method: str, path: str, body: dict | None = None) -> Reply:
        """The request, and once more as api.js's retryDelay() says (not past ``until``).

        A dropped connection after 400 ms, a 503 after its Retry-After (when at
        most 5 s); never a 429 (the page waits it out and the player retries).
        """
        for tries in range(PAGE_RETRIES + 1):
            reply = self.tally.send(self.client, kind, method, path, body)
            delay = retry_delay(reply, tries)
            if delay is None or tries == PAGE_RETRIES or not self.wait(delay):
                break
        return reply

    def wait(self, seconds: float) -> bool:
        """Wait ``seconds``; whether there is still time after it."""
        self.stop.wait(seconds)
        return not self.stop.is_set() and time.monotonic() < self.until


def retry_delay(reply: Reply, tries: int) -> float | None:
    """Seconds before api.js sends a failed request again by itself, or None when it does not."""
    backoff = PAGE_RETRY_DELAY * (tries + 1)
    if reply.status == 0:
        return backoff
    if reply.status != 503:
        return None
    retry_after = reply.headers.get("Retry-After")
    if retry_after is None or not retry_after.isdigit():
        return backoff
    return float(retry_after) if int(retry_after) <= MAX_AUTO_RETRY_WAIT else None


def position_path(rows: list[str], k: int) -> str:
    """The GET /position URL the page asks for ``rows`` (api.js position(): "/" left unescaped)."""
    return "/position?" + urlencode({"board": position_text(rows), "k": str(k)}).replace("%2F", "/")


def place(rows: list[str], cell: int, stone: str) -> list[str]:
    """``rows`` with ``stone`` on ``cell`` (counted along the rows), as state.js place() does."""
    row, col = divmod(cell, len(rows[0]))
    return [text[:col] + stone + text[col + 1 :] if r == row else text for r, text in enumerate(rows)]


class Pupil:
    """One pupil on the game page with its default settings (3x3, X against the engine at ``level``)."""

    def __init__(
        self, page: Page, rng: random.Random, level: str, think: tuple[float, float] = THINK
    ) -> None:
        """``think``: the shortest and longest time (s) the pupil thinks before an action."""
        self.page, self.rng, self.level, self.thinking = page, rng, level, think
        self.reviewed: set[str] = set()  # review-panel.js's answers: kept for the page's life

    def think(self) -> bool:
        """Think before an action; whether there is still time to act."""
        return self.page.wait(self.rng.uniform(*self.thinking))

    def run(self) -> None:
        """Open the page, then play game after game until the time is up."""
        self.page.send("page", "GET", "/")
        self.page.send("page", "GET", "/engines")
        for _ in range(MAX_GAMES):
            if not self.play_game():
                return

    def play_game(self) -> bool:
        """One game, its review, and New game; whether there is still time for another."""
        history, status = [EMPTY], "in_progress"
        while status == "in_progress":
            if not self.think():
                return False
            self.hint(history[-1])
            if not self.think():
                return False
            empty = [cell for cell, stone in enumerate("".join(history[-1])) if stone == "."]
            history.append(place(history[-1], self.rng.choice(empty), "x"))
            outcome = self.advance(history[-1])
            if outcome is None:  # the pupil gave up on this game (or the time is up)
                return self.think()  # before pressing New game
            status, reply = outcome
            if reply is not None:
                history.append(reply)
        self.review(history)
        return self.think()  # before pressing New game, which sends nothing

    def payload(self, rows: list[str]) -> dict:
        """The body of /move and /analyze for ``rows`` (state.js requestFor())."""
        return {"board": rows, "k": PAGE_K, "level": self.level}

    def hint(self, rows: list[str]) -> None:
        """Ask the page's Hint (game.js hint()); a failure is shown and the pupil plays on."""
        if self.page.send("hint", "POST", "/analyze", self.payload(rows)).status != 200:
            self.page.tally.shown()

    def advance(self, rows: list[str]) -> tuple[str, list[str] | None] | None:
        """What game.js advance() asks after the pupil's move: the status, then the engine's reply.

        Returns (status, the board after the reply or None when the game ended on the pupil's
        move); None when the server had not answered both after RETRY_CLICKS presses of Retry,
        or the time ran out.
        """
        pending = "check"
        for _ in range(1 + RETRY_CLICKS):
            if pending == "check":
                reply = self.page.send("state", "POST", "/state", {"board": rows, "k": PAGE_K})
                if reply.status == 200:
                    if reply.body["status"] != "in_progress":
                        return reply.body["status"], None
                    pending = "engine"
            if pending == "engine":
                reply = self.page.send("move", "POST", "/move", self.payload(rows))
                if reply.status == 200:
                    return reply.body["status"], reply.body["board"]
            self.page.tally.shown()
            if not self.think():  # then Retry (or, after the last, New game)
                return None
        return None

    def review(self, history: list[list[str]]) -> None:
        """The review the page opens when the game ends: each position before a move not answered yet."""
        for rows in history[:-1]:
            key = "/".join(rows)
            if key in self.reviewed:
                continue
            if time.monotonic() >= self.page.until or self.page.stop.is_set():
                return
            if self.page.send("review", "GET", position_path(rows, PAGE_K)).status == 200:
                self.reviewed.add(key)
            else:
                self.page.tally.shown()


def experiment_requests() -> list[tuple[str, str, str, dict | None]]:
    """What /lab asks, in order, as (kind, method, path, body), for its two experiments (the empty
    3x3 board, then X in the centre): the experiment's button runs every engine (GET /engines, then
    POST /analyze with each, static/js/lab.js runAll), then Watch the search loads the engines it has
    checked (every traceable one but negascout: templates/lab.html), as api.js trace() writes it:
    board, engine, node, k.  (The line of perfect play after the table is cached /move: left out.)"""
    requests: list[tuple[str, str, str, dict | None]] = []
    for rows in (EMPTY, CENTRE):
        requests.append(("lab page", "GET", "/engines", None))
        requests += [("lab engine", "POST", "/analyze", {"board": rows, "engine": name}) for name in ENGINES]
        query = {"board": position_text(rows), "node": 0, "k": PAGE_K}
        requests += [
            ("trace", "GET", "/trace?" + urlencode({**query, "engine": name}).replace("%2F", "/"), None)
            for name in TRACEABLE
            if name != "negascout"
        ]
    return requests


def in_threads(count: int, target: Callable[[int], None]) -> list[threading.Thread]:
    """Start ``target(i)`` for i in 0..count-1, each in a thread; returns the threads."""
    threads = [threading.Thread(target=target, args=(i,), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    return threads


def probe(port: int, tally: Tally, stop: threading.Event) -> None:
    """GET /livez every PROBE_EVERY s on a new connection, as a platform's health check, until ``stop``."""
    next_at = time.monotonic()
    while not stop.is_set():
        client = Client(port)
        tally.send(client, "livez", "GET", "/livez")
        client.close()
        now = time.monotonic()
        next_at += PROBE_EVERY * max(
            1, int((now - next_at) // PROBE_EVERY) + 1
        )  # a late probe skips its turn
        stop.wait(next_at - now)


@dataclass
class Run:
    """What one run measured."""

    tally: Tally
    other_hints: Counter  # the other address's hints, by their final status (after the page's retry)
    load: tuple[float, float]  # the machine's 1-minute load average at the start and at the end


def fresh_15x15(rng: random.Random) -> dict:
    """A flood's request: a fresh 15x15 position (k=5, level perfect) with a new seed."""
    return {**random_15x15(rng), "k": 5, "level": "perfect", "seed": rng.randrange(2**31)}


def classroom(server: Gunicorn, args: argparse.Namespace, stop: threading.Event) -> Run:
    """The three phases against ``server``; ``stop`` ends every loop early when set."""
    tally, load_at_start = Tally(), os.getloadavg()[0]
    prober = threading.Thread(target=probe, args=(server.port, tally, stop), daemon=True)
    others = cold_positions(OTHER_POSITIONS, Rules(5, 5, 4), range(5, 9), seed=args.seed)

    # Phases 1 and 2: the pupils play through both; the flood joins them for the second.
    players_until = time.monotonic() + args.players_seconds + args.flood_seconds

    def pupil(i: int) -> None:
        page = Page(Client(server.port, PLAYER_ADDRESS), tally, players_until, stop)
        Pupil(page, random.Random(f"{args.seed}:pupil:{i}"), args.level).run()

    tally.begin(PLAYERS)
    prober.start()
    pupils = in_threads(args.players, pupil)
    stop.wait(args.players_seconds)
    tally.end()
    tally.begin(FLOOD)
    flood_stop = threading.Event()

    def flooder(_: int) -> None:
        flood(
            server.port,
            FLOOD_CONNECTIONS,
            flood_stop,
            source=PLAYER_ADDRESS,
            make_body=fresh_15x15,
            on_reply=lambda reply: tally.record(FLOOD, "flood", reply),
            first_seed=args.seed * FLOOD_CONNECTIONS,
        )

    flooding = in_threads(1, flooder)
    stop.wait(max(0.0, players_until - time.monotonic()))
    flood_stop.set()
    for thread in flooding + pupils:
        thread.join()
    tally.end()

    # Phase 3: a class opens the lab's two experiments at once from one address; hints from another.
    tally.begin(TRACES)
    traces_until = time.monotonic() + args.trace_seconds

    def lab_pupil(_: int) -> None:
        # The lab's table, then Watch the search, through api.js (one retry), one search after another.
        page = Page(Client(server.port, TRACE_ADDRESS), tally, traces_until, stop)
        for kind, method, path, body in experiment_requests():
            if time.monotonic() >= traces_until or stop.is_set():
                return
            if page.send(kind, method, path, body).status != 200:
                return  # the page shows the refusal and runs nothing more

    other_hints: Counter = Counter()

    class_done = threading.Event()

    def other(_: int) -> None:
        page = Page(Client(server.port, OTHER_ADDRESS), tally, traces_until, class_done)
        rng = random.Random(f"{args.seed}:other")
        for body in others:
            if not page.wait(rng.uniform(*THINK)):
                return
            other_hints[
                page.send("other hint", "POST", "/analyze", {**body, "level": args.level}).status
            ] += 1

    lab = in_threads(args.players, lab_pupil)
    hints = in_threads(1, other)
    for thread in lab:
        thread.join()
    class_done.set()  # the other address asks while the class is at it, no longer
    for thread in hints:
        thread.join()
    tally.end()
    stop.set()
    prober.join()
    return Run(tally, other_hints, (load_at_start, os.getloadavg()[0]))


LAB_KINDS = ("lab page", "lab engine", "trace")
KINDS = ("page", "hint", "state", "move", "review", "flood", "livez", *LAB_KINDS, "other hint")
PUPIL_KINDS = ("page", "hint", "state", "move", "review")
SHOWN = (200, 304, 429, 503)


def table(tally: Tally) -> list[str]:
    """The markdown table: per phase and kind, requests by status and their p50 and p99."""
    lines = [
        "| phase | kind | requests | 200 | 304 | 429 | 503 | other | p50 ms | p99 ms |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |",
    ]
    for phase in (PLAYERS, FLOOD, TRACES):
        for kind in KINDS:
            row = tally.get(phase, kind)
            if not row.seconds:
                continue
            others = sorted((status, n) for status, n in row.statuses.items() if status not in SHOWN)
            other = ", ".join(f"{n}×{status or 'dropped'}" for status, n in others) or "0"
            counts = " | ".join(str(row.statuses[status]) for status in SHOWN)
            lines.append(
                f"| {phase} | {kind} | {len(row.seconds)} | {counts} | {other}"
                f" | {percentile(row.seconds, 0.5) * 1000:.0f} | {percentile(row.seconds, 0.99) * 1000:.0f} |"
            )
    return lines


def report(run: Run, args: argparse.Namespace, env: dict[str, str]) -> bool:
    """Print the table and the goals' figures; whether every goal was met."""
    tally = run.tally
    settings = ", ".join(f"{name}={value}" for name, value in env.items()) or "none"
    print(
        f"gunicorn.conf.py (2 gevent workers), file cache in a fresh temp folder, --env: {settings};"
        f" {args.players} pupils at level {args.level}, seed {args.seed};"
        f" phases {args.players_seconds:g} s / {args.flood_seconds:g} s / {args.trace_seconds:g} s"
    )
    print()
    print("\n".join(table(tally)))
    print()
    refused = {
        phase: sum(tally.get(phase, kind).statuses[status] for kind in PUPIL_KINDS for status in (429, 503))
        for phase in (PLAYERS, FLOOD)
    }
    flood, livez = tally.get(FLOOD, "flood"), tally.get(FLOOD, "livez")
    livez_max = max(livez.seconds, default=0.0)
    hints = run.other_hints
    lab = {kind: tally.get(TRACES, kind) for kind in LAB_KINDS}
    expected = Counter(kind for kind, *_ in experiment_requests())
    goals = {
        "no refusal for the pupils": not any(refused.values()),
        "the flood gets 429s, each with Retry-After": 0 < flood.statuses[429] == flood.retry_after[429],
        f"/livez within {LIVEZ_GOAL:g} s during the flood": bool(livez.seconds) and livez_max <= LIVEZ_GOAL,
        "every search of the lab class answered, or refused with 429 once the allowance is spent": all(
            0 < asked.statuses[200] + asked.statuses[429] == len(asked.seconds) for asked in lab.values()
        ),
    }
    print(f"pupils' refusals (429 + 503): {refused[PLAYERS]} in phase 1, {refused[FLOOD]} in phase 2")
    print(
        "errors the page would have shown the pupils (after its retry): "
        f"{tally.shown_errors[PLAYERS]} in phase 1, {tally.shown_errors[FLOOD]} in phase 2"
    )
    print(
        f"flood: {len(flood.seconds)} requests, {flood.statuses[200]} searches answered, "
        f"{flood.statuses[429]} 429s ({flood.retry_after[429]} with Retry-After),"
        f" {flood.statuses[503]} 503s ({flood.retry_after[503]} with Retry-After)"
    )
    print(
        f"/livez during the flood: p50 {percentile(livez.seconds, 0.5) * 1000:.0f} ms, "
        f"max {livez_max * 1000:.0f} ms ({len(livez.seconds)} probes)"
    )
    for kind, asked in lab.items():
        waits = [percentile(asked.seconds, share) * 1000 for share in (0.5, 0.95, 1.0)]
        print(
            f"lab class, {kind}: {len(asked.seconds)} asked (of {args.players * expected[kind]} the pages"
            f" send), {asked.statuses[200]} answered, {asked.statuses[429]} refused with 429,"
            f" {asked.statuses[503]} with 503; the wait of each: p50 {waits[0]:.0f} ms,"
            f" p95 {waits[1]:.0f} ms, max {waits[2]:.0f} ms"
        )
    answered = hints[200]
    print(
        f"lab class phase, the other address's hints (after the page's retry): {answered} answered, "
        f"{hints[429] + hints[503]} refused (429: {hints[429]}, 503: {hints[503]}), "
        f"{sum(hints.values()) - answered - hints[429] - hints[503]} other"
    )
    print(
        "client CPU time: "
        + ", ".join(
            f"{tally.cpu.get(phase, 0.0):.1f} s in phase {phase}" for phase in (PLAYERS, FLOOD, TRACES)
        )
        + f"; {time.process_time():.1f} s in all, start-up included"
    )
    # The machine is shared: its load says how much of the latency is the server's own.
    print(f"machine load average (1 min) at the start and the end: {run.load[0]:.1f}, {run.load[1]:.1f}")
    for goal, met in goals.items():
        print(f"goal {'met' if met else 'MISSED'}: {goal}")
    return all(goals.values())


def setting(text: str) -> tuple[str, str]:
    """KEY=VALUE from the command line."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, not {text!r}")
    return name, value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players-seconds", type=float, default=60.0, help="phase 1 (default 60)")
    parser.add_argument("--flood-seconds", type=float, default=40.0, help="phase 2 (default 40)")
    parser.add_argument("--trace-seconds", type=float, default=60.0, help="phase 3 at most (default 60)")
    parser.add_argument("--players", type=int, default=30, help="pupils behind one address (default 30)")
    parser.add_argument("--level", choices=LEVELS, default=PAGE_LEVEL)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--env", type=setting, action="append", default=[], metavar="KEY=VALUE", help="a server setting"
    )
    args = parser.parse_args(argv)
    env = dict(args.env)
    for name in LIMIT_SETTINGS:
        os.environ.pop(name, None)
    stop = threading.Event()
    with (
        tempfile.TemporaryDirectory() as tmp,
        Gunicorn(workers=WORKERS, env={"CACHE_DIR": str(Path(tmp) / "cache"), **env}) as server,
    ):
        wait_for_workers(server.url, WORKERS)
        try:
            run = classroom(server, args, stop)
        finally:
            stop.set()  # tells every loop of the client to end before the server stops
    return 0 if report(run, args, env) else 1


if __name__ == "__main__":
    sys.exit(main())
