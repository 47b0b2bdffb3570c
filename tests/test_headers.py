"""Headers and defaults on every kind of response: CSP, nosniff, referrer policy, caching,
debug off, errors without stack traces or paths, 404 as a page or as JSON; HSTS only when a
trusted proxy says the request came over HTTPS (under real gunicorn).
"""

from __future__ import annotations

import http.client
import json
import logging
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.apps import make_app
from tests.servers import Gunicorn
from web.config import ConfigError

STATIC = Path(__file__).resolve().parent.parent / "static"
BROWSER = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
BOARD = {"board": ["x..", ".o.", "..."]}
SECRET = "secret detail in /srv/app/web/engine.py line 42"
INTERNAL = "internal error: the server could not answer this request"


@pytest.fixture(scope="module")
def app_settings():
    return {"STATIC_MAX_AGE": "120"}


def csp(response) -> dict[str, list[str]]:
    """The Content-Security-Policy as {directive: sources}."""
    policy = {}
    for part in response.headers["Content-Security-Policy"].split(";"):
        name, *sources = part.split()
        assert name not in policy, f"{name} given twice"
        policy[name] = sources
    return policy


# Every kind of answer: page, embed, error page, API answer and error, static file,
# 404 and 405, 413, and a conditional 304.
RESPONSES = {
    "page": ("GET", "/", {"headers": BROWSER}),
    "embed": ("GET", "/embed?size=4x4", {"headers": BROWSER}),
    "embed-400-page": ("GET", "/embed?size=<b>", {"headers": BROWSER}),
    "move": ("POST", "/move", {"json": BOARD}),
    "move-409": ("POST", "/move", {"json": {"board": ["xx.", "...", "..."]}}),
    "move-400": ("POST", "/move", {"data": "{", "content_type": "application/json"}),
    "move-413": ("POST", "/move", {"data": "[" * 20_000, "content_type": "application/json"}),
    "move-405": ("GET", "/move", {}),
    "healthz": ("GET", "/healthz", {}),
    "openapi": ("GET", "/openapi.json", {}),
    "static-js": ("GET", "/static/js/main.js", {}),
    "static-css": ("GET", "/static/css/app.css", {}),
    "404-page": ("GET", "/no/such/page", {"headers": BROWSER}),
    "404-api": ("GET", "/api/nope", {"headers": BROWSER}),
    "404-static": ("GET", "/static/js/nope.js", {}),
}


@pytest.mark.parametrize("method,path,kwargs", RESPONSES.values(), ids=RESPONSES.keys())
def test_every_response_carries_the_security_headers(client, method, path, kwargs):
    # buffered: a static file is streamed from an open file, which only a read to the end closes
    response = client.open(path, method=method, buffered=True, **kwargs)
    policy = csp(response)
    assert policy["script-src"] == ["'self'"] and policy["default-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"] and policy["base-uri"] == ["'self'"]
    assert policy["frame-ancestors"] == ["*"]  # the default: embeddable anywhere
    assert policy["img-src"] == ["'self'", "data:"]  # the only other source allowed
    sources = [source for sources in policy.values() for source in sources]
    assert "'unsafe-inline'" not in sources and "'unsafe-eval'" not in sources
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "strict-origin-when-cross-origin"
    assert "X-Frame-Options" not in response.headers  # frame-ancestors says who may embed


def test_a_conditional_static_request_is_a_304_with_the_headers(client):
    first = client.get("/static/css/app.css", buffered=True)
    again = client.get("/static/css/app.css", buffered=True, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.get_data() == b""
    assert again.headers["X-Content-Type-Options"] == "nosniff"
    assert csp(again)["script-src"] == ["'self'"]
    since = client.get(
        "/static/css/app.css", buffered=True, headers={"If-Modified-Since": first.headers["Last-Modified"]}
    )
    assert since.status_code == 304


@pytest.mark.parametrize(
    "ancestors,expected",
    [
        ("'none'", ["'none'"]),
        ("'self'", ["'self'"]),
        (
            "https://blog.example.org  https://*.example.com:8443",
            ["https://blog.example.org", "https://*.example.com:8443"],
        ),
    ],
)
def test_frame_ancestors_come_from_the_configuration(tmp_path, ancestors, expected):
    client = make_app(tmp_path, FRAME_ANCESTORS=ancestors).test_client()
    for path in ("/", "/embed", "/healthz", "/static/css/app.css"):
        assert csp(client.get(path, buffered=True))["frame-ancestors"] == expected, path


@pytest.mark.parametrize(
    "ancestors,message",
    [
        ("https://a.example; script-src *", "is not a CSP source"),  # a directive smuggled in
        ("https://a.example, https://b.example", "is not a CSP source"),
        ("https://a.example\r\nSet-Cookie: x=1", "is not a CSP source"),  # header injection
        ("'unsafe-inline'", "is not a CSP source"),
        ("   ", "must name at least one source"),
    ],
)
def test_a_frame_ancestors_value_that_could_change_the_policy_stops_the_app(tmp_path, ancestors, message):
    with pytest.raises(ConfigError, match=f"FRAME_ANCESTORS.*{message}"):
        make_app(tmp_path, FRAME_ANCESTORS=ancestors)


class Markup(HTMLParser):
    """What a page would need the CSP to allow: inline scripts, handlers, style attributes.

    A ``<script type="application/json">`` is a data block, which browsers never run, so
    script-src does not govern it: it is counted apart, in ``data_blocks``.
    """

    def __init__(self) -> None:
        super().__init__()
        self.inline: list[str] = []
        self.scripts: list[str] = []
        self.data_blocks: list[str | None] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        names = dict(attrs)
        self.inline += [f"{tag}[{name}]" for name in names if name.startswith("on") or name == "style"]
        if tag == "script" and names.get("type") == "application/json":
            self.data_blocks.append(names.get("id"))
        elif tag == "script":
            self._in_script = True
            self.scripts.append(names.get("src") or "")
            if "src" not in names:
                self.inline.append("inline <script>")
        if tag == "style":
            self.inline.append("<style>")

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, data):
        if self._in_script and data.strip():
            self.inline.append("script text")


