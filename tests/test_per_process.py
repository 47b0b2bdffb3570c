"""What a process keeps instead of a system call per request is its own, in every forked worker."""

from __future__ import annotations

import os

from web.runtime.per_process import RANDOM, process_id


def test_a_forked_child_has_its_own_id_and_random_draws():
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # the child: report, then leave at once (no pytest teardown here)
        os.write(writer, f"{process_id()} {os.getpid()} {RANDOM.getrandbits(64)}".encode())
        os._exit(0)
    os.close(writer)
    with os.fdopen(reader) as pipe:
        kept, actual, draw = map(int, pipe.read().split())
    os.waitpid(child, 0)
    assert kept == actual == child != process_id() == os.getpid()
    # Without the reseed, the child would draw exactly what the parent draws next.
    assert draw != RANDOM.getrandbits(64)
