"""Label five-in-a-row tactics puzzles by a long threat search: the tactics suite's source.

Three steps, each writing JSON lines as it goes (``tactics_suite`` reads the result)::

    # 1. candidate positions: from recorded matches (bench/match.py --record) and seeded random games
    .venv/bin/python bench/tactics_label.py candidates --hard-record match.jsonl --record match.jsonl \\
        --random-games 200 --out candidates.jsonl
    # 2. label each candidate, twice, with two seeds (resumable: labelled ids are skipped)
    nice -n 19 .venv/bin/python bench/tactics_label.py label candidates.jsonl --seed 1 --out labels-1.jsonl
    nice -n 19 .venv/bin/python bench/tactics_label.py label candidates.jsonl --seed 2 --out labels-2.jsonl
    # 3. keep the puzzles both runs agree on
    .venv/bin/python bench/tactics_label.py merge labels-1.jsonl labels-2.jsonl --out bench/data/tactics.jsonl

A *candidate* is a position where a short threat search (``PROBE_NODES``)
finds a forced win for one side: from a recorded match, the first position
of each decisive game where the winner, to move, has one (a win) and the
position before it (the loser's missed defence), and (``--hard-record``) the
last positions of its decisive games whose win a ``QUICK_NODES`` search
misses; from a seeded random game
(moves at random near the stones, fives taken and fours blocked), the
position at a random ply.

*Labelling* is a long threat search (about ``LABEL_NODES`` nodes: 20-30 s
at today's speed), counted in nodes, not seconds, so that it gives the same
label on a loaded or paused machine.  The seed picks the board's symmetry
(seed mod 8) the search sees, so that a second seed meets the cells in
another order.  The kinds:

- ``attack``: the side to move has a forced win (VCF, then VCT); the answers
  are every first move found to win (each a proof);
- ``defence``: the side to move has none, the opponent would have one if it
  were to move, and some moves refuse it: the answers are the moves after
  which the opponent's search finds no win.  Moves that cannot touch the
  threat's proof (``bystanders``) are known to lose without a search;
- anything else (a five to make, no win found either way, a four on the
  board that forces the reply, every move losing, the budget spent before
  every candidate move was tested) is not a puzzle and is dropped at the merge.

*Merging* keeps a position when both seeds give it the same kind and, for a
defence, the same answers (for an attack every answer is a proof, so the
answers of both are kept).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from tactics_suite import KINDS, Puzzle, cells_from_labels, labels_of, write_puzzle

from tictactoe.game.board import Board, Symmetry
from tictactoe.game.clock import SearchTimeout
from tictactoe.game.rules import Bitboard, Rules, one_bits
from tictactoe.tactics.threats import ThreatSearch, ThreatWin

RULES = Rules(15, 15, 5)
PROBE_NODES = 40_000  # a candidate's probe, per search (VCF, then VCT)
# A hard candidate's win is not found by this many nodes a search (a few milliseconds' worth) ...
QUICK_NODES = 3_000
HARD_PLIES = 24  # ... among the last positions of a decisive game
HARD_PER_GAME = 2  # positions of each kind a game
# The long search, within a total for the position (today's search runs about 100,000 nodes a
# second): nodes for a side's win (VCF, then VCT, each), and after each defence tested (a threat
# that 22 moves refute cost 6.6 million nodes at 300,000 a move); and for each other first move of
# an attack (its proof, if it wins, is the rest of the win already found).
WIN_NODES = 300_000
REFUSAL_NODES = 100_000  # the attacker's win after a defence (VCF, then VCT, each)
MOVE_NODES = 30_000
LABEL_NODES = 3_000_000
LABEL_VCF_DEPTH = 20  # deeper than a move's search (16): fours are narrow
LABEL_VCT_DEPTH = 8  # deeper than a move's search (6)
RANDOM_PLIES = (14, 40)  # a random game's position is taken at a ply drawn from this range
RANDOM_RADIUS = 2  # random moves fall within this many cells (Chebyshev) of a stone


# -- candidates ------------------------------------------------------------------------------


def probe(board: Board, nodes: int = PROBE_NODES) -> str | None:
    """``attack`` when the side to move has a threat win found in ``nodes`` (a cold search each,
    VCF then VCT), ``defence`` when the opponent would have one, else None."""
    me, opp = board.sides()
    if long_win(me, opp, Budget(4 * nodes), nodes) is not None:
        return "attack"
    if long_win(opp, me, Budget(4 * nodes), nodes) is not None:
        return "defence"
    return None


def hard_candidates(path: str) -> Iterator[dict[str, Any]]:
    """The last ``HARD_PLIES`` positions of each decisive game where the probe finds a win that a
    ``QUICK_NODES`` search does not: at most ``HARD_PER_GAME`` of each kind a game, latest first."""
    for source, moves, opening in decisive_games(path):
        found = {"attack": 0, "defence": 0}
        for index in range(len(moves) - 1, max(opening, len(moves) - HARD_PLIES) - 1, -1):
            board = board_of(moves[:index])
            kind = probe(board)
            if kind is None or found[kind] >= HARD_PER_GAME or probe(board, QUICK_NODES) is not None:
                continue
            found[kind] += 1
            yield {"moves": moves[:index], "source": f"{source}, ply {index}"}


def decisive_games(path: str) -> Iterator[tuple[str, list[int], int]]:
    """The decisive games of a match record: where each is from, its moves, its opening's length."""
    with open(path) as lines:
        header = json.loads(next(lines))
        for line in lines:
            game = json.loads(line)
            if game["winner"] is not None:
                pair = f"pair {game['pair']} x {game['x_player']}"
                yield f"match {Path(path).name} seed {header['seed']} {pair}", game["moves"], game["opening"]


