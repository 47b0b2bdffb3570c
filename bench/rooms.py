"""Rooms at human pace on the server as deployed: moves delivered, latency, streams kept, memory, the floor.

Starts gunicorn as deployed (this tree's gunicorn.conf.py: 2 gevent workers,
the SQLite store in a temporary ``CACHE_DIR``, no Redis) with worker recycling
off (``GUNICORN_MAX_REQUESTS=0``), and the bare Flask app (bench/bare_app.py)
beside it.  Then ``--rooms`` rooms are made, each by its host from a loopback
address of its own (127.1.x.y: a player per address, as on the internet), the
guest is seated, and both seats open their event stream: ``2 x --rooms``
streams, spread over the workers by the kernel.  Each room then plays 3x3
games at human pace: the side to move waits 2 to 5 s (seeded), posts a random
empty cell (a new connection each time, from its own address), and when a game
ends both ask for a rematch and the next one starts.

First, on this machine's disk and kernel (a few seconds): what one change of a
room costs in the SQLite store as the app makes it (web/rooms/sqlite_store.py:
a move and its event committed, ``synchronous=FULL``, against ``NORMAL``, which
would not wait for the disk); and how long a wake-up takes from one process to
another through a named pipe, as web/rooms/wakeups.py sends it (ping-pong
between two processes, each sleeping in ``select`` until its pipe has a line).

Then, for every move: whether it reached the other seat's stream, and the
time from sending its POST to that event's arrival (the client's own clock;
the bench's one asyncio loop reads every stream); streams that ended or
failed; each process's RSS every second (master and workers, against the
512 MiB plan).  While the rooms play, wrk measures cached ``POST /move`` on
the app (every non-terminal 3x3 position, the cache filled first) and ``POST
/echo`` on the bare app, in turn for ``--rounds`` rounds of ``--wrk-seconds``:
the speed floor, with the rooms' load on the machine for both.  Loopback only,
bounded in time.  Linux only (/proc).

    .venv/bin/python bench/rooms.py [--rooms 500] [--seconds 90] [--rounds 2] [--wrk-seconds 10] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import resource
import select
import shutil
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack, suppress
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.memory import PLAN_MIB, Samples  # noqa: E402
from bench.wrk_move import Row, cpu_seconds, fill, positions, warm_up, worker_pids, write_script  # noqa: E402
from tests.servers import Gunicorn, wait_for_workers  # noqa: E402

WORKERS = 2
PACE = (2.0, 5.0)  # seconds a player thinks before each move
CONNECTIONS = 16  # wrk's
SETTING_UP = 50  # rooms made at once while they are set up
SETTLE_SECONDS = 10  # the rooms play this long before wrk runs
DRAIN_SECONDS = 10  # once play stops, the moves on their way are given this long to arrive

Move = tuple[str, int, int]  # room, game, ply


@dataclass
class Figures:
    """What the rooms saw: when each move was sent (and by which seat), when each seat's stream got it."""

    sent: dict[Move, tuple[float, str]] = field(default_factory=dict)
    arrived: dict[tuple[Move, str], float] = field(default_factory=dict)
    during_wrk: set[Move] = field(default_factory=set)
    answered: list[float] = field(default_factory=list)  # each move's POST, sent to answered (s)
    refused: int = 0
    streams_open: int = 0
    streams_refused: int = 0
    streams_dropped: int = 0
    wrk_running: bool = False
    readers: list[asyncio.Future] = field(default_factory=list)  # every stream's reading task
    play_seconds: float = 0.0  # how long the rooms played, wrk's runs included
    worker_cpu: float = 0.0  # the workers' CPU seconds (user + system) while the rooms played
    client_cpu: float = 0.0  # this script's, meanwhile

    def undelivered(self) -> int:
        """Moves sent that have not reached the other seat's stream (yet)."""
        return len(self.sent) - len(self.latencies())

    def latencies(self, moves: set[Move] | None = None) -> list[float]:
        """Seconds from each move's POST to its event on the other seat's stream (delivered ones)."""
        found = []
        for move, (at, seat) in self.sent.items():
            other = "guest" if seat == "host" else "host"
            arrived = self.arrived.get((move, other))
            if arrived is not None and (moves is None or move in moves):
                found.append(arrived - at)
        return found


def address(index: int) -> str:
    """The loopback address of player ``index`` (127.1.0.1 on)."""
    return f"127.1.{index // 250}.{index % 250 + 1}"


