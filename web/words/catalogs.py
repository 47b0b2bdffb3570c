"""The catalogs: every word a person reads, found in the code, translated per language, compiled.

Where the words are written, and how the code marks them:

- the templates (``templates/``): ``{{ _("...") }}`` and ``{% trans %}`` blocks
  (Flask-Babel), placeholders ``%(name)s``;
- the page's scripts (``static/js/``): ``t("...", {name})`` and
  ``tn("{count} move", "{count} moves", count)`` (static/js/words.js),
  placeholders ``{name}``;
- the engine and the web layer (``tictactoe/``, ``web/``): ``Phrase("...")``
  (tictactoe/game/phrase.py), placeholders ``{name}``.

``translations/messages.pot`` holds them all (``extract``); each language has
its ``translations/<catalog>/LC_MESSAGES/messages.po`` (``init``, then
``update`` when the messages change), translated by hand.  ``compile`` builds
what the app reads from them, beside each ``.po``: ``messages.mo`` (Flask-Babel's
catalog, for the templates and the server's words) and ``page.json`` (the
messages of the page's scripts, with the language's plural rule, which each
page carries in a JSON block: one language's, never all).  The two
pseudo-languages' catalogs are made from ``messages.pot`` by ``compile`` itself.
The compiled files are never committed: ``create_app`` compiles what is missing
or older than its source (the README's commands), and so does
``scripts/setup-tests.sh``.

    python -m web.words.catalogs extract     # translations/messages.pot from the code
    python -m web.words.catalogs init it     # a new language's messages.po
    python -m web.words.catalogs update      # every messages.po to messages.pot's messages
    python -m web.words.catalogs compile     # messages.mo and page.json of every language
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
import tempfile
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import ClassVar, cast

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import extract, extract_javascript, extract_python
from babel.messages.mofile import write_mo
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po
from markupsafe import Markup

from web.words.languages import LANGUAGES, SOURCE, Language

CHECKOUT = Path(__file__).resolve().parents[2]
FOLDER = CHECKOUT / "translations"
TEMPLATE = FOLDER / "messages.pot"
DOMAIN = "messages"
# The page's scripts: their messages are the ones page.json carries.
SCRIPTS = "static/js/"
# Where the code writes words, by extraction method: the folders and files' suffix.
SOURCES = (
    ("jinja2", "templates", ".html"),
    ("javascript", "static/js", ".js"),
    ("python", "tictactoe", ".py"),
    ("python", "web", ".py"),
)
# The names that mark a message, by method (a second string argument is a plural's).
KEYWORDS: dict[str, dict[str, tuple[int, ...] | None]] = {
    "jinja2": {"_": None, "gettext": None, "ngettext": (1, 2)},
    "javascript": {"t": None, "tn": None},
    "python": {"Phrase": None},
}
# A placeholder of either style, an HTML tag or an entity: never translated, never changed.
KEPT = re.compile(r"(\{[A-Za-z_]\w*\}|%\([A-Za-z_]\w*\)[sd]|%%|<[^>]+>|&#?\w+;)")
BRACES = re.compile(r"\{([A-Za-z_]\w*)\}")
PERCENTS = re.compile(r"%\(([A-Za-z_]\w*)\)[sd]")


def catalog_folder(language: Language, folder: Path = FOLDER) -> Path:
    """Where ``language``'s catalog files are: ``translations/<catalog>/LC_MESSAGES``."""
    return folder / language.catalog / "LC_MESSAGES"


# ---- finding the messages in the code ------------------------------------------------------------


def source_files(root: Path = CHECKOUT) -> Iterator[tuple[str, Path]]:
    """Every file that may hold messages, with its extraction method, in a fixed order."""
    for method, folder, suffix in SOURCES:
        for path in sorted((root / folder).rglob(f"*{suffix}")):
            if "__pycache__" not in path.parts:
                yield method, path


def file_messages(method: str, path: Path) -> Iterator[tuple[str | tuple[str, str], str]]:
    """The messages of one file: an id (a plural's (singular, plural)), and the translators' comment."""
    with path.open("rb") as stream:
        if method == "jinja2":
            for found in extract(
                "jinja2", stream, keywords=KEYWORDS["jinja2"], comment_tags=("Translators:",)
            ):
                yield _message_id(found[1]), " ".join(found[2])
            return
        reader = extract_javascript if method == "javascript" else extract_python
        # (line, name, the call's string arguments (None for another), comments): Babel's own types
        # for them are looser than what it yields.
        calls = cast(
            "Iterator[tuple[int, str, object, list[str]]]",
            reader(stream, KEYWORDS[method], ["Translators:"], {}),
        )
        for call in calls:
            arguments = call[2]
            leading = list(_leading_strings(arguments if isinstance(arguments, tuple) else (arguments,)))
            if leading:
                yield (leading[0], leading[1]) if len(leading) > 1 else leading[0], " ".join(call[3])


