"""A value an app holds for its whole life, reached by its type: the parts, the rooms, the puzzles.

Each is kept under a key of its own in Flask's ``app.extensions``, written
once, here; its module names its three verbs after it (``parts(app)``,
``rooms_of(app)``, ``current_rooms()``), so no view ever spells the key.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from flask import Flask, current_app

Value = TypeVar("Value")


class AppEntry(Generic[Value]):
    """The entry ``key`` of an app's extensions, holding one ``Value``."""

    def __init__(self, key: str) -> None:
        self._key = key

    def attach(self, app: Flask, value: Value) -> None:
        """Make ``value`` ``app``'s (its ``init_app`` does, once)."""
        app.extensions[self._key] = value

    def of(self, app: Flask) -> Value:
        """``app``'s value; ``KeyError`` before it is attached."""
        found: Value = app.extensions[self._key]
        return found

    def current(self) -> Value:
        """The value of the app handling the current request."""
        return self.of(current_app)
