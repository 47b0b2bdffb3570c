"""The real app with its searches held at a gate (tests/search_gate.py) in folder ``SEARCH_GATE``.

``gunicorn tests.gated_search_app:app``: every worker holds its searches until the test opens
the gate, and notes every request refused a search lock, so the single-flight tests see that
their requests overlapped instead of hoping they did.
"""

from __future__ import annotations

import os
from pathlib import Path

from tests.search_gate import SearchGate
from web.assembly import create_app
from web.parts import parts

app = create_app()
SearchGate(Path(os.environ["SEARCH_GATE"])).install(parts(app).solved)