def _leading_strings(arguments: Iterable[object]) -> Iterator[str]:
    """The string literals a marking call starts with (a template, and its plural's)."""
    for argument in arguments:
        if not isinstance(argument, str):
            return
        yield argument


def _message_id(message: object) -> str | tuple[str, str]:
    if isinstance(message, tuple):
        return (message[0], message[1])
    return str(message)


def extracted(root: Path = CHECKOUT) -> Catalog:
    """A template catalog of every message the code holds, each with the files it is in."""
    template = Catalog(
        project="tictactoe-server",
        charset="utf-8",
        fuzzy=False,
        header_comment="# Every word of the tic-tac-toe move server a person reads, found in the code by\n"
        "# python -m web.words.catalogs extract: never edited by hand.",
    )
    for method, path in source_files(root):
        where = path.relative_to(root).as_posix()
        for message_id, comment in file_messages(method, path):
            flags = _flags(message_id)
            existing = template.get(message_id)
            if existing is None:
                existing = template.add(message_id, locations=[], flags=flags)
            # Files alone (no line numbers are written): a line that moves changes no catalog.
            if (where, 0) not in existing.locations:
                existing.locations.append((where, 0))
            if comment and comment not in existing.auto_comments:
                existing.auto_comments.append(comment)
    return template


def _flags(message_id: str | tuple[str, str]) -> list[str]:
    text = message_id if isinstance(message_id, str) else message_id[0]
    if PERCENTS.search(text):
        return ["python-format"]
    if BRACES.search(text):
        return ["python-brace-format"]
    return []


def write_catalog(catalog: Catalog, path: Path) -> None:
    """Write a ``.po`` or ``.pot`` the same way each time: files without line numbers, lines of 100."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as stream:
        write_po(stream, catalog, width=100, include_lineno=False, ignore_obsolete=True)


def read_catalog(path: Path, language: str | None = None) -> Catalog:
    """A ``.po`` or ``.pot`` read back."""
    with path.open("rb") as stream:
        return read_po(stream, locale=language)


# ---- the pseudo-languages -------------------------------------------------------------------------

ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "åƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ",
)
PADDING = " öñé ţŵö ţĥŕéé ƒöûŕ ƒîṽé šîẋ šéṽéñ éîĝĥţ ñîñé ţéñ"
RIGHT_TO_LEFT_OVERRIDE, POP = "\u202e", "\u202c"


def lengthened(text: str) -> str:
    """``en-XA``: the words in accented letters, 40% longer, in brackets (a cut one has lost its ``]``)."""
    parts = KEPT.split(text)
    letters = sum(len(part) for index, part in enumerate(parts) if index % 2 == 0)
    words = "".join(part if index % 2 else part.translate(ACCENTED) for index, part in enumerate(parts))
    padding = PADDING * (1 + math.ceil(0.4 * letters) // len(PADDING))
    return f"[{words}{padding[: math.ceil(0.4 * letters)]}]"


def mirrored(text: str) -> str:
    """``ar-XB``: each run of words shown right to left (as an RTL script reads), placeholders and tags
    kept."""
    parts = KEPT.split(text)
    return "".join(
        part if index % 2 or not part.strip() else f"{RIGHT_TO_LEFT_OVERRIDE}{part}{POP}"
        for index, part in enumerate(parts)
    )


PSEUDO = {"en@xa": lengthened, "ar@xb": mirrored}


def pseudo_catalog(language: Language, template: Catalog) -> Catalog:
    """``language``'s catalog made from the template by its transformation, plural forms included."""
    change = PSEUDO[language.catalog]
    catalog = Catalog(locale=language.catalog, project="tictactoe-server", charset="utf-8", fuzzy=False)
    english = Plural(get_plural("en").plural_expr)
    rule = Plural(catalog.plural_expr)
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            singular, plural = message.id
            # Each of the language's forms takes the English form of a number that falls in it.
            forms = [
                change(plural if english(rule.sample(index)) else singular)
                for index in range(catalog.num_plurals)
            ]
            catalog.add(message.id, tuple(forms), flags=message.flags)
        else:
            catalog.add(message.id, change(str(message.id)), flags=message.flags)
    return catalog


