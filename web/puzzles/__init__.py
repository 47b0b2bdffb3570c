"""Puzzles: the proven puzzles the engine ships, read, listed and judged; and their page's address.

- ``routes``: the HTTP API (``GET /puzzles``, ``/puzzles/daily``,
  ``/puzzles/{id}``, ``POST /puzzles/{id}/moves``), each declared beside it
  for /openapi.json, and the app's puzzles (``puzzles_of``); a browser asking
  for a page at the first three gets the puzzles page instead, made by the
  pages room and handed in by ``init_app`` (this room sits below it);
- ``shapes``: the answers, declared once.
"""

from __future__ import annotations

from flask import Flask

from web.puzzles.routes import PageMaker, Puzzles, attach, bp, current_puzzles, puzzles_of

__all__ = ["PageMaker", "Puzzles", "current_puzzles", "init_app", "puzzles_of"]


def init_app(app: Flask, page: PageMaker) -> Puzzles:
    """The puzzles of ``app`` and their routes; ``page(start)`` makes the puzzles page (start: a
    puzzle's id, "daily", or None for the player's next one)."""
    app.register_blueprint(bp)
    puzzles = Puzzles(page)
    attach(app, puzzles)
    return puzzles
