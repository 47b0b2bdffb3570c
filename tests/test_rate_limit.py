"""Fairness per client: each address spends seconds of search, charged as its searches cost.

The rules pinned here (web/searches/rate_limit.py, web/searches/slots.py): a search is
charged the time it held its slot; a search on a 3x3 board is never checked nor
charged, and a search of 9 empty cells on a bigger board is; a client that has spent its
allowance gets 429 with the seconds to wait; a trace is charged like a search
and cannot take every search slot.
"""

from __future__ import annotations

import random
import signal

import pytest

from tests.servers import TEST_SECRET, RedisServer, wait_until
from tictactoe import Board
from tictactoe.algorithms.minimax import Minimax
from web.assembly import create_app
from web.config import ConfigError, load_settings
from web.pages.closed_sets import server_sets
from web.parts import parts
from web.searches.rate_limit import WINDOW, MemoryBuckets, RateLimited, SearchAllowance
from web.searches.slots import SearchSlots

# A 4x4 position (k=4) of 14 empty cells: a search the first time, never free.
#
#   x . . .
#   . o . .
#   . . . .
#   . . . .
COSTLY = ["x...", ".o..", "....", "...."]
# One spent allowance: any search at all is more than a millionth of a second.
SPENT_AT_ONCE = "0.000001"


