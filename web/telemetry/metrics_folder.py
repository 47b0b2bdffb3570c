"""The folder where gunicorn's workers keep their metrics, set up by gunicorn.conf.py.

prometheus_client picks its multiprocess mode when it is first imported, from
``PROMETHEUS_MULTIPROC_DIR``: so the folder is set up here, in the master,
before anything imports prometheus_client, and the workers it forks inherit it.
This module must not import prometheus_client at the top.

Each worker writes one file per metric type, named for its pid
(``counter_4242.db``), and a reader sums every ``*.db`` file of the folder.
Left alone, the files of recycled workers would pile up and every read would
sum them all again; so when a worker exits, the master adds its counters,
histograms and summaries into one file per type (``counter_exited.db``), which
the readers sum like any other, and removes the worker's own.  Readers hold the
shared side of a lock on the folder's ``merge.lock`` (``reading``), and the
master swaps the files while holding its exclusive side: a reader sees the
exited worker's counts once, either in its file or in the merged one, never
twice and never not at all.
"""

from __future__ import annotations

import fcntl
import glob
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ENV = "PROMETHEUS_MULTIPROC_DIR"
LOCK_FILE = "merge.lock"
# The types whose values add up across processes (a gauge's do not: see mark_process_dead).
ADDITIVE_TYPES = ("counter", "histogram", "summary")
# prometheus_client reads a file's type from its name up to the first "_", and no
# pid from the name of these types: "exited" stands where a worker's pid would.
MERGED_NAME = "{type}_exited.db"

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


def merge_exited_worker(pid: int, folder: str | None = None) -> None:
    """Fold the files of exited worker ``pid`` into the merged ones and remove them (``child_exit``).

    ``folder`` defaults to ``PROMETHEUS_MULTIPROC_DIR``.  Its counters,
    histograms and summaries stay in the totals; its live gauges are dropped
    (prometheus_client's ``mark_process_dead``); other gauges, which the app
    has none of, are left as they are.  Runs in the master before it forks a
    replacement, so no new worker can be writing to a file of that pid yet.
    """
    from prometheus_client import multiprocess  # only now: see the module's docstring

    folder = folder or os.environ[ENV]
    multiprocess.mark_process_dead(pid, folder)  # type: ignore[no-untyped-call]
    for kind in ADDITIVE_TYPES:
        exited = Path(folder, f"{kind}_{pid}.db")
        if not exited.exists():
            continue
        merged = Path(folder, MERGED_NAME.format(type=kind))
        # Written under a name readers do not glob, then swapped in whole.
        staging = merged.with_suffix(".merging")
        _write_sums([merged, exited], staging)
        with _locked(folder, fcntl.LOCK_EX):
            os.replace(staging, merged)
            exited.unlink()


@contextmanager
def reading(folder: str) -> Iterator[None]:
    """Hold the readers' side of the folder's lock: no merge swaps files meanwhile."""
    with _locked(folder, fcntl.LOCK_SH):
        yield


@contextmanager
def _locked(folder: str, mode: int) -> Iterator[None]:
    with open(os.path.join(folder, LOCK_FILE), "a") as lock:
        fcntl.flock(lock, mode)  # released when the file is closed
        yield


def _write_sums(sources: list[Path], target: Path) -> None:
    """Write to ``target`` (a new file) each key's value summed over the ``sources`` that exist."""
    from prometheus_client.mmap_dict import MmapedDict  # only now: see the module's docstring

    sums: dict[str, float] = {}
    for source in sources:
        if source.exists():
            entries = MmapedDict.read_all_values_from_file(str(source))  # type: ignore[no-untyped-call]
            for key, value, _timestamp, _position in entries:
                sums[key] = sums.get(key, 0.0) + value
    target.unlink(missing_ok=True)  # a merge cut short earlier
    values = MmapedDict(str(target))  # type: ignore[no-untyped-call]
    try:
        for key, value in sums.items():
            values.write_value(key, value, 0.0)  # type: ignore[no-untyped-call]
    finally:
        values.close()  # type: ignore[no-untyped-call]


def remove_own_dir() -> None:
    """Remove the folder ``prepare_multiprocess_dir`` made, if it made one (gunicorn's ``on_exit``).

    An operator's folder is left alone.
    """
    for folder in _created:
        shutil.rmtree(folder, ignore_errors=True)
    _created.clear()
