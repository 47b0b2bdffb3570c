"""The speed floor's yardstick: a bare Flask app with one route that parses and echoes JSON.

No middleware, no error handlers, no cache: ``bench/wrk_move.py`` serves it with
the project's own gunicorn settings and measures cached ``POST /move`` against it.
A GET (no body) echoes ``null``, so the same route doubles as the readiness probe.
"""

from flask import Flask, jsonify, request

app = Flask(__name__)


@app.route("/echo", methods=["GET", "POST"])
def echo():
    """Answer the posted JSON document as it came (``null`` for no body)."""
    return jsonify(request.get_json(silent=True))
