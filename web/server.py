"""gunicorn's side of the app: what gunicorn.conf.py hands gunicorn besides its plain settings.

gunicorn's master loads this before it forks the workers, so it loads no part of
the app: no Flask, no engine, and above all no prometheus_client, which picks its
multiprocess mode when first imported (web/telemetry/metrics_folder.py sets the
folder up first).  An import-linter contract in pyproject.toml holds it to that.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from web.environment import trusted_proxies
from web.http.body_deadline import bound_body
from web.http.body_framing import explain_framing_errors
from web.http.connections_per_address import DEFAULT_CAP, ConnectionsPerAddress, cap_from_settings
from web.http.gunicorn_errors import no_store_errors
from web.telemetry.logs import GunicornLogger, gunicorn_logconfig
from web.telemetry.metrics_folder import merge_exited_worker, prepare_multiprocess_dir, remove_own_dir

__all__ = ["GunicornLogger", "gunicorn_logconfig", "prepare_multiprocess_dir", "remove_own_dir"]


def connection_cap(env: Mapping[str, str] = os.environ) -> int | None:
    """The connections one client address may hold open in a worker (None: no cap).

    ``GUNICORN_CONNECTIONS_PER_ADDRESS`` (default ``DEFAULT_CAP``), and none behind
    a router (``TRUSTED_PROXIES`` 1 or more), whose one address is every client's.
    """
    return cap_from_settings(
        env.get("GUNICORN_CONNECTIONS_PER_ADDRESS") or str(DEFAULT_CAP),
        trusted_proxies({"TRUSTED_PROXIES": env.get("TRUSTED_PROXIES") or None}),
    )


def prepare_request(worker: Any, req: Any, keepalive: float) -> None:
    """Give the request's body the same time again, in all, and every write on its connection;
    tell a broken chunked body in words.

    gevent's timeout covers the head only; the body is read later, by the app.
    It must arrive whole within ``keepalive`` seconds of the head, however it
    trickles (web/http/body_deadline.py), or the app answers 408
    (web/http/errors.py) and the connection is closed.  A chunked body's framing
    is parsed as the app reads it too: a broken one is a 400 that says what is
    wrong (web/http/body_framing.py).  The socket's own timeout bounds each
    write to a client that stops reading.
    """
    worker.log.debug("%s %s", req.method, req.path)
    sock = getattr(req.unreader, "sock", None)
    if sock is not None:
        sock.settimeout(keepalive)
    explain_framing_errors(req)
    bound_body(req, keepalive)


def prepare_worker(worker: Any, cap: int | None) -> None:
    """Mark gunicorn's own error answers no-store; count the worker's connections by client address."""
    worker.handle_error = no_store_errors(worker.handle_error)
    if cap is not None:
        worker.handle = ConnectionsPerAddress(cap).guard(worker.handle)


def worker_exited(server: Any, worker: Any) -> None:
    """Fold the exited worker's metrics into the merged files (the master must survive a failure)."""
    try:
        merge_exited_worker(worker.pid)
    except Exception:
        server.log.exception("could not merge the metrics of exited worker %s", worker.pid)
