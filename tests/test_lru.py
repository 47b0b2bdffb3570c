"""The bounded LRU map (web/runtime/lru.py): which entry goes, what counts as a use, both bounds."""

from __future__ import annotations

import threading

import pytest

from web.runtime.lru import BoundedLRU


def test_past_the_bound_the_least_recently_written_goes():
    kept = BoundedLRU[int, str](3)
    for key in range(5):
        kept.put(key, f"v{key}")
    assert len(kept) == 3
    assert [kept.get(key) for key in range(5)] == [None, None, "v2", "v3", "v4"]


def test_a_read_refreshes_an_entry_and_a_miss_changes_nothing():
    kept = BoundedLRU[str, int](2)
    kept.put("a", 1)
    kept.put("b", 2)
    assert kept.get("a") == 1
    assert kept.get("missing") is None
    kept.put("c", 3)
    assert kept.get("b") is None  # least recently used: "a" was read after it
    assert kept.values() == [1, 3]


def test_writing_a_kept_key_replaces_its_value_and_refreshes_it():
    kept = BoundedLRU[str, int](2)
    kept.put("a", 1)
    kept.put("b", 2)
    kept.put("a", 10)
    kept.put("c", 3)
    assert len(kept) == 2
    assert kept.values() == [10, 3]


def test_values_list_the_least_recent_first_and_refresh_none():
    kept = BoundedLRU[str, int](2)
    kept.put("a", 1)
    kept.put("b", 2)
    assert kept.values() == [1, 2]
    kept.put("c", 3)
    assert kept.values() == [2, 3]  # "a" went: listing it had not refreshed it


def test_the_weights_together_stay_within_the_limit_but_the_newest_is_always_kept():
    kept = BoundedLRU[str, str](10, weigh=len, max_weight=6)
    kept.put("a", "xxx")
    kept.put("b", "xxx")
    assert (len(kept), kept.weight) == (2, 6)
    kept.put("c", "xx")  # 8 > 6: "a" goes
    assert (kept.values(), kept.weight) == (["xxx", "xx"], 5)
    kept.put("d", "x" * 9)  # heavier than the limit on its own: kept, alone
    assert (kept.values(), kept.weight) == (["x" * 9], 9)
    kept.put("d", "x")  # a replaced value's weight is no longer counted
    assert kept.weight == 1


def test_without_weigh_no_weight_is_counted():
    kept = BoundedLRU[str, str](2)
    kept.put("a", "x" * 100)
    assert kept.weight == 0
    assert kept.get("a") == "x" * 100


def test_a_map_holds_at_least_one_entry():
    with pytest.raises(ValueError, match="at least 1"):
        BoundedLRU[str, int](0)


def test_threads_sharing_one_map_keep_both_bounds():
    kept = BoundedLRU[int, str](50, weigh=len, max_weight=120)
    start = threading.Barrier(4)

    def fill(offset: int) -> None:
        start.wait()
        for key in range(offset, offset + 2_000):
            kept.put(key, "xyz")
            kept.get(key - 7)

    threads = [threading.Thread(target=fill, args=(n * 10_000,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(kept) == 40  # the weight bound (40 * 3 = 120) is the tighter one
    assert kept.weight == sum(len(value) for value in kept.values()) == 120
