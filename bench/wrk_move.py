"""Throughput of /move answered from the cache, against light JSON endpoints, with wrk.

Starts real gunicorn (2 workers, the default file-system cache in a temp folder)
on 127.0.0.1, fills the cache with every non-terminal 3x3 position, then runs
wrk against each endpoint in turn, in the same run, and prints a table:

    endpoint                          req/s    p50     p99   non-2xx  ratio

``ratio`` is an endpoint's throughput over that of ``/move`` from the cache's
comparison baseline (the first row).  Traffic goes to 127.0.0.1 only, and every
wrk run is bounded in time.

    .venv/bin/python bench/wrk_move.py [--seconds 10] [--connections 16] [--workers 2]
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=10, help="each wrk run (default 10)")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    if shutil.which("wrk") is None:
        print("wrk is not installed: apt-get install wrk", file=sys.stderr)
        return 2
    bodies = positions()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        move_script = write_script(folder, "/move", bodies)
        state_script = write_script(folder, "/state", bodies)
        with Gunicorn(workers=args.workers, env={"CACHE_DIR": str(folder / "cache")}) as server:
            wait_for_workers(server.url, args.workers)
            print(f"filling the cache with {len(bodies)} positions...", file=sys.stderr)
            for body in bodies:
                request = urllib.request.Request(server.url + "/move", data=body.encode(),
                                                 headers={"Content-Type": "application/json"})
                urllib.request.urlopen(request, timeout=30).read()
            # Every worker reads each entry once into its memory: warm them all up.
            run_wrk(server.url, max(2, args.seconds // 2), args.connections, move_script)
            runs = [
                ("POST /move (cached, 4,520 positions)", run_wrk(
                    server.url, args.seconds, args.connections, move_script)),
                ("POST /state (parse and outcome only)", run_wrk(
                    server.url, args.seconds, args.connections, state_script)),
                ("GET /livez (trivial JSON)", run_wrk(
                    server.url + "/livez", args.seconds, args.connections, None)),
            ]
            totals = json.loads(urllib.request.urlopen(server.url + "/stats").read())["total"]
    print(f"gunicorn {args.workers} workers x 4 threads, wrk -t2 -c{args.connections} "
          f"-d{args.seconds}s, 127.0.0.1")
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
