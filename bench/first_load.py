"""What a browser downloads to show ``/``: requests and body bytes, first load and reload, and what
the page's service worker keeps for play offline.

Starts this tree's app (and, with ``--compare DIR``, another checkout's) under
gunicorn on 127.0.0.1, opens ``/`` in a fresh headless Chromium (which asks for
``gzip, deflate, br, zstd``), and records every answer that came from the
server: the page, its stylesheet, icon and modules, the API requests the page
makes as it starts.  Then it asks the server for each of those again without
``Accept-Encoding`` (what the same load weighs uncompressed).  Where the app
serves a service worker (``/sw.js``), it waits for the worker to take the page
and counts what the worker fetched to keep (its precache: files and bytes as
sent).  Then it reloads the page to count what a second visit asks of the
server and gets (with a worker, the page and its files come from the worker).
Prints one table::

    checkout   first load: requests   bytes (as sent)   bytes (plain)   reload: requests   304s   bytes
               kept offline: files   bytes (as sent)   bytes (plain)

Bytes are response bodies as they crossed the wire, headers not counted.

    .venv/bin/python bench/first_load.py [--compare DIR]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Response, sync_playwright  # noqa: E402

from tests.browser.conftest import CHROMIUM_ARGS  # noqa: E402
from tests.servers import Gunicorn  # noqa: E402


def plain_size(response: Response) -> int:
    """The body of the same request asked again without compression (urllib sends no Accept-Encoding)."""
    request = response.request
    data = request.post_data_buffer
    headers = {"Content-Type": request.headers["content-type"]} if data else {}
    ask = urllib.request.Request(request.url, data=data, headers=headers, method=request.method)
    with urllib.request.urlopen(ask, timeout=10) as answer:
        return len(answer.read())


def from_server(responses: list[Response]) -> list[tuple[Response, int]]:
    """The answers that crossed the network (not a page's memory cache, not the service worker's
    cache), each with its body's size."""
    sized = [(r, r.request.sizes()["responseBodySize"]) for r in responses if not r.from_service_worker]
    return [(r, size) for r, size in sized if size >= 0]


def has_worker(url: str) -> bool:
    """Whether the app at ``url`` serves a service worker at /sw.js."""
    try:
        with urllib.request.urlopen(url + "/sw.js", timeout=10):
            return True
    except urllib.error.HTTPError as error:
        error.close()
        return False


def measure(browser, url: str) -> dict[str, int]:
    """One first load of ``url``/, what its worker keeps, and one reload, in a fresh browser context."""
    context = browser.new_context()
    kept: list[Response] = []
    context.on("response", lambda response: response.request.service_worker and kept.append(response))
    page = context.new_page()
    seen: list[Response] = []
    page.on("response", lambda response: seen.append(response))
    page.goto(url + "/", wait_until="networkidle")
    first = from_server(seen)
    worker = has_worker(url)
    if worker:
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30_000)
    seen.clear()
    page.reload(wait_until="networkidle")
    reload = from_server(seen)
    figures = {
        "requests": len(first),
        "sent": sum(size for _, size in first),
        "plain": sum(plain_size(r) for r, _ in first),
        "reload requests": len(reload),
        "reload 304s": sum(r.status == 304 for r, _ in reload),
        "reload bytes": sum(size for _, size in reload),
        "kept files": len(kept) if worker else 0,
        "kept bytes": sum(r.request.sizes()["responseBodySize"] for r in kept) if worker else 0,
        "kept plain": sum(plain_size(r) for r in kept) if worker else 0,
    }
    context.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare", type=Path, metavar="DIR", help="another checkout, measured the same way")
    args = parser.parse_args()
    checkouts = [("this tree", ROOT)] + (
        [(str(args.compare), args.compare.resolve())] if args.compare else []
    )
    rows = []
    with sync_playwright() as playwright:
        executable = shutil.which("chromium")
        if executable is None:
            raise SystemExit("chromium is not installed (apt-get install chromium)")
        browser = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        try:
            for name, root in checkouts:
                # Each checkout under its own gunicorn.conf.py, which puts its folder first on sys.path.
                with (
                    tempfile.TemporaryDirectory() as cache,
                    Gunicorn(
                        workers=1, root=root, config=root / "gunicorn.conf.py", env={"CACHE_DIR": cache}
                    ) as server,
                ):
                    rows.append((name, measure(browser, server.url)))
        finally:
            browser.close()
    columns = [
        "requests",
        "sent",
        "plain",
        "reload requests",
        "reload 304s",
        "reload bytes",
        "kept files",
        "kept bytes",
        "kept plain",
    ]
    print(
        "| checkout | first load: requests | bytes as sent | bytes plain | reload: requests | 304s | bytes"
        " | kept offline: files | bytes as sent | bytes plain |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, row in rows:
        print(f"| {name} | " + " | ".join(f"{row[column]:,}" for column in columns) + " |")


if __name__ == "__main__":
    main()
