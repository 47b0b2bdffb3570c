"""The game: its rules, a position (the board), the position text, values, errors and the clock.

The bottom layer: it imports nothing else of the engine.
"""
