"""The web layer of the move server, in rooms: ``api`` and ``pages`` (the routes), ``cache``,
``searches``, ``http`` and ``operations``, each importing only the rooms after it.

``app.create_app()`` puts the pieces together; the engine (``tictactoe``) knows
nothing of the web.
"""