@pytest.mark.parametrize("path", ["/", "/lab", "/embed", "/embed?size=7x7&side=o&theme=dark"])
def test_the_pages_need_nothing_the_policy_forbids(client, path):
    page = Markup()
    page.feed(client.get(path).get_data(as_text=True))
    assert page.inline == []  # script-src 'self' and style-src 'self' would block them
    assert page.data_blocks == ["server-sets"]  # the closed sets, data that is never run
    assert page.scripts and all(src.startswith("/static/") for src in page.scripts)


# -- caching -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "path", sorted("/static/" + p.relative_to(STATIC).as_posix() for p in STATIC.rglob("*") if p.is_file())
)
def test_static_files_are_cacheable_with_validators_and_the_right_type(client, path):
    response = client.get(path, buffered=True)
    assert response.status_code == 200
    # Scripts, styles and the data they read are revalidated on every load (web/pages/static_files.py);
    # images keep STATIC_MAX_AGE.
    expected_cache = "public, max-age=120" if path.endswith((".svg", ".png")) else "no-cache"
    assert response.headers["Cache-Control"] == expected_cache
    assert response.headers["ETag"] and response.headers["Last-Modified"]
    expected = {
        ".js": ("text/javascript", "application/javascript"),
        ".css": ("text/css",),
        ".svg": ("image/svg+xml",),
        ".png": ("image/png",),
        ".json": ("application/json",),
    }[Path(path).suffix]
    # with nosniff a browser refuses a module script or a stylesheet of another type
    assert response.mimetype in expected


def test_answers_about_positions_are_never_cached_and_pages_revalidate(client):
    assert client.post("/move", json=BOARD).headers["Cache-Control"] == "no-store"
    assert client.post("/move", json={"board": "x"}).headers["Cache-Control"] == "no-store"
    assert client.get("/stats").headers["Cache-Control"] == "no-store"
    assert client.get("/").headers["Cache-Control"] == "no-cache"
    assert client.get("/embed").headers["Cache-Control"] == "no-cache"
    assert client.get("/nope", headers=BROWSER).headers["Cache-Control"] == "no-store"


# The reads that say how long a copy stays fresh themselves: the document, and the puzzles (the same
# bytes for everyone until a deploy: tests/test_puzzles_api.py).
CACHEABLE_READS = {"/openapi.json", "/puzzles", "/puzzles/daily"}


def test_every_api_path_is_never_stored_and_answers_errors_in_json(client):
    """Every path /openapi.json documents (/livez too) is the API's, even for a browser."""
    spec = client.get("/openapi.json").get_json()
    assert "/livez" in spec["paths"]
    for path, operations in spec["paths"].items():
        if "get" in operations and path not in CACHEABLE_READS:
            assert client.get(path).headers["Cache-Control"] == "no-store", path
        wrong = client.open(path, method="POST" if "get" in operations else "GET", headers=BROWSER)
        assert wrong.status_code == 405 and wrong.mimetype == "application/json", path
        assert wrong.headers["Cache-Control"] == "no-store", path


# -- debug off, errors without details ------------------------------------------------


def test_debug_is_off_even_when_the_environment_asks_flask_for_it(tmp_path, monkeypatch):
    # FLASK_DEBUG is what `flask run --debug` sets; a platform may leak it. The app
    # gunicorn serves never turns the debugger or exception propagation on.
    for value in (None, "1"):
        if value is None:
            monkeypatch.delenv("FLASK_DEBUG", raising=False)
        else:
            monkeypatch.setenv("FLASK_DEBUG", value)
        app = make_app(tmp_path)
        assert app.debug is False and app.config["PROPAGATE_EXCEPTIONS"] is False
        assert app.testing is False


