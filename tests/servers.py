"""Real server processes for tests: gunicorn serving the app, and redis-server.

Every server binds to 127.0.0.1 on a free port, is polled until it answers
(never a sleep), and is stopped by the ``with`` block that started it.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT = 30.0
STOP_TIMEOUT = 15.0  # then SIGKILL
RESIGNAL_SECONDS = 2.0  # far beyond a worker's exit (0.1 to 0.5 s)
# CACHE_SECRET for tests that use Redis, where one is required (32+ bytes, 10+ distinct characters).
TEST_SECRET = "tests-only: 0123456789abcdefghijklmnop"


# A request whose answer takes a real search: 5x5, four in a row, about 0.1 s.
SLOW = {"board": [".....", "...x.", "o..o.", "..o..", "x...x"], "k": 4}
# A request whose answer takes a search with a slot (4x4, four in a row, 14 empty cells), of
# about a millisecond: cheap where the test holds the search itself (tests/search_gate.py).
FOUR_BY_FOUR = {"board": ["x...", ".o..", "....", "...."], "k": 4}


def post(url: str, payload: dict, source: str | None = None) -> tuple[int, dict]:
    """POST ``payload`` as JSON to ``url`` (from loopback address ``source``, when given):
    (status, the JSON answer), error answers included."""
    import http.client
    from urllib.parse import urlsplit

    address = urlsplit(url)
    connection = http.client.HTTPConnection(
        address.hostname, address.port, timeout=30, source_address=None if source is None else (source, 0)
    )
    try:
        connection.request(
            "POST", address.path, body=json.dumps(payload), headers={"Content-Type": "application/json"}
        )
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def get(url: str) -> dict:
    """GET ``url``'s JSON answer (a 2xx; an error answer raises ``HTTPError``)."""
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read())


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until(ready, timeout: float = START_TIMEOUT, what: str = "server") -> None:
    """Poll ``ready()`` until it returns true; raise ``TimeoutError`` after ``timeout`` s."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if ready():
            return
        time.sleep(0.05)  # polling interval, not synchronisation: we re-check a condition
    raise TimeoutError(f"{what} did not come up within {timeout} s")


class Gunicorn:
    """``gunicorn app:app`` on 127.0.0.1 with the given environment; a context manager.

    Used as (not a doctest: it starts real processes)::

        with Gunicorn(workers=2, env={"CACHE_DIR": str(tmp_path)}) as server:
            urllib.request.urlopen(server.url + "/healthz")
    """

    def __init__(
        self,
        workers: int = 2,
        env: dict[str, str] | None = None,
        extra_args: list[str] | None = None,
        *,
        app: str = "app:app",
        root: Path = ROOT,
        config: Path | None = None,
        ready_path: str = "/healthz",
        command: list[str] | None = None,
    ) -> None:
        """``app`` is served from folder ``root`` with gunicorn settings ``config``
        (default: this project's gunicorn.conf.py); it is up once ``ready_path`` answers 2xx.

        ``command`` replaces the whole command line (``{port}`` in it becomes the port):
        the project's documented commands, run as written.
        """
        self.app, self.root = app, root
        self.config = config or ROOT / "gunicorn.conf.py"
        self.ready_path = ready_path
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.workers = workers
        self.env = {**os.environ, **(env or {})}
        self.extra_args = extra_args or []
        self.command = command
        self.process: subprocess.Popen | None = None
        self.log_path: Path | None = None

    def __enter__(self) -> Gunicorn:
        gunicorn = str(Path(sys.executable).with_name("gunicorn"))
        self.log = open(os.devnull, "wb") if self.log_path is None else open(self.log_path, "wb")
        argv = [
            gunicorn,
            "--config",
            str(self.config),
            "--bind",
            f"127.0.0.1:{self.port}",
            "--workers",
            str(self.workers),
            *self.extra_args,
            self.app,
        ]
        if self.command is not None:
            argv = [gunicorn, *(arg.format(port=self.port) for arg in self.command[1:])]
        # A process group of its own (the master's pid), which __exit__ signals as a whole.
        self.process = subprocess.Popen(
            argv, cwd=self.root, env=self.env, stdout=self.log, stderr=subprocess.STDOUT, process_group=0
        )
        try:
            wait_until(self._answers, what="gunicorn")
        except BaseException:
            self.__exit__()  # a server that never came up leaves no process and no open file
            raise
        return self

    def _answers(self) -> bool:
        if self.process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with code {self.process.returncode}")
        try:
            with urllib.request.urlopen(self.url + self.ready_path, timeout=2):
                return True
        except urllib.error.HTTPError as error:
            error.close()  # an error answer holds its connection open until closed
            return False
        except OSError:
            return False

    def __exit__(self, *exc) -> None:
        # SIGQUIT, gunicorn's quick stop: the workers exit at once.  SIGTERM's graceful stop waits
        # for each gevent worker's next one-second tick: 1.5 to 3 s a server, and the suite starts
        # dozens.  The block's requests have all been answered by now, and the graceful stop has
        # its own test (tests/test_gunicorn_settings.py).
        # A worker still booting when the master passed the signal on misses it (seen about once
        # in a dozen stops), and the master would wait its graceful timeout (20 s) for it: if the
        # master has not gone within RESIGNAL_SECONDS, the signal goes again to it and its workers (their own
        # process group).  Not at once: a second SIGQUIT to a worker on its way out prints a
        # traceback into the log.
        self.process.send_signal(signal.SIGQUIT)
        give_up = time.monotonic() + STOP_TIMEOUT
        while True:
            try:
                self.process.wait(timeout=RESIGNAL_SECONDS)
                break
            except subprocess.TimeoutExpired:
                again = signal.SIGQUIT if time.monotonic() < give_up else signal.SIGKILL
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, again)
        self.log.close()


class RedisServer:
    """A throwaway redis-server on 127.0.0.1 (no persistence); a context manager.

    ``stop()`` and ``start()`` may be called inside the block to simulate an
    outage; the port stays the same.
    """

    def __init__(self, workdir: Path, args: list[str] | None = None) -> None:
        """``args``: more redis-server options, e.g. ``["--maxmemory", "2mb"]``."""
        self.args = args or []
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.workdir = workdir
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        executable = shutil.which("redis-server")
        if executable is None:
            raise RuntimeError("redis-server is not installed (apt-get install redis-server)")
        self.process = subprocess.Popen(
            [
                executable,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.workdir),
                *self.args,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_until(self._answers, what="redis-server")

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=15)
            self.process = None

    def __enter__(self) -> RedisServer:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def wait_for_workers(url: str, count: int, timeout: float = START_TIMEOUT) -> set[int]:
    """Poll ``url``/healthz (its JSON names the answering pid) until ``count`` workers answered.

    Requests go in concurrent batches so that a busy worker leaves the next one
    to another; returns the pids seen.  Raises ``TimeoutError`` after ``timeout`` s.
    """
    from concurrent.futures import ThreadPoolExecutor

    seen: set[int] = set()

    def ask(_):
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=5) as response:
                return json.loads(response.read())["worker"]
        except urllib.error.HTTPError as error:
            error.close()  # an error answer holds its connection open until closed
            return None
        except OSError:
            return None

    def enough() -> bool:
        with ThreadPoolExecutor(2 * count) as pool:
            seen.update(pid for pid in pool.map(ask, range(2 * count)) if pid is not None)
        return len(seen) >= count

    wait_until(enough, timeout, what=f"{count} workers")
    return seen


def connections_to_each_worker(
    url: str, workers: int, each: int, attempts: int = 400, source: str | None = None
) -> list:
    """Open keep-alive connections until each of ``workers`` workers holds ``each`` of them.

    A gevent worker keeps a connection it accepted (keep-alive), so requests
    sent over these reach known workers, whatever the kernel would have done
    with new connections.  Returns ``http.client.HTTPConnection`` objects, the
    first ``each`` on one worker, the next ``each`` on the next; the caller
    closes them.  ``source``: the loopback address they come from (default:
    the system's choice).  Raises ``TimeoutError`` when ``attempts`` connections
    were not enough.
    """
    import http.client
    from urllib.parse import urlsplit

    # A worker still booting accepts nothing: the others would take every connection.
    wait_for_workers(url, workers)
    address = urlsplit(url)
    by_worker: dict[int, list] = {}
    for _ in range(attempts):
        connection = http.client.HTTPConnection(
            address.hostname, address.port, timeout=30, source_address=None if source is None else (source, 0)
        )
        connection.request("GET", "/healthz")
        response = connection.getresponse()
        worker = json.loads(response.read())["worker"]
        pinned = by_worker.setdefault(worker, [])
        if len(pinned) < each:
            pinned.append(connection)
        else:
            connection.close()
        full = [pinned for pinned in by_worker.values() if len(pinned) == each]
        if len(full) == workers:
            return [connection for pinned in full for connection in pinned]
    for pinned in by_worker.values():
        for connection in pinned:
            connection.close()
    raise TimeoutError(f"{attempts} connections did not reach {workers} workers {each} times each")


def gunicorn_settings(env: dict[str, str | None] | None = None) -> dict:
    """The plain values (numbers, strings) gunicorn.conf.py sets, read with ``env`` on top
    (a variable given as None is unset).

    Read in a child process: the file also prepares the metrics folder and the
    interpreter's switch interval, which must not leak into the test process.
    """
    script = (
        "import json, runpy, sys; conf = runpy.run_path(sys.argv[1]); print(json.dumps("
        "{k: v for k, v in conf.items() if isinstance(v, (int, str)) and not k.startswith('_')}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(ROOT / "gunicorn.conf.py")],
        env={name: value for name, value in {**os.environ, **(env or {})}.items() if value is not None},
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(done.stdout)
