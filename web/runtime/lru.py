"""A bounded map that drops its least recently used entry: the one such cache of the code.

"Used" means read by ``get`` or written by ``put``.  The bound is a count of
entries and, optionally, a total weight of the values (say, a trace's nodes):

>>> kept = BoundedLRU[str, int](2)
>>> kept.put("a", 1)
>>> kept.put("b", 2)
>>> kept.get("a")  # now the most recently used
1
>>> kept.put("c", 3)  # past the bound: "b", the least recently used, goes
>>> kept.get("b") is None, list(kept.values()), len(kept)
(True, [1, 3], 2)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

Key = TypeVar("Key", bound=Hashable)
Value = TypeVar("Value")


class BoundedLRU(Generic[Key, Value]):
    """At most ``capacity`` entries by key; past it the least recently used go first.

    With ``weigh`` (a value's weight, read once when it is put), the weights
    together are also kept to at most ``max_weight``, except that the newest
    entry is always kept, whatever it weighs.  Thread-safe: every call holds
    the map's lock, so several threads may share one.
    """

    def __init__(
        self, capacity: int, weigh: Callable[[Value], int] | None = None, max_weight: int = 0
    ) -> None:
        if capacity < 1:
            raise ValueError(f"a bounded LRU map holds at least 1 entry, not {capacity}")
        self.capacity = capacity
        self.max_weight = max_weight
        self._weigh = weigh
        self._entries: OrderedDict[Key, tuple[Value, int]] = OrderedDict()  # least recent first
        self._weight = 0
        self._lock = threading.Lock()

    def get(self, key: Key) -> Value | None:
        """The value kept for ``key``, now the most recently used; None when none is kept."""
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                return None
            self._entries.move_to_end(key)
            return found[0]

    def put(self, key: Key, value: Value) -> None:
        """Keep ``value`` for ``key`` as the most recently used; drop the least recent past the bounds."""
        weight = 0 if self._weigh is None else self._weigh(value)
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._weight -= old[1]
            self._entries[key] = (value, weight)
            self._weight += weight
            while len(self._entries) > self.capacity or (
                self._weigh is not None and len(self._entries) > 1 and self._weight > self.max_weight
            ):
                self._weight -= self._entries.popitem(last=False)[1][1]

    def values(self) -> list[Value]:
        """The kept values, the least recently used first (reading them refreshes none)."""
        with self._lock:
            return [value for value, _ in self._entries.values()]

    @property
    def weight(self) -> int:
        """The kept values' weights together (0 without ``weigh``)."""
        return self._weight

    def __len__(self) -> int:
        return len(self._entries)
