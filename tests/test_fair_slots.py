"""Search slots shared fairly across addresses (web/searches/fair_slots.py, web/searches/slots.py).

The rule: a slot that frees goes to the waiting client holding the fewest slots, then
to the one that has waited longest; a client alone may hold every slot.  Every test
here holds its searches at events the test sets, and waits (with a bound) until the
queues are exactly as it says before it lets one go: no timing decides an outcome.
"""

from __future__ import annotations

import threading

import pytest

import web.searches.slots as search_slots
from tests.servers import wait_until
from web.parts import parts
from web.searches.fair_slots import FairSlots

HANG_GUARD = 30.0  # seconds: far above any wait here, far below "never"


class Queue:
    """Requests for slots, each in a thread of its own, queued one at a time in a known order."""

    def __init__(self, slots: FairSlots) -> None:
        self.slots = slots
        self.granted: list[str] = []  # the requests' names, in the order they got a slot
        self._lock = threading.Lock()

    # Every test lets each queued request through before it ends: no thread outlives it.

    def join(self, client: str, name: str) -> None:
        """Queue a request of ``client`` and return once it waits (it is last in the queues)."""
        waiting = self.slots.waiting().get(client, 0)

        def wait_for_slot() -> None:
            got = self.slots.acquire(client, timeout=HANG_GUARD)
            with self._lock:
                self.granted.append(name if got else f"{name} (gave up)")

        threading.Thread(target=wait_for_slot, daemon=True).start()
        wait_until(lambda: self.slots.waiting().get(client, 0) == waiting + 1, what=f"{name} to queue")

    def release(self, client: str, then: list[str]) -> None:
        """Release one slot of ``client``; the requests granted so far must then be ``then``."""
        self.slots.release(client)
        wait_until(lambda: len(self.granted) == len(then), what=f"{then[-1]} to get the slot")
        assert self.granted == then


def test_an_address_alone_may_hold_every_slot():
    slots = FairSlots(3)
    assert [slots.try_acquire("school") for _ in range(4)] == [True, True, True, False]
    assert slots.held() == {"school": 3}
    assert slots.acquire("other", timeout=0) is False  # none frees: it gives up and leaves no trace
    assert slots.waiting() == {}
    for _ in range(3):
        slots.release("school")
    assert slots.held() == {} and slots.try_acquire("other")


def test_a_newcomer_gets_the_next_slot_ahead_of_a_floods_backlog():
    slots = FairSlots(2)
    queue = Queue(slots)
    assert slots.try_acquire("flood") and slots.try_acquire("flood")
    for name in ("flood 1", "flood 2", "flood 3"):
        queue.join("flood", name)
    queue.join("newcomer", "newcomer")
    assert slots.waiting() == {"flood": 3, "newcomer": 1}

    queue.release("flood", then=["newcomer"])  # it holds none, the flood two: it goes first
    assert slots.held() == {"flood": 1, "newcomer": 1}
    # The flood's own requests are served in the order they came.
    queue.release("flood", then=["newcomer", "flood 1"])
    queue.release("newcomer", then=["newcomer", "flood 1", "flood 2"])
    queue.release("flood", then=["newcomer", "flood 1", "flood 2", "flood 3"])
    assert slots.held() == {"flood": 2} and slots.waiting() == {}


def test_the_slot_goes_to_the_client_holding_fewest_then_to_the_longest_waiting():
    slots = FairSlots(3)
    queue = Queue(slots)
    for client in ("a", "a", "b"):
        assert slots.try_acquire(client)
    queue.join("b", "b 1")
    queue.join("a", "a 1")
    queue.join("c", "c 1")
    queue.release("a", then=["c 1"])  # a and b hold one each, c none
    queue.release("b", then=["c 1", "b 1"])  # b holds none now, a one
    # c holds none now, but waits for nothing: the one request left, a's, gets it.
    queue.release("c", then=["c 1", "b 1", "a 1"])
    assert slots.held() == {"a": 2, "b": 1}
    # Equal holdings: the request that waited longest goes first.
    queue.join("b", "b 2")
    queue.join("a", "a 2")
    assert slots.try_acquire("c") is False
    queue.release("a", then=["c 1", "b 1", "a 1", "b 2"])  # a holds one, b one: b's request came first
    queue.release("b", then=["c 1", "b 1", "a 1", "b 2", "a 2"])
    assert slots.held() == {"a": 2, "b": 1} and slots.waiting() == {}


