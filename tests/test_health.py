"""/healthz cannot hurt (issue 13): one probe in flight per worker, shared results, the breaker.

The unit tests drive ``web.cache.health.HealthCheck`` with a round trip of their own
and a fake clock; the last test pauses a real redis-server (SIGSTOP) under a
real gunicorn while 64 clients poll /healthz.  Latencies are in
docs/reliability.md (bench/health_pause.py): here only hang guards.
"""

from __future__ import annotations

import json
import math
import signal
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis as redis_py

from tests.servers import TEST_SECRET, Gunicorn, RedisServer, wait_for_workers, wait_until
from tests.stalled import timed_request
from web.cache.health import BREAKER_OPEN, HealthCheck
from web.runtime.breaker import DEFAULT_COOLDOWN, Breaker
from web.telemetry.throttled_log import ThrottledLog

HANG_GUARD = 5.0


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class RoundTrip:
    """A backend's round trip that counts its calls and can be held until released."""

    def __init__(self, result=(True, "read and write ok"), hold: bool = False) -> None:
        self.result, self.calls = result, 0
        self.entered, self.release = threading.Event(), threading.Event()
        if not hold:
            self.release.set()

    def __call__(self):
        self.calls += 1
        self.entered.set()
        assert self.release.wait(HANG_GUARD)
        if isinstance(self.result, Exception):
            raise self.result
        return self.result


def check(round_trip, breaker=None, clock=None, fresh=1.0) -> HealthCheck:
    import logging

    return HealthCheck(
        round_trip,
        breaker or Breaker(),
        ThrottledLog(logging.getLogger("t")),
        fresh=fresh,
        clock=clock or FakeClock(),
    )


def test_polls_that_find_a_probe_in_flight_wait_for_it_and_never_start_another():
    probe = RoundTrip(hold=True)
    health = check(probe)
    with ThreadPoolExecutor(1) as prober:
        first = prober.submit(health.status)
        assert probe.entered.wait(HANG_GUARD)
        with ThreadPoolExecutor(8) as pool:  # the probe hangs: each gives up after its bound
            answers = list(pool.map(lambda _: health.status(), range(8)))
        assert answers == [(False, "the cache backend's health probe did not finish in time")] * 8
        probe.release.set()
        assert first.result(HANG_GUARD) == (True, "read and write ok")
    assert health.status() == (True, "read and write ok")  # shared: no new round trip
    assert probe.calls == 1


def test_a_result_is_shared_for_a_moment_then_probed_again():
    probe, clock = RoundTrip(), FakeClock()
    health = check(probe, clock=clock, fresh=1.0)
    for _ in range(5):
        assert health.status()[0]
    clock.now += 0.9
    assert health.status()[0] and probe.calls == 1
    clock.now += 0.2
    assert health.status()[0] and probe.calls == 2


def test_the_breaker_is_respected_and_moved_by_the_probe():
    breaker = Breaker(cooldown=3600)
    failing, clock = RoundTrip(result=ConnectionError("refused")), FakeClock()
    health = check(failing, breaker=breaker, clock=clock)
    assert health.status() == (False, "cache backend error (ConnectionError)")
    assert not breaker.allows()  # the failed probe opened it
    for _ in range(5):
        assert health.status() == (False, BREAKER_OPEN)
    assert failing.calls == 1  # open: the backend is left alone
    breaker.reset()  # cooldown over, say; the next probe succeeds and keeps it closed
    clock.now += 2
    failing.result = (True, "read and write ok")
    assert health.status() == (True, "read and write ok") and breaker.allows()


def test_a_failure_seen_by_requests_makes_the_shared_result_stale():
    probe = RoundTrip()
    breaker = Breaker(cooldown=0)  # the file cache's: never skips
    health = check(probe, breaker=breaker, fresh=60.0)
    assert health.status()[0] and health.status()[0] and probe.calls == 1
    breaker.trip()  # a request's write failed
    probe.result = (False, "cache write failed")
    assert health.status() == (False, "cache write failed") and probe.calls == 2