async def request(
    port: int, source: str, method: str, path: str, body: dict | None = None
) -> tuple[int, dict]:
    """One request on a new connection from ``source``: (status, JSON answer)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    try:
        data = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
        writer.write(head.encode() + b"\r\n" + data)
        await writer.drain()
        answer = await reader.read()
    finally:
        writer.close()
    status = int(answer.split(b" ", 2)[1])
    return status, json.loads(answer.split(b"\r\n\r\n", 1)[1] or b"{}")


async def open_stream(port: int, source: str, room: str, token: str | None) -> tuple | None:
    """A seat's stream (a spectator's with no ``token``), its headers read: (reader, writer), or None
    when it was refused."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    query = "" if token is None else f"?token={token}"
    writer.write(
        f"GET /rooms/{room}/events{query} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Accept: text/event-stream\r\n\r\n".encode()
    )
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    if head.startswith(b"HTTP/1.1 200"):
        return reader, writer
    writer.close()
    return None


async def read_stream(opened: tuple, room: str, seat: str, figures: Figures) -> None:
    """Read a seat's stream (chunked) until cancelled, noting when each move arrives."""
    reader, writer = opened
    pending = b""
    try:
        while True:
            size = int((await reader.readline()).strip() or b"0", 16)
            if size == 0:
                raise ConnectionError("the stream ended")
            pending += (await reader.readexactly(size + 2))[:-2]
            while b"\n\n" in pending:
                block, pending = pending.split(b"\n\n", 1)
                fields = dict(line.split(": ", 1) for line in block.decode().split("\n") if ": " in line)
                if fields.get("event") == "move":
                    data = json.loads(fields["data"])
                    figures.arrived[((room, data["game"], data["ply"]), seat)] = time.perf_counter()
    except (ConnectionError, asyncio.IncompleteReadError, ValueError):
        figures.streams_dropped += 1
    finally:
        writer.close()


async def play_room(
    port: int, index: int, figures: Figures, stop: asyncio.Event, rng: random.Random, gates
) -> None:
    """Make a room, seat the guest, open both streams, then play games at human pace until ``stop``."""
    setting_up, ready = gates
    async with setting_up:
        host_address, guest_address = address(2 * index), address(2 * index + 1)
        status, host = await request(port, host_address, "POST", "/rooms", {"side": "x"})
        assert status == 201, host
        room = host["room"]
        invite = host["links"]["invite"].split("#invite=")[1]
        status, guest = await request(port, guest_address, "POST", f"/rooms/{room}/seats", {"invite": invite})
        assert status == 201, guest
        seats = {"host": (host_address, host["token"]), "guest": (guest_address, guest["token"])}
        for name, (source, token) in seats.items():
            opened = await open_stream(port, source, room, token)
            if opened is None:
                figures.streams_refused += 1
                continue
            figures.streams_open += 1
            figures.readers.append(asyncio.ensure_future(read_stream(opened, room, name, figures)))
    await ready.wait()
    state = guest["state"]
    while not stop.is_set():
        with suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), rng.uniform(*PACE))
            break
        if state["status"] != "in_progress":  # both ask for the next game
            for name in ("host", "guest"):
                source, token = seats[name]
                status, state = await request(
                    port, source, "POST", f"/rooms/{room}/rematch", {"token": token}
                )
            continue
        side = state["to_move"]
        name = state["players"][side]["seat"]
        source, token = seats[name]
        empty = [(r, c) for r, row in enumerate(state["board"]) for c, ch in enumerate(row) if ch == "."]
        row, col = rng.choice(empty)
        move = (room, state["game"], len(state["moves"]) + 1)
        figures.sent[move] = (time.perf_counter(), name)
        if figures.wrk_running:
            figures.during_wrk.add(move)
        body = {"token": token, "move": {"row": row, "col": col}}
        status, answer = await request(port, source, "POST", f"/rooms/{room}/moves", body)
        figures.answered.append(time.perf_counter() - figures.sent[move][0])
        if status != 200:
            figures.refused += 1
            del figures.sent[move]
            continue
        state = answer


async def sample_memory(server: Gunicorn, samples: Samples, stop: asyncio.Event) -> None:
    """The RSS of the master and each worker, every second, until ``stop``."""
    while not stop.is_set():
        samples.take(server.process.pid)
        with suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 1.0)


def commit_costs(folder: Path, count: int = 300) -> dict[str, float]:
    """Median ms of one move committed by the SQLite store, as the app commits it and without the flush."""
    from tictactoe import Rules
    from web.rooms import sqlite_store
    from web.rooms.model import Room

    times: dict[str, float] = {}
    for synchronous in ("FULL", "NORMAL"):
        path = folder / f"rooms-{synchronous}.sqlite3"
        store = sqlite_store.SqliteRoomStore(path, count, count, synchronous=synchronous)
        took = []
        for index in range(count):
            room, host, invite = Room.open(f"bench{index:03d}", Rules(), "x", now=0.0)
            store.add(room, [], now=0.0)
            store.change(room.id, 0.0, lambda room, now, invite=invite: room.seat_guest(invite, now)[1])
            started = time.perf_counter()
            store.change(room.id, 1.0, lambda room, now, host=host: room.play(host, 1, 1, now))
            took.append(time.perf_counter() - started)
        times[f"a move committed, synchronous={synchronous}"] = 1000 * statistics.median(took)
    return times


