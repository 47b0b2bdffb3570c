"""Which language a page and an answer speak (web/words/languages.py), and what says so.

A page: ``?lang=``, then the picker's cookie, then ``Accept-Language``'s best offered match, then
English; ``<html lang dir>``, ``hreflang`` alternates and the scripts' JSON block follow it, and the
answer varies by ``Accept-Language`` and the cookie.  An API answer's words for a person follow
``Accept-Language`` alone and say their language (``Content-Language``).
"""

from __future__ import annotations

import json
import re
from html import unescape as html_unescape

import pytest

from tictactoe import puzzle_set
from web.words.languages import COOKIE, OFFERED


def page(client, path="/", language=None, cookie=None):
    """The page's HTML, with an ``Accept-Language`` and the picker's cookie when given."""
    client.delete_cookie(COOKIE)
    if cookie is not None:
        client.set_cookie(COOKIE, cookie)
    headers = {"Accept-Language": language} if language else {}
    response = client.get(path, headers=headers)
    assert response.status_code == 200, (path, response.status_code)
    return response


def html_attributes(response) -> dict[str, str]:
    """``<html>``'s attributes."""
    tag = re.search(r"<html([^>]*)>", response.get_data(as_text=True))[1]
    return dict(re.findall(r'(\w+)="([^"]*)"', tag))


@pytest.mark.parametrize(
    ("path", "language", "cookie", "expected"),
    [
        ("/", None, None, "en"),
        ("/", "fr-CA,fr;q=0.9,en;q=0.8", None, "fr"),
        ("/lab", "de-AT", None, "de"),
        ("/", "pt-BR,pt;q=0.9", None, "en"),  # nothing offered matches: English
        ("/", "it,es;q=0.5", None, "es"),  # the best match, not the first wish
        ("/", "de", "es", "es"),  # the reader's own choice beats the browser's
        ("/?lang=fr", "de", "es", "fr"),  # and a link's beats both
        ("/embed?lang=de", None, None, "de"),
        ("/?lang=xx", "es", None, "es"),  # a language the pages do not speak: as if none were named
        ("/", "ar", None, "en"),  # the pseudo-languages are never matched
        ("/?lang=ar-XB", None, None, "ar-XB"),
        ("/lab?lang=EN-xa", None, None, "en-XA"),
    ],
)
def test_a_page_s_language(client, path, language, cookie, expected):
    attributes = html_attributes(page(client, path, language, cookie))
    assert attributes["lang"] == expected
    assert attributes["dir"] == ("rtl" if expected == "ar-XB" else "ltr")


def test_an_embed_refuses_a_language_it_does_not_speak(client):
    response = client.get("/embed?lang=xx")
    assert response.status_code == 400
    assert "lang must be one of en, fr, es, de, en-XA, ar-XB, not 'xx'" in response.get_data(as_text=True)


def test_a_page_in_french_carries_its_words_and_says_what_it_varies_by(client):
    response = page(client, "/?size=3x3&moves=b2", language="fr")
    html = response.get_data(as_text=True)
    assert set(response.headers["Vary"].replace(" ", "").split(",")) >= {"Accept-Language", "Cookie"}
    assert "<h1>Morpion</h1>" in html and ">Nouvelle partie<" in html
    words = json.loads(re.search(r'<script type="application/json" id="words">(.*?)</script>', html, re.S)[1])
    assert words["lang"] == "fr" and words["messages"]["Play again"] == "Rejouer"
    sets = json.loads(
        re.search(r'<script type="application/json" id="server-sets">(.*?)</script>', html, re.S)[1]
    )
    assert [level["label"] for level in sets["levels"]] == ["Facile", "Moyen", "Parfait"]
    # One alternate per offered language and x-default, absolute, the page's own arguments kept.
    found = re.findall(r'<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">', html)
    alternates = {tag: html_unescape(address) for tag, address in found}
    assert set(alternates) == {"x-default", *(language.tag for language in OFFERED)}
    assert alternates["x-default"] == "http://localhost/?size=3x3&moves=b2"
    assert alternates["de"] == "http://localhost/?size=3x3&moves=b2&lang=de"


def test_an_english_page_carries_no_words_block(client):
    html = page(client, "/").get_data(as_text=True)
    assert 'id="words"' not in html and "<h1>Tic-tac-toe</h1>" in html


def test_the_api_speaks_accept_language_and_says_so(client):
    french = client.get("/engines", headers={"Accept-Language": "fr"})
    assert french.headers["Content-Language"] == "fr"
    assert "Accept-Language" in french.headers["Vary"]
    assert french.get_json()["engines"][0]["description"].startswith("minimax simple")
    # A program that asks for nothing reads English, and the answer still says it could vary.
    english = client.get("/engines")
    assert english.headers["Content-Language"] == "en" and "Accept-Language" in english.headers["Vary"]
    assert english.get_json()["engines"][0]["description"].startswith("plain minimax")
    # The picker's cookie is a page's business, not an answer's.
    client.set_cookie(COOKIE, "de")
    assert client.get("/engines").get_json()["engines"][0]["description"].startswith("plain minimax")
    client.delete_cookie(COOKIE)
    # A teaching engine's note, counted in the language's own digits.
    note = client.post(
        "/analyze",
        json={"board": ["x..", ".o.", "..."], "engine": "mcts"},
        headers={"Accept-Language": "de"},
    ).get_json()["note"]
    assert re.fullmatch(
        r"1\.000 Simulationen: Der Zug hat \d+ % seiner \d+ gewonnen, eine Schätzung, kein Beweis\.", note
    )


