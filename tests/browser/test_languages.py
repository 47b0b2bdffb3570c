"""The pages in their readers' languages (issue 46), in Chromium.

- A French page leaves no English on the way through a whole game (hints, the engine's details, the
  review stepped through, the Share / embed dialog and its live preview), a room between two browsers
  (the invite, the friend's arrival, the moves, a resignation), and the lab (every engine run, a search
  watched to its end): tests/english_left.py says what counts as English.
- A French puzzle says its goal, a wrong move's refutation and the solution in French, no English left.
- The picker remembers a choice: the next page opens in it.
- The pseudo-language 40% longer (``en-XA``) cuts no text and moves nothing past Web Vitals' 0.1 on a
  390x844 phone and in a 360x420 embed; the right-to-left one (``ar-XB``) mirrors the page around a
  board that stays a1 top left, and cuts no text either.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Frame, Page, expect

from tests.browser.helpers import read_board, stones, wait_settled
from tests.browser.test_layout_shift import click, measured_page, play_to_the_end, shift_since_last
from tests.english_left import PAGE_WORDS, english_in
from tictactoe import puzzle_set

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
EMBED = {"width": 360, "height": 420}
LAPTOP = {"width": 1280, "height": 800}
# The lab's position: X in a corner, O in the centre (every engine answers in a moment).
#   x . .
#   . o .
#   . . .
LAB_POSITION = "x../.o./..."


def assert_french(page: Page | Frame, moment: str) -> None:
    """Nothing English on the page (or frame) as it is now."""
    found = english_in(page.evaluate(PAGE_WORDS), "fr")
    assert not found, f"{moment}: English on the French page:\n" + "\n".join(found)


def test_a_french_game_review_room_and_lab_say_nothing_in_english(open_page, browser, app_server):
    page = open_page(viewport=LAPTOP)
    page.goto(app_server.url + "/?lang=fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    wait_settled(page, 0)
    assert_french(page, "a new game")

    # A whole game with the hints on, the engine's details open, then its review stepped through.
    page.get_by_role("button", name="Indice", exact=True).click()
    expect(page.locator("#hint-summary")).to_contain_text("Avec le meilleur jeu")
    assert_french(page, "the hints")
    board = read_board(page)
    click(page, '#board button[data-row="0"][data-col="0"]')
    wait_settled(page, stones(board) + 2)
    page.locator("#engine-details").evaluate("(details) => { details.open = true; }")
    expect(page.locator("#engine-info li").first).to_be_visible()
    assert_french(page, "the engine's details")
    play_to_the_end(page)
    expect(page.locator("#review-status")).to_have_text(re.compile(r"^\d+ coups : "))
    page.locator("#review-moves button").nth(1).click()
    expect(page.locator("#status")).to_contain_text("Analyse de 2.")
    assert_french(page, "the review")
    page.get_by_role("button", name="Partager / intégrer").click()
    preview = page.frame_locator("#share-preview")
    expect(preview.locator("#status")).to_contain_text("À vous de jouer")
    expect(page.locator("#share-code")).to_have_value(re.compile(r"lang=fr"))
    assert_french(page, "the Share / embed dialog")
    assert_french(page.frames[1], "the embed's preview")
    page.get_by_role("button", name="Fermer").click()
    page.get_by_role("button", name="Retour à la partie").click()
    page.get_by_role("button", name="Terminé").click()  # the review closes: the settings are back

    # A room: made here, joined by a friend's browser through the invite, a move each, then resigned.
    page.get_by_label("Jouer avec un ami", exact=True).check()
    page.locator('[name="friend-side"][value="x"]').check()
    page.get_by_role("button", name="Créer le lien").click()
    expect(page.locator("#room-note")).to_have_text("Votre adversaire n’a pas encore ouvert l’invitation.")
    assert_french(page, "the invite")
    invite = page.locator("#room-invite-link").input_value()
    assert "lang=fr" in invite, invite
    friend = open_page(viewport=PHONE)
    friend.goto(invite)
    expect(friend.locator("#status")).to_have_text("Au tour de votre adversaire (X).")
    expect(page.locator("#room-note")).to_have_text("Votre adversaire est là.")
    click(page, '#board button[data-row="1"][data-col="1"]')
    expect(friend.locator("#status")).to_have_text("Votre adversaire a joué b2. À vous de jouer (O).")
    click(friend, '#board button[data-row="0"][data-col="0"]')
    expect(page.locator("#status")).to_have_text("Votre adversaire a joué a1. À vous de jouer (X).")
    assert_french(page, "the host's room")
    assert_french(friend, "the friend's room")
    page.locator('#room-bar [data-act="resign"]').click()
    page.locator('#room-bar [data-act="resign-yes"]').click()
    expect(friend.locator("#status")).to_have_text("Votre adversaire a abandonné. Vous avez gagné !")
    expect(friend.locator("#review-status")).to_have_text(re.compile(r"^\d+ coups : "))
    assert_french(friend, "a room's end")

    # The lab: every engine on a position, then their searches watched to the end.
    lab = page
    lab.goto(app_server.url + "/lab?lang=fr")
    lab.get_by_label("Saisissez-la").fill(LAB_POSITION)
    lab.get_by_role("button", name="Valider", exact=True).click()
    lab.get_by_role("button", name="Lancer tous les moteurs").click()
    expect(lab.locator("#lab-status")).to_contain_text("Terminé", timeout=60_000)
    assert_french(lab, "the lab's table")
    lab.get_by_role("button", name="Regarder la recherche").click()
    expect(lab.locator("#trace-status")).to_contain_text("Prêt", timeout=60_000)
    lab.get_by_role("button", name="Jusqu’à la fin").click()
    expect(lab.locator("#trace-status")).to_contain_text("Toutes les recherches ont été rejouées")
    assert_french(lab, "the searches watched")


def test_a_french_puzzle_says_its_goal_refutation_and_solution_in_french(open_page, app_server):
    # The two-step save (tests/test_puzzles.py), O to move: a1 first, refuted; then b2, a1, c2.
    #     . . x
    #     x . .
    #     . o .
    save = next(puzzle for puzzle in puzzle_set() if puzzle.position == "2x/x2/1o1")
    page = open_page(viewport=LAPTOP)
    page.goto(f"{app_server.url}/puzzles/{save.id}?lang=fr")
    expect(page.locator("#puzzle-goal")).to_have_text("O joue et sauve la nulle")
    expect(page.locator("#status")).to_have_text("3 coups à trouver, un par un : au tour de O.")
    assert_french(page, "a puzzle")
    click(page, '#board button[data-row="0"][data-col="0"]')
    expect(page.locator("#status")).to_contain_text("Pas a1 : ce coup bloque la fourchette en a1")
    assert_french(page, "a wrong move")
    # Each step's own words: the one before's would match at once, and the next click would race its answer.
    for row, col, words in (
        (1, 1, "Bien joué : b2"),
        (0, 0, "Bien joué : a1"),
        (1, 2, "Résolu"),
    ):
        click(page, f'#board button[data-row="{row}"][data-col="{col}"]')
        expect(page.locator("#status")).to_contain_text(words)
    expect(page.locator("#puzzle-link")).to_have_value(re.compile(rf"/puzzles/{save.id}\?lang=fr$"))
    assert_french(page, "a solved puzzle")


def test_the_picker_remembers_the_language_chosen(open_page, app_server):
    page = open_page()
    page.goto(app_server.url + "/lab")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    with page.expect_navigation():
        page.get_by_label("Language").select_option("de")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("h1")).to_have_text("Das Suchlabor")
    # Another page, with nothing in its address: the choice holds.
    page.goto(app_server.url + "/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("#new-game")).to_have_text("Neue Partie")
    # A link's own language still wins, and the picker keeps the address saying what the page shows.
    page.goto(app_server.url + "/?lang=es")
    expect(page.locator("#new-game")).to_have_text("Partida nueva")
    with page.expect_navigation():
        page.locator("#language").select_option("fr")
    assert "lang=fr" in page.url, page.url
    expect(page.locator("#new-game")).to_have_text("Nouvelle partie")


# Every element whose text is cut: its box hides what overflows it (or ends it in an ellipsis) and
# its words are larger than the box; the page scrolling sideways counts as cut too.
CUT_TEXT = """() => {
  const cut = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth + 1) cut.push(`the page scrolls sideways: ${root.scrollWidth} px`);
  for (const element of document.body.querySelectorAll('*')) {
    if (!element.firstChild || !element.checkVisibility() || !element.innerText?.trim()) continue;
    if (element.closest('.visually-hidden')) continue;  // clipped on purpose: for screen readers
    if (element.closest('.lab-table-wrap, .trace-box, .review-moves')) continue;  // they scroll on purpose
    const style = getComputedStyle(element);
    const hides = (overflow) => overflow === 'hidden' || overflow === 'clip';
    const clipsX = hides(style.overflowX) || style.textOverflow === 'ellipsis';
    const clipsY = hides(style.overflowY);
    if ((clipsX && element.scrollWidth > element.clientWidth + 1) ||
        (clipsY && element.scrollHeight > element.clientHeight + 1)) {
      const name = `${element.tagName.toLowerCase()}#${element.id}.${element.className}`;
      cut.push(`${name}: ${element.innerText.slice(0, 60)}`);
    }
  }
  return cut;
}"""


def assert_no_text_cut(page: Page, moment: str) -> None:
    """Nothing on the page has its words cut."""
    cut = page.evaluate(CUT_TEXT)
    assert not cut, f"{moment}: text cut:\n" + "\n".join(cut)


@pytest.mark.parametrize(
    ("path", "viewport"),
    [
        pytest.param("/?lang=en-XA", PHONE, id="game-390x844"),
        pytest.param("/embed?lang=en-XA", EMBED, id="embed-360x420"),
    ],
)
def test_words_40_percent_longer_are_never_cut_and_move_nothing(open_page, app_server, path, viewport):
    page = measured_page(open_page, viewport)
    page.goto(app_server.url + path)
    wait_settled(page, 0)
    shift_since_last(page, "loading")
    assert_no_text_cut(page, "loaded")
    play_to_the_end(page)
    expect(page.locator("#outcome")).to_be_visible()
    shift_since_last(page, "a game's end")
    assert_no_text_cut(page, "a game's end")
    click(page, "#review-toggle" if path.startswith("/embed") else "#new-game")
    shift_since_last(page, "the review, or a new game")
    assert_no_text_cut(page, "the review, or a new game")


def test_right_to_left_mirrors_the_page_around_a_board_that_stays_a1_top_left(open_page, app_server):
    page = open_page(viewport=LAPTOP)
    page.goto(app_server.url + "/?lang=ar-XB")
    wait_settled(page, 0)
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    boxes = page.evaluate(
        """() => Object.fromEntries(['.brand h1', '.header-actions', '.layout-game', '.layout-side',
          '#board button[data-row="0"][data-col="0"]', '#board button[data-row="0"][data-col="2"]']
          .map((selector) => [selector, document.querySelector(selector).getBoundingClientRect().x]))"""
    )
    # Mirrored: the name on the right, the header's buttons and the side column on the left.
    assert boxes[".brand h1"] > boxes[".header-actions"], boxes
    assert boxes[".layout-game"] > boxes[".layout-side"], boxes
    # The board is not: a1 is still the top left cell, c1 right of it.
    assert (
        boxes['#board button[data-row="0"][data-col="0"]']
        < boxes['#board button[data-row="0"][data-col="2"]']
    )
    assert_no_text_cut(page, "right to left")
