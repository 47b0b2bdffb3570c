"""Browser-test fixtures: the real app under gunicorn, Debian's Chromium, pages that leave screenshots.

The browser is launched by hand (``playwright install`` cannot download one
here, so pytest-playwright's fixtures are not used).  Every page a test opens is
screenshotted into ``test-artifacts/`` when the test fails (as pytest-playwright's
``--screenshot only-on-failure`` does): a full-page screenshot costs about 0.1 s
of the browser's time, and the pages to look at when nothing failed are drawn by
tests/browser/screenshots*.py.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from playwright.sync_api import Page, sync_playwright

from tests.browser.helpers import ARTIFACTS, CHROMIUM_ARGS, DESKTOP
from tests.servers import Gunicorn


@pytest.fixture(scope="session")
def app_server(tmp_path_factory):
    """The real app (``gunicorn app:app``) on 127.0.0.1, with its cache in a fresh folder."""
    cache_dir = tmp_path_factory.mktemp("cache")
    server = Gunicorn(workers=2, env={"CACHE_DIR": str(cache_dir)})
    server.log_path = tmp_path_factory.mktemp("logs") / "gunicorn.log"
    with server:
        yield server


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the whole session."""
    executable = shutil.which("chromium")
    if executable is None:
        raise RuntimeError("chromium is not installed (apt-get install chromium)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@contextmanager
def opened_pages(browser, name: str, failed: Callable[[], bool]) -> Iterator[Callable[..., Page]]:
    """A factory of pages, each in a fresh context (own storage); screenshots and checks at the end.

    ``factory(viewport=PHONE, color_scheme="dark")`` returns a page (with reduced motion unless
    ``reduced_motion="no-preference"``).  On leaving, each page is screenshotted as ``name``
    into ``test-artifacts/`` when ``failed()`` or a page reported a problem, and an
    ``AssertionError`` lists any uncaught error or CSP violation a page reported.
    """
    opened = []

    def factory(viewport=DESKTOP, color_scheme="light", reduced_motion="reduce", **options):
        context = browser.new_context(
            viewport=viewport, color_scheme=color_scheme, reduced_motion=reduced_motion, **options
        )
        page = context.new_page()
        problems: list[str] = []
        page.on("pageerror", lambda error: problems.append(f"uncaught: {error}"))
        page.on(
            "console",
            lambda msg: (
                problems.append(f"console: {msg.text}") if "Content Security Policy" in msg.text else None
            ),
        )
        opened.append((context, page, problems))
        return page

    yield factory
    problems = [p for _, _, found in opened for p in found]
    keep = failed() or bool(problems)
    if keep:
        ARTIFACTS.mkdir(exist_ok=True)
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", name)
    for index, (context, page, _) in enumerate(opened):
        suffix = "" if index == 0 else f"-{index + 1}"
        try:
            if keep:
                page.screenshot(path=str(ARTIFACTS / f"{name}{suffix}.png"), full_page=True)
        finally:
            context.close()
    assert not problems, problems


def failures_since_now(request) -> Callable[[], bool]:
    """Whether a test of this session failed after this call (its report is in before any teardown)."""
    before = request.session.testsfailed
    return lambda: request.session.testsfailed > before


@pytest.fixture
def open_page(browser, request):
    """The test's factory of pages (``opened_pages``), named after the test: the test fails if a page
    threw an uncaught error or reported a CSP violation."""
    with opened_pages(browser, request.node.name, failures_since_now(request)) as factory:
        yield factory


@pytest.fixture(scope="module")
def open_module_page(browser, request):
    """The same, for a page that several tests of a module read (set up once: say why where it is
    used), named after the module; a problem fails the module's last test at its teardown."""
    with opened_pages(browser, request.module.__name__, failures_since_now(request)) as factory:
        yield factory


@pytest.fixture
def page(open_page):
    """A desktop-sized page in light mode."""
    return open_page()
