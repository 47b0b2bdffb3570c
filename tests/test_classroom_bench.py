"""bench/classroom.py's pupils send what the game page sends.

A pupil plays two games against the app in process; then the page's own
modules (static/js/game.js, review-panel.js and api.js, under node) play the
same moves with a hint before each, their requests answered from the pupil's
transcript: both must have sent the same requests in the same order.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
import threading
import time

from tests.servers import ROOT
from web.assembly import create_app

sys.path.insert(0, str(ROOT / "bench"))

import classroom
from traffic import Reply

HARNESS = ROOT / "tests" / "page_traffic.mjs"


class InProcess:
    """A bench client (``request(method, path, body)``) over the app's test client; keeps a transcript."""

    def __init__(self, app) -> None:
        self.client = app.test_client()
        self.transcript: list[tuple[str, str, dict | None, int, object]] = []

    def request(self, method: str, path: str, body: dict | None = None) -> Reply:
        response = self.client.open(path, method=method, json=body)
        answer = response.get_json(silent=True)
        self.transcript.append((method, path, body, response.status_code, answer))
        return Reply(response.status_code, answer, dict(response.headers), 0.0)


def human_moves(transcript) -> list[list[tuple[int, int]]]:
    """Each game's moves by the pupil: where the board it checked (POST /state) differs from the
    board it asked a hint for; a hint on the empty board starts a game."""
    games: list[list[tuple[int, int]]] = []
    before = None
    for _, path, body, _, _ in transcript:
        if path == "/analyze":
            before = body["board"]
            if all(set(row) == {"."} for row in before):
                games.append([])
        elif path == "/state":
            cells = [
                (r, c)
                for r, (old, new) in enumerate(zip(before, body["board"], strict=True))
                for c in range(len(old))
                if old[c] != new[c]
            ]
            assert len(cells) == 1, (before, body)
            games[-1].append(cells[0])
    return games


def page_traffic(level: str, games, transcript) -> dict:
    """What the page's modules send for ``games`` at ``level``, answered from ``transcript``."""
    node = shutil.which("node")
    assert node is not None, "node is not installed"
    compact = {"separators": (",", ":")}
    answers = [
        {"key": json.dumps([method, path, body], **compact), "status": status, "body": answer}
        for method, path, body, status, answer in transcript
    ]
    done = subprocess.run(
        [node, "--experimental-default-type=module", str(HARNESS), (ROOT / "static" / "js").as_uri() + "/"],
        input=json.dumps({"level": level, "games": games, "answers": answers}),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout, done.stderr
    return json.loads(done.stdout)


def test_a_pupil_sends_what_the_game_page_sends(tmp_path):
    transport = InProcess(create_app({"CACHE_DIR": str(tmp_path)}))
    page = classroom.Page(transport, classroom.Tally(), time.monotonic() + 60, threading.Event())
    pupil = classroom.Pupil(page, random.Random(3), classroom.PAGE_LEVEL, think=(0.0, 0.0))
    assert pupil.play_game()
    assert pupil.play_game()
    games = human_moves(transport.transcript)
    assert len(games) == 2

    page_sent = page_traffic(classroom.PAGE_LEVEL, games, transport.transcript)

    defaults = page_sent["defaults"]
    assert (defaults["rows"], defaults["cols"], defaults["k"]) == (3, 3, classroom.PAGE_K)
    assert defaults["level"] == classroom.PAGE_LEVEL
    assert "unknown" not in page_sent and "stuck" not in page_sent, page_sent
    pupil_sent = [[method, path, body] for method, path, body, _, _ in transport.transcript]
    assert page_sent["sent"] == pupil_sent
    # The second review asks only for positions the first did not (the page keeps its answers).
    reviews = [path for _, path, *_ in transport.transcript if path.startswith("/position")]
    assert len(reviews) == len(set(reviews))
