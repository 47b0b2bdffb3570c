"""Tactics for k >= 4: per-window stone counts, and the threat-space search built on them.

Above the game, below the searches; it never imports a search.
"""
