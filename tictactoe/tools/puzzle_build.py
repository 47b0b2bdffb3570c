"""The puzzles' offline half: draw positions, prove each step's one move, write ``tictactoe/data/``.

``python -m tictactoe puzzles build|verify|stats`` runs these
(``tictactoe.tools.puzzle_commands``); what the server reads is
``tictactoe.lessons.puzzles``, which never searches.

Where the positions come from, board by board:

- 3x3: every non-terminal position a game reaches, one per symmetry class;
- 4x4 and 5x5 with k = 4: the positions of seeded games whose moves are
  random half the time and the solver's best the other half;
- 6x6 with k = 4: the opening book's positions (the solver's proofs, kept
  in the book: no position of 6x6 past the book is proven in a second);
- 15x15 five in a row: positions where the threat search proves a forced
  win, and the positions along that win (``tictactoe.tactics.horizon`` proves
  each step's move the only one that wins within the puzzle's horizon).

On a board the solver proves (3x3 to 6x6), a position is a puzzle when it is
not lost, has two legal moves or more, and exactly one of them keeps its
value; the solution goes on while the player's next position has exactly one
such move too.  Above 3x3, a puzzle whose first move wins at once or blocks
the opponent's win is left out: it asks nothing a glance does not see.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from ..book.lookup import board_of_key, book_answer, book_for
from ..game.board import Board
from ..game.notation import cell_label
from ..game.rules import Cell, Rules, one_bits
from ..game.values import MoveValue, Value
from ..lessons.ladder import advice, teaches
from ..lessons.puzzles import Puzzle, Refutation, Step, Task, puzzle_id
from ..lessons.reasons import TACTICS, Deed, move_reasons
from ..search.solver import Solver
from ..tactics.horizon import MAX_HORIZON, Horizon
from ..tactics.threats import find_win, threat_win
from .book_build import positions_by_stones

# Every legal move's value for the side to move, or None where it is not known (past a book).
ValuesOf = Callable[[Board], dict[Cell, MoveValue] | None]
# The deeds a glance sees: a first move that does one of these makes no puzzle above 3x3.
OBVIOUS = frozenset({Deed.WIN, Deed.BLOCK})
# A solver's table while it proves puzzles (entries): enough for 5x5 positions' subtrees.
TABLE_LIMIT = 1_000_000
THREE_BY_THREE = Rules(3, 3, 3)
THREAT_MIN_K = 4  # puzzles of wins within a horizon: fours and threes need k >= 4
THREATS_SOURCE = "a forced win the threat search proves"
# Moves played along a threat win before giving up on reaching the horizon, and the nodes each
# threat search of the walk may take.
WALK_LIMIT = 12
WALK_NODES = 200_000
EVERY_POSITION = "every 3x3 position"


def proven_values(rules: Rules) -> ValuesOf:
    """Every move's value from the opening book, else from a solver whose table is kept between calls."""
    solver = Solver(rules, table_limit=TABLE_LIMIT)

    def values_of(board: Board) -> dict[Cell, MoveValue] | None:
        answer = book_answer(board, all_moves=True) or solver.solve(board, all_moves=True)
        return answer.move_values

    return values_of


def book_values(board: Board) -> dict[Cell, MoveValue] | None:
    """Every move's value from the shipped opening book of the board's rules, None when it is not in it."""
    answer = book_answer(board, all_moves=True)
    return None if answer is None else answer.move_values


# -- one puzzle ---------------------------------------------------------------------------


def solver_puzzle(board: Board, values_of: ValuesOf, source: str) -> Puzzle | None:
    """The puzzle of ``board`` when exactly one of its moves keeps its value (not a loss), else None.

    The solution's steps go on while the opponent has a best answer after which
    the player again has exactly one such move; the line is the rest of a best
    game from there, as far as ``values_of`` knows it.
    """
    values = values_of(board) if not board.is_over() else None
    if not values or len(values) < 2:
        return None
    start = _value(values)
    task_value = start.value
    if task_value == Value.LOSS or len(_keepers(values, task_value)) != 1:
        return None
    steps: list[Step] = []
    position = board.copy()
    line: list[Cell] = []
    while True:
        (move,) = _keepers(values, task_value)
        wrong = {
            cell: _refutation(position, cell, value, values_of)
            for cell, value in values.items()
            if cell != move
        }
        position.play(move)
        answers = None if position.is_over() else values_of(position)
        if not answers:
            steps.append(Step(move, None, wrong))
            break
        reply, next_values = _reply(position, answers, task_value, values_of)
        if next_values is None:
            steps.append(Step(move, None, wrong))
            line = continuation(position, values_of)
            break
        steps.append(Step(move, reply, wrong))
        position.play(reply)
        values = next_values
    task = Task.WIN if task_value == Value.WIN else Task.DRAW
    return finish(board, task, None, steps, line, start.plies, source)


