"""A page of another origin for the embedding tests: a stdlib HTTP server on 127.0.0.1."""

from __future__ import annotations

import http.server
import threading

from tests.servers import free_port

# A page that frames ``{src}`` and keeps every message it receives in ``window.received`` (and #log).
PARENT_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Parent</title></head>
<body>
<h1>A page that embeds the game</h1>
<iframe id="game" src="{src}" width="360" height="420" title="Tic-tac-toe"></iframe>
<pre id="log"></pre>
<script>
  window.received = [];
  window.addEventListener("message", (event) => {{
    window.received.push({{origin: event.origin, data: event.data}});
    document.getElementById("log").textContent += JSON.stringify(event.data) + "\\n";
  }});
</script>
</body></html>
"""


class ParentSite:
    """A stdlib HTTP server on 127.0.0.1 serving one parent page; a context manager."""

    def __init__(self, html: str) -> None:
        body = html.encode()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/"

    def __enter__(self) -> ParentSite:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
