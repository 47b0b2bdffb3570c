"""Hold an app's searches until the test lets them go, and see which requests wait meanwhile.

The single-flight tests use it to make requests overlap for certain, not by luck: the first
request's search is held, the test waits until every other request has been refused the
position's lock (so it waits for that search), then lets the search go and counts.

The signals are files in one folder, so that the same gate works in the test's own process
(the Flask test client on threads) and in gunicorn's workers (tests/gated_search_app.py):

- ``searching``: one line per search that reached the gate;
- ``refused``: one line ``<pid> <thread>`` each time a request is refused a search lock (a
  request that waits is refused again at every poll, so waiting requests are counted by
  distinct lines);
- ``open``: created by ``release()``; held searches go on, later ones pass at once.

Each line is one ``write`` on a file opened for appending, so lines from several processes
never mix.
"""

from __future__ import annotations

import dataclasses
import os
import threading
from pathlib import Path

from tests.servers import wait_until

HOLD_TIMEOUT = 60.0  # seconds a search is held at most: far above any test's wait, far below "never"


def _append(path: Path, line: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, f"{line}\n".encode())
    finally:
        os.close(fd)


def _lines(path: Path) -> list[str]:
    try:
        return path.read_text().splitlines()
    except FileNotFoundError:
        return []


class SearchGate:
    """The gate in ``folder`` (created if missing)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)

    # -- the app's side --------------------------------------------------------------

    def install(self, solved) -> None:
        """Hold every search of ``solved`` (an app's ``parts(app).solved``) at the
        gate, and note every refusal of one of its search locks."""
        search = solved.slots.search

        def held_search(board, all_moves):
            _append(self.folder / "searching", str(os.getpid()))
            wait_until((self.folder / "open").exists, HOLD_TIMEOUT, what="the gate to open")
            return search(board, all_moves)

        solved.slots.search = held_search
        solved.backend = dataclasses.replace(solved.backend, locks=_NotedLocks(solved.backend.locks, self))

    def note_refusal(self) -> None:
        """Record that this request (process and thread) was refused a search lock."""
        _append(self.folder / "refused", f"{os.getpid()} {threading.get_ident()}")

    # -- the test's side -------------------------------------------------------------

    def searches(self) -> int:
        """How many searches have reached the gate."""
        return len(_lines(self.folder / "searching"))

    def waiting(self) -> int:
        """How many requests have been refused a search lock (each counted once)."""
        return len(set(_lines(self.folder / "refused")))

    def wait_for(self, searches: int, waiting: int) -> None:
        """Return once ``searches`` searches are held and ``waiting`` requests wait for them
        (``TimeoutError`` if that never happens)."""
        wait_until(
            lambda: self.searches() == searches and self.waiting() == waiting,
            what=f"{searches} held search(es) and {waiting} waiting request(s)",
        )

    def release(self) -> None:
        """Let every held search go on."""
        (self.folder / "open").touch()


class _NotedLocks:
    """A store of search locks whose every refusal is noted at the gate."""

    def __init__(self, locks, gate: SearchGate) -> None:
        self._locks, self._gate = locks, gate

    def lock(self, key: str):
        return _NotedLock(self._locks.lock(key), self._gate)


class _NotedLock:
    def __init__(self, lock, gate: SearchGate) -> None:
        self._lock, self._gate = lock, gate

    def try_acquire(self) -> bool:
        acquired = self._lock.try_acquire()
        if not acquired:
            self._gate.note_refusal()
        return acquired

    def release(self) -> None:
        self._lock.release()
