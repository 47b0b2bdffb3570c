"""A worker's memory of answers, bounded in bytes: the oldest go first past the budget.

A count of entries bounds nothing when one entry may be a hundred bytes or a
hundred kilobytes (every move's value on a big board, a /move memo's answer per best move):
a client that sends big distinct bodies fills a count-bounded memory with big
entries.  Here each entry is kept with its size in bytes (the caller says what
it holds), and the sizes together never exceed the budget.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable
from typing import Generic, TypeVar

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
        self._entries: dict[Key, tuple[Value, int]] = {}
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: Key) -> Value | None:
        """The value kept for ``key``, or None."""
        found = self._entries.get(key)
        return None if found is None else found[0]

    def put(self, key: Key, value: Value, size: int) -> None:
        """Keep ``value`` (``size`` bytes, plus the overhead) as the newest; drop the oldest past the budget.

        A value bigger than the whole budget is not kept (and ``key``'s old value goes).
        """
        cost = size + ENTRY_OVERHEAD_BYTES
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            if cost > self.budget:
                return
            self._entries[key] = (value, cost)
            self._bytes += cost
            while self._bytes > self.budget:
                oldest = next(iter(self._entries))
                self._bytes -= self._entries.pop(oldest)[1]

    @property
    def bytes(self) -> int:
        """The bytes the kept entries count for, overheads included."""
        return self._bytes

    def __len__(self) -> int:
        return len(self._entries)