def _echo(there: str, back: str, count: int) -> None:
    """The other process of ``wake_up_latency``: each line that comes on ``there`` goes back on ``back``."""
    reader = os.open(there, os.O_RDONLY | os.O_NONBLOCK)
    writer = os.open(back, os.O_WRONLY)
    for _ in range(count):
        select.select([reader], [], [])
        os.write(writer, os.read(reader, 64))


def wake_up_latency(folder: Path, count: int = 2000) -> list[float]:
    """One-way ms of wake-ups through named pipes to another process asleep in select (half round trips)."""
    there, back = folder / "there.fifo", folder / "back.fifo"
    os.mkfifo(there)
    os.mkfifo(back)
    other = multiprocessing.get_context("spawn").Process(target=_echo, args=(str(there), str(back), count))
    other.start()
    writer = os.open(there, os.O_WRONLY)
    reader = os.open(back, os.O_RDONLY)
    trips = []
    for _ in range(count):
        started = time.perf_counter()
        os.write(writer, b"Hx7kP2qa\n")
        os.read(reader, 64)
        trips.append(1000 * (time.perf_counter() - started) / 2)
    other.join(timeout=30)
    return trips


async def measure(
    args: argparse.Namespace, app: Gunicorn, rows: list[Row]
) -> tuple[Figures, Samples, dict[int, float]]:
    figures, samples = Figures(), Samples()
    stop, ready = asyncio.Event(), asyncio.Event()
    gates = (asyncio.Semaphore(SETTING_UP), ready)
    rng = random.Random(args.seed)
    samples.take(app.process.pid)
    start = dict(samples.last)
    memory = asyncio.ensure_future(sample_memory(app, samples, stop))
    rooms = [
        asyncio.ensure_future(play_room(app.port, index, figures, stop, random.Random(rng.random()), gates))
        for index in range(args.rooms)
    ]
    while figures.streams_open + figures.streams_refused < 2 * args.rooms:
        await asyncio.sleep(0.2)  # the bench's own pace of reporting, nothing waits on it
    print(f"{figures.streams_open} streams open, {figures.streams_refused} refused: playing", file=sys.stderr)
    workers = worker_pids(app)
    cpu_before, client_before = cpu_seconds(workers), time.process_time()
    ready.set()
    started = time.monotonic()
    await asyncio.sleep(SETTLE_SECONDS)
    for round_ in range(args.rounds):
        for row in rows:
            figures.wrk_running = True
            await asyncio.to_thread(row.measure, args.wrk_seconds, CONNECTIONS)
            figures.wrk_running = False
        print(f"wrk round {round_ + 1} of {args.rounds} done", file=sys.stderr)
    await asyncio.sleep(max(0.0, args.seconds - (time.monotonic() - started)))
    stop.set()
    figures.play_seconds = time.monotonic() - started
    figures.worker_cpu = cpu_seconds(workers) - cpu_before
    figures.client_cpu = time.process_time() - client_before
    await asyncio.gather(*rooms, memory, return_exceptions=True)
    # The moves still on their way when play stopped: given DRAIN_SECONDS at most to arrive.
    drained = time.monotonic() + DRAIN_SECONDS
    while figures.undelivered() and time.monotonic() < drained:
        await asyncio.sleep(0.1)
    for reader in figures.readers:
        reader.cancel()
    await asyncio.gather(*figures.readers, return_exceptions=True)
    return figures, samples, start


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=500)
    parser.add_argument("--seconds", type=int, default=90, help="how long the rooms play (default 90)")
    parser.add_argument("--rounds", type=int, default=2, help="wrk rounds over both rows while they play")
    parser.add_argument("--wrk-seconds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if shutil.which("wrk") is None:
        print("wrk is not installed: apt-get install wrk", file=sys.stderr)
        return 2
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the servers inherit it: a thousand streams
    bodies = positions()
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as servers:
        folder = Path(tmp)
        costs = commit_costs(folder)
        wakes = wake_up_latency(folder)
        env = {
            "CACHE_DIR": str(folder / "cache"),
            "SEARCH_SECONDS_PER_MINUTE": "off",
            "GUNICORN_MAX_REQUESTS": "0",
        }
        app = Gunicorn(workers=WORKERS, env=env)
        app.log_path = folder / "app.log"
        bare = Gunicorn(workers=WORKERS, app="bare_app:app", root=ROOT / "bench", ready_path="/echo")
        bare.log_path = folder / "bare.log"
        servers.enter_context(app)
        servers.enter_context(bare)
        move, echo = (write_script(folder, path, bodies) for path in ("/move", "/echo"))
        fill(app, bodies)
        wait_for_workers(app.url, WORKERS)
        rows = [
            Row("POST /move (cached), rooms playing", app, "/move", move),
            Row("POST /echo (bare Flask app)", bare, "/echo", echo),
        ]
        for row in rows:
            warm_up(row, len(bodies), CONNECTIONS)
        figures, samples, start = asyncio.run(measure(args, app, rows))
    print("a room's change on this disk (median of 300):")
    for name, ms in costs.items():
        print(f"  {name:<44} {ms:.3f} ms")
    print(
        f"a wake-up through a named pipe to another process: p50 {statistics.median(wakes):.3f} ms,"
        f" p99 {percentile(wakes, 0.99):.3f} ms (one way, {len(wakes)} round trips)"
    )
    report(args, figures, samples, start, rows)
    return 0


def report(
    args: argparse.Namespace, figures: Figures, samples: Samples, start: dict[int, float], rows: list[Row]
) -> None:
    ms = [1000 * value for value in figures.latencies()]
    during = [1000 * value for value in figures.latencies(figures.during_wrk)]
    posted = len(figures.sent)
    print(
        f"{args.rooms} rooms, {2 * args.rooms} streams asked, a move every {PACE[0]:g}-{PACE[1]:g} s a room,"
    )
    print(f"{args.seconds} s of play on gunicorn.conf.py (2 gevent workers, the SQLite store), 127.0.0.1")
    print(f"{'moves posted (200)':<38} {posted:>8}")
    print(f"{'moves refused':<38} {figures.refused:>8}")
    print(f"{'delivered to the other seat':<38} {len(ms):>8}   (not delivered: {figures.undelivered()})")
    if ms:
        print(
            f"{'POST to the other stream, ms':<38} p50 {statistics.median(ms):.1f}"
            f"  p99 {percentile(ms, 0.99):.1f}  max {max(ms):.1f}"
        )
    quiet = [1000 * value for value in figures.latencies(set(figures.sent) - figures.during_wrk)]
    if quiet:
        print(
            f"{'  of which while wrk did not run, ms':<38} p50 {statistics.median(quiet):.1f}"
            f"  p99 {percentile(quiet, 0.99):.1f}  ({len(quiet)} moves)"
        )
    if during:
        print(
            f"{'  of which while wrk ran, ms':<38} p50 {statistics.median(during):.1f}"
            f"  p99 {percentile(during, 0.99):.1f}  ({len(during)} moves)"
        )
    answered = [1000 * value for value in figures.answered]
    if answered:
        print(
            f"{'POST answered, ms':<38} p50 {statistics.median(answered):.1f}"
            f"  p99 {percentile(answered, 0.99):.1f}"
        )
    if posted:
        label = "the workers' CPU per move posted"
        print(
            f"{label:<38} {1000 * figures.worker_cpu / posted:.2f} ms"
            f"  (of the whole play: {figures.worker_cpu / figures.play_seconds:.2f} cores, wrk's runs"
            f" included; this script: {figures.client_cpu / figures.play_seconds:.2f} cores)"
        )
    print(
        f"{'streams open / refused / dropped':<38} {figures.streams_open} / {figures.streams_refused}"
        f" / {figures.streams_dropped}"
    )
    for index, pid in enumerate(sorted(samples.peak, key=lambda pid: (pid != min(samples.peak), pid))):
        name = "master" if index == 0 else f"worker {index}"
        print(
            f"{name:<38} start {start.get(pid, 0.0):.1f} MiB  peak {samples.peak[pid]:.1f} MiB"
            f"  end {samples.last.get(pid, 0.0):.1f} MiB"
        )
    print(f"{'all three, at one sample (peak)':<38} {samples.peak_sum:.1f} MiB of the {PLAN_MIB} MiB plan")
    move, bare = rows
    if not move.runs:
        return
    print(f"{'row':<40} {'req/s':>7} {'worst p99':>10} {'non-2xx':>7} {'µs CPU':>7}")
    for row in rows:
        print(
            f"{row.name:<40} {row.mean('rps'):>7.0f} {row.worst_p99():>8.2f}ms "
            f"{sum(r['non_2xx'] + r['socket_errors'] for r in row.runs):>7} {row.mean('cpu_us'):>7.0f}"
        )
    print(
        f"cached /move over the bare app: {move.mean('rps') / bare.mean('rps'):.2f} by req/s,"
        f" {bare.mean('cpu_us') / move.mean('cpu_us'):.2f} by CPU (the floor: 0.6)"
    )


if __name__ == "__main__":
    sys.exit(main())
