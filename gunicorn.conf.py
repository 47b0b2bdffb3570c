"""gunicorn settings for a Heroku-style platform, and for serving clients directly.

Read by both of the project's commands (``gunicorn --bind 127.0.0.1:8000 app:app``
and the Procfile's ``gunicorn app:app``); why each value, with the measured
figures, in docs/deploy.md ("gunicorn settings").
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # gunicorn reads this before chdir
from web.http.body_deadline import bound_body
from web.http.body_framing import explain_framing_errors
from web.http.connections_per_address import DEFAULT_CAP, ConnectionsPerAddress, cap_from_settings
from web.http.gunicorn_errors import no_store_errors
from web.operations.config import trusted_proxies
from web.operations.logs import GunicornLogger, gunicorn_logconfig
from web.operations.metrics_folder import merge_exited_worker, prepare_multiprocess_dir, remove_own_dir

bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))

# gevent: a connection costs a greenlet, not a thread, so clients that send a
# request slowly (or stop half-way) cannot tie up the workers; gunicorn's FAQ
# names an async worker for serving without a buffering proxy in front.  The
# CPU-bound searches run in a real thread pool (web/operations/offload.py), so a search
# never freezes the other connections of its worker.
worker_class = "gevent"
worker_connections = int(os.environ.get("GUNICORN_CONNECTIONS", "1000"))
# On gevent workers this bounds both an idle kept-alive connection and the
# reading of a request's line and headers as a whole (gunicorn wraps it in a
# gevent.Timeout of this many seconds): a client that stalls in them is closed.
keepalive = int(os.environ.get("GUNICORN_READ_TIMEOUT", "5"))
# Connections one client address may hold open in a worker (web/http/connections_per_address.py);
# behind a router the peer is the router, so no cap.
connections_per_address = cap_from_settings(
    os.environ.get("GUNICORN_CONNECTIONS_PER_ADDRESS") or str(DEFAULT_CAP),
    trusted_proxies({"TRUSTED_PROXIES": os.environ.get("TRUSTED_PROXIES") or None}),
)


def pre_request(worker, req):
    """Give the request's body the same time again, in all, and every write on its connection;
    tell a broken chunked body in words.

    gevent's timeout above covers the head only; the body is read later, by the
    app.  It must arrive whole within ``keepalive`` seconds of the head, however
    it trickles (web/http/body_deadline.py), or the app answers 408 (web/http/errors.py)
    and the connection is closed.  A chunked body's framing is parsed as the app
    reads it too: a broken one is a 400 that says what is wrong (web/http/body_framing.py).
    The socket's own timeout bounds each write to a client that stops reading.
    """
    worker.log.debug("%s %s", req.method, req.path)
    sock = getattr(req.unreader, "sock", None)
    if sock is not None:
        sock.settimeout(keepalive)
    explain_framing_errors(req)
    bound_body(req, keepalive)


def post_worker_init(worker):
    """Mark gunicorn's own error answers no-store; count the worker's connections by client address."""
    worker.handle_error = no_store_errors(worker.handle_error)
    if connections_per_address is not None:
        worker.handle = ConnectionsPerAddress(connections_per_address).guard(worker.handle)


# A worker whose heartbeat stops for this long is stuck and is replaced
# (searches are bounded far below it by SEARCH_BUDGET and SINGLE_FLIGHT_WAIT).
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
# On SIGTERM workers stop accepting and finish what they serve for at most
# this long; it must end before the platform's own kill (30 s on Heroku and
# Render).  The longest request (a 10 s single-flight wait then a 2 s search)
# fits in it.
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "20"))
# A safety net, not a cadence: a worker is recycled after about this many
# requests (jitter spreads the restarts so that the workers never restart
# together).  10,000 recycled each worker every few seconds under load, and each
# restart costs the clients of that moment slow answers (a new worker imports
# the app and warms its memory of positions): see docs/deploy.md.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "1000000"))
max_requests_jitter = max_requests // 10

# The request line and headers a client may send: gunicorn's own limits, made
# explicit.  Over them gunicorn answers 414 or 431 (400 for too many fields)
# itself, as HTML, before the app is called: see docs/deploy.md.
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190

accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info")
# Forwarded headers (X-Forwarded-Proto, X-Forwarded-For) mean something only when
# a trusted proxy wrote them: the app alone decides which to believe, from its
# TRUSTED_PROXIES setting (werkzeug's ProxyFix, web/searches/rate_limit.py).  So gunicorn
# reads none of them, whoever the peer: no scheme header turns a request into
# HTTPS here, and no header sets SCRIPT_NAME or PATH_INFO (a client's
# "SCRIPT_NAME:" header would otherwise move the app's paths, or raise a 500).
secure_scheme_headers: dict[str, str] = {}
forwarder_headers = ""
# A header whose name holds "_" cannot be told apart from one with "-": dropped.
header_map = "drop"

# gunicorn 27's control socket (gunicornc) is one path per user by default, so
# every instance of a host would fight over it: off, unless an operator names a
# path of this instance's own.
control_socket_disable = not os.environ.get("GUNICORN_CONTROL_SOCKET")
if not control_socket_disable:
    control_socket = os.environ["GUNICORN_CONTROL_SOCKET"]

# Logs and metrics (web/operations/logs.py, web/operations/metrics.py): every logger,
# gunicorn's included, in one format (LOG_FORMAT=json|text); workers count into one multiprocess folder.
logconfig_dict = gunicorn_logconfig()
logger_class = GunicornLogger
prepare_multiprocess_dir()
# A search is pure Python and holds the GIL; a cache hit in another thread of the same
# worker waits up to this long at each hand-over (default 5 ms: tens of ms per request
# while a search runs).  Set in the master, inherited by every forked worker.
sys.setswitchinterval(0.0005)


def child_exit(server, worker):
    """Fold the exited worker's metrics into the merged files (the master must survive a failure)."""
    try:
        merge_exited_worker(worker.pid)
    except Exception:
        server.log.exception("could not merge the metrics of exited worker %s", worker.pid)


def on_exit(server):
    remove_own_dir()
