"""CPU time the gunicorn workers spend per cached POST /move: a measure that a loaded machine blurs less.

Throughput on a shared 2-core machine swings by 2x from one wrk run to the
next with what else runs; the workers' own CPU time (user + system, from
/proc) per request swings far less.  Starts real gunicorn (2 workers) for each
variant on 127.0.0.1, answers one position from the cache, then runs wrk
(``-t2 -c16``, bounded) in rounds, the variants in turn, and prints each
round's req/s and µs of CPU per request, and the mean over the rounds:

- ``this tree``: as deployed (JSON request lines, metrics);
- ``this tree, LOG_LEVEL=warning``: the same without the request lines;
- ``--compare DIR``: another checkout (the code before a change).

    .venv/bin/python bench/cpu_per_request.py [--seconds 4] [--rounds 3] [--compare DIR]

Linux only (/proc).  Traffic goes to 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.servers import Gunicorn, wait_for_workers  # noqa: E402

BODY = json.dumps({"board": ["x..", ".o.", "..."]})
LUA = 'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = %s\n'


def cpu_seconds(pids: list[int]) -> float:
    """User plus system CPU time of the processes ``pids`` so far."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime (after the name)
    return total / os.sysconf("SC_CLK_TCK")


def workers(server: Gunicorn) -> list[int]:
    pid = server.process.pid
    return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def run_wrk(url: str, seconds: int, script: Path) -> tuple[int, float]:
    """One bounded wrk run: requests made and requests/s."""
    output = subprocess.run(["wrk", "-t2", "-c16", f"-d{seconds}s", "-s", str(script), url],
                            capture_output=True, text=True, check=True,
                            timeout=seconds + 30).stdout
    return (int(re.search(r"(\d+) requests in", output).group(1)),
            float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--compare", type=Path, metavar="DIR")
    args = parser.parse_args(argv)
    variants = [("this tree", ROOT, {}), ("this tree, LOG_LEVEL=warning", ROOT,
                                          {"LOG_LEVEL": "warning"})]
    if args.compare is not None:
        variants.append((f"at {args.compare.resolve().name}", args.compare.resolve(), {}))
    results: dict[str, list[float]] = {name: [] for name, _, _ in variants}
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "move.lua"
        script.write_text(LUA % json.dumps(BODY))
        servers = []
        try:
            for index, (name, root, env) in enumerate(variants):
                server = Gunicorn(workers=2, root=root, config=root / "gunicorn.conf.py",
                                  env={"CACHE_DIR": f"{tmp}/cache-{index}", **env})
                server.__enter__()
                servers.append((name, server))
                wait_for_workers(server.url, 2)
                request = urllib.request.Request(server.url + "/move", data=BODY.encode(),
                                                 headers={"Content-Type": "application/json"})
                urllib.request.urlopen(request, timeout=30).read()
                run_wrk(server.url + "/move", 2, script)  # every worker warm
            for round_ in range(args.rounds):
                for name, server in servers:
                    pids = workers(server)
                    before = cpu_seconds(pids)
                    requests, rps = run_wrk(server.url + "/move", args.seconds, script)
                    micros = 1e6 * (cpu_seconds(pids) - before) / requests
                    results[name].append(micros)
                    print(f"round {round_ + 1}  {name:<32} {rps:>7.0f} req/s {micros:>6.0f} µs CPU"
                          " per request", flush=True)
        finally:
            for _, server in servers:
                server.__exit__()
    print(f"mean over {args.rounds} rounds, cached POST /move, gunicorn 2 workers, wrk -t2 -c16:")
    for name, values in results.items():
        print(f"  {name:<32} {sum(values) / len(values):>6.0f} µs CPU per request")
    return 0


if __name__ == "__main__":
    sys.exit(main())
