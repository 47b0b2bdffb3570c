"""Reading a setting from the environment: its number within bounds, or a ``ConfigError`` naming it.

The one part of the settings gunicorn's side reads too (``TRUSTED_PROXIES``, in
web/server.py, before any worker exists): so it imports nothing of the app.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

MAX_TRUSTED_PROXIES = 5


class ConfigError(ValueError):
    """A setting has a value the app cannot run with; the message names the variable."""


def trusted_proxies(source: Mapping[str, object]) -> int:
    """TRUSTED_PROXIES from ``source`` (0 when unset); ``ConfigError`` outside 0..5.

    Read by gunicorn.conf.py too: behind proxies the peer of a connection is a proxy.
    """
    proxies = number(source, "TRUSTED_PROXIES", 0, int)
    if not 0 <= proxies <= MAX_TRUSTED_PROXIES:
        raise ConfigError(f"TRUSTED_PROXIES must be between 0 and {MAX_TRUSTED_PROXIES}, not {proxies}")
    return proxies


Number = TypeVar("Number", int, float)


def int_between(source: Mapping[str, object], name: str, default: int, low: int, high: int) -> int:
    """The integer setting ``name`` (``default`` when unset); ``ConfigError`` outside ``low..high``."""
    value = number(source, name, default, int)
    if not low <= value <= high:
        raise ConfigError(f"{name} must be between {low} and {high}, not {value}")
    return value


def number(source: Mapping[str, object], name: str, default: Number, kind: Callable[[Any], Number]) -> Number:
    """The setting ``name`` as ``kind`` (int or float), or ``default`` when unset."""
    value = source.get(name)
    if value is None:
        return default
    if isinstance(value, bool) or (kind is int and isinstance(value, float)):
        raise ConfigError(f"{name} must be {'an integer' if kind is int else 'a number'}, not {value!r}")
    try:
        read = kind(value)
    except (TypeError, ValueError):
        raise ConfigError(
            f"{name} must be {'an integer' if kind is int else 'a number'}, not {value!r}"
        ) from None
    if kind is float and read != read:  # NaN compares unequal to itself
        raise ConfigError(f"{name} must be a number, not {value!r}")
    return read
