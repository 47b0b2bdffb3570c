"""The tactics suite's data and labelling: puzzles that parse, and a labelling that holds.

The suite itself is a benchmark (``bench/tactics_suite.py``); this checks only
that its file is well formed and that the labelling's shortcuts are sound,
on small positions drawn as rows (``*``: the cells a test expects).
"""

from __future__ import annotations

import io
import sys

from tests.diagrams import centred, position
from tests.servers import ROOT
from tictactoe.game.rules import one_bits
from tictactoe.tactics.threats import ThreatSearch

sys.path.insert(0, str(ROOT / "bench"))

import tactics_label
from tactics_label import RULES, Budget, bystanders, proven_win, refusals
from tactics_suite import KINDS, SUITE, read_suite, write_puzzle

# o to move: x's open three (x also holds a far two) must be answered at one of its ends.
OPEN_THREE = [
    "o...........o",
    ".............",
    ".............",
    ".............",
    "...*xxx*.....",
    ".............",
    ".............",
    ".............",
    "..........x..",
    "...........x.",
    ".............",
    ".............",
    "o...........o",
]


def test_every_puzzle_of_the_suite_parses_and_its_answers_are_empty_cells():
    puzzles = read_suite(SUITE)
    assert puzzles
    for puzzle in puzzles:
        assert puzzle.kind in KINDS and puzzle.answers
        assert not puzzle.board.is_over()
        assert all(puzzle.board.empty & puzzle.board.geometry.bits[cell] for cell in puzzle.answers)
        written = io.StringIO()
        write_puzzle(written, puzzle)
        assert puzzle.board.position_text() in written.getvalue()


def test_a_move_the_labelling_calls_a_bystander_or_leaves_the_proof_standing_does_lose(monkeypatch):
    monkeypatch.setattr(tactics_label, "WIN_NODES", 20_000)  # plenty for this position, and quick
    monkeypatch.setattr(tactics_label, "REFUSAL_NODES", 20_000)
    board, expected = position(centred(OPEN_THREE, size=15))
    me, opp = board.sides()
    threat, proof = proven_win(opp, me, Budget(10**6))
    untouched = bystanders(opp, me, threat)
    assert untouched and not untouched & threat.cells
    checked = 0
    for move in list(one_bits(board.empty))[::5]:  # a sample: each check is a search
        if untouched & move or proof.proof_holds(opp, me, move):
            # The opponent, to move after it, still wins: found again by a fresh search.
            assert ThreatSearch(RULES).find(opp, me | move) is not None
            checked += 1
    assert checked > 30
    # The refusals are the three's ends and o's moves that stop it only for a while are not.
    answers = refusals(opp, me, threat, proof, Budget(10**6))
    assert answers == {board.geometry.bits[cell] for cell in expected}
