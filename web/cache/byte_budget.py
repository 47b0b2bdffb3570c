"""A worker's memory of answers, bounded in bytes: the oldest go first past the budget.

A count of entries bounds nothing when one entry may be a hundred bytes or a
hundred kilobytes (every move's value on a big board, a /move memo's answer per best move):
a client that sends big distinct bodies fills a count-bounded memory with big
entries.  Here each entry is kept with its size in bytes (the caller says what
it holds), and the sizes together never exceed the budget.  The order and the
bound are cachetools' ``FIFOCache`` measuring each entry by its size; what this
adds is the overhead counted per entry and the lock its writers share.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable
from typing import Generic, TypeVar

from cachetools import FIFOCache

Key = TypeVar("Key", bound=Hashable)
Value = TypeVar("Value")

# What a kept entry costs besides what its size counts: the dict's slot, the key
# and value objects' headers, the size itself (rounded up from sys.getsizeof).
ENTRY_OVERHEAD_BYTES = 200


class ByteBudget(Generic[Key, Value]):
    """Entries by key, oldest written first, whose sizes add up to at most ``budget`` bytes.

    ``put`` may be called from several threads at once; ``get`` needs no lock
    (a dict lookup is atomic in CPython).
    """

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self._entries: FIFOCache[Key, tuple[Value, int]] = FIFOCache(budget, getsizeof=_cost)
        self._lock = threading.Lock()

    def get(self, key: Key) -> Value | None:
        """The value kept for ``key``, or None."""
        try:
            # One lookup in the cache's dict: no lock, and a key dropped meanwhile is a miss.
            return self._entries[key][0]
        except KeyError:
            return None

    def put(self, key: Key, value: Value, size: int) -> None:
        """Keep ``value`` (``size`` bytes, plus the overhead) as the newest; drop the oldest past the budget.

        A value bigger than the whole budget is not kept (and ``key``'s old value goes).
        """
        cost = size + ENTRY_OVERHEAD_BYTES
        with self._lock:
            self._entries.pop(key, None)  # rewritten: the newest again
            if cost <= self.budget:
                self._entries[key] = (value, cost)  # the oldest go until it fits

    @property
    def bytes(self) -> int:
        """The bytes the kept entries count for, overheads included."""
        return int(self._entries.currsize)

    def __len__(self) -> int:
        return len(self._entries)


def _cost(entry: tuple[object, int]) -> int:
    """What a kept entry counts for: its size and the overhead, as ``put`` reckoned them."""
    return entry[1]
