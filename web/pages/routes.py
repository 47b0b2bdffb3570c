"""The pages: / (the game), /lab (the engines side by side), /embed (the game for an iframe) and the
puzzles page (``puzzles_page``: web/puzzles/routes.py serves it at /puzzles to a browser).

/embed checks every parameter it knows and answers 400 naming the bad one; it
ignores parameters it does not know (embedding sites add their own, such as
utm_source).  The checked settings reach the template as ``embed`` and become
``data-*`` attributes of its root element (see docs/api.md).

Every page speaks its reader's language (web/words/languages.py says which):
its templates' words, the JSON block of the closed sets, and the JSON block of
its scripts' words (``words``: one language's, none for English), with
``<html lang dir>``, the picker's languages and an ``hreflang`` alternate for
each of them.  A page's answer varies by ``Accept-Language`` and the picker's
cookie, and says so.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import asdict, dataclass, replace

from flask import Blueprint, current_app, render_template, request
from werkzeug.datastructures import MultiDict

from tictactoe import DEFAULT_LEVEL, LEVELS, BoardFormatError, Level, Phrase, Puzzle, Rules
from tictactoe.algorithms.registry import TRACEABLE
from web.http.errors import ApiError
from web.pages.address import SIZE, SMALL_INT
from web.pages.app_manifest import APPLE_TOUCH_ICON, colours
from web.pages.closed_sets import DEFAULT_THEME, THEMES, ServerSets, server_sets
from web.pages.share_card import (
    EMBED,
    EMBED_ARGS,
    GAME_ARGS,
    GAME_PAGE,
    LAB,
    LAB_ARGS,
    PICTURE,
    PUZZLES,
    PUZZLES_ARGS,
    SITE_NAME,
    ShareCard,
    card_address,
    game_card,
    puzzle_card,
)
from web.puzzles import current_puzzles
from web.words.catalogs import page_words
from web.words.languages import COOKIE, COOKIE_SECONDS, LANGUAGES, OFFERED, Language, current_language
from web.words.speech import say

bp = Blueprint("pages", __name__)
# The closed sets every page embeds (closed_sets.py), by language: they never change while the app runs.
_SERVER_SETS: dict[Language, ServerSets] = {}

PageResponse = tuple[str, int, dict[str, str]]  # body, status, headers

SIDES = ("x", "o")
FIRSTS = ("human", "engine")


@dataclass(frozen=True)
class EmbedSettings:
    """The game an embed starts with."""

    rows: int
    cols: int
    k: int
    level: Level
    side: str
    first: str
    theme: str

    def data_attributes(self) -> dict[str, str]:
        """The settings as the root element's ``data-*`` attributes."""
        return {f"data-{name}": str(value) for name, value in asdict(self).items()}


@bp.get("/")
def index() -> PageResponse:
    """The game page."""
    card = game_card(request.args)
    return _page(_render("index.html", GAME_PAGE, card, GAME_ARGS, opens_room=_opens_room()))


@bp.get("/lab")
def lab() -> PageResponse:
    """The lab: every teaching engine on one position (all figures come from the API)."""
    return _page(_render("lab.html", LAB, LAB, LAB_ARGS, traceable=list(TRACEABLE)))


@bp.get("/embed")
def embed() -> PageResponse:
    """The embeddable game, configured by size (or rows and cols), k, level, side, first, theme; or with
    ``puzzle``, that puzzle."""
    settings = embed_settings(request.args)
    attrs, room = settings.data_attributes(), _opens_room()
    puzzle = _embedded_puzzle()
    card = EMBED if puzzle is None else puzzle_card(puzzle)
    html = _render(
        "embed.html",
        card,
        card,
        EMBED_ARGS,
        embed=settings,
        embed_attrs=attrs,
        opens_room=room,
        puzzle=puzzle,
    )
    return _page(html)


def _embedded_puzzle() -> Puzzle | None:
    """The puzzle ``/embed?puzzle=ID`` names (None without one); ``ApiError`` 404 for an unknown id."""
    values = request.args.getlist("puzzle")
    if len(values) > 1:
        raise ApiError(400, f"puzzle is given {len(values)} times: give it once")
    if not values:
        return None
    puzzle = current_puzzles().set().get(values[0])
    if puzzle is None:
        raise ApiError(404, f"no puzzle has the id {values[0][:40]!r}: the puzzles page links to each one")
    return puzzle


def puzzles_page(start: str | None) -> PageResponse:
    """The puzzles page (web/puzzles/routes.py asks for it): opened on the puzzle ``start`` names (an
    id, or "daily"), or on the player's next one; 404 with the page for an id no puzzle has."""
    puzzle = None if start in (None, "daily") else current_puzzles().set().get(start)
    card = PUZZLES if puzzle is None else puzzle_card(puzzle)
    html = _render("puzzles.html", PUZZLES, card, PUZZLES_ARGS, start=start or "", boards=_puzzle_boards())
    body, _, headers = _page(html)
    return body, 404 if start not in (None, "daily") and puzzle is None else 200, headers


def _puzzle_boards() -> list[dict[str, object]]:
    """The boards that have puzzles, for the page's menu: the rules' key, a label and how many."""
    puzzles = current_puzzles().set()
    return [
        {
            "key": rules.key(),
            "label": say(_board_label(rules)),
            "count": sum(1 for p in puzzles if p.rules == rules),
        }
        for rules in puzzles.rules()
    ]


