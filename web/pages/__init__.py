"""The pages (the game, the lab, the embed) and the static files they load."""