class Plural:
    """A gettext plural expression (``(n != 1)``), evaluated without ``eval``: which form ``n`` takes."""

    TOKENS = re.compile(r"\s*(\d+|n|&&|\|\||[=!<>]=|[<>%?:()!])")

    def __init__(self, expression: str) -> None:
        self.expression = expression

    def __call__(self, n: int) -> int:
        tokens = self.TOKENS.findall(self.expression)
        value, rest = self._ternary(tokens, n)
        assert not rest, self.expression
        return int(value)

    def sample(self, index: int) -> int:
        """The smallest whole number that takes form ``index`` (for a form no number takes, 1000001)."""
        return next((n for n in range(1_000_001) if self(n) == index), 1_000_001)

    # A small precedence climb over the C operators gettext's expressions use.
    BINARY: ClassVar[dict[str, int]] = {
        "||": 1,
        "&&": 2,
        "==": 3,
        "!=": 3,
        "<": 4,
        "<=": 4,
        ">": 4,
        ">=": 4,
        "%": 5,
    }

    def _ternary(self, tokens: list[str], n: int) -> tuple[int, list[str]]:
        condition, rest = self._binary(tokens, n, 1)
        if rest and rest[0] == "?":
            yes, rest = self._ternary(rest[1:], n)
            assert rest[0] == ":", self.expression
            no, rest = self._ternary(rest[1:], n)
            return (yes if condition else no), rest
        return condition, rest

    def _binary(self, tokens: list[str], n: int, least: int) -> tuple[int, list[str]]:
        left, rest = self._unary(tokens, n)
        while rest and self.BINARY.get(rest[0], 0) >= least:
            operator = rest[0]
            right, rest = self._binary(rest[1:], n, self.BINARY[operator] + 1)
            left = _apply(operator, left, right)
        return left, rest

    def _unary(self, tokens: list[str], n: int) -> tuple[int, list[str]]:
        token, rest = tokens[0], tokens[1:]
        if token == "!":
            value, rest = self._unary(rest, n)
            return int(not value), rest
        if token == "(":
            value, rest = self._ternary(rest, n)
            assert rest[0] == ")", self.expression
            return value, rest[1:]
        return (n if token == "n" else int(token)), rest


def _apply(operator: str, left: int, right: int) -> int:
    match operator:
        case "||":
            return int(bool(left) or bool(right))
        case "&&":
            return int(bool(left) and bool(right))
        case "==":
            return int(left == right)
        case "!=":
            return int(left != right)
        case "<":
            return int(left < right)
        case "<=":
            return int(left <= right)
        case ">":
            return int(left > right)
        case ">=":
            return int(left >= right)
    return left % right


# ---- compiling ------------------------------------------------------------------------------------


def compile_catalogs(folder: Path = FOLDER) -> list[Path]:
    """Build each language's ``messages.mo`` and ``page.json`` that is missing or older than its source;
    returns the files written.  Each is written whole under a temporary name, then renamed."""
    template_path = folder / "messages.pot"
    written: list[Path] = []
    template: Catalog | None = None
    for language in LANGUAGES:
        if language is SOURCE:
            continue
        where = catalog_folder(language, folder)
        source = template_path if language.pseudo else where / f"{DOMAIN}.po"
        # A pseudo-language is made by this module's code as well as from the template.
        sources = [source, template_path, Path(__file__)] if language.pseudo else [source, template_path]
        targets = [where / f"{DOMAIN}.mo", where / "page.json"]
        if not any(_older(target, sources) for target in targets):
            continue
        template = template or read_catalog(template_path)
        catalog = (
            pseudo_catalog(language, template) if language.pseudo else read_catalog(source, language.catalog)
        )
        written += _write(where, language, catalog, template)
    return written


def _older(target: Path, sources: Iterable[Path]) -> bool:
    try:
        built = target.stat().st_mtime
    except FileNotFoundError:
        return True
    return any(source.stat().st_mtime > built for source in sources)


def _write(where: Path, language: Language, catalog: Catalog, template: Catalog) -> list[Path]:
    where.mkdir(parents=True, exist_ok=True)
    mo = where / f"{DOMAIN}.mo"
    with _replacing(mo) as stream:
        write_mo(stream, catalog, use_fuzzy=False)
    page = where / "page.json"
    with _replacing(page) as stream:
        stream.write(page_catalog(language, catalog, template).encode())
    return [mo, page]


