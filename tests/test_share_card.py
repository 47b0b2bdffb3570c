"""What a shared link shows (web/pages/share_card.py): every page's meta description and Open Graph
card, a game's link described by its position, and the card's picture served as the PNG it says."""

from __future__ import annotations

import struct
from html.parser import HTMLParser

import pytest

from web.pages.share_card import GAME_PAGE, LAB, PICTURE

SITE = "https://tictactoe.example"


class _Meta(HTMLParser):
    """The ``<meta>`` tags of a page by name or property, and the text of its ``.tagline``."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: dict[str, str] = {}
        self.tagline: list[str] = []
        self._in_tagline = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        key = names.get("property") or names.get("name")
        if key and names.get("media"):
            key += f" {names['media']}"  # theme-color, once for each colour scheme
        if tag == "meta" and key:
            assert key not in self.tags, f"{key} is given twice"
            self.tags[key] = names["content"] or ""
        self._in_tagline = tag == "p" and names.get("class") == "tagline"

    def handle_endtag(self, tag: str) -> None:
        self._in_tagline = False

    def handle_data(self, data: str) -> None:
        if self._in_tagline:
            self.tagline.append(data)


def page_meta(client, path: str) -> _Meta:
    """The meta tags of ``path`` as served at SITE."""
    response = client.get(path, base_url=SITE)
    assert response.status_code == 200
    meta = _Meta()
    meta.feed(response.get_data(as_text=True))
    return meta


@pytest.mark.parametrize("path, card", [("/", GAME_PAGE), ("/lab", LAB)])
def test_a_page_has_a_description_and_a_card_with_absolute_urls(client, path, card):
    meta = page_meta(client, path)
    tags = meta.tags
    assert tags["description"] == card.description == "".join(meta.tagline)
    assert tags["og:title"] == card.title and tags["og:description"] == card.description
    assert tags["og:url"] == f"{SITE}{path}"
    assert tags["og:image"] == f"{SITE}/static/{PICTURE.path}"
    assert (tags["og:image:width"], tags["og:image:height"]) == (str(PICTURE.width), str(PICTURE.height))
    assert tags["og:image:alt"] == PICTURE.words
    assert tags["og:type"] == "website" and tags["twitter:card"] == "summary_large_image"


def test_the_cards_picture_is_a_png_of_the_size_the_tags_say(client):
    response = client.get(f"/static/{PICTURE.path}", buffered=True)
    assert response.status_code == 200 and response.mimetype == "image/png"
    data = response.get_data()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    assert struct.unpack(">II", data[16:24]) == (PICTURE.width, PICTURE.height) == (1200, 630)


# Each link with the title and the summary its card shows.
GAME_LINKS = [
    # o . .
    # . x .   O to move
    # . . x
    (
        "/?size=3x3&k=3&level=perfect&side=x&moves=b2,a1,c3",
        "Tic-tac-toe on 3 × 3: O to move after 3 moves",
        "A game on 3 × 3, 3 in a row: X b2, O a1, X c3; O to move. Open the link to play on.",
    ),
    # x o o
    # x o .   X wins down column a
    # x . x
    (
        "/?size=3x3&k=3&mode=two&moves=c3,b1,a1,b2,a2,c1,a3",
        "Tic-tac-toe on 3 × 3: X wins in 7 moves",
        "A game on 3 × 3, 3 in a row: X c3, O b1, X a1, O b2, X a2, O c1, X a3; X wins."
        " Open the link to see the game and the review of every move.",
    ),
    # o o x
    # x x o   a draw (no size: 3x3, no k: the API's default)
    # o x x
    (
        "/?moves=b2,a1,c3,a3,a2,c2,b3,b1,c1",
        "Tic-tac-toe on 3 × 3: a draw in 9 moves",
        "A game on 3 × 3, 3 in a row: X b2, O a1, X c3, O a3, X a2, O c2, X b3, O b1, X c1; a draw."
        " Open the link to see the game and the review of every move.",
    ),
    ("/?size=5x5", "Tic-tac-toe on 5 × 5: a new game", "A new game on 5 × 5, 5 in a row."),
    # 15x15: a1..n1 along the top row, alternately X and O, then the card stops naming them.
    (
        "/?size=15x15&k=5&moves=" + ",".join(f"{letter}1" for letter in "abcdefghijklmn"),
        "Tic-tac-toe on 15 × 15: X to move after 14 moves",
        "A game on 15 × 15, 5 in a row: X a1, O b1, X c1, O d1, X e1, O f1, X g1, O h1, X i1, O j1, X k1,"
        " O l1 and 2 more; X to move. Open the link to play on.",
    ),
]


@pytest.mark.parametrize("link, title, description", GAME_LINKS)
def test_a_game_link_shows_its_position(client, link, title, description):
    tags = page_meta(client, link).tags
    assert (tags["og:title"], tags["og:description"]) == (title, description)
    assert tags["description"] == description
    assert tags["og:url"] == SITE + link


@pytest.mark.parametrize(
    "link",
    [
        "/?moves=b2,b2",  # a cell played twice
        "/?moves=c3,b1,a1,b2,a2,c1,a3,b3",  # a move after X has won
        "/?moves=d1",  # off the 3x3 board
        "/?moves=b02",  # not a cell's name as the page writes it
        "/?size=20x20",  # a size the server does not play
        "/?size=3x3&k=9",
        "/?size=3x3&k=x",
        "/?size=3by3",
    ],
)
def test_a_link_the_server_would_not_play_shows_the_game_pages_card(client, link):
    tags = page_meta(client, link).tags
    assert (tags["og:title"], tags["description"]) == (GAME_PAGE.title, GAME_PAGE.description)


@pytest.mark.parametrize(
    "path, address",
    [
        ("/?size=3x3&utm_source=news&moves=b2,a1&fbclid=7", "/?size=3x3&moves=b2,a1"),
        ("/lab?board=x2/1o1/3&ref=<b>", "/lab?board=x2/1o1/3"),
        ("/embed?theme=dark&utm_medium=iframe", "/embed?theme=dark"),
    ],
)
def test_a_cards_address_keeps_only_what_the_page_reads(client, path, address):
    assert page_meta(client, path).tags["og:url"] == SITE + address
