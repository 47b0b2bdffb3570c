"""What a browser downloads to show ``/``: requests and body bytes, first load and reload.

Starts this tree's app (and, with ``--compare DIR``, another checkout's) under
gunicorn on 127.0.0.1, opens ``/`` in a fresh headless Chromium (which asks for
``gzip, deflate, br, zstd``), and records every answer that came from the
server: the page, its stylesheet, icon and modules, the API requests the page
makes as it starts.  Then it asks the server for each of those again without
``Accept-Encoding`` (what the same load weighs uncompressed), and reloads the
page to count what a second visit asks and gets.  Prints one table::

    checkout   first load: requests   bytes (as sent)   bytes (plain)   reload: requests   304s   bytes

Bytes are response bodies as they crossed the wire, headers not counted.

    .venv/bin/python bench/first_load.py [--compare DIR]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
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
    """The answers that crossed the network (not a page's memory cache), each with its body's size."""
    sized = [(r, r.request.sizes()["responseBodySize"]) for r in responses]
    return [(r, size) for r, size in sized if size >= 0]


def measure(browser, url: str) -> dict[str, int]:
    """One first load of ``url``/ and one reload in a fresh browser context."""
    context = browser.new_context()
    page = context.new_page()
    seen: list[Response] = []
    page.on("response", lambda response: seen.append(response))
    page.goto(url + "/", wait_until="networkidle")
    first = from_server(seen)
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
    columns = ["requests", "sent", "plain", "reload requests", "reload 304s", "reload bytes"]
    print(
        "| checkout | first load: requests | bytes as sent | bytes plain | reload: requests | 304s | bytes |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, row in rows:
        print(f"| {name} | " + " | ".join(f"{row[column]:,}" for column in columns) + " |")


if __name__ == "__main__":
    main()
