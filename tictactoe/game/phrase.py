"""Words for a person, with their template and values kept apart.

The engine speaks English (its notes on a search, what a level does); a reader
of another language gets the same words from a catalog.  A ``Phrase`` is the
English sentence itself (a ``str``, so the command line prints it and the API
sends it as it is), and it keeps what a translation needs: its ``template``,
``{name}`` placeholders and all, the ``plural`` template when it counts
something, and its ``values``.  The web layer looks the template up in the
reader's catalog and fills the values in (web/words/speech.py); the engine
never knows which languages there are.

    >>> note = Phrase("{count} playout", "{count} playouts", count=1000)
    >>> str(note), note.template, note.values["count"]
    ('1,000 playouts', '{count} playout', 1000)

Several sentences in a row are ``Sentences``, each said whole.  A value may
itself be a ``Phrase`` (said in the same language), ``Choices`` (names listed as
the language lists a choice: "a1, b2 ou c3"), a whole number
(written with the language's digit grouping), or any other value, written as it
is (a cell's name, an engine's name).  The catalogs find every template where
it is written (``Phrase("...")`` with string literals), so a template is always
a literal, never built.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


class Phrase(str):
    """The English ``template`` (``plural`` when ``values["count"]`` is not 1) with ``values`` filled in."""

    template: str
    plural: str | None
    values: Mapping[str, object]

    def __new__(cls, template: str, plural: str | None = None, /, **values: object) -> Phrase:
        count = values.get("count")
        chosen = template if plural is None or count == 1 else plural
        phrase = super().__new__(cls, chosen.format_map({name: english(v) for name, v in values.items()}))
        phrase.template = template
        phrase.plural = plural
        phrase.values = values
        return phrase


def english(value: object) -> str:
    """A value as an English sentence writes it: a whole number with commas (1,000), else ``str``."""
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value)


class Choices(str):
    """Names to choose among, in English "a1", "a1 or c3", "a1, b2 or c3"; ``names`` keeps them for a
    language that lists them its own way."""

    names: tuple[str, ...]

    def __new__(cls, names: Sequence[str]) -> Choices:
        listed = "".join(names) if len(names) <= 1 else f"{', '.join(names[:-1])} or {names[-1]}"
        choices = super().__new__(cls, listed)
        choices.names = tuple(names)
        return choices


class Sentences(str):
    """Whole sentences said one after the other (``None`` left out), each a ``Phrase`` a language says
    whole: a line of several never joins fragments of one sentence."""

    parts: tuple[Phrase, ...]

    def __new__(cls, *parts: Phrase | None) -> Sentences:
        kept = tuple(part for part in parts if part is not None)
        sentences = super().__new__(cls, " ".join(kept))
        sentences.parts = kept
        return sentences
