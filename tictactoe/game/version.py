"""The engine's version: part of every shared-cache key and of every opening book."""

# Bump it whenever a stored result could change.
ENGINE_VERSION = "1"

__all__ = ["ENGINE_VERSION"]