# -- a real Redis, paused ----------------------------------------------------------


def poll_health(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url + "/healthz", timeout=HANG_GUARD) as response:
            return response.status, json.loads(response.read())["cache"]["detail"]
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())["cache"]["detail"]


@pytest.mark.redis
@pytest.mark.slow
def test_a_paused_redis_leaves_healthz_quick_and_cached_moves_answered(tmp_path):
    cached = {"board": ["x..", ".o.", "..."]}
    env = {"REDIS_URL": "", "CACHE_SECRET": TEST_SECRET, "CACHE_DIR": str(tmp_path / "c")}
    with RedisServer(tmp_path) as redis, Gunicorn(workers=2, env={**env, "REDIS_URL": redis.url}) as server:
        wait_for_workers(server.url, 2)
        # Both workers hold the position in memory: a cached answer needs no Redis.
        warm: set[int] = set()

        def both_warm() -> bool:
            with ThreadPoolExecutor(4) as pool:
                for _, status, body in pool.map(
                    lambda _: timed_request(server.url + "/move", cached, HANG_GUARD), range(4)
                ):
                    if status == 200 and body["cached"]:
                        warm.add(body["worker"])
            return len(warm) == 2

        wait_until(both_warm, 30, what="both workers caching the position")
        client = redis_py.Redis.from_url(redis.url)
        client.config_resetstat()
        redis.process.send_signal(signal.SIGSTOP)
        try:
            start = time.monotonic()
            unhealthy = threading.Event()

            def poll() -> list[tuple[int, str]]:
                # 8 polls at least, and on until the pause shows (a result from just
                # before it is shared for a second); 200 at most.
                answers: list[tuple[int, str]] = []
                while len(answers) < 200 and not (unhealthy.is_set() and len(answers) >= 8):
                    answers.append(poll_health(server.url))
                    if answers[-1][0] == 503:
                        unhealthy.set()
                return answers

            with ThreadPoolExecutor(64) as pool:
                polls = [pool.submit(poll) for _ in range(64)]
                moves = [timed_request(server.url + "/move", cached, HANG_GUARD) for _ in range(10)]
                answers = [answer for each in polls for answer in each.result()]
            paused = time.monotonic() - start
        finally:
            redis.process.send_signal(signal.SIGCONT)
        assert unhealthy.is_set() and len(answers) >= 512
        # A result from just before the pause may be shared for its moment (a 200);
        # after it, every poll says 503 with why, at once or after one short probe.
        details = {status: {d for s, d in answers if s == status} for status, _ in answers}
        assert set(details) <= {200, 503} and 503 in details, details
        assert details.get(200, {"read and write ok"}) == {"read and write ok"}
        assert details[503] <= {
            BREAKER_OPEN,
            "cache backend error (TimeoutError)",
            "the cache backend's health probe did not finish in time",
        }
        assert all(status == 200 and body["cached"] for _, status, body in moves)
        # Probes that reached Redis (its SET calls; cached moves set nothing): at
        # most one per worker per breaker cooldown, against 512 polls or more.
        probes = client.info("commandstats").get("cmdstat_set", {}).get("calls", 0)
        assert probes <= 2 * (1 + math.ceil(paused / DEFAULT_COOLDOWN)), (probes, paused)
        client.close()
        # Resumed: a probe finds it again once the breaker's moment is over.
        wait_until(
            lambda: poll_health(server.url) == (200, "read and write ok"), 10, what="/healthz ok again"
        )


def test_after_the_cooldown_one_trial_in_the_background_decides_and_requests_keep_skipping():
    breaker = Breaker(cooldown=0)  # the cooldown is over at once
    probe = RoundTrip(hold=True)
    health = check(probe, breaker=breaker)
    breaker.set_trial(health.probe)
    breaker.trip()
    assert [breaker.allows() for _ in range(5)] == [False] * 5  # the trial runs, held
    assert probe.entered.wait(HANG_GUARD)
    probe.release.set()
    wait_until(breaker.allows, HANG_GUARD, what="the trial closing the breaker")
    assert probe.calls == 1
