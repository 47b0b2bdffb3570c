"""The server's words in the reader's language: a ``Phrase`` looked up in the request's catalog.

``say(phrase)`` is what the API sends a person (a teaching engine's note, what
a level does, a room's refusal) and what the pages' templates show of the
server's own sets.  Its template is found in the catalog of
``current_language()`` (Flask-Babel's, so the templates' words and these share
one catalog per language), and its values are filled in: a ``Phrase`` said in
the same language, a whole number with the language's digit grouping
(``1 000`` in French), ``Choices`` listed as the language lists a choice
(``a1, b2 ou c3``), anything else as it is.  Outside a request, and for a
plain ``str``, the words stay as they are.

An answer whose words followed the request's language says so: the
``after_request`` hook adds ``Vary: Accept-Language`` for caches and
``Content-Language`` for the page that reads it (an answer without one is
English; a page's own headers are the pages' business, web/pages/routes.py).
"""

from __future__ import annotations

from typing import cast

import flask_babel
from babel.lists import format_list
from babel.numbers import format_decimal
from flask import Flask, Response, g, has_request_context

from tictactoe import Choices, Phrase, Sentences
from web.words.languages import SOURCE, current_language


def say(words: str) -> str:
    """``words`` in the request's language when it is a ``Phrase`` or ``Sentences``; as it is otherwise."""
    if not isinstance(words, (Phrase, Sentences)) or not has_request_context():
        return str(words)
    # The answer depends on the language, English included: caches must know it.
    g.spoke = True
    if current_language() is SOURCE:
        return str(words)
    if isinstance(words, Sentences):
        return " ".join(_said(part) for part in words.parts)
    return _said(words)


def spoken() -> str:
    """The request's language's tag, for an answer whose words ``say`` puts in it but which is served
    from a memo (no ``say`` this time): the answer varies by ``Accept-Language`` all the same.  English
    outside a request."""
    if not has_request_context():
        return SOURCE.tag
    g.spoke = True
    return current_language().tag


def _said(phrase: Phrase) -> str:
    # The catalog itself, not flask_babel.gettext: that one fills %(name)s placeholders in.
    catalog = flask_babel.get_translations()
    count = phrase.values.get("count")
    if phrase.plural is None:
        template = cast(str, catalog.ugettext(phrase.template))
    else:
        assert isinstance(count, int), phrase.template
        template = cast(str, catalog.ungettext(phrase.template, phrase.plural, count))
    return template.format_map({name: _value(value) for name, value in phrase.values.items()})


def _value(value: object) -> str:
    if isinstance(value, Phrase):
        return _said(value)
    if isinstance(value, Choices):
        return format_list(list(value.names), style="or", locale=flask_babel.get_locale())
    if isinstance(value, int) and not isinstance(value, bool):
        return format_decimal(value, locale=flask_babel.get_locale())
    return str(value)


def init_app(app: Flask) -> None:
    """``Vary: Accept-Language`` and ``Content-Language`` on every answer whose words ``say`` put in the
    request's language."""

    @app.after_request
    def vary_by_language(response: Response) -> Response:
        if g.get("spoke"):
            response.vary.add("Accept-Language")
            response.content_language.add(current_language().tag)
        return response
