"""The body's deadline (web/http/body_deadline.py): reads bounded together, none once the body is whole."""

from __future__ import annotations

import time

import pytest

from web.http.body_deadline import TIMED_OUT, DeadlineReader


class Chunks:
    """A body reader handing out ``chunks`` one per read, then b""; counts its reads."""

    def __init__(self, *chunks: bytes) -> None:
        self.chunks = list(chunks)
        self.reads = 0

    def read(self, size: int) -> bytes:
        self.reads += 1
        return self.chunks.pop(0) if self.chunks else b""


def test_a_body_of_known_length_reads_whole_then_empty_without_asking_the_reader_again():
    reader = Chunks(b'{"board"', b': ["x.."]}')
    body = DeadlineReader(reader, time.monotonic() + 60, length=18)
    assert body.read(1024) + body.read(1024) == b'{"board": ["x.."]}'
    assert reader.reads == 2
    assert body.read(8192) == b"" and body.read(8192) == b""
    assert reader.reads == 2


def test_a_body_of_unknown_length_is_read_until_the_reader_says_it_ended():
    reader = Chunks(b"abc")
    body = DeadlineReader(reader, time.monotonic() + 60)
    assert body.read(10) == b"abc"
    assert body.read(10) == b""
    assert reader.reads == 2


def test_a_read_past_the_deadline_raises_timeout_without_reading():
    reader = Chunks(b"abc")
    body = DeadlineReader(reader, time.monotonic() - 1, length=3)
    with pytest.raises(TimeoutError, match=TIMED_OUT):
        body.read(3)
    assert reader.reads == 0
