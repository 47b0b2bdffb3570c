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
from ..game.phrase import Phrase, Sentences
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
    words: Sentences


def puzzle_goal(puzzle: Puzzle) -> Phrase:
    """What the puzzle asks, in words: "X to play and win", "O to play and save the draw"."""
    side = MARK[puzzle.player]
    if puzzle.task == Task.DRAW:
        return Phrase("{side} to play and save the draw", side=side)
    if puzzle.within is not None:
        return Phrase(
            "{side} to play and win within {count} move",
            "{side} to play and win within {count} moves",
            side=side,
            count=puzzle.within,
        )
    return Phrase("{side} to play and win", side=side)


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
    head: Phrase
    if reveal:
        head = (
            Phrase("The move is {cell}: it {reason}.", cell=name, reason=reason.words)
            if reason
            else Phrase("The move is {cell}.", cell=name)
        )
    elif reason:
        head = Phrase("Right: {cell} {reason}.", cell=name, reason=reason.words)
    else:
        head = Phrase("Right: {cell}.", cell=name)
    # Where the rule ladder is wrong, the step's lesson: what it says, and what holds instead.
    lesson = rule.words if rule else None
    board.play(step.move)
    if last:
        # A move that ends the game says so itself; one that does not, what it has made sure of.
        outcome = Phrase("Solved.") if board.is_over() else _outcome(puzzle, mover)
        return Attempt(
            step.move, True, reveal, True, None, board, None, puzzle.line, Sentences(head, lesson, outcome)
        )
    assert step.reply is not None  # every step but the last has the answer the solution goes on with
    replier, reply = MARK[board.to_move], _name(puzzle, step.reply)
    which = _reason(board, step.reply)
    answer = (
        Phrase("{side} answers {cell}, which {reason}.", side=replier, cell=reply, reason=which)
        if which
        else Phrase("{side} answers {cell}.", side=replier, cell=reply)
    )
    board.play(step.reply)
    words = Sentences(head, lesson, answer, Phrase("Find the next move."))
    return Attempt(step.move, True, reveal, False, step.reply, board, None, (), words)


def _wrong(
    puzzle: Puzzle, board: Board, why: Refutation, move: Cell, reason: Reason | None, rule: RuleAdvice | None
) -> Attempt:
    opponent = MARK[other(board.to_move)]
    name = _name(puzzle, move)
    gives = _gives(puzzle, why, opponent)
    after = board.copy()
    after.play(move)
    if why.reply is None:
        head = (
            Phrase("Not {cell}: it {reason}, and {gives}.", cell=name, reason=reason.words, gives=gives)
            if reason
            else Phrase("Not {cell}: {gives}.", cell=name, gives=gives)
        )
    else:
        answered = move_reasons(after).get(why.reply)
        reply = _name(puzzle, why.reply)
        answer: Phrase
        if answered is not None and answered.deed == Deed.WIN:
            answer = Phrase("{side} wins at {cell}", side=opponent, cell=reply)
        elif answered is not None:
            answer = Phrase(
                "{side} answers {cell}, which {reason}, and {gives}",
                side=opponent,
                cell=reply,
                reason=answered.words,
                gives=gives,
            )
        else:
            answer = Phrase("{side} answers {cell}, and {gives}", side=opponent, cell=reply, gives=gives)
        head = (
            Phrase("Not {cell}: it {reason}, but {answer}.", cell=name, reason=reason.words, answer=answer)
            if reason
            else Phrase("Not {cell}: {answer}.", cell=name, answer=answer)
        )
    # The rule's words where the rule named this very move: the lesson of the step.
    told = rule.words if rule and move in rule.moves else None
    words = Sentences(head, told, Phrase("Try again."))
    return Attempt(move, False, False, False, None, board, why.reply, (), words)


def _gives(puzzle: Puzzle, why: Refutation, opponent: str) -> Phrase:
    """What a wrong move gives up: "X wins", "the game is only a draw", "there is no win within 2 moves"."""
    if why.value == Value.LOSS:
        return Phrase("{side} wins", side=opponent)
    if why.value == Value.DRAW:
        return Phrase("the game is only a draw") if puzzle.task == Task.WIN else Phrase("the game is a draw")
    if puzzle.within is not None:
        return Phrase(
            "there is no win within {count} move any more",
            "there is no win within {count} moves any more",
            count=puzzle.within,
        )
    return Phrase("the value is lost")


def _outcome(puzzle: Puzzle, mover: str) -> Phrase:
    """The sentence that closes a solved puzzle."""
    if puzzle.task == Task.DRAW:
        return Phrase("Solved: the draw is safe from here.")
    if puzzle.within is not None:
        return Phrase(
            "Solved: {side} wins within {count} move, whatever the answer.",
            "Solved: {side} wins within {count} moves, whatever the answer.",
            side=mover,
            count=puzzle.within,
        )
    return Phrase("Solved: {side} wins from here, whatever the answer.", side=mover)


def _failed_rule(puzzle: Puzzle, board: Board, step: Step) -> RuleAdvice | None:
    """On 3x3, what the rule ladder says at this step when some move it names gives up the value."""
    kept = Value.WIN if puzzle.task == Task.WIN else Value.DRAW
    values = {cell: why.value for cell, why in step.wrong.items() if why.value is not None}
    values[step.move] = kept
    said = rule_advice(board, values)
    return None if said is None or said.holds else said


def _reason(board: Board, cell: Cell) -> Phrase | None:
    """The reason of the move ``cell`` on ``board`` ("makes a fork"), or None when it has none."""
    reason = move_reasons(board).get(cell)
    return reason.words if reason else None


def _name(puzzle: Puzzle, cell: Cell) -> str:
    return cell_label(puzzle.rules, cell)


def _moves(count: int) -> str:
    return "1 move" if count == 1 else f"{count} moves"
