"""Attacks on the rooms, with honest players' latency beside each: streams flood, token spam, slow readers.

Starts gunicorn as deployed (this tree's gunicorn.conf.py: 2 gevent workers,
the SQLite store in a temporary ``CACHE_DIR``, no Redis).  Honest players
play throughout: ``--players`` rooms of 3x3 at a move every 0.3-0.8 s, each
seat from a loopback address of its own with its stream open, and a prober
from another address asks ``/livez`` five times a second.  Then, one phase
after another, each ``--seconds`` long:

- **quiet**: nothing else;
- **streams flood**: five addresses each open event streams until they are
  refused, and hold them (the issue's attack: five addresses once held 2,000);
- **wrong-token spam**: 64 kept-alive connections from 8 addresses post moves
  with tokens that hold no seat, as fast as they are answered;
- **slow readers**: 120 spectators of one room (three from each of 40
  addresses) that read nothing, while a pair of bots plays that room as fast
  as it answers (about 2,000 events a phase).

For each phase: the honest moves' delivery (POST to the other seat's stream:
p50, p99, max) and refusals, ``/livez`` (p50, max), what the attack got (its
answers by status, its streams held), the streams the server dropped (its
``/metrics``), and the kernel's TCP memory (``/proc/net/sockstat``) at its
peak.  Loopback only, bounded in time.  Linux only.

    .venv/bin/python bench/room_attacks.py [--players 20] [--seconds 20] [--seed 1] [--tree DIR]

``--tree DIR`` serves another checkout of the app (its own .venv) instead of this one: the same
attacks on an earlier version, for a before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import socket
import statistics
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Coroutine
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.rooms import open_stream, percentile, request  # noqa: E402
from tests.servers import Gunicorn, wait_for_workers  # noqa: E402

WORKERS = 2
PACE = (0.3, 0.8)
PHASES = ("quiet", "streams flood", "wrong-token spam", "slow readers")
PAGE = 4096  # /proc/net/sockstat counts TCP memory in pages


@dataclass
class Phase:
    """What one phase saw."""

    name: str
    sent: dict[tuple[str, int, int], float] = field(default_factory=dict)
    delivered: list[float] = field(default_factory=list)
    refused: int = 0
    livez: list[float] = field(default_factory=list)
    livez_failed: int = 0
    attack: Counter[str] = field(default_factory=Counter)
    tcp_pages: int = 0


class Bench:
    """The server, the honest rooms, and the phase being measured."""

    def __init__(self, server: Gunicorn, seed: int) -> None:
        self.server = server
        self.port = server.port
        self.rng = random.Random(seed)
        self.phase = Phase("setting up")
        self.stop = asyncio.Event()

    # -- honest players -------------------------------------------------------------------

    async def honest_room(self, index: int) -> None:
        """A room of two players from their own addresses, both streams open, playing until ``stop``."""
        host_at, guest_at = f"127.1.1.{2 * index + 1}", f"127.1.1.{2 * index + 2}"
        _, host = await request(self.port, host_at, "POST", "/rooms", {"side": "x"})
        room = host["room"]
        invite = host["links"]["invite"].split("#invite=")[1]
        _, guest = await request(self.port, guest_at, "POST", f"/rooms/{room}/seats", {"invite": invite})
        seats = {"host": (host_at, host["token"]), "guest": (guest_at, guest["token"])}
        readers = []
        for name, (source, token) in seats.items():
            opened = await open_stream(self.port, source, room, token)
            assert opened is not None, "an honest stream was refused while setting up"
            readers.append(asyncio.ensure_future(self.read(opened, room, name)))
        state, rng = guest["state"], random.Random(self.rng.random())
        while not self.stop.is_set():
            with suppress(TimeoutError):
                await asyncio.wait_for(self.stop.wait(), rng.uniform(*PACE))
                break
            if state["status"] != "in_progress":
                for source, token in seats.values():
                    path = f"/rooms/{room}/rematch"
                    _, state = await request(self.port, source, "POST", path, {"token": token})
                continue
            name = state["players"][state["to_move"]]["seat"]
            source, token = seats[name]
            empty = [(r, c) for r, row in enumerate(state["board"]) for c, ch in enumerate(row) if ch == "."]
            row, col = rng.choice(empty)
            phase, key = self.phase, (room, state["game"], len(state["moves"]) + 1)
            phase.sent[key] = (time.perf_counter(), name)
            body = {"token": token, "move": {"row": row, "col": col}}
            try:
                status, answer = await asyncio.wait_for(
                    request(self.port, source, "POST", f"/rooms/{room}/moves", body), 10
                )
            except TimeoutError:
                status = 0  # no answer in 10 s: the attack has taken the server
            if status != 200:
                phase.refused += 1
                phase.sent.pop(key, None)
                state = (await request(self.port, source, "GET", f"/rooms/{room}"))[1]
                continue
            state = answer
        for reader in readers:
            reader.cancel()

    async def read(self, opened: tuple, room: str, seat: str) -> None:
        """Read an honest seat's stream: a move that reaches the other seat's stream is delivered."""
        reader, writer = opened
        pending = b""
        try:
            while True:
                size = int((await reader.readline()).strip() or b"0", 16)
                if size == 0:
                    self.phase.attack["honest streams ended by the server"] += 1
                    return
                pending += (await reader.readexactly(size + 2))[:-2]
                while b"\n\n" in pending:
                    block, pending = pending.split(b"\n\n", 1)
                    fields = dict(line.split(": ", 1) for line in block.decode().split("\n") if ": " in line)
                    if fields.get("event") != "move":
                        continue
                    data = json.loads(fields["data"])
                    key = (room, data["game"], data["ply"])
                    sent = self.phase.sent.get(key)
                    if sent is not None and sent[1] != seat:
                        self.phase.delivered.append(time.perf_counter() - sent[0])
                        del self.phase.sent[key]
        except (ConnectionError, asyncio.IncompleteReadError):
            self.phase.attack["honest streams ended by the server"] += 1
        finally:
            writer.close()

    async def probe(self) -> None:
        """``/livez`` from an address of its own, five times a second, until ``stop``."""
        while not self.stop.is_set():
            started = time.perf_counter()
            try:
                status, _ = await asyncio.wait_for(request(self.port, "127.1.9.9", "GET", "/livez"), 10)
            except (TimeoutError, OSError):
                status = 0
            if status == 200:
                self.phase.livez.append(time.perf_counter() - started)
            else:
                self.phase.livez_failed += 1
            with suppress(TimeoutError):
                await asyncio.wait_for(self.stop.wait(), 0.2)

    async def sample_memory(self) -> None:
        """The kernel's TCP memory (pages), at its peak over the phase."""
        while not self.stop.is_set():
            self.phase.tcp_pages = max(self.phase.tcp_pages, tcp_pages())
            with suppress(TimeoutError):
                await asyncio.wait_for(self.stop.wait(), 0.25)

    # -- the attacks ------------------------------------------------------------------------

    async def streams_flood(self, room: str, until: asyncio.Event) -> None:
        """Five addresses open streams until refused, and hold them until ``until``."""
        held = []
        for n in range(5):
            while not until.is_set():
                try:
                    opened = await asyncio.wait_for(open_stream(self.port, f"127.2.0.{n + 1}", room, None), 5)
                except TimeoutError:  # the server holds no more connections: the attack has won
                    self.phase.attack["streams left unanswered for 5 s"] += 1
                    break
                if opened is None:
                    self.phase.attack["streams refused"] += 1
                    break
                held.append(opened)
                self.phase.attack["streams held"] += 1
        await until.wait()
        for _, writer in held:
            writer.close()

    async def token_spam(self, room: str, until: asyncio.Event) -> None:
        """64 kept-alive connections from 8 addresses post moves with wrong tokens until ``until``."""

        async def connection(n: int) -> None:
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", self.port, local_addr=(f"127.2.1.{n % 8 + 1}", 0)
            )
            body = json.dumps({"token": f"guess-{n}", "move": {"row": 0, "col": 0}}).encode()
            head = (
                f"POST /rooms/{room}/moves HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n\r\n"
            ).encode()
            try:
                while not until.is_set():
                    writer.write(head + body)
                    answer = await reader.readuntil(b"\r\n\r\n")
                    length = int(answer.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
                    await reader.readexactly(length)
                    self.phase.attack[f"spam answered {answer[9:12].decode()}"] += 1
            except (ConnectionError, asyncio.IncompleteReadError):
                self.phase.attack["spam connections closed"] += 1
            finally:
                writer.close()

        await asyncio.gather(*(connection(n) for n in range(64)))

    async def slow_readers(self, room: str, seats: dict, until: asyncio.Event) -> None:
        """120 spectators of ``room`` that read nothing, while two bots play it as fast as it answers."""
        sleepers = []
        for n in range(120):  # a small receive buffer, set before connecting, and nothing ever read
            sleeper = socket.socket()
            sleeper.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sleeper.bind((f"127.2.2.{n // 3 + 1}", 0))
            sleeper.setblocking(False)
            with suppress(BlockingIOError):
                sleeper.connect(("127.0.0.1", self.port))
            await asyncio.get_running_loop().sock_sendall(
                sleeper, f"GET /rooms/{room}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode()
            )
            sleepers.append(sleeper)
        state = (await request(self.port, "127.2.3.1", "GET", f"/rooms/{room}"))[1]
        cells = [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]  # X takes the top row
        while not until.is_set():
            if state["status"] != "in_progress":
                for source, token in seats.values():
                    _, state = await request(
                        self.port, source, "POST", f"/rooms/{room}/rematch", {"token": token}
                    )
                self.phase.attack["bot events"] += 3
                continue
            source, token = seats[state["players"][state["to_move"]]["seat"]]
            row, col = cells[len(state["moves"])]
            _, state = await request(
                self.port,
                source,
                "POST",
                f"/rooms/{room}/moves",
                {"token": token, "move": {"row": row, "col": col}},
            )
            self.phase.attack["bot events"] += 1 if state["status"] == "in_progress" else 2
        for sleeper in sleepers:
            sleeper.close()

    # -- the phases -----------------------------------------------------------------------------

    async def run(self, players: int, seconds: float) -> list[Phase]:
        self.phase = Phase("setting up")
        background = [asyncio.ensure_future(self.honest_room(index)) for index in range(players)]
        background += [asyncio.ensure_future(self.probe()), asyncio.ensure_future(self.sample_memory())]
        target = await self.bot_room("127.2.4.1", "127.2.4.2")
        phases = []
        for name in PHASES:
            await asyncio.sleep(1.0)  # the last phase's moves arrive before this one counts
            self.phase = Phase(name, tcp_pages=tcp_pages())
            dropped = metric(self.server.url, 'tictactoe_room_streams_ended_total{reason="dropped"}')
            until = asyncio.Event()
            attack = self.attack(name, target, until)
            running = asyncio.ensure_future(attack)
            await asyncio.sleep(seconds)
            until.set()
            await running
            self.phase.attack["streams dropped by the server"] = int(
                metric(self.server.url, 'tictactoe_room_streams_ended_total{reason="dropped"}') - dropped
            )
            phases.append(self.phase)
            print(f"{name}: done", file=sys.stderr)
        self.stop.set()
        await asyncio.gather(*background, return_exceptions=True)
        return phases

    def attack(self, name: str, target: tuple[str, dict], until: asyncio.Event) -> Coroutine[Any, Any, Any]:
        """The attack of phase ``name`` on room ``target``, running until ``until``."""
        room, seats = target
        if name == "streams flood":
            return self.streams_flood(room, until)
        if name == "wrong-token spam":
            return self.token_spam(room, until)
        if name == "slow readers":
            return self.slow_readers(room, seats, until)
        return until.wait()

    async def bot_room(self, host_at: str, guest_at: str) -> tuple[str, dict]:
        """A room with both seats taken, for the attacks: (its id, its seats' addresses and tokens)."""
        _, host = await request(self.port, host_at, "POST", "/rooms", {"side": "x"})
        room = host["room"]
        invite = host["links"]["invite"].split("#invite=")[1]
        _, guest = await request(self.port, guest_at, "POST", f"/rooms/{room}/seats", {"invite": invite})
        return room, {"host": (host_at, host["token"]), "guest": (guest_at, guest["token"])}


def tcp_pages() -> int:
    """The kernel's TCP memory now, in pages (/proc/net/sockstat's ``TCP: ... mem N``)."""
    with open("/proc/net/sockstat") as sockstat:
        for line in sockstat:
            if line.startswith("TCP:"):
                fields = line.split()
                return int(fields[fields.index("mem") + 1])
    return 0


def metric(url: str, line: str) -> float:
    """The value of ``line`` (a metric and its labels) on the server's /metrics."""
    with urllib.request.urlopen(f"{url}/metrics", timeout=30) as answer:
        for text in answer.read().decode().splitlines():
            if text.startswith(line + " "):
                return float(text.split()[-1])
    return 0.0


def report(players: int, seconds: float, phases: list[Phase]) -> None:
    print(f"{players} honest rooms (a move every {PACE[0]:g}-{PACE[1]:g} s), each phase {seconds:g} s,")
    print("gunicorn.conf.py (2 gevent workers, the rooms on the checkout's default store), 127.0.0.1")
    print(
        f"{'phase':<18} {'moves':>6} {'refused':>7} {'lost':>5} {'delivery p50/p99/max ms':>24}"
        f" {'/livez p50/max ms':>18} {'TCP mem MiB':>12}"
    )
    for phase in phases:
        ms = [1000 * value for value in phase.delivered]
        livez = [1000 * value for value in phase.livez]
        delivery = f"{statistics.median(ms):.1f} / {percentile(ms, 0.99):.1f} / {max(ms):.1f}" if ms else "-"
        probe = f"{statistics.median(livez):.1f} / {max(livez):.1f}" if livez else "-"
        if phase.livez_failed:
            probe += f" ({phase.livez_failed} failed)"
        print(
            f"{phase.name:<18} {len(ms):>6} {phase.refused:>7} {len(phase.sent):>5} {delivery:>24}"
            f" {probe:>18} {phase.tcp_pages * PAGE / 2**20:>12.1f}"
        )
    for phase in phases:
        if phase.attack:
            told = ", ".join(f"{name}: {count}" for name, count in sorted(phase.attack.items()))
            print(f"  {phase.name}: {told}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=20, help="honest rooms (default 20)")
    parser.add_argument("--seconds", type=float, default=20.0, help="each phase's length (default 20)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout to serve (default: this one)")
    args = parser.parse_args(argv)
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with tempfile.TemporaryDirectory() as tmp:
        env = {"CACHE_DIR": str(Path(tmp) / "cache"), "GUNICORN_MAX_REQUESTS": "0"}
        tree = args.tree.resolve()
        gunicorn = str(tree / ".venv" / "bin" / "gunicorn")
        command = [
            gunicorn,
            "--config",
            str(tree / "gunicorn.conf.py"),
            "--bind",
            "127.0.0.1:{port}",
            "app:app",
        ]
        with Gunicorn(workers=WORKERS, env=env, root=tree, command=command) as server:
            wait_for_workers(server.url, WORKERS)
            phases = asyncio.run(Bench(server, args.seed).run(args.players, args.seconds))
    print(f"the app of {tree}")
    report(args.players, args.seconds, phases)
    return 0


if __name__ == "__main__":
    sys.exit(main())
