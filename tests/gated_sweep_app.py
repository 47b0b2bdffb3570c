"""The real app whose cache sweeps are held at a gate in folder ``SWEEP_GATE``, as a sweep's file calls
hold their thread: without yielding to gevent's other greenlets.

``gunicorn tests.gated_sweep_app:app``: a sweep writes ``sweeping`` in the folder, then waits (polling,
60 s at most) until the test creates ``open``.  Were the sweep on the worker's event loop, every other
connection of the worker would wait with it.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from gevent import monkey

from web.assembly import create_app
from web.parts import parts

HOLD_TIMEOUT = 60.0
app = create_app()
gate = Path(os.environ["SWEEP_GATE"])
store = parts(app).solved.backend.store
sweep = store.sweep
blocking_sleep = monkey.get_original("time", "sleep")  # gevent's would let the other greenlets run


def held_sweep() -> int | None:
    (gate / "sweeping").touch()
    give_up = time.monotonic() + HOLD_TIMEOUT
    while not (gate / "open").exists() and time.monotonic() < give_up:
        blocking_sleep(0.01)
    return sweep()


store.sweep = held_sweep