# -- through the app: searches held at a gate -------------------------------------------------

# 4x4 k=4 positions of one or two stones, none the image of another under a symmetry: each
# a search of its own that takes a slot.
#
#   x . . .   . x . .   . . . .   x o . .   x . . .   x . . .
#   . . . .   . . . .   . x . .   . . . .   . o . .   . . . .
#   . . . .   . . . .   . . . .   . . . .   . . . .   . . . .
#   . . . .   . . . .   . . . .   . . . .   . . . .   . . . o
POSITIONS = [
    ["x...", "....", "....", "...."],
    [".x..", "....", "....", "...."],
    ["....", ".x..", "....", "...."],
    ["xo..", "....", "....", "...."],
    ["x...", ".o..", "....", "...."],
    ["x...", "....", "....", "...o"],
]
FLOOD, NEWCOMER = "192.0.2.1", "198.51.100.7"


@pytest.fixture(scope="module")
def app_settings():
    # Two slots; a wait bounded far above anything here (the gate decides, not a timeout).
    return {"MAX_CONCURRENT_SEARCHES": "2", "SEARCH_QUEUE_WAIT": "10"}


class Gate:
    """Holds every search of the app's slots until the test lets it go, noting whose it was."""

    def __init__(self, monkeypatch) -> None:
        self.entered: list[str] = []  # each search's client address, in the order searches began
        self._open: list[threading.Event] = []
        self._lock = threading.Lock()
        analyse = search_slots.analyse

        def held(board, **options):
            from flask import request  # in the request's thread: searches run in the caller here

            event = threading.Event()
            with self._lock:
                self.entered.append(request.remote_addr)
                self._open.append(event)
            assert event.wait(HANG_GUARD)
            return analyse(board, **options)

        monkeypatch.setattr(search_slots, "analyse", held)

    def release(self, index: int) -> None:
        """Let the ``index``-th search (in the order they began) go on."""
        self._open[index].set()


def post_from(app, address: str, board: list[str], answers: list[int]) -> threading.Thread:
    """POST /analyze of ``board`` from ``address`` in a thread of its own; its status goes to ``answers``."""

    def post() -> None:
        client = app.test_client()
        reply = client.post("/analyze", json={"board": board, "k": 4}, environ_base={"REMOTE_ADDR": address})
        answers.append(reply.status_code)

    thread = threading.Thread(target=post, daemon=True)
    thread.start()
    return thread


def test_a_newcomer_address_gets_the_next_search_slot_of_a_flooded_worker(app, monkeypatch):
    gate = Gate(monkeypatch)
    slots = parts(app).solved.slots.slots
    answers: list[int] = []
    # One address alone takes both slots, and its other searches queue.
    threads = [post_from(app, FLOOD, board, answers) for board in POSITIONS[:4]]
    wait_until(lambda: len(gate.entered) == 2 and slots.waiting() == {FLOOD: 2}, what="the flood to queue")
    assert slots.held() == {FLOOD: 2}
    threads.append(post_from(app, NEWCOMER, POSITIONS[4], answers))
    wait_until(lambda: slots.waiting() == {FLOOD: 2, NEWCOMER: 1}, what="the newcomer to queue")

    gate.release(0)  # one of the flood's searches ends: its slot goes to the newcomer
    wait_until(lambda: len(gate.entered) == 3, what="the next search")
    assert gate.entered == [FLOOD, FLOOD, NEWCOMER]
    assert slots.held() == {FLOOD: 1, NEWCOMER: 1} and slots.waiting() == {FLOOD: 2}

    for index in range(1, 5):
        wait_until(lambda index=index: len(gate.entered) > index, what=f"search {index + 1}")
        gate.release(index)
    for thread in threads:
        thread.join(HANG_GUARD)
    assert answers == [200] * 5
    assert slots.held() == {} and slots.waiting() == {}
