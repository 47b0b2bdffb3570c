"""Cached POST /move against a bare Flask app and light endpoints, with wrk: the speed floor.

Starts real gunicorn servers on 127.0.0.1, all with this tree's gunicorn
settings unless said otherwise, each with 2 workers:

- this tree as deployed (JSON request lines, metrics), its file cache filled
  with every non-terminal 3x3 position: ``POST /move`` (cached), ``POST /state``
  (parse and outcome, no engine) and ``GET /livez`` (a constant answer);
- the yardstick: a bare Flask app (``bench/bare_app.py``: one route that parses
  and echoes JSON, no middleware), ``POST /echo`` with the same bodies;
- with ``--compare DIR``, another checkout (the code before a change: ``git
  worktree add /tmp/before HEAD~1``) under its own settings: its cached ``/move``.

Then it runs wrk against each row in turn, for ``--rounds`` rounds (so that
what else the machine does falls on every row alike), and prints a table::

    row   req/s   p50   p99   worst p99   non-2xx   µs CPU/req   /move vs row (req/s)   (CPU)   restarts

``worst p99`` is the highest p99 of the row's rounds, and a last line sets
cached ``/move``'s beside the bare app's.  ``restarts`` counts the workers
gunicorn booted while the row's wrk ran (its "Booting worker" lines in the
server's log): the servers run with this tree's ``max_requests``, and a worker
recycled mid-run shows as slow answers, so it must stay 0 (the row's CPU is
then unknown too: its worker's time went with it).

The workers' own CPU time per request (user + system, from /proc) is the
steadier measure on a shared machine: throughput swings with what else runs,
CPU per request far less.  The floor is cached ``/move`` at 0.6 or more of the
bare app by requests a second, through the one request path (docs/benchmarks.md).
Traffic goes to 127.0.0.1 only, every wrk run is bounded in time.  Linux only (/proc).

    .venv/bin/python bench/wrk_move.py [--seconds 5] [--rounds 3] [--connections 16] [--compare DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.servers import Gunicorn, wait_for_workers  # noqa: E402
from tictactoe.tools.counting import reachable_positions  # noqa: E402

WORKERS = 2
BOOTED = "Booting worker with pid"  # gunicorn's arbiter, for every worker it starts
LUA_ROTATE = """
local bodies = {%s}
local path = "%s"
local i = 0
request = function()
  i = i %% #bodies + 1
  return wrk.format("POST", path, {["Content-Type"] = "application/json"}, bodies[i])
end
"""


def positions() -> list[str]:
    """The request bodies: every non-terminal 3x3 position, in the text form."""
    return [json.dumps({"board": board.to_text()}) for board in reachable_positions() if not board.is_over()]


def lua_quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_script(folder: Path, path: str, bodies: list[str]) -> Path:
    """A wrk Lua script that posts the bodies to ``path`` in turn."""
    script = folder / f"{path.strip('/')}.lua"
    script.write_text(LUA_ROTATE % (",".join(map(lua_quote, bodies)), path))
    return script


def run_wrk(url: str, seconds: int, connections: int, script: Path | None) -> dict:
    """One bounded wrk run; returns requests/s, latencies and the non-2xx count."""
    command = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout", "10s"]
    if script is not None:
        command += ["-s", str(script)]
    output = subprocess.run(
        [*command, url], capture_output=True, text=True, check=True, timeout=seconds + 30
    ).stdout
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    return {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1)),
        "p50": re.search(r"\s50%\s+(\S+)", output).group(1),
        "p99": re.search(r"\s99%\s+(\S+)", output).group(1),
        "non_2xx": int(non_2xx.group(1)) if non_2xx else 0,
        "socket_errors": sum(map(int, errors.groups())) if errors else 0,
        "requests": int(re.search(r"(\d+) requests in", output).group(1)),
    }


def cpu_seconds(pids: list[int]) -> float:
    """User plus system CPU time of the processes ``pids`` so far."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime (after the name)
    return total / os.sysconf("SC_CLK_TCK")


def worker_pids(server: Gunicorn) -> list[int]:
    pid = server.process.pid
    return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def logged(server: Gunicorn, log: Path) -> Gunicorn:
    """``server``, its output written to ``log`` (read by ``boots_since``)."""
    server.log_path = log
    return server


def boots_since(server: Gunicorn, offset: int) -> tuple[int, int]:
    """Workers booted per the server's log after byte ``offset``, and the log's end."""
    with open(server.log_path, "rb") as log:
        log.seek(offset)
        text = log.read()
    return text.count(BOOTED.encode()), offset + len(text)


def milliseconds(latency: str) -> float:
    """A wrk latency (``850.00us``, ``1.23ms``, ``1.20s``, ``1.05m``) in ms."""
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", latency).groups()
    return float(number) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}[unit]


@dataclass
class Row:
    """One thing measured: a URL on a running server, and its runs so far."""

    name: str
    server: Gunicorn
    path: str
    script: Path | None
    runs: list[dict] = field(default_factory=list)

    def measure(self, seconds: int, connections: int) -> None:
        pids = worker_pids(self.server)
        before = cpu_seconds(pids)
        _, log_offset = boots_since(self.server, 0)
        run = run_wrk(self.server.url + self.path, seconds, connections, self.script)
        run["restarts"], _ = boots_since(self.server, log_offset)
        try:
            run["cpu_us"] = 1e6 * (cpu_seconds(pids) - before) / max(run["requests"], 1)
        except FileNotFoundError:  # a worker was recycled: its CPU time is gone with it
            run["cpu_us"] = float("nan")
        self.runs.append(run)

    def worst_p99(self) -> float:
        """The highest p99 of the runs, in ms."""
        return max(milliseconds(run["p99"]) for run in self.runs)

    def mean(self, key: str) -> float:
        return sum(run[key] for run in self.runs) / len(self.runs)