def board_of(moves: list[int]) -> Board:
    """The 15x15 k=5 board after ``moves``."""
    board = Board(RULES)
    for cell in moves:
        board.play(cell)
    return board


def match_candidates(path: str) -> Iterator[dict[str, Any]]:
    """Each decisive game's first position where the winner, to move, has a threat win, and the one before.

    Walking back from the end over the winner's turns while the probe finds its
    win: the earliest is the win; the position before it, the loser to move,
    is where the loser let it through (kept when the probe sees the threat there).
    """
    for source, moves, opening in decisive_games(path):
        winner_parity = (len(moves) - 1) % 2  # the winner made the last move
        earliest = None
        for index in range(len(moves) - 1, opening - 1, -1):
            if index % 2 != winner_parity:
                continue  # the winner is to move after index moves when index has its parity
            if probe(board_of(moves[:index])) != "attack":
                break
            earliest = index
        if earliest is None:
            continue
        yield {"moves": moves[:earliest], "source": f"{source}, ply {earliest}"}
        if earliest - 1 >= opening and probe(board_of(moves[: earliest - 1])) == "defence":
            yield {"moves": moves[: earliest - 1], "source": f"{source}, ply {earliest - 1}"}


def random_game(rng: random.Random, plies: int) -> Board | None:
    """A game of ``plies`` random moves near the stones (fives taken, fours blocked); None if it ended."""
    board = Board(RULES)
    centre = RULES.cell(RULES.rows // 2, RULES.cols // 2)
    board.play(centre)
    geometry = board.geometry
    while len(board.history) < plies:
        me, opp = board.sides()
        urgent = geometry.winning_cells(me, board.empty) or geometry.winning_cells(opp, board.empty)
        if urgent:
            cells = geometry.cells_of(urgent)
        else:
            cells = [
                cell
                for cell in geometry.cells_of(board.empty)
                if any(
                    board.x & geometry.bits[near] or board.o & geometry.bits[near]
                    for near in _around(cell, RANDOM_RADIUS)
                )
            ]
        board.play(rng.choice(cells))
        if board.is_over():
            return None
    return board


def _around(cell: int, radius: int) -> Iterator[int]:
    """The cells within ``radius`` (Chebyshev) of ``cell``, itself included."""
    row, col = RULES.row_col(cell)
    for r in range(max(0, row - radius), min(RULES.rows, row + radius + 1)):
        for c in range(max(0, col - radius), min(RULES.cols, col + radius + 1)):
            yield RULES.cell(r, c)


def random_candidates(games: int, seed: int) -> Iterator[dict[str, Any]]:
    """From ``games`` seeded random games, the position at a random ply when the probe finds a tactic."""
    for number in range(games):
        rng = random.Random(f"{seed}:{number}")
        board = random_game(rng, rng.randint(*RANDOM_PLIES))
        if board is not None and probe(board) is not None:
            yield {"moves": board.history, "source": f"random game {number} seed {seed}, ply {board.stones}"}


# -- labelling ---------------------------------------------------------------------------------


class Budget:
    """The nodes a position's labelling may still spend."""

    def __init__(self, nodes: int) -> None:
        self.left = nodes

    def search(self, limit: int, vct: bool) -> ThreatSearch:
        """A search allowed ``limit`` nodes, or what is left (``spend`` it afterwards)."""
        return ThreatSearch(RULES, vct=vct, max_nodes=max(1, min(limit, self.left)))

    def spend(self, search: ThreatSearch) -> None:
        self.left -= search.nodes


def long_win(
    attacker: Bitboard, defender: Bitboard, budget: Budget, nodes: int | None = None
) -> ThreatWin | None:
    """The attacker's (to move) win by VCF, then VCT, each within ``nodes`` (``WIN_NODES``); None if
    not found."""
    found = proven_win(attacker, defender, budget, nodes)
    return None if found is None else found[0]


def proven_win(
    attacker: Bitboard, defender: Bitboard, budget: Budget, nodes: int | None = None
) -> tuple[ThreatWin, ThreatSearch] | None:
    """``long_win``'s win and the search that proved it (its table holds the proof)."""
    for vct, depth in ((False, LABEL_VCF_DEPTH), (True, LABEL_VCT_DEPTH)):
        search = budget.search(WIN_NODES if nodes is None else nodes, vct)
        try:
            found = search.find(attacker, defender, depth)
        except SearchTimeout:
            found = None
        budget.spend(search)
        if found is not None:
            return found, search
    return None


def winning_moves(
    attacker: Bitboard, defender: Bitboard, win: ThreatWin, budget: Budget
) -> set[Bitboard] | None:
    """Every first move found to win (fours, then moves raising a window to a three); None if out of nodes."""
    search = ThreatSearch(RULES)
    wins, fours, raisers = search.shapes(attacker, defender)
    first = RULES.geometry.bits[win.move]
    if wins:
        return set(one_bits(wins))
    found = {first}
    for move in one_bits((fours | raisers) & ~first):
        if budget.left <= 0:
            return None
        proof = None
        for vct, depth in ((False, LABEL_VCF_DEPTH), (True, LABEL_VCT_DEPTH)):
            search = budget.search(MOVE_NODES, vct)
            try:
                for level in range(depth):
                    proof = search.defend(attacker | move, defender, level)
                    if proof is not None:
                        break
            except SearchTimeout:
                pass
            budget.spend(search)
            if proof is not None:
                found.add(move)
                break
    return found


def bystanders(attacker: Bitboard, defender: Bitboard, threat: ThreatWin) -> Bitboard:
    """The empty cells where a defender's stone leaves the threat's proof standing, so it loses.

    The proof's stones (both sides') all lie on ``threat.cells``.  A stone
    elsewhere changes only the windows through it; the proof still holds
    unless one of those, free of the attacker's stones, could reach the level
    of a four-maker (k-2) for the defender with the stone and the proof's
    cells: that is the only way it could give the defender a counter-four or a
    five the proof did not meet.
    """
    geometry = RULES.geometry
    empty = geometry.full & ~(attacker | defender)
    proof = threat.cells & empty
    sensitive = 0
    for line in geometry.lines:
        if line & attacker:
            continue
        if (line & defender).bit_count() + (line & proof).bit_count() + 1 >= RULES.k - 2:
            sensitive |= line
    return empty & ~proof & ~sensitive


def refusals(
    attacker: Bitboard, defender: Bitboard, threat: ThreatWin, proof: ThreatSearch, budget: Budget
) -> set[Bitboard] | None:
    """The defender's moves after which the attacker's long search finds no win; None if out of nodes.

    A move after which the threat's proof (in ``proof``'s table) still holds is not searched.
    """
    empty = RULES.geometry.full & ~(attacker | defender)
    found = set()
    for move in one_bits(empty & ~bystanders(attacker, defender, threat)):
        if budget.left <= 0:
            return None
        if proof.proof_holds(attacker, defender, move):
            continue
        if long_win(attacker, defender | move, budget, REFUSAL_NODES) is None:
            found.add(move)
    return found


def label(board: Board, seed: int) -> dict[str, Any]:
    """The kind and answers (cell labels) of the position, by a long search on its ``seed`` symmetry."""
    symmetry = Symmetry(board.geometry.symmetries[seed % len(board.geometry.symmetries)])
    seen = board.transformed(symmetry)
    back = symmetry.inverse()
    me, opp = seen.sides()
    budget = Budget(LABEL_NODES)
    result: dict[str, Any] = {"seed": seed}

    def answers(moves: set[Bitboard]) -> list[str]:
        cells = [back.apply(seen.geometry.cell_of[bit]) for bit in moves]
        return labels_of(RULES, cells)

    win = long_win(me, opp, budget)
    if seen.geometry.winning_cells(me, seen.empty):
        result["kind"] = "five"  # a win in one: no puzzle
    elif win is not None:
        moves = winning_moves(me, opp, win, budget)
        result.update(kind="attack" if moves else "spent", depth=win.depth, plies=win.plies)
        if moves:
            result["answers"] = answers(moves)
    else:
        found = proven_win(opp, me, budget)
        if found is None:
            result["kind"] = "quiet"
        elif seen.geometry.winning_cells(opp, seen.empty):
            result["kind"] = "forced"
        else:
            threat, proof = found
            moves = refusals(opp, me, threat, proof, budget)
            result.update(depth=threat.depth, plies=threat.plies)
            result["kind"] = "spent" if moves is None else "defence" if moves else "lost"
            if moves:
                result["answers"] = answers(moves)
    result["nodes"] = LABEL_NODES - budget.left
    return result


def done_ids(path: str) -> set[str]:
    """The ids already labelled in ``path`` (none if it does not exist), but those that ran out of
    nodes: a later budget may do (the last line of an id is its label)."""
    if not Path(path).exists():
        return set()
    with open(path) as lines:
        entries = [json.loads(line) for line in lines if line.strip()]
    return {entry["id"] for entry in entries if entry.get("kind") != "spent"}


# -- the commands ------------------------------------------------------------------------------


def candidates_command(args: argparse.Namespace) -> None:
    seen = done_ids(args.out)
    with open(args.out, "a") as out:
        sources = [*(match_candidates(path) for path in args.record or [])]
        sources += [hard_candidates(path) for path in args.hard_record or []]
        sources.append(random_candidates(args.random_games, args.seed))
        for source in sources:
            for candidate in source:
                board = board_of(candidate["moves"])
                key = board.position_text()
                if key in seen:
                    continue
                seen.add(key)
                out.write(json.dumps({"id": key, "source": candidate["source"]}) + "\n")
                out.flush()
                print(f"{len(seen)}: {candidate['source']}", file=sys.stderr, flush=True)


def label_command(args: argparse.Namespace) -> None:
    done = done_ids(args.out)
    with open(args.candidates) as lines:
        todo = [json.loads(line) for line in lines if line.strip()]
    with open(args.out, "a") as out:
        for number, candidate in enumerate(todo, 1):
            if candidate["id"] in done:
                continue
            board = Board.from_position_text(candidate["id"], k=RULES.k)
            labelled = {"id": candidate["id"], "source": candidate["source"], **label(board, args.seed)}
            out.write(json.dumps(labelled) + "\n")
            out.flush()
            print(
                f"{number}/{len(todo)}: {labelled['kind']} {labelled.get('answers', '')}"
                f" ({labelled['nodes']:,} nodes)",
                file=sys.stderr,
                flush=True,
            )


def merge_command(args: argparse.Namespace) -> None:
    runs = []
    for path in args.labels:
        with open(path) as lines:
            runs.append({entry["id"]: entry for entry in map(json.loads, lines) if entry})
    kept = 0
    with open(args.out, "w") as out:
        for key, first in runs[0].items():
            second = runs[1].get(key)
            if second is None or first["kind"] != second["kind"] or first["kind"] not in KINDS:
                continue
            if first["kind"] == "defence" and set(first["answers"]) != set(second["answers"]):
                continue
            answers = sorted(set(first["answers"]) | set(second["answers"]))
            board = Board.from_position_text(key, k=RULES.k)
            cells = cells_from_labels(RULES, answers)
            write_puzzle(out, Puzzle(first["kind"], board, frozenset(cells), first["source"], first["depth"]))
            kept += 1
    print(f"kept {kept} of {len(runs[0])}", file=sys.stderr)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    found = commands.add_parser("candidates", help="write candidate positions")
    found.add_argument("--record", action="append", help="a match record (bench/match.py --record)")
    found.add_argument(
        "--hard-record", action="append", help="a match record, its positions whose win a quick search misses"
    )
    found.add_argument("--random-games", type=int, default=0, help="seeded random games to draw from")
    found.add_argument("--seed", type=int, default=1)
    found.add_argument("--out", required=True)
    labelling = commands.add_parser("label", help="label candidates (resumable)")
    labelling.add_argument("candidates")
    labelling.add_argument("--seed", type=int, required=True, help="picks the symmetry searched (mod 8)")
    labelling.add_argument("--out", required=True)
    merging = commands.add_parser("merge", help="keep the puzzles two labellings agree on")
    merging.add_argument("labels", nargs=2)
    merging.add_argument("--out", required=True)
    args = parser.parse_args()
    {"candidates": candidates_command, "label": label_command, "merge": merge_command}[args.command](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
