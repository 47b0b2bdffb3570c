"""A new deploy with changed static files, seen by a page its service worker answered (static/sw.js,
static/js/offline-app.js): the page offers the new version, and once it is taken the old cache is
gone and the page runs the new deploy's modules only.

A deploy here is a copy of the checkout served on one port, stopped, changed and served again on
the same port (the worker's origin).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.test_offline import CACHED_URLS, KEPT_BODY, WORKERS, notice, wait_controlled
from tests.servers import ROOT, Gunicorn

pytestmark = pytest.mark.browser


def checkout_copy(folder: Path) -> Path:
    """A copy of what a deploy runs (the app, the engine, the pages and their files) in ``folder``."""
    for name in ("app.py", "gunicorn.conf.py"):
        shutil.copy2(ROOT / name, folder / name)
    for name in ("web", "tictactoe", "templates", "static"):
        shutil.copytree(ROOT / name, folder / name)
    return folder


def serving(root: Path, port: int, cache: Path) -> Gunicorn:
    """The app of the checkout at ``root`` on ``port`` (one worker: a deploy, not a load)."""
    server = Gunicorn(workers=1, root=root, config=root / "gunicorn.conf.py", env={"CACHE_DIR": str(cache)})
    server.port, server.url = port, f"http://127.0.0.1:{port}"
    return server


def test_a_deploy_with_changed_files_replaces_the_cache_and_the_page_runs_its_modules_only(
    open_page, tmp_path
):
    deployed = checkout_copy(tmp_path)
    with serving(deployed, Gunicorn().port, tmp_path / "cache") as first:
        page = open_page(service_workers=WORKERS)
        page.goto(first.url + "/")
        wait_controlled(page)
        before = page.evaluate(CACHED_URLS)["names"]
    # The next deploy changes two modules: the entry module marks the page, describe.js a word.
    main = deployed / "static" / "js" / "main.js"
    main.write_text(main.read_text() + '\ndocument.documentElement.dataset.deploy = "2";\n')
    describe = deployed / "static" / "js" / "describe.js"
    describe.write_text(describe.read_text().replace("and move first.", "and move first (deploy 2)."))
    with serving(deployed, first.port, tmp_path / "cache") as second:
        # The page a worker answered is the deploy it kept, whole; the worker finds the new one.
        page.reload()
        expect(page.locator("#status")).to_have_text("You are X and move first. Your turn.")
        offer = notice(page, "update")
        expect(offer).to_contain_text("A new version of the game is ready.")
        with page.expect_navigation():
            offer.get_by_role("button", name="Reload").click()
        expect(page.locator("#status")).to_have_text("You are X and move first (deploy 2). Your turn.")
        assert page.evaluate("document.documentElement.dataset.deploy") == "2"
        kept = page.evaluate(CACHED_URLS)
        assert len(kept["names"]) == 1 and kept["names"] != before  # the old deploy's cache is gone
        for path in ("/static/js/main.js", "/static/js/describe.js"):
            assert page.evaluate(KEPT_BODY, path) == (deployed / path.removeprefix("/")).read_text(), path
        assert page.evaluate("() => fetch('/sw.js').then((r) => r.text())").startswith(
            f'const DEPLOY = {{"version": "{kept["names"][0].removeprefix("tictactoe-")}"'
        )
        assert second.port == first.port
