"""Lessons: what a move does in words a learner knows, the rule ladder children learn, and puzzles.

Above the searches, beside the teaching engines: these modules read positions
(``sight``), name the classic rules of tic-tac-toe (``ladder``), say a move's
reason (``reasons``) and hold the puzzles proven offline (``puzzles``).
"""