def _board_label(rules: Rules) -> Phrase:
    """A board of puzzles in words, as the game page's menu names its boards: "3 × 3 · three in a row"."""
    rows, cols = rules.rows, rules.cols
    if rules.k == 3:
        return Phrase("{rows} × {cols} · three in a row", rows=rows, cols=cols)
    if rules.k == 4:
        return Phrase("{rows} × {cols} · four in a row", rows=rows, cols=cols)
    if rules.k == 5:
        return Phrase("{rows} × {cols} · five in a row", rows=rows, cols=cols)
    return Phrase("{rows} × {cols} · {k} in a row", rows=rows, cols=cols, k=rules.k)


def _opens_room() -> bool:
    """Whether the page's address is a room's link (``?room=ID``), whose script opens that room."""
    return "room" in request.args


def embed_settings(args: MultiDict[str, str]) -> EmbedSettings:
    """Check the query parameters of /embed; raises ``ApiError`` 400 naming the bad one."""

    def one(name: str) -> str | None:
        values = args.getlist(name)
        if len(values) > 1:
            raise ApiError(400, f"{name} is given {len(values)} times: give it once")
        return values[0] if values else None

    size, rows_text, cols_text = one("size"), one("rows"), one("cols")
    if size is not None and (rows_text is not None or cols_text is not None):
        raise ApiError(400, "give either size (such as 3x3) or rows and cols, not both")
    if size is not None:
        match = SIZE.fullmatch(size)
        if not match:
            raise ApiError(400, f"size must look like 3x3 (rows x cols), not {size!r}")
        rows, cols = int(match[1]), int(match[2])
    else:
        rows = _small_int("rows", rows_text, 3)
        cols = _small_int("cols", cols_text, 3)
    k_text = one("k")
    try:
        Rules(rows, cols, 3)  # the size first, so its message comes before any about k
        k = Rules.default_k(rows, cols) if k_text is None else _small_int("k", k_text, 3)
        Rules(rows, cols, k)
    except BoardFormatError as error:
        raise ApiError(400, str(error)) from None

    level = Level(_choice("level", one("level"), LEVELS, DEFAULT_LEVEL))
    side_given, first_given = one("side"), one("first")
    side = _choice("side", side_given, SIDES, "x")
    first = _choice("first", first_given, FIRSTS, "human")
    # X always moves first, so the human's side decides who starts; the two
    # parameters may both be given only when they agree.
    if side_given is None and first_given is not None:
        side = "x" if first == "human" else "o"
    elif side_given is not None and first_given is None:
        first = "human" if side == "x" else "engine"
    elif (side == "x") != (first == "human"):
        raise ApiError(
            400,
            f"side={side} and first={first} disagree: x always moves first, so the side that plays x starts",
        )
    theme = _choice("theme", one("theme"), THEMES, DEFAULT_THEME)
    # The page's language is chosen with the others (web/words/languages.py); here it is only checked.
    lang = one("lang")
    if lang is not None:
        _choice("lang", lang, tuple(language.tag for language in LANGUAGES), "")
    return EmbedSettings(rows=rows, cols=cols, k=k, level=level, side=side, first=first, theme=theme)


def _small_int(name: str, text: str | None, default: int) -> int:
    if text is None:
        return default
    if not SMALL_INT.fullmatch(text):
        raise ApiError(400, f"{name} must be a whole number, not {text!r}")
    return int(text)


def _choice(name: str, value: str | None, choices: tuple[str, ...], default: str) -> str:
    if value is None:
        return default
    if value not in choices:
        raise ApiError(400, f"{name} must be one of {', '.join(choices)}, not {value!r}")
    return value


def _render(
    template: str, page: ShareCard, card: ShareCard, reads: Collection[str], **context: object
) -> str:
    """A page's template with ``context``, ``sets`` (the closed sets: its menus and its JSON block),
    ``page`` (its title and summary), ``card`` (what a link to it shows), ``card_url`` (the address
    it names: the request's, with only the query arguments the page ``reads``), ``picture``,
    ``site`` (the site's name), ``colours`` (the page's background), ``touch_icon`` (iOS's icon), and its
    language: ``language``, ``languages`` (the picker's), ``alternates`` ((tag, address) of the page
    in each of them, and ``x-default``'s without ``lang``) and ``words`` (its scripts' JSON block)."""
    language = current_language()
    sets = _SERVER_SETS.get(language)
    if sets is None:
        sets = _SERVER_SETS[language] = server_sets()
    card_url = card_address(request.base_url, request.args, reads)
    args = request.args.copy()
    args.poplist("lang")
    alternates = [("x-default", card_address(request.base_url, args, reads))]
    for offered in OFFERED:
        args["lang"] = offered.tag
        alternates.append((offered.tag, card_address(request.base_url, args, reads)))
    return render_template(
        template,
        sets=sets,
        page=page.said(),
        card=card.said(),
        card_url=card_url,
        picture=replace(PICTURE, words=say(PICTURE.words)),
        language=language,
        languages=OFFERED,
        language_cookie={"name": COOKIE, "seconds": COOKIE_SECONDS},
        alternates=alternates,
        words=page_words(language),
        site=say(SITE_NAME),
        colours=colours(current_app),
        touch_icon=APPLE_TOUCH_ICON,
        **context,
    )


def _page(html: str) -> PageResponse:
    """A page response that browsers revalidate, so a deploy shows at once; its words follow the
    reader's language (``Accept-Language``, the picker's cookie)."""
    return html, 200, {"Cache-Control": "no-cache", "Vary": "Accept-Language, Cookie"}
