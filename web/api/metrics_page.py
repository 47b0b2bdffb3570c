"""GET /metrics: every metric of the server in Prometheus' text format (web/telemetry/metrics.py).

With ``METRICS_TOKEN`` set it needs ``Authorization: Bearer`` and that token (401
otherwise, in words); unset, it is open.  Its ``Content-Type`` is the classic text
format's, ``text/plain; version=0.0.4; charset=utf-8``, which every Prometheus
version parses.
"""

from __future__ import annotations

import hmac

from flask import Blueprint, Response, current_app, jsonify, request
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4

from web.http.error_body import error_body
from web.openapi.declarations import Answer, Refusal, declare
from web.parts import current

bp = Blueprint("metrics", __name__)


@bp.get("/metrics")
@declare(
    "Prometheus metrics",
    "Requests by endpoint and status, latency histograms, the cache's work, searches by board size,"
    " refusals (busy, rate limited) and answers by source, summed over every worker, in Prometheus'"
    " classic text format (text/plain; version=0.0.4; charset=utf-8; docs/api.md lists them), rendered"
    " at most once a second per worker. With METRICS_TOKEN set on the server it needs"
    " Authorization: Bearer and that token.",
    answers={200: Answer(str, "The metrics.", media="text/plain")},
    refusals=(
        Refusal(
            401,
            "The server has a METRICS_TOKEN and the request did not bear it (WWW-Authenticate: Bearer).",
        ),
    ),
)
def exposition() -> Response:
    """Every metric, in Prometheus' text format; 401 without the METRICS_TOKEN when one is set."""
    token = current_app.config["SETTINGS"].metrics_token
    if token is not None and not _bears(token, request.headers.get("Authorization", "")):
        response = jsonify(error_body(UNAUTHORIZED))
        response.status_code = 401
        response.headers["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    # content_type, not mimetype: Flask would add a second charset, which Prometheus 3 refuses.
    response = Response(current().metrics.exposition(), content_type=CONTENT_TYPE_PLAIN_0_0_4)
    response.headers["Cache-Control"] = "no-store"
    return response


UNAUTHORIZED = (
    "the metrics need the server's METRICS_TOKEN: send it as 'Authorization: Bearer <token>'"
    " (set it in the scraper's authorization settings)"
)


def _bears(token: str, authorization: str) -> bool:
    """Whether an ``Authorization`` header carries ``token`` as a Bearer token (in constant time)."""
    scheme, _, given = authorization.partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode())
