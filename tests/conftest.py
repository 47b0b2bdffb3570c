"""Shared fixtures; the engine's tests need none, the web tests add theirs beside them."""

import os
import sys
from pathlib import Path

# Tests import the project's top-level modules (app, tictactoe) from a clean clone.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# Every test's requests come from 127.0.0.1: one client, as far as the per-client
# limit on searches can tell.  Tests of other things run without it; the tests of
# the limit itself (test_rate_limit.py) set it.
os.environ.setdefault("SEARCH_RATE_LIMIT", "off")
