"""A bounded map that drops its least recently used entry: the one such cache of the code.

"Used" means read by ``get`` or written by ``put``.  The bound is a count of
entries and, optionally, a total weight of the values (say, a trace's nodes).
The order of use is cachetools' ``LRUCache``; what this adds is a lock (a
search thread and the requests share a map) and the second bound, which a
cachetools cache cannot hold beside a count: the weight, past which the least
recent go too, though never the newest:

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

import copy
import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from cachetools import LRUCache

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
        self._entries: LRUCache[Key, tuple[Value, int]] = _Weighed(capacity, self)
        self._weight = 0
        self._lock = threading.Lock()

    def get(self, key: Key) -> Value | None:
        """The value kept for ``key``, now the most recently used; None when none is kept."""
        with self._lock:
            found = self._entries.get(key)
            return None if found is None else found[0]

    def put(self, key: Key, value: Value) -> None:
        """Keep ``value`` for ``key`` as the most recently used; drop the least recent past the bounds."""
        weight = 0 if self._weigh is None else self._weigh(value)
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._weight -= old[1]
            self._entries[key] = (value, weight)  # past the count, the least recent goes (popitem)
            self._weight += weight
            while self._weigh is not None and len(self._entries) > 1 and self._weight > self.max_weight:
                self._entries.popitem()

    def values(self) -> list[Value]:
        """The kept values, the least recently used first (reading them refreshes none)."""
        with self._lock:
            # A copy given up least recent first: reading the cache itself would mark each one used.
            order = copy.copy(self._entries)
            return [LRUCache.popitem(order)[1][0] for _ in range(len(order))]

    @property
    def weight(self) -> int:
        """The kept values' weights together (0 without ``weigh``)."""
        return self._weight

    def __len__(self) -> int:
        return len(self._entries)


class _Weighed(LRUCache[Key, tuple[Value, int]]):
    """cachetools' LRU order and count bound; each entry it drops is taken off its map's weight."""

    def __init__(self, capacity: int, owner: BoundedLRU[Key, Value]) -> None:
        super().__init__(maxsize=capacity)
        self._owner = owner

    def popitem(self) -> tuple[Key, tuple[Value, int]]:
        key, entry = super().popitem()
        self._owner._weight -= entry[1]
        return key, entry
