"""A proven position fetched twice by the browser reaches a worker once: its HTTP cache keeps it.

The server is the real app under gunicorn, wrapped to write one line per
request that reaches a worker (tests/request_log_app.py); the page is the
app's own, and Chromium's fetch() uses its ordinary HTTP cache.
"""

from __future__ import annotations

import uuid

import pytest

from tests.servers import Gunicorn, wait_until

pytestmark = pytest.mark.browser

#  x . . .
#  . . . .
#  . . o .     X to move on 4x4, three in a row: proven at once
#  . . . .
PROVEN = "x3/4/2o1/4"
UNPROVEN = "/".join(["15"] * 15)  # the empty 15x15 board: beyond an exact search

FETCH_TWICE = """async (url) => {
    const answers = [];
    for (let i = 0; i < 2; i++) {
        const response = await fetch(url);
        answers.push({status: response.status, cache: response.headers.get("Cache-Control"),
                      body: await response.text()});
    }
    return answers;
}"""


@pytest.fixture(scope="module")
def logged_server(tmp_path_factory):
    """The app under gunicorn (2 workers) with a log of every request a worker saw."""
    folder = tmp_path_factory.mktemp("http-cache")
    log = folder / "requests.log"
    server = Gunicorn(
        workers=2,
        app="tests.request_log_app:app",
        env={"CACHE_DIR": str(folder / "cache"), "REQUEST_LOG": str(log), "SEARCH_BUDGET": "0.5"},
    )
    with server:
        yield server, log


def worker_hits(log, server_url, page, needle: str) -> int:
    """Requests with ``needle`` that reached a worker, once every earlier request has been logged.

    A marker request sent after the others is waited for first: a request is
    logged before it is answered, so once the marker is in, so is all before it.
    """
    marker = uuid.uuid4().hex
    page.evaluate("async (url) => (await fetch(url)).status", f"{server_url}/livez?{marker}")
    wait_until(lambda: marker in log.read_text(), timeout=10, what="the marker request")
    return sum(needle in line for line in log.read_text().splitlines())


@pytest.mark.parametrize(
    ("text", "fetches_reaching_a_worker"),
    [(PROVEN, 1), (UNPROVEN, 2)],
    ids=["proven-kept", "unproven-no-store"],
)
def test_a_repeat_is_answered_by_the_browser_cache_only_when_proven(
    open_page, logged_server, text, fetches_reaching_a_worker
):
    server, log = logged_server
    page = open_page()
    page.goto(server.url + "/")
    answers = page.evaluate(FETCH_TWICE, f"{server.url}/position?board={text}")
    assert [a["status"] for a in answers] == [200, 200]
    if fetches_reaching_a_worker == 1:
        assert answers[0]["body"] == answers[1]["body"]
        assert answers[1]["cache"] == "public, max-age=31536000, immutable"
    else:
        assert [a["cache"] for a in answers] == ["no-store", "no-store"]
    assert worker_hits(log, server.url, page, f"board={text}") == fetches_reaching_a_worker


def test_the_page_arrives_gzipped_and_a_reload_revalidates_every_script_and_style(open_page, app_server):
    # web/http/compression.py and web/pages/static_files.py: no module can be an hour older
    # than the page's others.
    page = open_page()
    loads: list[list] = []
    page.on("response", lambda response: loads[-1].append(response))

    def scripts_and_styles() -> dict[str, list]:
        by_url: dict[str, list] = {}
        for response in loads[-1]:
            if response.url.endswith((".js", ".css")):
                by_url.setdefault(response.url, []).append(response)
        return by_url

    loads.append([])
    page.goto(app_server.url + "/", wait_until="networkidle")
    first = scripts_and_styles()
    assert len(first) > 10
    assert {url: [r.headers.get("content-encoding") for r in rs] for url, rs in first.items()} == {
        url: ["gzip"] for url in first
    }
    loads.append([])
    page.reload(wait_until="networkidle")
    again = scripts_and_styles()
    assert again.keys() == first.keys()
    assert {url: {r.status for r in rs} for url, rs in again.items()} == {url: {304} for url in first}
