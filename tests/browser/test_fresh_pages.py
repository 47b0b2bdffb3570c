"""A test's page is a fresh visitor's, though most open in one context kept for the session (conftest.py)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import ReusedContext
from tests.browser.helpers import DESKTOP, PHONE

pytestmark = pytest.mark.browser

#  x . . .
#  . . . .
#  . . o .     X to move on 4x4, three in a row: proven, so the browser may keep the answer a year
#  . . . .
PROVEN = "/position?board=x3/4/2o1/4"
# Bytes the last fetch of a URL took from the network: 0 when the HTTP cache answered it.
FETCHED_BYTES = """async (url) => {
    performance.clearResourceTimings();
    await (await fetch(url)).text();
    return performance.getEntriesByType("resource").find((entry) => entry.name === url).transferSize;
}"""
LEFT_BEHIND = "() => [localStorage.getItem('left'), document.cookie]"


def test_a_page_in_the_reused_context_finds_nothing_the_page_before_it_left(browser, app_server):
    reused = ReusedContext(browser)
    try:
        before = reused.page(DESKTOP, "dark", "reduce")
        before.goto(app_server.url + "/")
        before.evaluate("() => { localStorage.setItem('left', 'behind'); document.cookie = 'left=behind'; }")
        assert before.evaluate(LEFT_BEHIND) == ["behind", "left=behind"]
        assert before.evaluate(FETCHED_BYTES, app_server.url + PROVEN) > 0
        assert before.evaluate(FETCHED_BYTES, app_server.url + PROVEN) == 0  # the HTTP cache kept it
        reused.context.set_offline(True)
        before.close()
        reused.forget({app_server.url})

        after = reused.page(PHONE, "light", "no-preference")
        after.goto(app_server.url + "/")  # online again
        assert after.evaluate(LEFT_BEHIND) == [None, ""]
        assert after.evaluate(FETCHED_BYTES, app_server.url + PROVEN) > 0  # the cache was emptied
        assert after.viewport_size == PHONE
        assert after.evaluate("() => matchMedia('(prefers-color-scheme: light)').matches")
        assert after.evaluate("() => matchMedia('(prefers-reduced-motion: no-preference)').matches")
    finally:
        reused.close()
