"""Compressed answers (web/http/compression.py): gzip when the client asks, the same bytes once decompressed,
nothing compressed when it does not ask, and POST /move never (a few hundred bytes).
"""

from __future__ import annotations

import gzip
import json

import pytest

from tests.first_load import first_load_paths
from web.http.compression import MIN_SIZE

ASKS = {"Accept-Encoding": "gzip, deflate, br, zstd"}  # what Chromium sends


@pytest.fixture(scope="module")
def first_load(client):
    paths = first_load_paths(lambda path: client.get(path).data)
    assert "/static/css/app.css" in paths and "/static/js/main.js" in paths and "/static/js/api.js" in paths
    return paths


def test_the_first_load_comes_gzipped_when_asked_and_decompresses_to_the_same_bytes(client, first_load):
    compressed = 0
    for path in first_load:
        plain = client.get(path)
        asked = client.get(path, headers=ASKS)
        assert asked.status_code == plain.status_code == 200, path
        assert "Accept-Encoding" in asked.headers["Vary"], path
        if len(plain.data) < MIN_SIZE:
            assert "Content-Encoding" not in asked.headers and asked.data == plain.data, path
            continue
        assert asked.headers["Content-Encoding"] == "gzip", path
        assert int(asked.headers["Content-Length"]) == len(asked.data) < len(plain.data), path
        assert gzip.decompress(asked.data) == plain.data, path
        compressed += 1
    assert compressed >= len(first_load) - 1  # all but the small logo


def test_nothing_is_compressed_when_the_client_does_not_ask(client, first_load):
    for headers in ({}, {"Accept-Encoding": "identity"}, {"Accept-Encoding": "gzip;q=0"}):
        for path in first_load:
            response = client.get(path, headers=headers)
            assert "Content-Encoding" not in response.headers, (path, headers)
            # A page varies by its reader's language too (web/pages/routes.py), a file by the encoding alone.
            assert response.headers["Vary"].split(", ")[-1] == "Accept-Encoding", path


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "/openapi.json", None),
        ("POST", "/analyze", {"board": ["x..", ".o.", "..."]}),
        ("GET", "/trace?board=x2/1o1/3&engine=alphabeta", None),
    ],
)
def test_big_json_answers_come_gzipped_when_asked(client, method, path, body):
    plain = client.open(path, method=method, json=body)
    asked = client.open(path, method=method, json=body, headers=ASKS)
    assert asked.status_code == plain.status_code == 200
    assert asked.headers["Content-Encoding"] == "gzip"
    document = json.loads(gzip.decompress(asked.data))
    assert document.keys() == plain.get_json().keys()


def test_a_move_is_never_compressed_even_when_its_answer_is_big(client):
    # The empty 15x15 board: an answer with the whole board in it, over MIN_SIZE.
    response = client.post("/move", json={"board": ["." * 15] * 15}, headers=ASKS)
    assert response.status_code == 200 and len(response.data) >= MIN_SIZE
    assert "Content-Encoding" not in response.headers and "Vary" not in response.headers
    assert response.get_json()["board"]