def warm_up(row: Row, bodies: int, connections: int) -> None:
    """Post the row's bodies until each went out about 8 times (2 s runs, at most 30 s).

    Each worker has then seen nearly every body (a body misses a given worker with
    odds of about 1 in 2**8), however slowly the shared machine answers: the rounds
    measure repeated bodies, answered from each worker's memory, not its first
    reading of the cache (which also keeps the view's memo of the answer).
    """
    sent = 0
    for _ in range(15):
        sent += run_wrk(row.server.url + row.path, 2, connections, row.script)["requests"]
        if row.script is None or sent >= 8 * bodies:
            return


def limit_off(root: Path) -> dict[str, str]:
    """The setting that switches checkout ``root``'s per-client limit off.

    SEARCH_SECONDS_PER_MINUTE, or SEARCH_RATE_LIMIT in a checkout older than it
    (today's app refuses to start with the old name set).
    """
    configs = [root / "web" / "config.py", root / "web" / "operations" / "config.py"]
    current = any("SEARCH_SECONDS_PER_MINUTE" in path.read_text() for path in configs if path.exists())
    return {"SEARCH_SECONDS_PER_MINUTE" if current else "SEARCH_RATE_LIMIT": "off"}


def fill(server: Gunicorn, bodies: list[str]) -> None:
    """Post every body once: the cache then holds every position."""
    wait_for_workers(server.url, WORKERS)
    print(f"filling the cache of {server.root.name} with {len(bodies)} positions...", file=sys.stderr)
    for body in bodies:
        request = urllib.request.Request(
            server.url + "/move", data=body.encode(), headers={"Content-Type": "application/json"}
        )
        urllib.request.urlopen(request, timeout=30).read()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=5, help="each wrk run (default 5)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds over every row (default 3)")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument(
        "--compare",
        type=Path,
        metavar="DIR",
        help="another checkout of this project (say, the commit before a change): "
        "its cached /move is measured in the same run, under its own settings",
    )
    args = parser.parse_args(argv)
    if shutil.which("wrk") is None:
        print("wrk is not installed: apt-get install wrk", file=sys.stderr)
        return 2
    bodies = positions()
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as servers:
        folder = Path(tmp)
        move, state, echo = (write_script(folder, path, bodies) for path in ("/move", "/state", "/echo"))
        # Filling the cache is one client solving 4,520 positions: past any per-client
        # limit on searches (web/searches/rate_limit.py); the measured runs are cache hits, never limited.
        app = servers.enter_context(
            logged(
                Gunicorn(
                    workers=WORKERS,
                    env={"CACHE_DIR": str(folder / "cache"), "SEARCH_SECONDS_PER_MINUTE": "off"},
                ),
                folder / "app.log",
            )
        )
        bare = servers.enter_context(
            logged(
                Gunicorn(workers=WORKERS, app="bare_app:app", root=ROOT / "bench", ready_path="/echo"),
                folder / "bare.log",
            )
        )
        fill(app, bodies)
        rows = [
            Row("POST /move (cached, 4,520 positions)", app, "/move", move),
            Row("POST /echo (bare Flask app)", bare, "/echo", echo),
            Row("POST /state (parse and outcome only)", app, "/state", state),
            Row("GET /livez (constant JSON)", app, "/livez", None),
        ]
        if args.compare is not None:
            root = args.compare.resolve()
            other = servers.enter_context(
                logged(
                    Gunicorn(
                        workers=WORKERS,
                        root=root,
                        config=root / "gunicorn.conf.py",
                        env={"CACHE_DIR": str(folder / "cache-compare"), **limit_off(root)},
                    ),
                    folder / "compare.log",
                )
            )
            fill(other, bodies)
            rows.append(Row(f"POST /move (cached) at {root.name}", other, "/move", move))
        for row in rows:
            warm_up(row, len(bodies), args.connections)
        for round_ in range(args.rounds):
            for row in rows:
                row.measure(args.seconds, args.connections)
            print(f"round {round_ + 1} of {args.rounds} done", file=sys.stderr)
    print(
        f"gunicorn {WORKERS} workers (this tree's gunicorn.conf.py unless named), "
        f"wrk -t2 -c{args.connections} -d{args.seconds}s x {args.rounds} rounds, 127.0.0.1; "
        "means over the rounds"
    )
    print(
        f"{'row':<40} {'req/s':>7} {'p50':>8} {'p99':>8} {'worst p99':>10} {'non-2xx':>7} {'µs CPU':>7}"
        f" {'/move vs row':>12} {'(by CPU)':>9} {'restarts':>8}"
    )
    move_rps, move_cpu = rows[0].mean("rps"), rows[0].mean("cpu_us")
    for row in rows:
        last = row.runs[-1]
        print(
            f"{row.name:<40} {row.mean('rps'):>7.0f} {last['p50']:>8} {last['p99']:>8} "
            f"{row.worst_p99():>8.2f}ms "
            f"{sum(r['non_2xx'] + r['socket_errors'] for r in row.runs):>7} "
            f"{row.mean('cpu_us'):>7.0f} {move_rps / row.mean('rps'):>12.2f} "
            f"{row.mean('cpu_us') / move_cpu:>9.2f} {sum(r['restarts'] for r in row.runs):>8}"
        )
    move_p99, bare_p99 = rows[0].worst_p99(), rows[1].worst_p99()
    print(
        f"worst p99: cached /move {move_p99:.2f} ms, bare Flask app {bare_p99:.2f} ms "
        f"({move_p99 / bare_p99:.1f} times); workers booted during the measured runs: "
        f"{sum(r['restarts'] for row in rows for r in row.runs)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