def finish(
    board: Board,
    task: Task,
    within: int | None,
    steps: list[Step],
    line: list[Cell],
    plies: int | None,
    source: str,
) -> Puzzle:
    """The puzzle of these steps, with its id, its tempting wrong moves and its difficulty."""
    rules = board.rules
    position = board.position_text()
    tempting = 0
    walk = board.copy()
    first_deed = None
    for step in steps:
        reasons = move_reasons(walk)
        named = set(advice(walk).moves) if teaches(rules) else set()
        reason = reasons.get(step.move)
        if first_deed is None:
            first_deed = reason.deed if reason else None
        for cell in step.wrong:
            why = reasons.get(cell)
            if cell in named or (why is not None and why.deed in TACTICS):
                tempting += 1
        walk.play(step.move)
        if step.reply is not None:
            walk.play(step.reply)
    quiet = first_deed not in OBVIOUS
    return Puzzle(
        id=puzzle_id(rules, position, task, within),
        rules=rules,
        position=position,
        task=task,
        within=within,
        steps=tuple(steps),
        line=tuple(line),
        plies=plies,
        tempting=tempting,
        difficulty=difficulty(len(steps), tempting, quiet),
        source=source,
    )


def difficulty(moves: int, tempting: int, quiet: bool) -> int:
    """1 to 5: two points a move to find after the first, a point a tempting wrong move (up to four),
    a point when the first move neither wins nor blocks; then a level every two points."""
    points = 2 * (moves - 1) + min(tempting, 4) + int(quiet)
    return 1 + min(4, points // 2)


def continuation(board: Board, values_of: ValuesOf) -> list[Cell]:
    """A best game from ``board`` to its end (the most central of the best moves each time), as far
    as ``values_of`` knows the values."""
    position, line = board.copy(), []
    while not position.is_over():
        values = values_of(position)
        if not values:
            break
        move = _central(position, _best(values))
        position.play(move)
        line.append(move)
    return line


def _reply(
    position: Board, answers: dict[Cell, MoveValue], task_value: Value, values_of: ValuesOf
) -> tuple[Cell, dict[Cell, MoveValue] | None]:
    """The opponent's answer: a best one after which the player again has exactly one move keeping
    ``task_value`` (and the player's values then), else the most central best one (and None)."""
    best = _ordered(position, _best(answers))
    for reply in best:
        after = position.copy()
        after.play(reply)
        if after.is_over():
            continue
        values = values_of(after)
        if values and len(values) >= 2 and len(_keepers(values, task_value)) == 1:
            return reply, values
    return best[0], None


def _refutation(position: Board, cell: Cell, value: MoveValue, values_of: ValuesOf) -> Refutation:
    """Why ``cell`` is wrong on ``position``: the opponent's most central best answer, and its value."""
    after = position.copy()
    after.play(cell)
    answers = None if after.is_over() else values_of(after)
    reply = _central(after, _best(answers)) if answers else None
    return Refutation(reply, value.value, value.plies)


def _value(values: dict[Cell, MoveValue]) -> MoveValue:
    """The position's value: its best move's."""
    return max(values.values(), key=MoveValue.rank)


def _best(values: dict[Cell, MoveValue]) -> list[Cell]:
    best = _value(values).rank()
    return [cell for cell, value in values.items() if value.rank() == best]


def _keepers(values: dict[Cell, MoveValue], value: Value) -> list[Cell]:
    return [cell for cell, move_value in values.items() if move_value.value == value]


def _ordered(board: Board, cells: Iterable[Cell]) -> list[Cell]:
    """The cells, most central first (the board's static move order)."""
    rank = {cell: index for index, cell in enumerate(board.geometry.order)}
    return sorted(cells, key=rank.__getitem__)


def _central(board: Board, cells: Iterable[Cell]) -> Cell:
    return _ordered(board, cells)[0]


# -- many puzzles ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Progress:
    """Where a drawing is: positions tried, of how many (None: not known), and puzzles found."""

    tried: int
    total: int | None
    found: int


Report = Callable[[Progress], None]


def every_three_by_three(report: Report | None = None) -> list[Puzzle]:
    """The puzzles of every non-terminal 3x3 position a game reaches, one per symmetry class."""
    positions = [board for _, level in positions_by_stones(THREE_BY_THREE, 8) for board in level.values()]
    return _draw(positions, proven_values(THREE_BY_THREE), EVERY_POSITION, len(positions), report)


def from_games(
    rules: Rules, games: int, seed: int, stones: range, cap: int, report: Report | None = None
) -> list[Puzzle]:
    """Puzzles of the positions of ``games`` seeded games (each move random or best, even odds) with
    ``stones`` stones, leaving out the obvious ones; at most ``cap`` a task, the first by id."""
    values_of = proven_values(rules)

    def positions() -> Iterator[Board]:
        rng = random.Random(seed)
        seen: set[str] = set()
        for _ in range(games):
            board = Board(rules)
            while not board.is_over() and board.stones < stones.stop:
                values = values_of(board)
                assert values is not None
                moves = list(values) if rng.random() < 0.5 else _best(values)
                board.play(rng.choice(sorted(moves)))
                canon = board.canonical()[0]
                if board.stones in stones and not board.is_over() and canon.position_text() not in seen:
                    seen.add(canon.position_text())
                    yield canon

    found = _draw(positions(), values_of, f"seeded games, seed {seed}", None, report, leave_obvious=True)
    return _capped(found, cap)


def from_book(rules: Rules, report: Report | None = None) -> list[Puzzle]:
    """Puzzles of the shipped opening book's positions, proven by the book alone (obvious ones left out)."""
    book = book_for(rules)
    if book is None:
        raise ValueError(f"there is no opening book for {rules}")
    positions = [board_of_key(rules, key) for key in sorted(book.entries)]
    return _draw(positions, book_values, "the opening book", len(positions), report, leave_obvious=True)


def _draw(
    positions: Iterable[Board],
    values_of: ValuesOf,
    source: str,
    total: int | None,
    report: Report | None,
    leave_obvious: bool = False,
) -> list[Puzzle]:
    found: list[Puzzle] = []
    for tried, board in enumerate(positions, 1):
        puzzle = solver_puzzle(board, values_of, source)
        if puzzle is not None and not (leave_obvious and obvious(puzzle)):
            found.append(puzzle)
        if report is not None:
            report(Progress(tried, total, len(found)))
    return found


def obvious(puzzle: Puzzle) -> bool:
    """Whether the puzzle's first move wins at once or blocks the opponent's win."""
    reason = move_reasons(puzzle.board()).get(puzzle.steps[0].move)
    return reason is not None and reason.deed in OBVIOUS


def _capped(puzzles: list[Puzzle], cap: int) -> list[Puzzle]:
    """At most ``cap`` puzzles of each task, the first by id (a fixed, even draw of them)."""
    kept: list[Puzzle] = []
    for task in Task:
        kept += sorted((p for p in puzzles if p.task == task), key=lambda p: p.id)[:cap]
    return kept


# -- five in a row: wins within a horizon ------------------------------------------------------


def horizon_puzzle(board: Board, search: Horizon, source: str) -> Puzzle | None:
    """The puzzle of ``board`` when the side to move wins within ``MAX_HORIZON`` moves and exactly one
    move does so within the fewest (the horizon of the puzzle), else None.

    Each step's move is the only one that wins within the moves left, every
    other move has a reply after which no win is left within them (both
    searched exhaustively by ``search``), and the steps go on while the
    defender has an answer after which that holds again.
    """
    if board.is_over() or board.rules.k < THREAT_MIN_K:
        return None
    me, opp = board.sides()
    within = next((n for n in range(1, MAX_HORIZON + 1) if search.wins(me, opp, n)), None)
    if within is None or len(search.winning_moves(me, opp, within)) != 1:
        return None
    cell_of = board.geometry.cell_of
    steps: list[Step] = []
    line: list[Cell] = []
    left = within
    while True:
        (move,) = search.winning_moves(me, opp, left)
        wrong = {}
        for bit in one_bits(board.geometry.full & ~(me | opp) & ~move):
            # At the last move the horizon is spent: the reply blocks the win that comes too late.
            reply = search.refutation(me | bit, opp, max(left - 1, 1))
            wrong[cell_of[bit]] = Refutation(None if reply is None else cell_of[reply], None, None)
        me |= move
        if board.geometry.has_line(me) or left == 1:
            steps.append(Step(cell_of[move], None, wrong))
            break
        going_on = next(
            (r for r in search.replies(me, opp) if len(search.winning_moves(me, opp | r, left - 1)) == 1),
            None,
        )
        if going_on is None:
            steps.append(Step(cell_of[move], None, wrong))
            line = [cell_of[bit] for bit in search.line(me, opp, left - 1)]
            break
        steps.append(Step(cell_of[move], cell_of[going_on], wrong))
        opp |= going_on
        left -= 1
    return finish(board, Task.WIN, within, steps, line, 2 * within - 1, source)


def from_threats(rules: Rules, boards: Iterable[Board], report: Report | None = None) -> list[Puzzle]:
    """Puzzles of five-in-a-row positions where the threat search proves a win for the side to move.

    Where the win takes more than ``MAX_HORIZON`` moves, the threat search's
    move is played, then the defender's answer after which the attacker's
    threat win is longest, until a position within the horizon is reached:
    its puzzle, if its move is the only one, is kept (obvious ones left out).
    """
    search = Horizon(rules)
    found: dict[str, Puzzle] = {}
    boards = list(boards)
    for tried, board in enumerate(boards, 1):
        position = board.copy()
        for _ in range(WALK_LIMIT):
            search.known.clear()  # the table of one position's searches: bounded, and not kept
            puzzle = horizon_puzzle(position, search, THREATS_SOURCE)
            if puzzle is not None:
                if not obvious(puzzle):
                    found.setdefault(puzzle.id, puzzle)
                break
            me, opp = position.sides()
            if search.wins(me, opp, MAX_HORIZON):
                break  # within the horizon, but more than one move wins: no puzzle on this line
            if not _walk(position):
                break
        if report is not None:
            report(Progress(tried, len(boards), len(found)))
    return list(found.values())


def _walk(position: Board) -> bool:
    """Play the threat search's winning move and the defender's longest-lasting answer; False when the
    search finds no win (within its node limit) or no answer leaves one."""
    win = find_win(position, max_nodes=WALK_NODES)
    if win is None:
        return False
    position.play(win.move)
    if position.is_over():
        return False
    lasting: tuple[int, Cell] | None = None
    for reply in _answers(position, win.cells):
        after = position.copy()
        after.play(reply)
        if after.is_over():
            continue
        me, opp = after.sides()
        again = threat_win(after.rules, me, opp, max_nodes=WALK_NODES)
        if again is not None and (lasting is None or again.plies > lasting[0]):
            lasting = (again.plies, reply)
    if lasting is None:
        return False
    position.play(lasting[1])
    return True


def _answers(position: Board, cells: int) -> list[Cell]:
    """The defender's answers worth trying after a threat: the block of a winning cell if there is one,
    else the empty cells of the threat's proof."""
    geometry = position.geometry
    attacker = position.stones_of("o" if position.to_move == "x" else "x")
    wins = geometry.winning_cells(attacker, position.empty)
    return geometry.cells_of(wins if wins else cells & position.empty)


# -- proving them again ---------------------------------------------------------------------------


def verify(puzzle: Puzzle, values_of: ValuesOf | None = None, replies: bool = True) -> list[str]:
    """What is wrong with the puzzle's proof, proven again: [] when every step holds.

    On the boards the solver proves, ``values_of`` (default: ``proven_values``)
    gives every move's value at each step: the step's move must be the only one
    that keeps the task's value, each wrong move's value must be the one kept,
    the solution's answers must be best ones, and (``replies``) each wrong
    move's refutation must be a best answer too.  Five in a row's wins within a
    horizon are searched again exhaustively (``Horizon``).
    """
    if puzzle.within is not None:
        return _verify_horizon(puzzle, Horizon(puzzle.rules))
    values_of = values_of or proven_values(puzzle.rules)
    kept = Value.WIN if puzzle.task == Task.WIN else Value.DRAW
    board = puzzle.board()
    problems: list[str] = []
    for index, step in enumerate(puzzle.steps, 1):
        values = None if board.is_over() else values_of(board)
        if not values:
            return [*problems, f"step {index}: the position's values are not known"]
        keepers = _keepers(values, kept)
        if keepers != [step.move]:
            problems.append(
                f"step {index}: {_names(board, keepers)} keep the {kept}, not {_names(board, [step.move])}"
            )
        if set(step.wrong) != set(values) - {step.move}:
            problems.append(f"step {index}: the wrong moves are not every other legal move")
        for cell, why in step.wrong.items():
            known = values.get(cell)
            if known is None or (why.value, why.plies) != (known.value, known.plies):
                problems.append(f"step {index}: {_names(board, [cell])} is not worth what the puzzle says")
            elif replies and why.reply is not None and not _best_answer(board, cell, why.reply, values_of):
                problems.append(
                    f"step {index}: {_names(board, [why.reply])} is not a best answer"
                    f" to {_names(board, [cell])}"
                )
        board.play(step.move)
        if step.reply is not None:
            answers = None if board.is_over() else values_of(board)
            if not answers or step.reply not in answers or step.reply not in _best(answers):
                problems.append(f"step {index}: the answer {_names(board, [step.reply])} is not a best one")
                return problems
            board.play(step.reply)
    return problems


def _best_answer(board: Board, cell: Cell, reply: Cell, values_of: ValuesOf) -> bool:
    """Whether ``reply`` is one of the opponent's best answers to ``cell`` on ``board``."""
    after = board.copy()
    after.play(cell)
    if after.is_over():
        return False
    answers = values_of(after)
    return answers is not None and reply in _best(answers)


def _verify_horizon(puzzle: Puzzle, search: Horizon) -> list[str]:
    """``verify`` for a win within a horizon: every step's move searched again against every other."""
    board = puzzle.board()
    me, opp = board.sides()
    bits, full = board.geometry.bits, board.geometry.full
    left = puzzle.within
    assert left is not None
    problems: list[str] = []
    if left > 1 and search.wins(me, opp, left - 1):
        problems.append(f"the win comes within {left - 1} moves: the puzzle's horizon is not the fewest")
    for index, step in enumerate(puzzle.steps, 1):
        if left < 1:
            return [*problems, f"step {index}: past the horizon"]
        winners = search.winning_moves(me, opp, left)
        if winners != [bits[step.move]]:
            problems.append(
                f"step {index}: {len(winners)} moves win within {left},"
                f" not {_names(board, [step.move])} alone"
            )
        empty = full & ~(me | opp)
        if {bits[cell] for cell in step.wrong} != set(one_bits(empty & ~bits[step.move])):
            problems.append(f"step {index}: the wrong moves are not every other legal move")
        for cell, why in step.wrong.items():
            reply = None if why.reply is None else bits[why.reply]
            if reply is None or not empty & ~bits[cell] & reply:
                problems.append(f"step {index}: {_names(board, [cell])} has no answer that refutes it")
            elif search.wins(me | bits[cell], opp | reply, max(left - 1, 1)):
                problems.append(f"step {index}: after {_names(board, [cell])} the answer does not refute it")
        me |= bits[step.move]
        if step.reply is not None:
            opp |= bits[step.reply]
        left -= 1
    return problems


def _names(board: Board, cells: Iterable[Cell]) -> str:
    return ", ".join(cell_label(board.rules, cell) for cell in cells) or "no move"


@dataclass(frozen=True)
class Agreement:
    """The rule ladder against the solver on every non-terminal 3x3 position a game reaches: how many
    positions, in how many every move it names keeps the value, in how many some move does, the
    positions where it fails, by rule; and, of the same sweep, the positions not lost where exactly
    one move does not lose (the published 1,838)."""

    positions: int
    every: int
    some: int
    failures: dict[str, int]
    one_not_losing: int


def ladder_agreement() -> Agreement:
    """The rule ladder's agreement with the solver, over all 4,520 non-terminal 3x3 positions (not
    one per symmetry class: each position a game reaches counts)."""
    solver = Solver(THREE_BY_THREE)
    seen: set[tuple[int, int]] = set()
    boards = [Board(THREE_BY_THREE)]
    positions = every = some = one_not_losing = 0
    failures: dict[str, int] = {}
    while boards:
        board = boards.pop()
        if (board.x, board.o) in seen or board.is_over():
            continue
        seen.add((board.x, board.o))
        values = solver.solve(board, all_moves=True).move_values
        assert values is not None
        said = advice(board)
        value = _value(values).value
        keep = set(_keepers(values, value))
        positions += 1
        every += set(said.moves) <= keep
        some += bool(set(said.moves) & keep)
        if not set(said.moves) <= keep:
            failures[said.rung] = failures.get(said.rung, 0) + 1
        if value != Value.LOSS:
            one_not_losing += sum(v.value != Value.LOSS for v in values.values()) == 1
        for cell in board.legal_moves():
            child = board.copy()
            child.play(cell)
            boards.append(child)
    return Agreement(positions, every, some, failures, one_not_losing)
