"""gunicorn settings for a Heroku-style platform: bind $PORT, workers from $WEB_CONCURRENCY, log to stdout."""

import os
import sys

bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# Threads let a worker answer cache hits while one of its threads searches;
# MAX_CONCURRENT_SEARCHES (the app's setting) caps the searches themselves.
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
# Searches are CPU-bound and bounded by the app's per-request budget; a
# worker that is silent for this long is stuck and is replaced.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info")
# Platforms terminate TLS in their router and pass the client's scheme along.
forwarded_allow_ips = "*"

# Logs and metrics (web/logs.py, web/metrics.py): every logger, gunicorn's included, in one
# format (LOG_FORMAT=json|text); workers count into one multiprocess folder.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # gunicorn reads this before chdir
from web.logs import gunicorn_logconfig  # noqa: E402
from web.metrics_folder import mark_worker_dead, prepare_multiprocess_dir, remove_own_dir  # noqa: E402

logconfig_dict = gunicorn_logconfig()
prepare_multiprocess_dir()
# A search is pure Python and holds the GIL; a cache hit in another thread of the same
# worker waits up to this long at each hand-over (default 5 ms: tens of ms per request
# while a search runs).  Set in the master, inherited by every forked worker.
sys.setswitchinterval(0.0005)


def child_exit(server, worker):
    mark_worker_dead(worker.pid)


def on_exit(server):
    remove_own_dir()