def broken_app(tmp_path, monkeypatch):
    """An app whose engine raises, and with a page route that raises too."""
    from web.searches import slots as search_slots

    def explode(*args, **kwargs):
        raise RuntimeError(SECRET)

    monkeypatch.setattr(search_slots.SearchSlots, "search", explode)
    app = make_app(tmp_path)

    @app.get("/boom")
    def boom():
        raise KeyError(SECRET)

    return app


def assert_no_details(text: str) -> None:
    for leak in (
        SECRET,
        "Traceback",
        'File "',
        ".py",
        "/srv/",
        "/work/",
        "RuntimeError",
        "KeyError",
        "line 42",
    ):
        assert leak not in text, leak


@pytest.mark.parametrize(
    "method,path,kwargs,mimetype",
    [
        ("POST", "/move", {"json": BOARD}, "application/json"),
        ("POST", "/analyze", {"json": BOARD, "headers": BROWSER}, "application/json"),
        ("GET", "/boom", {}, "application/json"),
        ("GET", "/boom", {"headers": BROWSER}, "text/html"),
    ],
)
def test_an_internal_error_says_only_that_and_logs_the_details(
    tmp_path, monkeypatch, caplog, method, path, kwargs, mimetype
):
    client = broken_app(tmp_path, monkeypatch).test_client()
    with caplog.at_level(logging.ERROR, logger="web.http.errors"):
        response = client.open(path, method=method, **kwargs)
    text = response.get_data(as_text=True)
    assert response.status_code == 500 and response.mimetype == mimetype
    assert_no_details(text)
    if mimetype == "application/json":
        assert response.get_json() == {"error": INTERNAL}
    else:
        assert "<h1>500 Internal Server Error</h1>" in text and INTERNAL in text
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Cache-Control"] == "no-store"
    # the details are in the log, for us
    assert any(
        SECRET in record.exc_text or SECRET in str(record.exc_info[1])
        for record in caplog.records
        if record.exc_info
    )


def test_bad_input_is_never_a_500_even_when_the_engine_is_broken(tmp_path, monkeypatch):
    # Refusals happen before any search: a broken engine cannot turn them into 500s.
    client = broken_app(tmp_path, monkeypatch).test_client()
    for body, status in (
        ({"board": "x"}, 400),
        ({"board": ["xx.", "...", "..."]}, 409),
        ({"board": ["xxx", "oo.", "..."]}, 409),
        ({}, 400),
    ):
        assert client.post("/move", json=body).status_code == status, body


# -- 404: a page for a browser, JSON under the API -----------------------------------


def test_a_browser_gets_a_404_page_and_the_api_answers_json(client):
    page = client.get("/no/such/page", headers=BROWSER)
    assert page.status_code == 404 and page.mimetype == "text/html"
    assert "<h1>404 Not Found</h1>" in page.get_data(as_text=True)
    for path in ("/api/nope", "/api/move", "/move"):
        method = "GET" if path != "/move" else "PUT"
        answer = client.open(path, method=method, headers=BROWSER)
        assert answer.mimetype == "application/json" and set(answer.get_json()) == {"error"}
    assert client.get("/no/such/page").get_json() == {
        "error": "no such resource: see /openapi.json for the API"
    }


def hsts_of(server: Gunicorn, headers: dict[str, str]) -> list[str | None]:
    """Strict-Transport-Security of /healthz and of a cached POST /move (the view's memo) with ``headers``."""
    found = []
    for method, path, body in (("GET", "/healthz", None), *[("POST", "/move", json.dumps(BOARD))] * 2):
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        connection.request(method, path, body=body, headers={"Content-Type": "application/json", **headers})
        response = connection.getresponse()
        response.read()
        connection.close()
        assert response.status == 200
        found.append(response.getheader("Strict-Transport-Security"))
    return found


@pytest.fixture(scope="module", params=["0", "1"], ids=["TRUSTED_PROXIES=0", "TRUSTED_PROXIES=1"])
def behind(request, tmp_path_factory):
    env = {"CACHE_DIR": str(tmp_path_factory.mktemp("cache")), "TRUSTED_PROXIES": request.param}
    with Gunicorn(workers=1, env=env) as server:
        server.trusted_proxies = request.param
        yield server


# X-Forwarded-Proto as the request carries it -> HSTS expected with TRUSTED_PROXIES 0 and 1.
FORWARDED_PROTO = {
    "https": (None, "max-age=31536000"),  # with 0 anyone could have written it; with 1 the router did
    "evil, https": (None, "max-age=31536000"),  # the router appends its own last
    "https, http": (None, None),
    None: (None, None),
}


@pytest.mark.slow
@pytest.mark.parametrize("proto", list(FORWARDED_PROTO))
def test_x_forwarded_proto_turns_on_hsts_only_from_a_trusted_proxy(behind, proto):
    headers = {} if proto is None else {"X-Forwarded-Proto": proto}
    hsts = FORWARDED_PROTO[proto][int(behind.trusted_proxies)]
    assert hsts_of(behind, headers) == [hsts] * 3
