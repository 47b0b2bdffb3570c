"""Shared fixtures; the engine's tests need none, the web tests add theirs beside them."""

import sys
from pathlib import Path

# Tests import the project's top-level modules (app, tictactoe) from a clean clone.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
