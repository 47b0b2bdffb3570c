"""The pages (/ and /embed with its query parameters) and the headers on every response."""

from __future__ import annotations

import re

import pytest

from web.assembly import create_app


def root_data(html: str) -> dict[str, str]:
    """The data-* attributes of the element that carries data-rows."""
    tag = re.search(r"<[a-z]+[^>]*\bdata-rows=[^>]*>", html).group(0)
    return dict(re.findall(r'\bdata-([a-z]+)="([^"]*)"', tag))


def test_index_page(client):
    response = client.get("/")
    assert response.status_code == 200 and response.mimetype == "text/html"
    assert response.headers["Cache-Control"] == "no-cache"


PLAY_AREA_IDS = (
    "play",
    "turn-strip",
    "status",
    "col-labels",
    "row-labels",
    "board",
    "outcome",
    "new-game",
    "undo",
    "hint",
    "retry",
)


@pytest.mark.parametrize("path", ["/", "/embed"])
def test_both_games_serve_the_same_play_area_without_inline_code(client, path):
    html = client.get(path).get_data(as_text=True)
    for element_id in PLAY_AREA_IDS:
        assert html.count(f'id="{element_id}"') == 1, element_id
    assert "<script>" not in html and "<style" not in html and " style=" not in html


def test_the_game_page_offers_medium_first(client):
    html = client.get("/").get_data(as_text=True)
    assert re.search(r'<input type="radio" name="level" value="medium" checked>', html)
    assert len(re.findall(r'name="level" value="[a-z]+" checked', html)) == 1


@pytest.mark.parametrize(
    "query,expected",
    [
        ("", dict(rows="3", cols="3", k="3", level="perfect", side="x", first="human", theme="auto")),
        (
            "?size=4x5&k=4&level=easy&side=o&theme=dark",
            dict(rows="4", cols="5", k="4", level="easy", side="o", first="engine", theme="dark"),
        ),
        ("?rows=7&cols=7", dict(rows="7", cols="7", k="5", side="x", first="human")),
        ("?size=15x15&first=engine", dict(rows="15", cols="15", k="5", side="o", first="engine")),
        ("?side=o&first=engine&theme=light", dict(side="o", first="engine", theme="light")),
        ("?size=3x3&utm_source=blog&ref=x", dict(rows="3", cols="3", k="3")),
        ("?size=6x4", dict(rows="6", cols="4", k="4")),
    ],
)
def test_embed_settings_become_data_attributes(client, query, expected):
    response = client.get("/embed" + query)
    assert response.status_code == 200, response.get_data(as_text=True)
    data = root_data(response.get_data(as_text=True))
    assert {name: data[name] for name in expected} == expected


@pytest.mark.parametrize(
    "query,message",
    [
        ("?size=3by3", "size must look like 3x3"),
        ("?size=2x2", "rows must be between 3 and 15, not 2"),
        ("?size=16x16", "rows must be between 3 and 15, not 16"),
        ("?rows=3&cols=20", "cols must be between 3 and 15, not 20"),
        ("?size=3x3&rows=4", "either size (such as 3x3) or rows and cols, not both"),
        ("?rows=three", "rows must be a whole number"),
        ("?k=4", "k must be between 3 and 3 on a 3x3 board, not 4"),
        ("?size=5x5&k=2", "k must be between 3 and 5"),
        ("?k=-1", "k must be a whole number"),
        ("?k=4%0A", "k must be a whole number"),  # a trailing newline
        ("?rows=%D9%A4", "rows must be a whole number"),  # an Arabic-Indic four
        ("?cols=%EF%BC%94", "cols must be a whole number"),  # a fullwidth four
        ("?size=4x4%0A", "size must look like 3x3"),
        ("?size=%D9%A4x%D9%A4", "size must look like 3x3"),
        ("?level=hard", "level must be one of easy, medium, perfect, not 'hard'"),
        ("?side=z", "side must be one of x, o"),
        ("?first=me", "first must be one of human, engine"),
        ("?theme=pink", "theme must be one of auto, light, dark"),
        ("?side=o&first=human", "disagree: x always moves first"),
        ("?side=x&side=o", "side is given 2 times"),
    ],
)
def test_bad_embed_parameters_are_a_400_naming_them(client, query, message):
    as_json = client.get("/embed" + query)
    assert as_json.status_code == 400 and message in as_json.get_json()["error"]
    page = client.get("/embed" + query, headers={"Accept": "text/html,*/*;q=0.8"})
    assert page.status_code == 400 and page.mimetype == "text/html"
    assert "<h1>400" in page.get_data(as_text=True)


def test_error_pages_escape_what_the_client_sent(client):
    page = client.get("/embed?size=<script>alert(1)</script>", headers={"Accept": "text/html"})
    text = page.get_data(as_text=True)
    assert page.status_code == 400 and "<script>" not in text and "&lt;script&gt;" in text


def test_a_browser_gets_an_html_404_and_a_client_json(client):
    page = client.get("/no-such-page", headers={"Accept": "text/html,*/*;q=0.8"})
    assert page.status_code == 404 and page.mimetype == "text/html"
    assert client.get("/no-such-page").get_json() == {
        "error": "no such resource: see /openapi.json for the API"
    }


EXPECTED_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
    " object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors *"
)


@pytest.mark.parametrize(
    "method,path,kwargs",
    [
        ("GET", "/", {}),
        ("GET", "/embed", {}),
        ("GET", "/embed?size=1x1", {}),
        ("GET", "/static/css/app.css", {}),
        ("GET", "/healthz", {}),
        ("GET", "/openapi.json", {}),
        ("POST", "/move", {"json": {"board": ["x..", ".o.", "..."]}}),
        ("POST", "/move", {"json": {"board": ["xx.", "...", "..."]}}),
        ("GET", "/move", {}),
        ("GET", "/nope", {}),
    ],
)
def test_security_headers_on_every_response(client, method, path, kwargs):
    # buffered: a static file is streamed from an open file, which only a read to the end closes
    response = client.open(path, method=method, buffered=True, **kwargs)
    assert response.headers["Content-Security-Policy"] == EXPECTED_CSP
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "strict-origin-when-cross-origin"
    assert "X-Frame-Options" not in response.headers  # embedding must work
    assert "Strict-Transport-Security" not in response.headers  # plain http here


def test_caching_headers(client):
    static = client.get("/static/css/app.css", buffered=True)
    assert static.status_code == 200
    assert static.headers["Cache-Control"] == "no-cache" and static.headers["ETag"]
    assert client.get("/static/images/logo.svg").headers["Cache-Control"] == "public, max-age=3600"
    assert client.post("/move", json={"board": ["x..", ".o.", "..."]}).headers["Cache-Control"] == "no-store"
    assert client.get("/healthz").headers["Cache-Control"] == "no-store"
    assert "max-age=300" in client.get("/openapi.json").headers["Cache-Control"]


def test_https_behind_a_proxy_gets_hsts(client):
    response = client.get("/healthz", base_url="https://localhost")
    assert response.headers["Strict-Transport-Security"] == "max-age=31536000"


def test_frame_ancestors_is_configurable(tmp_path):
    app = create_app(
        {
            "CACHE_DIR": str(tmp_path),
            "FRAME_ANCESTORS": "'self'  https://*.example.com https://blog.example.org:8443",
        }
    )
    policy = app.test_client().get("/embed").headers["Content-Security-Policy"]
    assert policy.endswith("frame-ancestors 'self' https://*.example.com https://blog.example.org:8443")
