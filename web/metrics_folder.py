"""The folder where gunicorn's workers keep their metrics, set up by gunicorn.conf.py.

prometheus_client picks its multiprocess mode when it is first imported, from
``PROMETHEUS_MULTIPROC_DIR``: so the folder is set up here, in the master,
before anything imports prometheus_client, and the workers it forks inherit it.
This module must not import prometheus_client at the top.
"""

from __future__ import annotations

import glob
import os
import shutil
import tempfile
from pathlib import Path

ENV = "PROMETHEUS_MULTIPROC_DIR"

_prepared: list[str] = []  # the folder this master set up (the config is re-read on HUP)
_created: list[str] = []  # the folder this master made itself (removed when it exits)


def prepare_multiprocess_dir() -> str:
    """Point ``PROMETHEUS_MULTIPROC_DIR`` at an empty folder before any worker starts; returns it.

    Unset: a new private temp folder.  Set (by the operator): created if need
    be and emptied of an earlier run's files, so totals start at zero.  On a
    reload of the configuration, the folder already set up is kept as it is:
    the workers still count into it.
    """
    folder = os.environ.get(ENV)
    if _prepared and folder == _prepared[0]:
        return folder
    if not folder:
        folder = tempfile.mkdtemp(prefix="tictactoe-metrics-")
        _created[:] = [folder]
    else:
        Path(folder).mkdir(mode=0o700, parents=True, exist_ok=True)
        for stale in glob.glob(os.path.join(folder, "*.db")):
            os.remove(stale)
    os.environ[ENV] = folder
    _prepared[:] = [folder]
    return folder


def mark_worker_dead(pid: int) -> None:
    """Tell prometheus_client that worker ``pid`` is gone (gunicorn's ``child_exit``).

    Its counters stay in the totals; only per-process gauges would be dropped.
    """
    from prometheus_client import multiprocess  # only now: see the module's docstring

    multiprocess.mark_process_dead(pid)  # type: ignore[no-untyped-call]


def remove_own_dir() -> None:
    """Remove the folder ``prepare_multiprocess_dir`` made, if it made one (gunicorn's ``on_exit``).

    An operator's folder is left alone.
    """
    for folder in _created:
        shutil.rmtree(folder, ignore_errors=True)
    _created.clear()
