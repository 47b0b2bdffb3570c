"""What an entry of the file cache costs against searching its position again, and what a sweep costs.

For random positions of a few kinds: the nodes and time of a cold search (a
fresh solver: the worst case for a search done again), the time to write the
signed entry, and the time to read it back and check it (what a hit on disk
costs).  Then the folder sweep of web/cache/eviction.py on a folder of
``--entries`` files: listing the names (every ``cap / 50`` writes of a worker)
and evicting down to 90% of the cap (once the folder is over its cap).  CACHE_MIN_NODES is chosen
from the first table (docs/reliability.md, "A bounded cache").

    .venv/bin/python bench/cache_costs.py [--entries 50000]
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.flood_cache import random_position  # noqa: E402
from tictactoe import Rules, Solver  # noqa: E402
from web.assembly import create_app  # noqa: E402
from web.cache.entries import Entry, decode_entry, encode_entry, position_key  # noqa: E402
from web.cache.eviction import BoundedFileCache  # noqa: E402
from web.parts import parts  # noqa: E402

KINDS = [(3, 3, 3, 0), (3, 3, 3, 2), (3, 3, 3, 4), (4, 4, 4, 4), (4, 4, 4, 6), (4, 4, 4, 8)]
SAMPLES = 40


def milliseconds(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:.2f} / {max(samples) * 1000:.2f}"


def entry_costs(folder: Path) -> None:
    """Print the table of search, write and read costs per kind of position."""
    solved = parts(create_app({"CACHE_DIR": str(folder)})).solved
    store, signer = solved.backend.store, solved.backend.signer
    rng = random.Random(1)
    print(
        "| board | stones | nodes median / max | search ms median / max"
        " | write ms median / max | read + check ms median / max |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for rows, cols, k, stones in KINDS:
        nodes, search, write, read = [], [], [], []
        for _ in range(SAMPLES):
            canon, _ = random_position(rng, rows, cols, k, stones).canonical()
            start = time.perf_counter()
            result = Solver(canon.rules).solve(canon)
            search.append(time.perf_counter() - start)
            nodes.append(result.nodes)
            key = position_key(canon)
            signed = signer.sign(key, encode_entry(Entry.of(result)))
            start = time.perf_counter()
            store.set(key, signed)
            write.append(time.perf_counter() - start)
            start = time.perf_counter()
            decode_entry(signer.check(key, store.get(key)), canon)
            read.append(time.perf_counter() - start)
        print(
            f"| {Rules(rows, cols, k).label()} | {stones} | {statistics.median(nodes):g} / {max(nodes)}"
            f" | {milliseconds(search)} | {milliseconds(write)} | {milliseconds(read)} |"
        )


def sweep_costs(folder: Path, entries: int) -> None:
    """Print the time of a sweep with nothing to evict, and of one evicting 10%."""
    (folder / "solved").mkdir(parents=True)
    store = BoundedFileCache(
        str(folder / "solved"),
        max_entries=entries * 2,
        sweep_lock=str(folder / "sweep.lock"),
        default_timeout=0,
    )
    entry = {
        "format": 3,
        "value": "draw",
        "plies": 8,
        "best": [1, 3],
        "moves": None,
        "source": "proof",
        "signature": "0" * 64,
    }
    for i in range(entries):
        store.set(f"key{i}", entry)
    store.max_entries = entries
    start = time.perf_counter()
    store.sweep()
    listed = time.perf_counter() - start
    store.max_entries = entries - 1  # just over the cap, as a sweep finds it
    start = time.perf_counter()
    removed = store.sweep()
    evicted = time.perf_counter() - start
    print(
        f"\n{entries:,} files: a sweep with nothing to evict {listed * 1000:.0f} ms;"
        f" one evicting {removed:,} entries {evicted * 1000:.0f} ms"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entries", type=int, default=50_000)
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="cache-costs-"))
    try:
        entry_costs(folder / "entries")
        sweep_costs(folder / "sweep", args.entries)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
