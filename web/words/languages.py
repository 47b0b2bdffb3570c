"""The languages the pages speak, declared once, and which one a request gets.

A page's language is, in order: its address's ``?lang=`` (a shared link, an
embed's ``src``), the reader's own choice in the language picker (the ``lang``
cookie, which the picker sets), the browser's ``Accept-Language`` (its best
match among the offered languages, ``fr-CA`` taking ``fr``), else English.  An
API answer's words (a teaching engine's note, a room's refusal) follow the
request's ``Accept-Language`` alone: the pages' scripts send their own
language in it (static/js/words.js), and a program that sends none reads
English whatever cookie it holds.

Two pseudo-languages check the layout, not the words: ``en-XA`` (every message
40% longer, in accented letters) and ``ar-XB`` (right to left, mirrored).  They
are reached by ``?lang=`` alone: never offered, never matched.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from flask import Request, g, request

# The cookie the language picker sets (static/js/language-picker.js): the reader's own choice.
COOKIE = "lang"
# A year: a reader who chose a language keeps it.
COOKIE_SECONDS = 365 * 24 * 3600


@dataclass(frozen=True)
class Language:
    """A language the pages speak.

    ``tag``: as ``<html lang>``, ``?lang=`` and ``hreflang`` write it (BCP 47);
    ``name``: in itself, for the picker; ``catalog``: the catalog's folder under
    translations/ (Babel's name for it: ``en@xa`` for the pseudo-language
    ``en-XA``); ``direction`` of its script; ``pseudo``: a layout check, reached by
    ``?lang=`` only.
    """

    tag: str
    name: str
    catalog: str
    direction: Literal["ltr", "rtl"] = "ltr"
    pseudo: bool = False


ENGLISH = Language("en", "English", "en")
LANGUAGES = (
    ENGLISH,
    Language("fr", "Français", "fr"),
    Language("es", "Español", "es"),
    Language("de", "Deutsch", "de"),
    Language("en-XA", "Ëñĝļîšĥ (pseudo, 40% longer)", "en@xa", pseudo=True),
    Language("ar-XB", "English (pseudo, right to left)", "ar@xb", direction="rtl", pseudo=True),
)
# The messages' own language: the code's words are its catalog.
SOURCE = ENGLISH
# What the picker offers and Accept-Language may match.
OFFERED = tuple(language for language in LANGUAGES if not language.pseudo)
BY_TAG = {language.tag.lower(): language for language in LANGUAGES}


def by_tag(tag: str | None) -> Language | None:
    """The language whose tag is ``tag`` (any case), or None."""
    return None if tag is None else BY_TAG.get(tag.lower())


def page_language(req: Request) -> Language:
    """A page's language: ``?lang=``, the picker's cookie, ``Accept-Language``, English (module docstring)."""
    return by_tag(req.args.get("lang")) or by_tag(req.cookies.get(COOKIE)) or answer_language(req)


def answer_language(req: Request) -> Language:
    """An API answer's language: ``Accept-Language`` when it is one tag of ours (a page's script sends its
    own, a pseudo-language's included), else its best offered match, else English."""
    exact = by_tag(req.headers.get("Accept-Language", "").strip())
    if exact is not None:
        return exact
    best = req.accept_languages.best_match([language.tag for language in OFFERED])
    return by_tag(best) or SOURCE


def address_language(req: Request) -> Language:
    """The language a request's address names (``?lang=``), else its ``Accept-Language``'s: a file that a
    page links in its own language (the app's manifest)."""
    return by_tag(req.args.get("lang")) or answer_language(req)


def speak(language: Language) -> Language:
    """Answer the request being answered in ``language`` (before any word of it is said); returns it."""
    g.language = language
    return language


def current_language() -> Language:
    """The language of the request being answered (a page's or an answer's), chosen once per request."""
    chosen: Language | None = g.get("language")
    if chosen is None:
        chosen = g.language = page_language(request) if is_page(request) else answer_language(request)
    return chosen


def is_page(req: Request) -> bool:
    """Whether the request is for one of the pages (the pages' blueprint, or an address of another that
    answers a browser with a page: ``answer_with_page``), not the API."""
    return req.blueprint == "pages" or bool(g.get("page"))


def answer_with_page() -> None:
    """Say that the request being answered gets a page (an API address a browser navigated to, such as
    /puzzles): its language is then chosen as a page's is, ``?lang=`` and the picker's cookie first."""
    g.page = True
    g.pop("language", None)


def catalog_name() -> str:
    """Flask-Babel's locale selector: the catalog of ``current_language()``."""
    return current_language().catalog
