"""The app as the tests build it in-process: ``create_app`` with its cache in a folder of the test's."""

from __future__ import annotations

from pathlib import Path

from flask import Flask

from web.assembly import create_app


def make_app(folder: Path, **settings: str) -> Flask:
    """The app with its file-system cache in ``folder``/cache and ``settings`` on top."""
    return create_app({"CACHE_DIR": str(folder / "cache"), **settings})
