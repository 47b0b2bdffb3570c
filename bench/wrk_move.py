"""Throughput of /move answered from the cache, against light JSON endpoints, with wrk.

Starts real gunicorn (2 workers, the default file-system cache in a temp folder)
on 127.0.0.1, fills the cache with every non-terminal 3x3 position, then runs
wrk against each endpoint in turn, in the same run, and prints a table:

    endpoint                          req/s    p50     p99   non-2xx  ratio

The last column is cached ``/move``'s throughput over the row's: the speed floor
is ``/move`` at 0.75 or more of the bare Flask app (``bench/bare_app.py``, one
route that parses and echoes JSON, no middleware) under the same gunicorn
settings.  ``--compare DIR`` also measures cached ``/move`` of another checkout
(the code before a change: ``git worktree add /tmp/before HEAD~1``) in the same
run.  Traffic goes to 127.0.0.1 only, and every wrk run is bounded in time.

    .venv/bin/python bench/wrk_move.py [--seconds 10] [--connections 16] [--workers 2] [--compare DIR]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.servers import Gunicorn, wait_for_workers  # noqa: E402
from tictactoe.counting import reachable_positions  # noqa: E402

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
    return [json.dumps({"board": board.to_text()})
            for board in reachable_positions() if not board.is_over()]


def lua_quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_script(folder: Path, path: str, bodies: list[str]) -> Path:
    """A wrk Lua script that posts the bodies to ``path`` in turn."""
    script = folder / f"{path.strip('/')}.lua"
    script.write_text(LUA_ROTATE % (",".join(map(lua_quote, bodies)), path))
    return script


def run_wrk(url: str, seconds: int, connections: int, script: Path | None) -> dict:
    """One bounded wrk run; returns requests/s, latencies and the non-2xx count."""
    command = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency",
               "--timeout", "10s"]
    if script is not None:
        command += ["-s", str(script)]
    output = subprocess.run(command + [url], capture_output=True, text=True, check=True,
                            timeout=seconds + 30).stdout
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)",
                       output)
    return {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1)),
        "p50": re.search(r"\s50%\s+(\S+)", output).group(1),
        "p99": re.search(r"\s99%\s+(\S+)", output).group(1),
        "non_2xx": int(non_2xx.group(1)) if non_2xx else 0,
        "socket_errors": sum(map(int, errors.groups())) if errors else 0,
        "requests": int(re.search(r"(\d+) requests in", output).group(1)),
    }


def fill_and_measure(server: Gunicorn, bodies: list[str], script: Path, args) -> dict:
    """Post every body once (filling the cache), warm every worker up, then one measured run."""
    wait_for_workers(server.url, args.workers)
    print(f"filling the cache of {server.root} with {len(bodies)} positions...", file=sys.stderr)
    for body in bodies:
        request = urllib.request.Request(server.url + "/move", data=body.encode(),
                                         headers={"Content-Type": "application/json"})
        urllib.request.urlopen(request, timeout=30).read()
    # Every worker reads each entry once into its memory: warm them all up.
    run_wrk(server.url, max(2, args.seconds // 2), args.connections, script)
    return run_wrk(server.url, args.seconds, args.connections, script)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=10, help="each wrk run (default 10)")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--compare", type=Path, metavar="DIR",
                        help="another checkout of this project (say, the commit before a change): "
                             "its cached /move is measured in the same run, under its own settings")
    args = parser.parse_args(argv)
    if shutil.which("wrk") is None:
        print("wrk is not installed: apt-get install wrk", file=sys.stderr)
        return 2
    bodies = positions()
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        move_script = write_script(folder, "/move", bodies)
        state_script = write_script(folder, "/state", bodies)
        echo_script = write_script(folder, "/echo", bodies)
        with Gunicorn(workers=args.workers, app="bare_app:app", root=ROOT / "bench",
                      ready_path="/echo") as bare:
            # The warm-up run also waits out the other workers' start.
            run_wrk(bare.url, max(2, args.seconds // 2), args.connections, echo_script)
            runs.append(("POST /echo (bare Flask, parse and echo)",
                         run_wrk(bare.url, args.seconds, args.connections, echo_script)))
        # Filling the cache is one client solving 4,520 positions: past any per-client
        # limit on searches (web/rate_limit.py); the measured run is cache hits, never limited.
        with Gunicorn(workers=args.workers, env={"CACHE_DIR": str(folder / "cache"),
                                                 "SEARCH_RATE_LIMIT": "off"}) as server:
            runs.insert(0, ("POST /move (cached, 4,520 positions)",
                            fill_and_measure(server, bodies, move_script, args)))
            runs.append(("POST /state (parse and outcome only)", run_wrk(
                server.url, args.seconds, args.connections, state_script)))
            runs.append(("GET /livez (trivial JSON)", run_wrk(
                server.url + "/livez", args.seconds, args.connections, None)))
            totals = json.loads(urllib.request.urlopen(server.url + "/stats").read())["total"]
        if args.compare is not None:
            root = args.compare.resolve()
            with Gunicorn(workers=args.workers, env={"CACHE_DIR": str(folder / "cache-compare")},
                          root=root, config=root / "gunicorn.conf.py") as other:
                runs.append((f"POST /move (cached) at {root.name}",
                             fill_and_measure(other, bodies, move_script, args)))
    print(f"gunicorn {args.workers} workers (this tree's gunicorn.conf.py), wrk -t2 "
          f"-c{args.connections} -d{args.seconds}s, 127.0.0.1")
    print(f"{'endpoint':<40} {'req/s':>9} {'p50':>8} {'p99':>8} {'non-2xx':>8} "
          f"{'sock err':>8} {'/move over it':>13}")
    move_rps = runs[0][1]["rps"]
    for name, run in runs:
        print(f"{name:<40} {run['rps']:>9.0f} {run['p50']:>8} {run['p99']:>8} "
              f"{run['non_2xx']:>8} {run['socket_errors']:>8} {move_rps / run['rps']:>13.2f}")
    print(f"cache totals: searches {totals['searches']}, hits {totals['hits']}, "
          f"misses {totals['misses']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
