"""Shared fixtures: the app and its test client, built once per module; the engine's tests need none."""

import os
import sys
from pathlib import Path

import pytest

# --doctest-modules (pyproject.toml) imports every .py file here to look for examples.  The
# conftests are pytest's own to import (two modules named ``conftest`` would clash), and
# request_log_app.py, gated_search_app.py and gated_sweep_app.py are gunicorn apps that read
# their settings from the environment.
collect_ignore = [
    "conftest.py",
    "browser/conftest.py",
    "request_log_app.py",
    "gated_search_app.py",
    "gated_sweep_app.py",
]


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """One xdist worker more than the machine has cores (``--numprocesses=auto``): the tests wait
    on real servers (gunicorn booting, a browser drawing, a timeout running out) for about a third
    of the run, and the extra worker's tests use the cores meanwhile (docs/benchmarks.md)."""
    return (os.cpu_count() or 1) + 1


# Tests import the project's top-level modules (app, tictactoe) from a clean clone.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# Every test's requests come from 127.0.0.1: one client, as far as the per-client
# limit on searches can tell.  Tests of other things run without it; the tests of
# the limit itself (test_rate_limit.py) set it.
os.environ.setdefault("SEARCH_SECONDS_PER_MINUTE", "off")
# The suite's positions are mostly small 3x3 ones, chosen to show entries
# shared between workers and instances; most of them take the solver fewer
# nodes than CACHE_MIN_NODES, so by default they would not be stored at all.
# Tests run with every proven result stored (in-process apps and the servers
# they start both read this); tests/test_bounded_cache.py sets its own.
os.environ.setdefault("CACHE_MIN_NODES", "0")


@pytest.fixture(scope="module")
def app_settings() -> dict[str, str]:
    """Settings on top of the defaults for the module's ``app``: a module overrides this fixture
    (``SEARCH_BUDGET`` for instance) instead of writing its own ``app``."""
    return {}


@pytest.fixture(scope="module")
def app(tmp_path_factory, app_settings):
    """The app with ``app_settings``, its cache in a fresh folder, shared by the module's tests."""
    from tests.apps import make_app  # after the path and environment above are set

    return make_app(tmp_path_factory.mktemp("app"), **app_settings)


@pytest.fixture(scope="module")
def client(app):
    """Flask's test client of the module's ``app``."""
    return app.test_client()


def pytest_collection_modifyitems(items):
    """Give each test a node id of its own.

    schemathesis names its tests per operation (``test_x[POST /move]``) but gives them all the
    node id of the function; pytest-xdist finds a test by its node id, so nine of the ten
    operations would silently never run.  Each such test gets its name's parameters back
    (through pytest's own, private, node id: the pinned pytest 9 keeps it in ``_id``).
    """
    from _pytest.nodeid import NodeId

    seen: dict[str, pytest.Item] = {}
    for item in items:
        _, bracket, parameters = item.name.partition("[")
        if bracket and not item.nodeid.endswith("]"):
            item._id = NodeId.parse(f"{item.nodeid}[{parameters}")
    twice = sorted({item.nodeid for item in items if seen.setdefault(item.nodeid, item) is not item})
    if twice:
        raise pytest.UsageError(f"tests share a node id (pytest-xdist would run only one of each): {twice}")
