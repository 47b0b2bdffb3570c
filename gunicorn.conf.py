"""gunicorn settings for a Heroku-style platform, and for serving clients directly.

Read by both of the project's commands (``gunicorn --bind 127.0.0.1:8000 app:app``
and the Procfile's ``gunicorn app:app``); why each value, with the measured
figures, in docs/deploy.md ("gunicorn settings").
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # gunicorn reads this before chdir
from web import server

bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))

# gevent: a connection costs a greenlet, not a thread, so clients that send a
# request slowly (or stop half-way) cannot tie up the workers; gunicorn's FAQ
# names an async worker for serving without a buffering proxy in front.  The
# CPU-bound searches run in a real thread pool (web/runtime/offload.py), so a search
# never freezes the other connections of its worker.
worker_class = "gevent"
worker_connections = int(os.environ.get("GUNICORN_CONNECTIONS", "1000"))
# On gevent workers this bounds both an idle kept-alive connection and the
# reading of a request's line and headers as a whole (gunicorn wraps it in a
# gevent.Timeout of this many seconds): a client that stalls in them is closed.
keepalive = int(os.environ.get("GUNICORN_READ_TIMEOUT", "5"))
# Connections one client address may hold open in a worker (web/http/connections_per_address.py);
# behind a router the peer is the router, so no cap.
connections_per_address = server.connection_cap()


def pre_request(worker, req):
    """The body's deadline, the write timeout, broken chunks in words (web/server.py)."""
    server.prepare_request(worker, req, keepalive)


def post_worker_init(worker):
    """gunicorn's own errors no-store; the connection cap per address (web/server.py)."""
    server.prepare_worker(worker, connections_per_address)


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
# TRUSTED_PROXIES setting (werkzeug's ProxyFix, web/assembly.py).  So gunicorn
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

# Logs and metrics (web/telemetry/logs.py, web/telemetry/metrics.py): every logger,
# gunicorn's included, in one format (LOG_FORMAT=json|text); workers count into one multiprocess folder.
logconfig_dict = server.gunicorn_logconfig()
logger_class = server.GunicornLogger
server.prepare_multiprocess_dir()
# A search is pure Python and holds the GIL; a cache hit in another thread of the same
# worker waits up to this long at each hand-over (default 5 ms: tens of ms per request
# while a search runs).  Set in the master, inherited by every forked worker.
sys.setswitchinterval(0.0005)


def child_exit(arbiter, worker):
    """Fold the exited worker's metrics into the merged files."""
    server.worker_exited(arbiter, worker)


def on_exit(arbiter):
    server.remove_own_dir()
