"""The opening book as a search reads it: the shipped books in ``tictactoe/data/``, looked up.

Building and verifying books is a tool (``tictactoe.tools.book_build``): this package
never runs the solver.
"""