class _replacing:
    """A file written under a temporary name beside ``path`` and renamed over it once whole."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __enter__(self):  # type: ignore[no-untyped-def]
        descriptor, self.temporary = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.")
        os.fchmod(descriptor, 0o644)  # as any file of the checkout: mkstemp's 0600 is for secrets
        self.stream = os.fdopen(descriptor, "wb")
        return self.stream

    def __exit__(self, kind: object, *_: object) -> None:
        self.stream.close()
        if kind is None:
            os.replace(self.temporary, self.path)
        else:
            os.unlink(self.temporary)


def page_catalog(language: Language, catalog: Catalog, template: Catalog) -> str:
    """The page's part of ``catalog`` as page.json holds it: its plural rule, the locale its numbers are
    written in, and the translation of every message the scripts use (a plural's: its forms)."""
    scripts = {
        message.id if isinstance(message.id, str) else message.id[0]
        for message in template
        if message.id and any(path.startswith(SCRIPTS) for path, _ in message.locations)
    }
    messages: dict[str, str | list[str]] = {}
    for message in catalog:
        key = message.id if isinstance(message.id, str) else message.id[0] if message.id else ""
        if key in scripts and message.string and not message.fuzzy:
            messages[key] = list(message.string) if isinstance(message.string, tuple) else message.string
    # Digits as the language writes them; a pseudo-language writes English's.
    numbers = "en" if language.pseudo else language.tag
    body = {"lang": language.tag, "numbers": numbers, "plural": catalog.plural_expr, "messages": messages}
    return json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


@cache
def page_words(language: Language, folder: Path = FOLDER) -> Markup | None:
    """The JSON block of ``language``'s page words, safe inside a ``<script>`` (None for the source)."""
    if language is SOURCE:
        return None
    text = (catalog_folder(language, folder) / "page.json").read_text(encoding="utf-8")
    for character, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("'", "\\u0027")):
        text = text.replace(character, escaped)
    return Markup(text)  # JSON of our own catalogs, its <, > and & escaped


# ---- the command line -----------------------------------------------------------------------------


def messages(catalog: Catalog) -> list[tuple[object, ...]]:
    """What a catalog says of each message, its header aside: the id, the files, the comments, the flags."""
    return [
        (
            message.id,
            sorted(path for path, _ in message.locations),
            " ".join(comment.strip() for comment in message.auto_comments),  # as a .pot wraps them
            sorted(message.flags),
        )
        for message in catalog
        if message.id
    ]


def _extract() -> None:
    fresh = extracted()
    # Rewritten only when its messages changed: the header's date would otherwise change on every run.
    if TEMPLATE.exists() and messages(read_catalog(TEMPLATE)) == messages(fresh):
        print(f"{TEMPLATE.relative_to(CHECKOUT)} holds the code's messages already")
        return
    write_catalog(fresh, TEMPLATE)
    print(f"wrote {TEMPLATE.relative_to(CHECKOUT)}")


def _init(tag: str) -> None:
    locale = Locale.parse(tag.replace("-", "_"))
    path = FOLDER / str(locale) / "LC_MESSAGES" / f"{DOMAIN}.po"
    if path.exists():
        raise SystemExit(f"{path.relative_to(CHECKOUT)} exists: run update instead")
    catalog = Catalog(
        locale=locale,
        project="tictactoe-server",
        charset="utf-8",
        fuzzy=False,
        header_comment=f"# The words of the tic-tac-toe move server in {locale.english_name}.\n"
        "# docs/frontend.md says how to translate them.",
    )
    catalog.update(read_catalog(TEMPLATE))
    catalog.revision_date = datetime.now(UTC)
    write_catalog(catalog, path)
    print(
        f"wrote {path.relative_to(CHECKOUT)}: translate it, then add its Language to web/words/languages.py"
    )


def _update() -> None:
    template = read_catalog(TEMPLATE)
    for language in LANGUAGES:
        if language is SOURCE or language.pseudo:
            continue
        path = catalog_folder(language) / f"{DOMAIN}.po"
        catalog = read_catalog(path, language.catalog)
        catalog.update(template)
        write_catalog(catalog, path)
        untranslated = sum(1 for message in catalog if message.id and (not message.string or message.fuzzy))
        print(f"{path.relative_to(CHECKOUT)}: {untranslated} to translate (new, or fuzzy)")


def main(argv: list[str]) -> None:
    """``extract``, ``init LANG``, ``update`` or ``compile`` (module docstring)."""
    match argv:
        case ["extract"]:
            _extract()
        case ["init", tag]:
            _init(tag)
        case ["update"]:
            _update()
        case ["compile"]:
            for path in compile_catalogs():
                print(f"wrote {path.relative_to(CHECKOUT)}")
        case _:
            raise SystemExit("usage: python -m web.words.catalogs extract | init LANG | update | compile")


if __name__ == "__main__":
    main(sys.argv[1:])
