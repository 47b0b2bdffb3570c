"""What a puzzle costs to serve: read, listed, revalidated, judged; and the reasons GET /position adds.

Through the app as deployed (gunicorn, its gevent workers, logging and metrics
on), one client on a kept-alive connection sends each request ``--requests``
times and the table gives the latency it saw (p50, p99) and the requests a
second that makes.  "Cached" is the browser's copy revalidated
(``If-None-Match``: a 304 with no body); without a copy the answer is the
puzzle's JSON.  The puzzles are read from their files once a process, at the
first request that needs them: the cold row times that read in a fresh
process.  The second table times the reasons GET /position now names for each
move (``move_reasons``) and the rule ladder's advice, in process.

    .venv/bin/python bench/puzzle_serving.py [--requests 2000]
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask import jsonify  # noqa: E402

from tests.servers import Gunicorn  # noqa: E402
from tictactoe import Board, Rules, move_reasons, puzzle_set, rule_advice  # noqa: E402
from web.assembly import create_app  # noqa: E402
from web.puzzles.routes import puzzle_fields  # noqa: E402

REASON_BOARDS = {
    "3x3, 3 stones": ("x2/1o1/2x", 3),
    "5x5 k=4, 4 stones": ("5/oxx2/5/3o1/5", 4),
    "15x15 k=5, 37 stones (a tactics-suite position)": (
        "5o9/7o7/15/3o2o8/4x2oxx1x3/3o1oxox6/1o5o6x/7x1x5/3xxo3x1oox1/2o1x3x2o3/2o9x2/x4x2o6/15/o14/15",
        5,
    ),
}


def timed(
    connection: http.client.HTTPConnection, method: str, path: str, count: int, **kw: object
) -> list[float]:
    """Seconds of each of ``count`` requests on the kept-alive connection; each answer read whole."""
    times = []
    for _ in range(count):
        start = time.perf_counter()
        connection.request(method, path, **kw)  # type: ignore[arg-type]
        response = connection.getresponse()
        response.read()
        times.append(time.perf_counter() - start)
        assert response.status < 400, (path, response.status)
    return times


def row(label: str, times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"| {label} | {statistics.median(ordered) * 1000:.2f} ms | {p99 * 1000:.2f} ms"
        f" | {len(ordered) / sum(ordered):,.0f} |"
    )


def cold_load() -> tuple[float, float]:
    """Seconds a fresh process takes to read every puzzle file (its first puzzle request pays them),
    and the MiB the puzzles then hold (tracemalloc: the Python objects, not the process's RSS)."""
    code = (
        "import time, tracemalloc; from tictactoe import puzzle_set; tracemalloc.start();"
        " start = time.perf_counter(); puzzle_set(); seconds = time.perf_counter() - start;"
        " print(seconds, tracemalloc.get_traced_memory()[0] / 2**20)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    seconds, mib = map(float, done.stdout.split())
    return seconds, mib


def render_ms() -> float:
    """Milliseconds to render one puzzle's answer as GET /puzzles/{id} first does (the median over every
    puzzle), in process: what a worker pays once per puzzle before its memo answers."""
    app = create_app({"CACHE_DIR": tempfile.mkdtemp(prefix="puzzle-bench-")})
    times = []
    with app.test_request_context():
        for puzzle in puzzle_set():
            start = time.perf_counter()
            jsonify(puzzle_fields(puzzle)).get_data()
            times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000, help="requests of each kind")
    args = parser.parse_args(argv)
    puzzles = puzzle_set()
    small = next(p for p in puzzles if p.rules == Rules(3, 3, 3) and len(p.steps) > 1)
    big = next(p for p in puzzles if p.rules == Rules(15, 15, 5))
    n = args.requests
    with Gunicorn(workers=2, env={"CACHE_DIR": tempfile.mkdtemp(prefix="puzzle-bench-")}) as server:
        connection = http.client.HTTPConnection("127.0.0.1", server.port)
        json_headers = {"Accept": "application/json"}
        connection.request("GET", f"/puzzles/{small.id}", headers=json_headers)
        answer = connection.getresponse()
        tag = answer.getheader("ETag")
        answer.read()

        def get(path: str, **headers: str) -> list[float]:
            return timed(connection, "GET", path, n, headers={**json_headers, **headers})

        def move(puzzle, cell: int) -> list[float]:
            row, col = puzzle.rules.row_col(cell)
            body = json.dumps({"moves": [{"row": row, "col": col}]})
            post = {"Content-Type": "application/json", **json_headers}
            return timed(connection, "POST", f"/puzzles/{puzzle.id}/moves", n, body=body, headers=post)

        rows = [
            ("GET /livez, for scale: the app's hooks and nothing else", get("/livez")),
            ("GET /puzzles/{id}: no copy, the JSON (200)", get(f"/puzzles/{small.id}")),
            (
                "GET /puzzles/{id}: the copy revalidated (304)",
                get(f"/puzzles/{small.id}", **{"If-None-Match": tag}),
            ),
            ("GET /puzzles?board=3x3k3 (20 a page, 200)", get("/puzzles?board=3x3k3")),
            ("GET /puzzles/daily (200)", get("/puzzles/daily")),
            ("POST /puzzles/{id}/moves, 3x3: the right move", move(small, small.steps[0].move)),
            ("POST /puzzles/{id}/moves, 3x3: a wrong move", move(small, min(small.steps[0].wrong))),
            ("POST /puzzles/{id}/moves, 15x15: the right move", move(big, big.steps[0].move)),
        ]
        connection.close()
    print(f"one client, kept alive, {n:,} requests a row; 2 gevent workers")
    print("| request | p50 | p99 | a second |")
    print("| --- | ---: | ---: | ---: |")
    for label, times in rows:
        print(row(label, times))
    seconds, mib = cold_load()
    cold = f"the puzzle files read by a fresh process (once; then {mib:.1f} MiB held)"
    print(f"| {cold} | {seconds * 1000:.0f} ms | | |")
    first = "a puzzle's answer rendered (a worker's first ask of it, then kept), in process"
    print(f"| {first} | {render_ms():.3f} ms | | |")

    print("\nthe reasons GET /position names, in process (every legal move, and the rule on 3x3)")
    print("| position | move_reasons | rule_advice |")
    print("| --- | ---: | ---: |")
    for label, (text, k) in REASON_BOARDS.items():
        board = Board.from_position_text(text, k=k)
        reasons = [0.0] * 50
        advice = [0.0] * 50
        for i in range(50):
            start = time.perf_counter()
            move_reasons(board)
            reasons[i] = time.perf_counter() - start
            start = time.perf_counter()
            rule_advice(board)
            advice[i] = time.perf_counter() - start
        rule = f"{statistics.median(advice) * 1000:.3f} ms" if rule_advice(board) else "none off 3x3"
        print(f"| {label} | {statistics.median(reasons) * 1000:.3f} ms | {rule} |")


if __name__ == "__main__":
    main()
