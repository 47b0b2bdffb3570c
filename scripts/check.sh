#!/usr/bin/env bash
# Every check CI runs, in order, stopping at the first that fails: lint, format, types, the
# import contracts (the engine's layers), the page's JavaScript unit tests (node's own test
# runner), tests.  Settings for the Python tools live in pyproject.toml.  Extra arguments go
# to pytest (bash scripts/check.sh tests/test_api.py -x).
set -euo pipefail
cd "$(dirname "$0")/.."

bin=.venv/bin
[ -x "$bin/python" ] || { echo "check: no .venv here: run bash scripts/setup-tests.sh first" >&2; exit 1; }

step() { echo "check: $*" >&2; "$@"; }

step "$bin/ruff" check .
step "$bin/ruff" format --check .
step "$bin/mypy"
# --no-cache: the whole graph takes under a second, and no cache folder is left in the checkout.
step "$bin/lint-imports" --no-cache
# The files are named, not the folder: node 20 searches a folder given to --test, node 21
# and later take each argument as a glob pattern instead.
step node --test --test-reporter=spec tests/js/*.test.mjs
# Bytecode for the project, written once: the tests start dozens of Python processes
# (gunicorn masters, the command line), and where PYTHONDONTWRITEBYTECODE is set each one
# would compile the project again.  compileall writes it whatever that variable says.
step "$bin/python" -m compileall -q -j 0 app.py gunicorn.conf.py tictactoe web tests
step "$bin/python" -m pytest "$@"