def test_a_room_s_refusal_is_said_in_the_page_s_language(client):
    room = client.post("/rooms", json={"side": "x"}).get_json()  # the host plays X, and moves first
    move = {"token": room["token"], "move": {"row": 0, "col": 0}}
    assert client.post(f"/rooms/{room['room']}/moves", json=move).status_code == 200
    move["move"] = {"row": 1, "col": 1}
    answer = client.post(f"/rooms/{room['room']}/moves", json=move, headers={"Accept-Language": "es"})
    assert answer.status_code == 409
    assert answer.get_json()["error"] == "no es tu turno: le toca a O"
    assert answer.headers["Content-Language"] == "es"


# The two-step save of tests/test_puzzles.py, O to move:
#
#     . . x
#     x . .
#     . o .
SAVE = next(puzzle for puzzle in puzzle_set() if puzzle.position == "2x/x2/1o1")


def test_a_puzzle_speaks_the_reader_s_language_and_each_language_has_its_own_etag(client):
    english = client.get(f"/puzzles/{SAVE.id}")
    french = client.get(f"/puzzles/{SAVE.id}", headers={"Accept-Language": "fr"})
    assert (english.get_json()["goal"], french.get_json()["goal"]) == (
        "O to play and save the draw",
        "O joue et sauve la nulle",
    )
    for answer, tag in ((english, "en"), (french, "fr")):
        assert "Accept-Language" in answer.headers["Vary"] and answer.headers["Content-Language"] == tag
    # The worker's memo keeps each language's bytes: English bytes never answer a French reader.
    assert english.headers["ETag"] != french.headers["ETag"]
    named = {"If-None-Match": english.headers["ETag"], "Accept-Language": "fr"}
    again = client.get(f"/puzzles/{SAVE.id}", headers=named)
    assert again.status_code == 200 and again.get_json()["goal"] == "O joue et sauve la nulle"
    named["If-None-Match"] = french.headers["ETag"]
    assert client.get(f"/puzzles/{SAVE.id}", headers=named).status_code == 304
    listed = client.get("/puzzles?board=3x3k3&limit=1", headers={"Accept-Language": "de"})
    assert listed.get_json()["puzzles"][0]["goal"].split(" ", 1)[1].startswith("zieht und")


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "fr",
            "Pas a1 : ce coup bloque la fourchette en a1, mais X répond en b2, un coup qui fait une"
            " fourchette, et X gagne. Réessayez.",
        ),
        (
            "es",
            "a1 no: esa jugada bloquea la horquilla en a1, pero X responde en b2, que hace una horquilla,"
            " y gana X. Inténtalo de nuevo.",
        ),
        (
            "de",
            "Nicht a1: Der Zug blockiert die Gabel auf a1, aber X antwortet mit b2 und macht eine Gabel,"
            " und X gewinnt. Versuch es noch einmal.",
        ),
    ],
)
def test_a_wrong_puzzle_move_is_refuted_in_the_reader_s_language(client, language, words):
    answer = client.post(
        f"/puzzles/{SAVE.id}/moves",
        json={"moves": [{"row": 0, "col": 0}]},
        headers={"Accept-Language": language},
    )
    assert answer.get_json()["words"] == words
    assert answer.headers["Content-Language"] == language


def test_a_positions_reasons_and_rule_speak_the_reader_s_language_under_their_own_etag(client):
    address = "/position?board=2x/x2/1o1"
    english = client.get(address)
    german = client.get(address, headers={"Accept-Language": "de"})
    assert english.get_json()["rule"]["words"] == (
        "The rule says make two in a row at b2 or a3; here only the centre keeps the draw."
    )
    assert german.get_json()["rule"]["words"] == (
        "Die Regel sagt: Mach zwei in einer Reihe auf b2 oder a3. Hier hält nur die Mitte das Remis."
    )
    assert german.get_json()["moves"][0]["reason"] == "blockiert die Gabel auf b2"
    assert "Accept-Language" in german.headers["Vary"] and german.headers["Content-Language"] == "de"
    assert english.headers["ETag"] != german.headers["ETag"]
    # A French reader holding the English copy's tag gets French, not a 304 for English bytes.
    named = client.get(address, headers={"If-None-Match": english.headers["ETag"], "Accept-Language": "fr"})
    assert named.status_code == 200 and named.get_json()["moves"][0]["reason"] == "bloque la fourchette en b2"
    mine = client.get(address, headers={"If-None-Match": german.headers["ETag"], "Accept-Language": "de"})
    assert mine.status_code == 304 and "Accept-Language" in mine.headers["Vary"]


def test_the_puzzles_page_in_french(client):
    # A browser navigating asks for HTML; the same address answers a program with JSON.
    answer = client.get("/puzzles?lang=fr", headers={"Accept": "text/html"})
    assert answer.status_code == 200
    text = answer.get_data(as_text=True)
    assert html_attributes(answer)["lang"] == "fr"
    for words in ("Problèmes", "Montrer le coup", "Le problème du jour", "Chargement du problème…"):
        assert words in html_unescape(text)
    assert {"Accept", "Accept-Language", "Cookie"} <= {
        name.strip() for name in answer.headers["Vary"].split(",")
    }
