"""Puzzles: the proven puzzles the engine ships, read, listed and judged; and their page's address.

- ``routes``: the HTTP API (``GET /puzzles``, ``/puzzles/daily``,
  ``/puzzles/{id}``, ``POST /puzzles/{id}/moves``); a browser asking for a
  page at the first three gets the puzzles page instead, made by the pages
  room and handed in by ``init_app`` (this room sits below it);
- ``shapes``: the answers, declared once.
"""

from __future__ import annotations

from flask import Flask

from web.puzzles.routes import PageMaker, Puzzles, bp

__all__ = ["PageMaker", "Puzzles", "init_app"]


def init_app(app: Flask, page: PageMaker) -> Puzzles:
    """The puzzles of ``app`` and their routes; ``page(puzzle_id, status)`` makes the puzzles page."""
    app.register_blueprint(bp)
    return Puzzles(page)
