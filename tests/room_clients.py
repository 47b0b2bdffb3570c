"""Clients of the rooms for the multi-worker and Redis tests: a flood of rooms asked for at once."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from tests.servers import post

# ROOMS_MAX of the servers a flood fills.
ROOMS_MAX = 25


def flood_of_rooms(urls: list[str], count: int) -> int:
    """``count`` rooms asked for at once, from as many loopback addresses, spread over ``urls``: how
    many were made; every other answer must be the 503 of a full server, in words."""

    def make(n: int) -> int:
        status, body = post(urls[n % len(urls)] + "/rooms", {}, source=f"127.0.6.{n % 250 + 1}")
        if status != 201:
            assert (status, body["error"]) == (
                503,
                "the server holds as many rooms as it may right now: try again in a minute",
            )
        return status

    with ThreadPoolExecutor(32) as pool:
        statuses = list(pool.map(make, range(count)))
    return statuses.count(201)
