"""The shared cache of solved positions: its store, locks, signatures and health.

- ``entries``: what is stored for a position (its key, its encoding) and the
  checks a stored entry must pass before it is served;
- ``solved``: ``SolvedPositions``, the single-flight cache the API asks, and
  ``Answer``, the engine's ``SolveResult`` in the posted position's cells;
- ``backends``: setting up the store (file system, Redis or none), its locks and
  signing secret;
- ``eviction``: the file store's cap, and writes that leave no temp file.
"""

from web.cache.solved import Answer, SolvedPositions, init_app

__all__ = ["Answer", "SolvedPositions", "init_app"]
