"""The pages' words in the reader's language: the languages, the catalogs, the server's words.

``languages`` declares the languages and chooses a request's; ``catalogs``
finds the messages in the code and compiles each language's catalog;
``speech`` says the server's words (``tictactoe.Phrase``) in the request's
language.  ``babel`` is Flask-Babel, attached in ``create_app`` with the
locale selector (web/assembly.py).
"""

from flask_babel import Babel

babel = Babel()
