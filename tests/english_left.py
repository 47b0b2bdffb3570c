"""English left on a page of another language: the words of the page as a reader meets them, and the
English in them.

A page's words are its visible text (``innerText``: what a reader sees, and the screen-reader text a
listener hears), the names and descriptions an assistive technology reads (``aria-label``, ``title``,
``alt``, ``placeholder``), the options of its menus and the document's title.  Two nets catch English
in them:

- every message of the catalog's template, cut at its placeholders and tags, whose English pieces the
  language's own catalog never writes (so "Position" or "Pause", the same in French, stay allowed):
  a message that reached the page untranslated;
- a list of English words no French, Spanish or German sentence uses: a string the catalogs never
  knew (written in the code without its ``t()``).

Engine names (``minimax``, ``perfect``…), cell names and marks are names, not words: they are said
in every language as they are.
"""

from __future__ import annotations

import re
from functools import cache

from web.words.catalogs import FOLDER, KEPT, TEMPLATE, read_catalog

# Words of English sentences that none of the shipped languages writes in its own sentences.
ENGLISH_WORDS = re.compile(
    r"\b(the|and|your|you|with|this|that|is|are|were|of|to|for|from|not|its|has|have|been|by|or"
    r"|can|could|would|move|moves|board|game|games|turn|wins|won|draw|loss|hint|hints|cell|cells"
    r"|empty|search|searched|nodes|node|server|room|friend|player|watch|playing)\b",
    re.IGNORECASE,
)
# The names said as they are in every language: the teaching engines and levels as the API names them.
NAMES = re.compile(r"\b(minimax|alphabeta(-ordered|-tt)?|negascout|mcts|perfect|easy|medium|UCT|NegaScout)\b")

# What a page says, in the words a reader or a listener meets (script for page.evaluate).
PAGE_WORDS = """() => {
  const words = [document.title, document.body.innerText];
  const names = ['aria-label', 'title', 'alt', 'placeholder', 'aria-roledescription'];
  for (const element of document.querySelectorAll(names.map((name) => `[${name}]`).join(', '))) {
    if (element.closest('[hidden]')) continue;
    for (const name of names) {
      const value = element.getAttribute(name);
      if (value) words.push(value);
    }
  }
  for (const option of document.querySelectorAll('option')) words.push(option.textContent);
  return words.join('\\n');
}"""


@cache
def untranslated_pieces(catalog: str) -> frozenset[str]:
    """The English pieces of the template's messages (at least two words, or one of six letters) that
    ``catalog``'s translations never write."""
    translated = read_catalog(FOLDER / catalog / "LC_MESSAGES" / "messages.po", catalog)
    written = "\n".join(
        form
        for message in translated
        if message.id
        for form in (message.string if isinstance(message.string, tuple) else (message.string,))
    )
    pieces = set()
    for message in read_catalog(TEMPLATE):
        for english in message.id if isinstance(message.id, tuple) else (message.id,):
            for index, piece in enumerate(KEPT.split(english or "")):
                piece = piece.strip(" .,:;!?()“”—–·…")
                if index % 2 or not re.search(r"[A-Za-z]{3}", piece) or piece in written:
                    continue
                if " " in piece or len(piece) >= 6:
                    pieces.add(piece)
    return frozenset(pieces)


def english_in(text: str, catalog: str) -> list[str]:
    """The English found in ``text`` of a page in ``catalog``'s language (web/words/languages.py's
    ``Language.catalog``): untranslated messages' pieces, then English words, each with its line."""
    found = []
    lines = [NAMES.sub("", line) for line in text.splitlines()]
    for piece in untranslated_pieces(catalog):
        found += [f"{piece!r} in {line!r}" for line in lines if piece in line]
    for line in lines:
        found += [f"{word!r} in {line!r}" for word in ENGLISH_WORDS.findall(line)]
    return sorted(set(found))
