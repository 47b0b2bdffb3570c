"""A player's try at a puzzle, judged against its proof, and said in words.

The player sends the moves it has played in the puzzle so far, the new one
last; every earlier one must be the solution's (the puzzle goes on only along
its solution).  The new move is right when it is the step's move (proven the
only one that keeps the value); then the opponent's answer comes with it, or
the puzzle is solved.  A wrong move gets its refutation: the opponent's
answer, and what the move gives up, in words::

    Not a3: it blocks the fork at a3, but X answers c3, which blocks the win
    at c3, and X wins. The rule says make two in a row at b2 or a3; here only
    the centre keeps the draw. Try again.

(the two-step save ``..x / x.. / .o.``, O to move: ``tests/test_puzzles.py``).

Nothing is searched here: every answer was proven when the puzzle was drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..game.board import Board, other
from ..game.errors import IllegalMoveError
from ..game.notation import cell_label
from ..game.rules import Cell
from ..game.values import Value
from .puzzles import Puzzle, Refutation, Step, Task
from .reasons import Deed, Reason, RuleAdvice, move_reasons, rule_advice

MARK = {"x": "X", "o": "O"}


@dataclass(frozen=True)
class Attempt:
    """What a move did in a puzzle.

    ``correct``: it was the step's move (with ``revealed``: shown because the
    player asked).  ``solved``: it was the last step.  ``reply``: the
    opponent's answer in the solution, played (None when wrong or solved).
    ``board``: the position the player faces now (after the reply; before the
    move when wrong).  ``refutation``: the opponent's answer to a wrong move
    (None when the move ends the game or no answer is known).  ``line``: once
    solved, the rest of the game the proof shows.  ``words``: all of it in a
    sentence or three.
    """

    move: Cell
    correct: bool
    revealed: bool
    solved: bool
    reply: Cell | None
    board: Board
    refutation: Cell | None
    line: tuple[Cell, ...]
    words: str


def puzzle_goal(puzzle: Puzzle) -> str:
    """What the puzzle asks, in words: "X to play and win", "O to play and save the draw"."""
    side = MARK[puzzle.player]
    if puzzle.task == Task.DRAW:
        return f"{side} to play and save the draw"
    if puzzle.within is not None:
        return f"{side} to play and win within {_moves(puzzle.within)}"
    return f"{side} to play and win"


def judge(puzzle: Puzzle, moves: Sequence[Cell], reveal: bool = False) -> Attempt:
    """Judge the last of ``moves`` (the player's moves in the puzzle so far), or with ``reveal`` give
    the solution's next move after all of them.

    Raises ``IllegalMoveError`` when an earlier move is not the solution's, when
    the puzzle is already solved, or when the move is not a legal one there.
    """
    if not reveal and not moves:
        raise IllegalMoveError("moves is empty: send the moves played in the puzzle, the new one last")
    accepted = list(moves) if reveal else list(moves[:-1])
    for index, (cell, step) in enumerate(zip(accepted, puzzle.steps, strict=False)):
        if cell != step.move:
            raise IllegalMoveError(
                f"move {index + 1} ({_name(puzzle, cell)}) is not the puzzle's: send only the moves it"
                " accepted, then the new one"
            )
    if len(accepted) >= len(puzzle.steps):
        raise IllegalMoveError(
            f"the puzzle is solved after {_moves(len(puzzle.steps))}: there is no move {len(accepted) + 1}"
        )
    board = puzzle.position_after(len(accepted))
    step = puzzle.steps[len(accepted)]
    move = step.move if reveal else moves[-1]
    if not 0 <= move < board.rules.cells:
        raise IllegalMoveError(f"cell {move} is off the {board.rules} board")
    if not board.empty & board.geometry.bits[move]:
        raise IllegalMoveError(f"{_name(puzzle, move)} is taken: play an empty cell")
    reasons = move_reasons(board)
    rule = _failed_rule(puzzle, board, step)
    if move == step.move:
        last = len(accepted) == len(puzzle.steps) - 1
        return _right(puzzle, board, step, reasons.get(move), rule, reveal, last)
    return _wrong(puzzle, board, step.wrong[move], move, reasons.get(move), rule)


def _right(
    puzzle: Puzzle,
    board: Board,
    step: Step,
    reason: Reason | None,
    rule: RuleAdvice | None,
    reveal: bool,
    last: bool,
) -> Attempt:
    mover = MARK[board.to_move]
    name = _name(puzzle, step.move)
    if reveal:
        head = f"The move is {name}: it {reason.words}." if reason else f"The move is {name}."
    else:
        head = f"Right: {name} {reason.words}." if reason else f"Right: {name}."
    # Where the rule ladder is wrong, the step's lesson: what it says, and what holds instead.
    lesson = f" {rule.words}" if rule else ""
    board.play(step.move)
    if last:
        # A move that ends the game says so itself; one that does not, what it has made sure of.
        outcome = "Solved." if board.is_over() else _outcome(puzzle, mover)
        words = f"{head}{lesson} {outcome}"
        return Attempt(step.move, True, reveal, True, None, board, None, puzzle.line, words)
    assert step.reply is not None  # every step but the last has the answer the solution goes on with
    answer = f"{MARK[board.to_move]} answers {_name(puzzle, step.reply)}{_which(board, step.reply)}."
    board.play(step.reply)
    words = f"{head}{lesson} {answer} Find the next move."
    return Attempt(step.move, True, reveal, False, step.reply, board, None, (), words)


def _wrong(
    puzzle: Puzzle, board: Board, why: Refutation, move: Cell, reason: Reason | None, rule: RuleAdvice | None
) -> Attempt:
    opponent = MARK[other(board.to_move)]
    head = f"Not {_name(puzzle, move)}"
    gives = _gives(puzzle, why, opponent)
    after = board.copy()
    after.play(move)
    if why.reply is None:
        what = f"it {reason.words}, and {gives}" if reason else gives
    else:
        answered = move_reasons(after).get(why.reply)
        if answered is not None and answered.deed == Deed.WIN:
            answer = f"{opponent} wins at {_name(puzzle, why.reply)}"
        else:
            answer = f"{opponent} answers {_name(puzzle, why.reply)}{_which(after, why.reply)}, and {gives}"
        what = f"it {reason.words}, but {answer}" if reason else answer
    # The rule's words where the rule named this very move: the lesson of the step.
    told = f" {rule.words}" if rule and move in rule.moves else ""
    words = f"{head}: {what}.{told} Try again."
    return Attempt(move, False, False, False, None, board, why.reply, (), words)


def _gives(puzzle: Puzzle, why: Refutation, opponent: str) -> str:
    """What a wrong move gives up: "X wins", "the game is only a draw", "there is no win within 2 moves"."""
    if why.value == Value.LOSS:
        return f"{opponent} wins"
    if why.value == Value.DRAW:
        return "the game is only a draw" if puzzle.task == Task.WIN else "the game is a draw"
    if puzzle.within is not None:
        return f"there is no win within {_moves(puzzle.within)} any more"
    return "the value is lost"


def _outcome(puzzle: Puzzle, mover: str) -> str:
    """The sentence that closes a solved puzzle."""
    if puzzle.task == Task.DRAW:
        return "Solved: the draw is safe from here."
    if puzzle.within is not None:
        return f"Solved: {mover} wins within {_moves(puzzle.within)}, whatever the answer."
    return f"Solved: {mover} wins from here, whatever the answer."


def _failed_rule(puzzle: Puzzle, board: Board, step: Step) -> RuleAdvice | None:
    """On 3x3, what the rule ladder says at this step when some move it names gives up the value."""
    kept = Value.WIN if puzzle.task == Task.WIN else Value.DRAW
    values = {cell: why.value for cell, why in step.wrong.items() if why.value is not None}
    values[step.move] = kept
    said = rule_advice(board, values)
    return None if said is None or said.holds else said


def _which(board: Board, cell: Cell) -> str:
    """ ", which makes a fork": the reason of the move ``cell`` on ``board``, or "" when it has none."""
    reason = move_reasons(board).get(cell)
    return f", which {reason.words}" if reason else ""


def _name(puzzle: Puzzle, cell: Cell) -> str:
    return cell_label(puzzle.rules, cell)


def _moves(count: int) -> str:
    return "1 move" if count == 1 else f"{count} moves"
