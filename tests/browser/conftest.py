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
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, sync_playwright

from tests.browser.helpers import ARTIFACTS, CHROMIUM_ARGS, DESKTOP
from tests.servers import Gunicorn

# The pages' service worker (static/sw.js) is blocked unless a test asks for it
# (``open_page(service_workers="allow")``, as tests/browser/test_offline.py does): the game page
# registers it after its load, and it would fetch the deploy's files (about 50 requests) for every
# test's page, and answer the reloads of tests about other things.
NO_WORKERS = "block"


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


class ReusedContext:
    """A browser context whose pages are handed out one at a time, each as a fresh visitor's.

    A new context costs Chromium a renderer process of its own, started and torn down again
    (about 0.6 s of CPU a page on two cores, most of what a short browser test costs): the
    first page of each test opens here instead, in a context that lives for the whole
    session, while a blank page kept open keeps its renderer running.  What a new context
    would give the page it gives too: when the page is done, the storage of every origin the
    page sent a request to (localStorage, cookies, everything ``Storage.clearDataForOrigin``
    clears) and the HTTP cache are cleared, and the network is back online; a page's size,
    colour scheme and motion preference are set on the page itself.  Playwright's clock is the
    context's, and cannot be taken out again: a test that installs it asks for a context of its
    own (``open_page(own_context=True)``), and one that forgot fails, the context replaced.
    """

    def __init__(self, browser) -> None:
        self.browser = browser
        self._open()

    def _open(self) -> None:
        self.context = self.browser.new_context(viewport=DESKTOP, service_workers=NO_WORKERS)
        self.keeper = self.context.new_page()
        self.devtools = self.context.new_cdp_session(self.keeper)

    def page(self, viewport: dict, color_scheme: str, reduced_motion: str) -> Page:
        """A new page with these settings."""
        page = self.context.new_page()
        page.set_viewport_size(viewport)
        page.emulate_media(color_scheme=color_scheme, reduced_motion=reduced_motion)
        return page

    def forget(self, origins: set[str]) -> None:
        """Leave nothing of a closed page behind: the storage of ``origins`` (cookies included), the cache,
        the offline switch."""
        if self.keeper.evaluate("() => '__pwClock' in globalThis"):
            self.close()
            self._open()
            raise AssertionError(
                "a page installed the clock in the reused context: open it with own_context=True"
            )
        self.context.set_offline(False)
        for origin in origins:
            self.devtools.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
        self.devtools.send("Network.clearBrowserCache")

    def close(self) -> None:
        self.context.close()


def origin_of(url: str) -> str:
    """``scheme://host:port`` of a URL (the key its storage is kept under)."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


@pytest.fixture(scope="session")
def reused_context(browser) -> Iterator[ReusedContext]:
    """The session's ``ReusedContext``."""
    reused = ReusedContext(browser)
    yield reused
    reused.close()


@contextmanager
def opened_pages(
    browser, name: str, failed: Callable[[], bool], reused: ReusedContext | None = None
) -> Iterator[Callable[..., Page]]:
    """Pages, each a fresh visitor's (own storage, empty cache); screenshots and checks on leaving.

    ``factory(viewport=PHONE, color_scheme="dark")`` returns a page (with reduced motion unless
    ``reduced_motion="no-preference"``, and service workers blocked unless
    ``service_workers="allow"``).  The first page opens in ``reused`` when given, unless it
    asks for ``own_context=True`` or an option only a context has (``has_touch=True``); every
    other page opens in a new context, so that two pages of one test never share their storage.
    On leaving, each
    page is screenshotted as ``name`` into ``test-artifacts/`` when ``failed()`` or a page
    reported a problem, and an ``AssertionError`` lists any uncaught error or CSP violation a
    page reported.
    """
    opened = []  # (the page's own context, or None in ``reused``; the page; its problems)
    origins: set[str] = set()  # of the requests of the page in ``reused``

    def factory(
        viewport=DESKTOP, color_scheme="light", reduced_motion="reduce", own_context=False, **options
    ):
        if reused is not None and not opened and not own_context and not options:
            context = None
            page = reused.page(viewport, color_scheme, reduced_motion)
            page.on("request", lambda request: origins.add(origin_of(request.url)))
        else:
            options = {"service_workers": NO_WORKERS, **options}
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
            if context is not None:
                context.close()
            else:
                page.close()
                reused.forget(origins)
    assert not problems, problems


def failures_since_now(request) -> Callable[[], bool]:
    """Whether a test of this session failed after this call (its report is in before any teardown)."""
    before = request.session.testsfailed
    return lambda: request.session.testsfailed > before


@pytest.fixture
def open_page(browser, reused_context, request):
    """The test's factory of pages (``opened_pages``, its first page in the session's reused context),
    named after the test: the test fails if a page threw an uncaught error or reported a CSP violation."""
    with opened_pages(browser, request.node.name, failures_since_now(request), reused_context) as factory:
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
