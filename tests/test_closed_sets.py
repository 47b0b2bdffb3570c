"""Every page carries the server's closed sets in one JSON block, and they are the server's own.

The block (``<script type="application/json" id="server-sets">``, built by
``web/pages/closed_sets.py``) is what the page's JavaScript reads instead of
typing the levels, themes, presets and default k again; these tests hold it to
the engine's registry and to what the API does.
"""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest

from tictactoe import LEVELS, MAX_SIZE, MIN_SIZE
from tictactoe.algorithms.registry import describe_levels
from web.pages.closed_sets import server_sets

PAGES = ("/", "/embed", "/lab", "/embed?size=5x5&level=easy")
SIZES = [(rows, cols) for rows in range(MIN_SIZE, MAX_SIZE + 1) for cols in range(MIN_SIZE, MAX_SIZE + 1)]


class _JsonBlocks(HTMLParser):
    """Collects the text of every ``<script>``, with its attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self._open: dict[str, str | None] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self._open = dict(attrs)
            self.scripts.append((self._open, ""))

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            attrs, text = self.scripts[-1]
            self.scripts[-1] = (attrs, text + data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._open = None


def page_sets(client, path: str) -> dict:
    """The JSON block of the page at ``path``; fails unless there is exactly one, of type application/json."""
    response = client.get(path)
    assert response.status_code == 200, path
    parser = _JsonBlocks()
    parser.feed(response.get_data(as_text=True))
    blocks = [(attrs, text) for attrs, text in parser.scripts if attrs.get("id") == "server-sets"]
    assert len(blocks) == 1, path
    attrs, text = blocks[0]
    assert attrs.get("type") == "application/json", path
    return json.loads(text)


@pytest.mark.parametrize("path", PAGES)
def test_every_page_carries_the_same_sets(client, path):
    assert page_sets(client, path) == server_sets()


def test_the_levels_and_their_words_are_the_registrys(client):
    sets = page_sets(client, "/")
    assert [level["name"] for level in sets["levels"]] == list(LEVELS)
    words = [{key: level[key] for key in ("name", "label", "description")} for level in sets["levels"]]
    assert words == describe_levels()
    assert all(level["label"].lower() == level["name"] for level in sets["levels"])
    assert sets["gamePageLevel"] in LEVELS


def test_the_default_level_is_the_apis(client):
    sets = page_sets(client, "/")
    level_schema = client.get("/openapi.json").get_json()["components"]["schemas"]["Level"]
    assert sets["defaultLevel"] == level_schema["default"]
    embed = client.get("/embed").get_data(as_text=True)
    assert f'data-level="{sets["defaultLevel"]}"' in embed


@pytest.mark.parametrize("key", ["presets", "labPresets"])
def test_every_preset_is_a_board_the_api_plays(client, key):
    presets = page_sets(client, "/")[key]
    assert len({preset["id"] for preset in presets}) == len(presets)
    for preset in presets:
        empty = ["." * preset["cols"]] * preset["rows"]
        answer = client.post("/state", json={"board": empty, "k": preset["k"]})
        assert answer.status_code == 200, preset
        assert answer.get_json()["k"] == preset["k"]


def test_the_default_k_of_every_size_is_the_apis(client):
    default_k = page_sets(client, "/")["defaultK"]
    assert set(default_k) == {f"{rows}x{cols}" for rows, cols in SIZES}
    for rows, cols in SIZES:
        answer = client.post("/state", json={"board": ["." * cols] * rows})
        assert answer.status_code == 200
        assert default_k[f"{rows}x{cols}"] == answer.get_json()["k"], (rows, cols)


def test_the_themes_are_the_ones_the_embed_accepts(client):
    sets = page_sets(client, "/")
    assert sets["defaultTheme"] in sets["themes"]
    for theme in sets["themes"]:
        assert client.get(f"/embed?theme={theme}").status_code == 200
    assert client.get("/embed?theme=sepia").status_code == 400
