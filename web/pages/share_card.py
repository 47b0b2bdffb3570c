"""What a shared link shows: the title, summary and picture of a page's meta description and Open
Graph tags (templates/base.html), and for a game's link the position it holds, in words.

A game's link is the game page's address with the game in it, as static/js/links.js writes it::

    /?size=3x3&k=3&level=perfect&side=x&moves=b2,a1,c3

    o . .        a1 b1 c1
    . x .        a2 b2 c2      "O to move after 3 moves": X b2, O a1, X c3
    . . x        a3 b3 c3

Its card says the board, the moves and what stands: who is to move, who won, or a draw.  The server
reads only the size, k and the moves (the rest says how to play on, which the page handles) and
plays the moves by the engine's rules; a link it cannot read or would not play gets the game page's
own card (the page itself then says what is wrong with it).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from urllib.parse import urlencode

from werkzeug.datastructures import MultiDict

from tictactoe import (
    Board,
    BoardFormatError,
    GameOverError,
    IllegalMoveError,
    Phrase,
    Puzzle,
    Rules,
    cell_from_label,
    cell_label,
    puzzle_goal,
)
from web.pages.address import SIZE, SMALL_INT
from web.words.speech import say


@dataclass(frozen=True)
class Picture:
    """An image under static/, its size in pixels and what it shows in words (its ``og:image:alt``)."""

    path: str
    width: int
    height: int
    words: str


# The picture every card shows, drawn by tests/browser/share_picture.py: Open Graph's large card.
PICTURE = Picture(
    "images/share.png",
    1200,
    630,
    Phrase("A tic-tac-toe board on which X has won with three in a row down a diagonal."),
)
# A card names at most this many moves; a longer game says how many it had.
MOVES_NAMED = 12


@dataclass(frozen=True)
class ShareCard:
    """A page as a shared link shows it: a title and a summary (the picture is every page's)."""

    title: str
    description: str

    def said(self) -> ShareCard:
        """The card in the request's language."""
        return ShareCard(say(self.title), say(self.description))


# The site's name: a card's site, the embed's title, the installed app's name.
SITE_NAME = Phrase("Tic-tac-toe")
# Each page's own card: its title and the summary under its name.
GAME_PAGE = ShareCard(
    title=Phrase("Tic-tac-toe · play the perfect engine"),
    description=Phrase(
        "Play X or O against an engine that proves its moves on 3 × 3, 4 × 4 and 5 × 5 and, on the bigger"
        " boards, says when it is only guessing."
    ),
)
LAB = ShareCard(
    title=Phrase("Tic-tac-toe · the search lab"),
    description=Phrase("Every textbook search on one position: its move, its value, and what it cost."),
)
EMBED = ShareCard(title=SITE_NAME, description=GAME_PAGE.description)
PUZZLES = ShareCard(
    title=Phrase("Tic-tac-toe · puzzles"),
    description=Phrase("Find the one move that wins or saves the draw, proven by the solver, and learn why."),
)


# The query arguments each page reads (static/js/links.js's game link, the lab's position, the embed's
# settings): a card's address keeps these alone, so that nothing else a link carries is echoed.
GAME_ARGS = ("size", "k", "level", "side", "mode", "x", "o", "moves", "room", "lang")
LAB_ARGS = ("board", "k", "lang")
EMBED_ARGS = ("size", "rows", "cols", "k", "level", "side", "first", "theme", "room", "puzzle", "lang")
PUZZLES_ARGS = ("board", "task", "lang")


def card_address(base_url: str, args: MultiDict[str, str], names: Collection[str]) -> str:
    """The address a card names (``og:url``): ``base_url`` with those of ``args`` the page reads."""
    kept = [(name, value) for name, value in args.items(multi=True) if name in names]
    return f"{base_url}?{urlencode(kept, safe=',/')}" if kept else base_url


def game_card(args: MultiDict[str, str]) -> ShareCard:
    """The card of the game page at an address with these query arguments: the position of a game's
    link (``size``, ``k``, ``moves``), else the game page's own card.  Never raises."""
    if "size" not in args and "moves" not in args:
        return GAME_PAGE
    try:
        board = _played(args)
    except (BoardFormatError, GameOverError, IllegalMoveError, ValueError):
        return GAME_PAGE
    return _card(board)


def _played(args: MultiDict[str, str]) -> Board:
    """The board of a game's link with its moves played; raises ``ValueError`` when the link cannot
    be read, the engine's errors for rules it does not play or a move that is not legal."""
    size = SIZE.fullmatch(args.get("size", "3x3"))
    k_text = args.get("k")
    if not size or (k_text is not None and not SMALL_INT.fullmatch(k_text)):
        raise ValueError("the link's size or k cannot be read")
    rows, cols = int(size[1]), int(size[2])
    rules = Rules(rows, cols, Rules.default_k(rows, cols) if k_text is None else int(k_text))
    board = Board(rules)
    for label in filter(None, args.get("moves", "").lower().split(",")):
        board.play(cell_from_label(rules, label))
    return board


def _card(board: Board) -> ShareCard:
    """The card of a game played out: its board, its moves and what stands after them."""
    rules, moves = board.rules, board.history
    size = f"{rules.rows} × {rules.cols}"
    if not moves:
        return ShareCard(
            title=Phrase("Tic-tac-toe on {size}: a new game", size=size),
            description=Phrase("A new game on {size}, {k} in a row.", size=size, k=rules.k),
        )
    count, outcome = len(moves), board.outcome()
    if outcome is None:
        side = board.to_move.upper()
        stands = Phrase("{side} to move", side=side)
        title = Phrase(
            "Tic-tac-toe on {size}: {side} to move after {count} move",
            "Tic-tac-toe on {size}: {side} to move after {count} moves",
            size=size,
            side=side,
            count=count,
        )
        then = Phrase("Open the link to play on.")
    else:
        if outcome.winner is None:
            stands = Phrase("a draw")
            title = Phrase(
                "Tic-tac-toe on {size}: a draw in {count} move",
                "Tic-tac-toe on {size}: a draw in {count} moves",
                size=size,
                count=count,
            )
        else:
            side = outcome.winner.upper()
            stands = Phrase("{side} wins", side=side)
            title = Phrase(
                "Tic-tac-toe on {size}: {side} wins in {count} move",
                "Tic-tac-toe on {size}: {side} wins in {count} moves",
                size=size,
                side=side,
                count=count,
            )
        then = Phrase("Open the link to see the game and the review of every move.")
    # X moves first: the even plies are X's.
    named = ", ".join(
        f"{'XO'[ply % 2]} {cell_label(rules, cell)}" for ply, cell in enumerate(moves[:MOVES_NAMED])
    )
    played: str = named
    if count > MOVES_NAMED:
        played = Phrase("{moves} and {count} more", moves=named, count=count - MOVES_NAMED)
    return ShareCard(
        title=title,
        description=Phrase(
            "A game on {size}, {k} in a row: {moves}; {stands}. {then}",
            size=size,
            k=rules.k,
            moves=played,
            stands=stands,
            then=then,
        ),
    )


def puzzle_card(puzzle: Puzzle) -> ShareCard:
    """The card of a puzzle's link: what it asks, on which board."""
    rules = puzzle.rules
    goal = puzzle_goal(puzzle)
    size = f"{rules.rows} × {rules.cols}"
    return ShareCard(
        title=Phrase("Tic-tac-toe puzzle: {goal}", goal=goal),
        description=Phrase(
            "A puzzle on {size}, {k} in a row, difficulty {difficulty} of 5: {goal}. Each step has one move"
            " that keeps the result, proven by the solver.",
            size=size,
            k=rules.k,
            difficulty=puzzle.difficulty,
            goal=goal,
        ),
    )
