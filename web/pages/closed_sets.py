"""The closed sets the pages receive from the server: levels, themes, board presets, the default k.

Declared here (or, for the levels, in the engine's registry) and nowhere else:
the templates render their menus from them, and each page embeds them once as
a JSON block (``<script type="application/json" id="server-sets">``) that
``static/js/server-sets.js`` reads, so the page's JavaScript types none of them
again.  ``python -m web.pages.closed_sets`` prints the block's JSON (the
JavaScript unit tests read it so).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TypedDict

from tictactoe import DEFAULT_LEVEL, MAX_SIZE, MIN_SIZE, PLAYS, Level, Rules
from tictactoe.algorithms.registry import describe_levels
from web.searches.slots import FREE_CELLS

# The colour themes: "auto" follows the system's preference; CSS keys its colours by data-theme.
THEMES = ("auto", "light", "dark")
DEFAULT_THEME = "auto"
# The game page's first level for a new visitor: Medium can be beaten (Perfect can at best be
# drawn).  The embed's default is the API's, ``DEFAULT_LEVEL``.
GAME_PAGE_LEVEL = Level.MEDIUM


@dataclass(frozen=True)
class Preset:
    """A named board: its size and line length, and how the menus say it."""

    id: str
    rows: int
    cols: int
    k: int
    label: str

    def __post_init__(self) -> None:
        Rules(self.rows, self.cols, self.k)  # a preset the server would refuse fails at import


# The game page's boards (its settings and the Share / embed dialog), smallest first.
PRESETS = (
    Preset("3x3", 3, 3, 3, "3 × 3 · three in a row"),
    Preset("4x4", 4, 4, 4, "4 × 4 · four in a row"),
    Preset("5x5", 5, 5, 4, "5 × 5 · four in a row"),
    Preset("7x7", 7, 7, 5, "7 × 7 · five in a row"),
    Preset("15x15", 15, 15, 5, "15 × 15 · five in a row"),
)
# The board the engine plays without the server (static/js/offline.js), from the table of every
# position's value that ``python -m tictactoe table`` writes into static/ at this path.
OFFLINE_RULES = Rules(3, 3, 3)
OFFLINE_TABLE = f"data/solved-{OFFLINE_RULES.key()}.json"
# The lab's boards: the small ones every teaching engine can finish.
LAB_PRESETS = (
    Preset("3x3:3", 3, 3, 3, "3 × 3 · three in a row"),
    Preset("4x4:3", 4, 4, 3, "4 × 4 · three in a row"),
    Preset("4x4:4", 4, 4, 4, "4 × 4 · four in a row"),
)


class LevelEntry(TypedDict):
    """A level as the page shows it: its name in the API, its name in words, what it does, and the
    settings' help line that says so (which the game page's template writes before its script runs);
    and how it plays (the engine's ``PLAYS``), which the page's offline player follows: ``quick``,
    searching nothing, and ``blocks``, stopping a win in one."""

    name: str
    label: str
    description: str
    help: str
    quick: bool
    blocks: bool


class PresetEntry(TypedDict):
    """A preset as the JSON block carries it."""

    id: str
    rows: int
    cols: int
    k: int
    label: str


class OfflineEntry(TypedDict):
    """The board the engine plays offline, and its table's path under static/."""

    rows: int
    cols: int
    k: int
    table: str


class ServerSets(TypedDict):
    """The JSON block every page embeds (``static/js/server-sets.js`` documents its reader)."""

    levels: list[LevelEntry]
    defaultLevel: str
    gamePageLevel: str
    themes: list[str]
    defaultTheme: str
    presets: list[PresetEntry]
    labPresets: list[PresetEntry]
    defaultK: dict[str, int]
    freeSizes: list[str]
    offline: OfflineEntry


def levels() -> list[LevelEntry]:
    """Every level, weakest first, from the engine's registry, with its name capitalised for menus."""
    return [_level(entry["name"], entry["description"]) for entry in describe_levels()]


def _level(name: str, description: str) -> LevelEntry:
    label, play = name.capitalize(), PLAYS[Level(name)]
    return {
        "name": name,
        "label": label,
        "description": description,
        "help": f"{label}: {description}.",
        "quick": play.quick,
        "blocks": play.blocks,
    }


def default_k_by_size() -> dict[str, int]:
    """The k the API takes when a request gives none (``Rules.default_k``), for every size, keyed "RxC"."""
    sizes = range(MIN_SIZE, MAX_SIZE + 1)
    return {f"{rows}x{cols}": Rules.default_k(rows, cols) for rows in sizes for cols in sizes}


def free_sizes() -> list[str]:
    """The sizes, keyed "RxC", whose searches are free (``FREE_CELLS``): their games still play while
    the search allowance refuses an address, which the page says beside a refusal (and asks them)."""
    sizes = range(MIN_SIZE, MAX_SIZE + 1)
    return [f"{rows}x{cols}" for rows in sizes for cols in sizes if rows * cols <= FREE_CELLS]


def server_sets() -> ServerSets:
    """The closed sets as the pages' JSON block carries them."""
    return {
        "levels": levels(),
        "defaultLevel": DEFAULT_LEVEL.value,
        "gamePageLevel": GAME_PAGE_LEVEL.value,
        "themes": list(THEMES),
        "defaultTheme": DEFAULT_THEME,
        "presets": [_entry(preset) for preset in PRESETS],
        "labPresets": [_entry(preset) for preset in LAB_PRESETS],
        "defaultK": default_k_by_size(),
        "freeSizes": free_sizes(),
        "offline": {
            "rows": OFFLINE_RULES.rows,
            "cols": OFFLINE_RULES.cols,
            "k": OFFLINE_RULES.k,
            "table": OFFLINE_TABLE,
        },
    }


def _entry(preset: Preset) -> PresetEntry:
    return {"id": preset.id, "rows": preset.rows, "cols": preset.cols, "k": preset.k, "label": preset.label}


if __name__ == "__main__":
    print(json.dumps(server_sets(), ensure_ascii=False))
