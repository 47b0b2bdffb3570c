"""The catalogs (web/words/catalogs.py): every word of the code in the template, every message translated
in every shipped catalog with its placeholders, the compiled files made by ``compile`` and never
committed, and the pseudo-languages made from the template.  One sweep of the catalogs."""

from __future__ import annotations

import gettext
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from babel.messages.plurals import get_plural

from web.words.catalogs import (
    BRACES,
    CHECKOUT,
    FOLDER,
    PERCENTS,
    SCRIPTS,
    TEMPLATE,
    Plural,
    catalog_folder,
    compile_catalogs,
    extracted,
    lengthened,
    messages,
    mirrored,
    read_catalog,
)
from web.words.languages import LANGUAGES, SOURCE

TRANSLATED = [language for language in LANGUAGES if language is not SOURCE and not language.pseudo]
PSEUDO = [language for language in LANGUAGES if language.pseudo]
# A t("...") or tn("...", ...) call of a script with a string literal (concatenations aside).
SCRIPT_CALL = re.compile(r'\b(?:t|tn)\(\s*"((?:[^"\\]|\\.)*)"(?!\s*\+)')


def placeholders(text: str) -> set[str]:
    """The placeholders of a message, of either style: ``{name}`` and ``%(name)s``."""
    return set(BRACES.findall(text)) | {f"%{name}" for name in PERCENTS.findall(text)}


def test_the_template_holds_exactly_the_messages_of_the_code():
    # Run `python -m web.words.catalogs extract` (then `update`) when this fails.
    assert messages(read_catalog(TEMPLATE)) == messages(extracted())


def test_every_message_a_script_asks_for_is_in_the_template():
    """A call the extractor cannot see (nested in another's arguments) would stay English on every page."""
    ids = {message.id if isinstance(message.id, str) else message.id[0] for message in read_catalog(TEMPLATE)}
    missing = [
        (path.name, found)
        for path in sorted((CHECKOUT / SCRIPTS).glob("*.js"))
        if path.name != "words.js"  # its comments show the calls
        for found in SCRIPT_CALL.findall(path.read_text(encoding="utf-8"))
        if found not in ids
    ]
    assert not missing, missing


@pytest.mark.parametrize("language", TRANSLATED, ids=lambda language: language.tag)
def test_every_message_is_translated_with_its_placeholders(language):
    template = read_catalog(TEMPLATE)
    catalog = read_catalog(catalog_folder(language) / "messages.po", language.catalog)
    assert catalog.plural_expr == get_plural(language.catalog).plural_expr  # the language's own (CLDR's) rule
    assert [m.id for m in catalog if m.id] == [m.id for m in template if m.id], "run update"
    problems = []
    for message in catalog:
        if not message.id:
            continue
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy or not all(forms):
            problems.append(f"untranslated: {message.id!r}")
            continue
        if isinstance(message.id, tuple):
            singular, plural = map(placeholders, message.id)
            if len(forms) != catalog.num_plurals:
                problems.append(f"{len(forms)} forms, not {catalog.num_plurals}: {message.id!r}")
            # Each form keeps what both English forms say; the count and what one form alone says
            # (the singular's "one mistake" names no count) it may leave out.
            required, allowed = singular & plural - {"count"}, singular | plural
        else:
            required = allowed = placeholders(message.id)
        problems += [
            f"placeholders {sorted(placeholders(form))}, not {sorted(required)}: {form!r}"
            for form in forms
            if not required <= placeholders(form) <= allowed
        ]
    assert not problems, "\n".join(problems)


def test_the_plural_rules_are_read_as_gettext_reads_them():
    """The rule the pseudo-languages' forms are chosen by (static/js/plural.js reads them the same way,
    tests/js/words.test.mjs)."""
    rules = {read_catalog(catalog_folder(language) / "messages.po").plural_expr for language in TRANSLATED}
    rules.add(
        "(n == 0 ? 0 : n == 1 ? 1 : n == 2 ? 2 : n % 100 >= 3 && n % 100 <= 10 ? 3 : n % 100 >= 11 ? 4 : 5)"
    )
    for rule in rules:
        expected, ours = gettext.c2py(rule), Plural(rule)
        for n in [*range(300), 1_000_000, 2_000_000, 1_000_001]:
            assert ours(n) == expected(n), (rule, n)


def test_compile_builds_each_language_once_from_its_sources(tmp_path):
    folder = tmp_path / "translations"
    shutil.copytree(FOLDER, folder, ignore=shutil.ignore_patterns("*.mo", "page.json", "*@*"))
    written = compile_catalogs(folder)
    expected = {
        catalog_folder(language, folder) / name
        for language in LANGUAGES
        if language is not SOURCE
        for name in ("messages.mo", "page.json")
    }
    assert set(written) == expected
    assert compile_catalogs(folder) == [], "nothing is written again while its sources are unchanged"

    template = read_catalog(TEMPLATE)
    scripts = {
        message.id if isinstance(message.id, str) else message.id[0]
        for message in template
        if message.id and any(path.startswith(SCRIPTS) for path, _ in message.locations)
    }
    for language in LANGUAGES:
        if language is SOURCE:
            continue
        page = json.loads((catalog_folder(language, folder) / "page.json").read_text(encoding="utf-8"))
        assert page["lang"] == language.tag
        # The scripts' messages, every one, and nothing the templates alone say.
        assert set(page["messages"]) == scripts, language.tag
        mo = catalog_folder(language, folder) / "messages.mo"
        with mo.open("rb") as stream:
            catalog = gettext.GNUTranslations(stream)
        assert catalog.gettext("Hint") != "Hint", language.tag


def test_the_pseudo_languages_keep_placeholders_and_tags_and_change_every_word():
    english = 'Your turn ({mark}); %(num)d <span data-score="draw">0</span> &amp; more.'
    longer, mirror = lengthened(english), mirrored(english)
    for text in (longer, mirror):
        for kept in ("{mark}", "%(num)d", '<span data-score="draw">', "</span>", "&amp;"):
            assert kept in text
    letters = len(re.sub(r"\{\w+\}|%\(\w+\)d|<[^>]+>|&amp;", "", english))
    assert longer.startswith("[") and longer.endswith("]") and "Your" not in longer
    assert len(longer) >= len(english) + 0.4 * letters
    assert mirror.count("\u202e") == mirror.count("\u202c") > 0


def test_the_compiled_catalogs_are_never_committed():
    tracked = subprocess.run(
        ["git", "ls-files", "translations"], cwd=CHECKOUT, capture_output=True, text=True, check=True
    ).stdout.split()
    assert tracked, "the sources are committed"
    assert all(Path(name).suffix in (".po", ".pot") for name in tracked), tracked
    assert not any("@" in name for name in tracked), tracked
