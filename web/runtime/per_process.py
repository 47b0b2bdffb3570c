"""What each process keeps for itself instead of asking the OS per request: its id, a random source.

``os.getpid()`` and ``os.urandom()`` are system calls, and a request asked for
them seven times (the request line's ``pid``, prometheus_client's check for a
fork before every count it stores, a new request id, an unseeded move drawn
among equals); on a shared virtual machine a system call costs a few µs.
Both are renewed in the child after each ``os.fork``, so gunicorn's workers
share neither.
"""

from __future__ import annotations

import os
import random

_pid = os.getpid()
# Seeded from the OS (os.urandom), and again in every forked child. Request ids and
# the choice among equally good moves need no secrecy, only no repeats across workers.
RANDOM = random.Random()


def process_id() -> int:
    """What ``os.getpid()`` returns, kept: renewed in the child after each ``os.fork``."""
    return _pid


def _renew() -> None:
    global _pid
    _pid = os.getpid()
    RANDOM.seed()


os.register_at_fork(after_in_child=_renew)
