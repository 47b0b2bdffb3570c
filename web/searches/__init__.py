"""The search runtime: where and how long the engine runs for a request,
and how much each client may ask of it."""
