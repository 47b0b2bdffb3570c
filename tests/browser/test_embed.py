"""/embed inside an iframe of a page from another origin: the game plays and the parent hears the end."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from playwright.sync_api import Frame, FrameLocator, Page, expect

from tests.browser.helpers import (
    assert_list_in_view,
    cell_name,
    drawing_move,
    read_board,
    stones,
    wait_settled,
)
from tests.browser.parent_site import PARENT_PAGE, ParentSite

pytestmark = pytest.mark.browser


@contextmanager
def embedded(page: Page, app_server, query: str) -> Iterator[tuple[str, FrameLocator, Frame]]:
    """``/embed?{query}`` (from ``localhost``) in the iframe of a parent page on ``127.0.0.1``, open in
    ``page``: yields the app's origin, a locator of the frame and the frame."""
    app_origin = f"http://localhost:{app_server.port}"
    with ParentSite(PARENT_PAGE.format(src=f"{app_origin}/embed?{query}")) as parent:
        page.goto(parent.url)
        game = page.frame(url=lambda url: url.startswith(app_origin))
        assert game is not None, "the parent page's load waits for its frame"
        yield app_origin, page.frame_locator("#game"), game


def test_embedded_game_posts_game_over_to_a_parent_on_another_origin(page: Page, app_server):
    query = "size=3x3&k=3&level=perfect&side=x&first=human&theme=light"
    with embedded(page, app_server, query) as (app_origin, frame, game):
        expect(frame.locator("#status")).to_have_text("You are X and move first. Your turn.")
        wait_settled(game, 0)
        while game.locator("#status").get_attribute("data-status") == "in_progress":
            board = read_board(game)
            row, col = drawing_move(app_server, board, 3)
            frame.get_by_role("button", name=cell_name(row, col)).click()
            wait_settled(game, stones(board) + 2)
        expect(frame.locator("#status")).to_contain_text("It's a draw.")
        # The embed shows its result and the score beside the board, still inside 360x420.
        expect(frame.locator("#outcome")).to_have_text("It's a draw.")
        expect(frame.locator("#outcome")).to_be_visible()
        expect(frame.locator("#new-game")).to_have_text("Play again")
        expect(frame.locator('#turn-strip [data-score="draw"]')).to_have_text("1")
        assert_fits(game)
        # A draw, and the embed's own player (X against the engine) says its result.
        expect(page.locator("#log")).to_have_text(
            '{"type":"tictactoe:gameover","winner":null,"player":"x","result":"draw"}\n'
        )
        received = page.evaluate("window.received")
        data = {"type": "tictactoe:gameover", "winner": None, "player": "x", "result": "draw"}
        assert received == [{"origin": app_origin, "data": data}]


def test_embed_as_o_lets_the_engine_open_and_fits_its_frame(page: Page, app_server):
    with embedded(page, app_server, "size=3x3&k=3&level=easy&side=o&first=engine&theme=dark") as (
        _,
        frame,
        game,
    ):
        expect(frame.locator("#board button")).to_have_count(9)
        wait_settled(game, 1)
        expect(frame.locator("#status")).to_contain_text("Your turn (O).")
        expect(frame.locator('#turn-strip [data-side="o"]')).to_contain_text("You")
        assert_fits(game)


def test_the_review_in_a_360x420_frame_stands_beside_the_board_it_steps_through(page: Page, app_server):
    with embedded(page, app_server, "size=3x3&k=3&level=perfect&side=x&first=human") as (_, frame, game):
        expect(frame.locator("#status")).to_have_text("You are X and move first. Your turn.")
        frame.get_by_role("button", name=cell_name(0, 1)).click()  # b1: an edge, which still holds the draw
        wait_settled(game, 2)
        frame.get_by_role("button", name="Review").click()
        expect(frame.locator("#review-status")).to_have_text("2 moves: no mistake.")
        assert_list_in_view(game)
        # Stepping back to the first move shows its position on the board, both still in view.
        frame.locator("#review-moves button").first.click()
        expect(frame.locator("#status")).to_contain_text("Reviewing 1. X b1")
        expect(frame.locator("#board .cell.o")).to_have_count(0)
        for shown in ("#board", "#review-moves button[aria-current=step]", "#review-next", "#review-back"):
            expect(frame.locator(shown)).to_be_in_viewport(ratio=1)
        assert game.evaluate("window.scrollY") == 0, "the frame did not have to scroll"
        assert_fits(game)
        assert page.evaluate("window.scrollY") == 0, "the embedding page does not move"


def assert_fits(game) -> None:
    """The embed's document scrolls neither way inside its frame."""
    sizes = game.evaluate("""() => ({
        scrollW: document.documentElement.scrollWidth, clientW: document.documentElement.clientWidth,
        scrollH: document.documentElement.scrollHeight, clientH: document.documentElement.clientHeight})""")
    assert sizes["scrollW"] <= sizes["clientW"], sizes
    assert sizes["scrollH"] <= sizes["clientH"], sizes