class FakeClock:
    """A clock that stands still until a test moves it."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Ledger:
    """An allowance that records what the slots ask of it and refuses when told to."""

    def __init__(self, refuse: bool = False) -> None:
        self.refuse = refuse
        self.checks = 0
        self.charges: list[float] = []

    def check(self) -> None:
        self.checks += 1
        if self.refuse:
            raise RateLimited(30.0, 7)

    def charge(self, seconds: float) -> None:
        self.charges.append(seconds)


class Ticking(Minimax):
    """Minimax whose every search moves ``clock`` on by ``seconds`` (the time it "took")."""

    def __init__(self, clock: FakeClock, seconds: float) -> None:
        super().__init__()
        self.clock, self.seconds = clock, seconds

    def search(self, board, deadline=None, rng=None, max_nodes=None, tracer=None):
        self.clock.now += self.seconds
        return super().search(board, deadline=deadline, rng=rng, max_nodes=max_nodes, tracer=tracer)


def limited_client(tmp_path, seconds_per_minute=SPENT_AT_ONCE, **settings):
    app = create_app(
        {
            "CACHE_DIR": str(tmp_path / "cache"),
            "SEARCH_SECONDS_PER_MINUTE": seconds_per_minute,
            "SEARCH_BUDGET": "0.2",
            **settings,
        }
    )
    return app, app.test_client()


# -- the bucket ---------------------------------------------------------------


def test_a_client_spends_a_minutes_allowance_at_once_then_waits_for_it_to_refill():
    clock = FakeClock()
    allowance = SearchAllowance(30.0, MemoryBuckets(clock))
    allowance.check("a")
    allowance.charge("a", 30.0)  # a whole minute's allowance in one go: owes exactly a window
    allowance.check("a")  # may still start one: the overshoot is bounded by what is in flight
    allowance.charge("a", 3.0)  # 3 s more, at 30 s a minute, is 6 s of refill owed past the window
    with pytest.raises(RateLimited) as refused:
        allowance.check("a")
    assert refused.value.retry_after == 6
    clock.now += 5.5
    with pytest.raises(RateLimited) as refused:
        allowance.check("a")
    assert refused.value.retry_after == 1  # never 0: that would invite an equally refused retry
    clock.now += 0.5
    allowance.check("a")
    allowance.check("b")  # another client's bucket is its own


def test_the_bucket_refills_at_the_allowance_a_minute_and_never_past_full():
    clock = FakeClock()
    buckets = MemoryBuckets(clock)
    allowance = SearchAllowance(12.0, buckets)
    allowance.charge("a", 12.0)
    assert buckets.owed("a") == pytest.approx(WINDOW)
    clock.now += 20.0
    assert buckets.owed("a") == pytest.approx(40.0)
    clock.now += 600.0  # idle for ten minutes: full, and no credit beyond it
    assert buckets.owed("a") == 0.0
    allowance.charge("a", 12.0)
    allowance.charge("a", 0.2)
    with pytest.raises(RateLimited):
        allowance.check("a")


def test_memory_buckets_forget_full_buckets_first_then_the_oldest():
    clock = FakeClock()
    buckets = MemoryBuckets(clock, capacity=2)
    buckets.add("full-soon", 1.0)
    buckets.add("old", 50.0)
    clock.now += 2.0
    buckets.add("new", 50.0)  # over capacity: "full-soon" is full again, so it goes
    assert (buckets.owed("old"), buckets.owed("new")) == (48.0, 50.0)
    buckets.add("newest", 50.0)  # none is full: the oldest charged goes
    assert (buckets.owed("old"), buckets.owed("newest")) == (0.0, 50.0)


# -- what the search slots charge ----------------------------------------------


def test_a_search_is_charged_the_time_it_held_its_slot():
    clock, ledger = FakeClock(), Ledger()
    slots = SearchSlots(budget=1.0, max_searches=2, table_limit=10_000, allowance=ledger, clock=clock)
    board = Board.from_text(["x..", "...", "..."])
    slots.run(board, Ticking(clock, 0.75), None, max_nodes=600_000)  # a teaching engine's run, even on 3x3
    slots.trace(board, Ticking(clock, 4.5), max_nodes=600_000)
    slots.search(Board.from_text(COSTLY, k=4), all_moves=False)  # the solver: no clock moved
    assert ledger.checks == 3
    assert ledger.charges == [0.75, 4.5, 0.0]


def test_searches_on_3x3_boards_are_neither_checked_nor_charged_nor_queued():
    ledger = Ledger(refuse=True)
    slots = SearchSlots(budget=1.0, max_searches=2, table_limit=10_000, allowance=ledger, queue_wait=0)
    # Other clients' long searches hold every slot: a free search does not wait for one.
    assert slots.slots.try_acquire("other") and slots.slots.try_acquire("other")
    for rows in (["...", "...", "..."], ["x..", ".o.", "..."]):
        assert slots.search(Board.from_text(rows), all_moves=True).proven
    assert ledger.checks == 0
    # Nine empty cells on a bigger board: its cost is not bounded by its rules, so it is
    # checked (and refused here) like any other search.
    #
    #   x o x o x
    #   o x o x o
    #   . . . x o
    #   . . . o x
    #   . . . x o
    small = Board.from_text(["xoxox", "oxoxo", "...xo", "...ox", "...xo"], k=5)
    for board in (small, Board.from_text(COSTLY, k=4)):
        with pytest.raises(RateLimited):
            slots.search(board, all_moves=False)
    assert (ledger.checks, ledger.charges) == (2, [])


def test_traces_cannot_take_every_search_slot(tmp_path):
    app, client = limited_client(
        tmp_path, seconds_per_minute="off", MAX_CONCURRENT_SEARCHES="2", SEARCH_QUEUE_WAIT="0"
    )
    slots = parts(app).solved.slots
    # One trace is running: it holds the one trace slot of two search slots.
    assert slots.trace_slots.try_acquire("other") and slots.slots.try_acquire("other")
    try:
        second_trace = client.get("/trace?board=x2/3/3&engine=minimax")
        search = client.post("/analyze", json={"board": COSTLY, "k": 4})
    finally:
        slots.slots.release("other")
        slots.trace_slots.release("other")
    assert second_trace.status_code == 503 and "busy" in second_trace.get_json()["error"]
    assert search.status_code == 200


# -- through the app -----------------------------------------------------------


def test_a_client_that_has_spent_its_search_time_gets_429_in_words(tmp_path):
    _, client = limited_client(tmp_path)
    first = client.post("/analyze", json={"board": COSTLY, "k": 4})
    assert first.status_code == 200 and first.get_json()["cached"] is False
    refused = client.post("/move", json={"board": ["x...", "....", "..o.", "...."], "k": 4})
    assert refused.status_code == 429
    body = refused.get_json()
    assert int(refused.headers["Retry-After"]) == body["retry_after"] >= 1
    assert body["error"].startswith("too many searches came from your network")
    assert f"try again in {body['retry_after']} s" in body["error"]
    # What is already solved costs nothing, however often it is asked.
    for _ in range(5):
        hit = client.post("/analyze", json={"board": COSTLY, "k": 4})
        assert hit.status_code == 200 and hit.get_json()["cached"] is True
    metrics = client.get("/metrics").get_data(as_text=True)
    assert 'tictactoe_refused_total{reason="rate_limited"} 1.0' in metrics


def test_a_flood_of_fresh_15x15_boards_is_refused_while_3x3_games_go_on(tmp_path):
    _, client = limited_client(tmp_path)
    rng = random.Random(7)
    flood = []
    for _ in range(6):
        rows = [["."] * 15 for _ in range(15)]
        centre = [(row, col) for row in range(4, 11) for col in range(4, 11)]
        for mark, (row, col) in zip("xoxo", rng.sample(centre, 4), strict=True):
            rows[row][col] = mark
        flood.append(client.post("/move", json={"board": ["".join(r) for r in rows], "k": 5}))
    assert flood[0].status_code == 200  # the first search is answered: it spends the allowance
    assert {answer.status_code for answer in flood[1:]} == {429}
    # The same address plays 3x3 games all along: every position of a game, as
    # the page asks it (the move, the review's analysis and the cacheable GET).  These
    # are the sizes the page names beside a refusal ("Games on 3 × 3 still play"), and asks meanwhile.
    free = server_sets()["freeSizes"]
    assert free, "the page names at least one size that plays on"
    for size in free:
        rows, cols = (int(side) for side in size.split("x"))
        game = Board.from_text(["." * cols] * rows)
        k = game.rules.k
        while not game.is_over():
            rows = game.to_text()
            assert client.post("/move", json={"board": rows, "k": k, "level": "perfect"}).status_code == 200
            assert client.post("/analyze", json={"board": rows, "k": k}).status_code == 200
            assert client.get(f"/position?board={game.position_text()}&k={k}").status_code == 200
            game.play(game.legal_moves()[0])


def test_each_client_address_has_its_own_allowance(tmp_path):
    _, client = limited_client(tmp_path)
    other = ["....", ".x..", "..o.", "...."]

    def status(board, address):
        return client.post(
            "/move", json={"board": board, "k": 4}, environ_base={"REMOTE_ADDR": address}
        ).status_code

    assert [status(COSTLY, "192.0.2.1"), status(other, "192.0.2.1"), status(other, "192.0.2.2")] == [
        200,
        429,
        200,
    ]


def test_x_forwarded_for_is_ignored_unless_proxies_are_trusted(tmp_path):
    boards = [COSTLY, ["....", ".x..", "..o.", "...."], ["x...", "....", "....", "...o"]]

    def statuses(client, *chains):
        answers = [
            client.post("/move", json={"board": board, "k": 4}, headers={"X-Forwarded-For": chain})
            for board, chain in zip(boards[: len(chains)], chains, strict=True)
        ]
        return [answer.status_code for answer in answers]

    _, untrusting = limited_client(tmp_path)
    # A client cannot buy a fresh allowance by writing the header itself.
    assert statuses(untrusting, "198.51.100.1", "198.51.100.2") == [200, 429]
    _, behind_router = limited_client(tmp_path / "b", TRUSTED_PROXIES="1")
    # The router appends the address it saw; whatever the client wrote comes before it.
    assert statuses(
        behind_router, "203.0.113.9, 198.51.100.1", "203.0.113.9, 198.51.100.2", "203.0.113.9, 198.51.100.1"
    ) == [200, 200, 429]


@pytest.mark.parametrize(
    "first, second, shared",
    [
        ("2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:fffe", True),  # one /64: one subscriber
        ("2001:db8:1:2::1", "2001:db8:1:3::1", False),  # the next /64
        ("192.0.2.1", "::ffff:192.0.2.1", True),  # IPv4, and as a dual-stack socket reports it
    ],
)
def test_an_ipv6_client_is_its_64_and_a_mapped_ipv4_one_its_ipv4_address(tmp_path, first, second, shared):
    _, client = limited_client(tmp_path)

    def status(board, address):
        return client.post(
            "/move", json={"board": board, "k": 4}, environ_base={"REMOTE_ADDR": address}
        ).status_code

    assert status(COSTLY, first) == 200  # spends the allowance of its key
    assert status(["....", ".x..", "..o.", "...."], second) == (429 if shared else 200)


def test_a_forwarded_ipv6_address_is_counted_by_its_64_too(tmp_path):
    _, behind_router = limited_client(tmp_path, TRUSTED_PROXIES="1")
    boards = [COSTLY, ["....", ".x..", "..o.", "...."], ["x...", "....", "....", "...o"]]
    chains = ["2001:db8:7:7::1", "2001:db8:7:8::1", "2001:db8:7:7:abcd::2"]
    statuses = [
        behind_router.post("/move", json={"board": board, "k": 4}, headers={"X-Forwarded-For": chain})
        for board, chain in zip(boards, chains, strict=True)
    ]
    assert [answer.status_code for answer in statuses] == [200, 200, 429]


def test_off_turns_the_limit_off(tmp_path):
    _, client = limited_client(tmp_path, seconds_per_minute="off")
    for board in (COSTLY, ["....", ".x..", "..o.", "...."]):
        assert client.post("/move", json={"board": board, "k": 4}).status_code == 200


@pytest.mark.parametrize(
    "setting, value",
    [
        ("SEARCH_SECONDS_PER_MINUTE", "lots"),
        ("SEARCH_SECONDS_PER_MINUTE", "0"),
        ("SEARCH_SECONDS_PER_MINUTE", "-1"),
        ("SEARCH_SECONDS_PER_MINUTE", "nan"),
        ("SEARCH_SECONDS_PER_MINUTE", "inf"),
        ("SEARCH_RATE_LIMIT", "60 per minute"),  # the old setting: named, so a deploy finds out
        ("TRUSTED_PROXIES", "-1"),
        ("TRUSTED_PROXIES", "6"),
        ("TRUSTED_PROXIES", "one"),
    ],
)
def test_bad_limit_settings_stop_the_app(setting, value):
    with pytest.raises(ConfigError, match=setting):
        load_settings(env={setting: value})


def test_the_default_allowance_applies_when_unset():
    settings = load_settings(env={})
    assert settings.search_seconds_per_minute == 30.0
    assert settings.trusted_proxies == 0


@pytest.mark.redis
def test_instances_sharing_a_redis_share_each_clients_allowance(tmp_path):
    with RedisServer(tmp_path) as redis:
        apps = [
            limited_client(tmp_path / name, REDIS_URL=redis.url, CACHE_SECRET=TEST_SECRET) for name in "ab"
        ]
        clients = [client for _, client in apps]
        assert clients[0].post("/move", json={"board": COSTLY, "k": 4}).status_code == 200
        other = ["....", ".x..", "..o.", "...."]
        assert clients[1].post("/move", json={"board": other, "k": 4}).status_code == 429
        redis.stop()  # a store that fails lets searches through, and is left alone a moment
        answer = clients[0].post("/move", json={"board": other, "k": 4})
        assert answer.status_code == 200 and answer.get_json()["proven"] is True
        # The next requests skip the store (no wait for its timeout) until a probe finds it back.
        assert not parts(apps[0][0]).allowance.breaker.allows()


class CountingBuckets:
    """Buckets that count the calls that reach the store behind them."""

    def __init__(self, inner) -> None:
        self.inner, self.calls = inner, 0

    def owed(self, client: str) -> float:
        self.calls += 1
        return self.inner.owed(client)

    def add(self, client: str, seconds: float) -> None:
        self.calls += 1
        self.inner.add(client, seconds)


@pytest.mark.redis
def test_a_paused_redis_costs_one_call_then_searches_skip_it_until_a_probe_finds_it_back(tmp_path):
    with RedisServer(tmp_path) as redis:
        app, client = limited_client(
            tmp_path,
            seconds_per_minute="30",
            REDIS_URL=redis.url,
            CACHE_SECRET=TEST_SECRET,
            REDIS_TIMEOUT="0.2",
        )
        limit = parts(app).allowance
        limit.buckets = counting = CountingBuckets(limit.buckets)
        rng = random.Random(3)
        cells = [(row, col) for row in range(4) for col in range(4)]

        def fresh_search():
            rows = [["."] * 4 for _ in range(4)]
            for mark, (row, col) in zip("xo", rng.sample(cells, 2), strict=True):
                rows[row][col] = mark
            return client.post("/analyze", json={"board": ["".join(r) for r in rows], "k": 4})

        assert fresh_search().status_code == 200 and counting.calls == 2  # checked, then charged
        redis.process.send_signal(signal.SIGSTOP)
        try:
            answers = [fresh_search() for _ in range(8)]
        finally:
            redis.process.send_signal(signal.SIGCONT)
        assert [answer.status_code for answer in answers] == [200] * 8  # the limit fails open
        assert counting.calls == 3  # one call waited for the paused store; the others skipped it
        # Resumed: the breaker's probe, in a thread of its own, finds it back.
        wait_until(limit.breaker.allows, 10, what="the allowance store in use again")
        assert fresh_search().status_code == 200 and counting.calls == 5
