"""Tactics for k >= 4: threat shapes kept line by line, and the threat-space search built on them.

Above the game, below the searches; it never imports a search.
"""
