"""The web layer of the move server: blueprints, the shared cache, settings and headers.

``app.create_app()`` puts the pieces together; the engine (``tictactoe``) knows
nothing of the web.
"""
