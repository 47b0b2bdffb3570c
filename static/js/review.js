// The game review's verdicts: each move of a game set against the server's answer for the
// position it was played in (GET /position).  No rules here: a verdict only compares the
// server's values, the position's (for the side to move) with the move played.

import { cellName } from "./cells.js";
import { moveBetween } from "./state.js";
import { listWords, t, tn } from "./words.js";

const MARK = { x: "X", o: "O" };
// How much a result is worth to the side that gets it (the order of Value, tictactoe/game/values.py).
const WORTH = { win: 2, draw: 1, loss: 0 };
// The alternatives named in a verdict; more are counted, not listed.
const NAMED = 3;

/** The moves of a game: [{index, row, col, by, before}] from its history (each position and the next). */
export function gameMoves(history) {
  const moves = [];
  for (let i = 1; i < history.length; i++) {
    const move = moveBetween(history[i - 1], history[i]);
    if (move) moves.push({ ...move, index: i, before: history[i - 1] });
  }
  return moves;
}

/**
 * A move's verdict from the server's answer for the position before it: {kind, before, after, keep}.
 * kind is "best", "slower" (same value, a slower win or a quicker loss), "mistake" (a worse value),
 * or "unproven" (the server could not prove the values); before and after are {value, plies};
 * keep names the moves that would have kept the position's value.
 */
export function verdict(answer, move) {
  const played = (answer.moves ?? []).find((m) => m.row === move.row && m.col === move.col);
  const before = { value: answer.value ?? null, plies: answer.plies ?? null };
  const after = { value: played?.value ?? null, plies: played?.plies ?? null };
  if (answer.proven === false || !before.value || !after.value) return { kind: "unproven", before, after, keep: [] };
  const keep = (answer.moves ?? []).filter((m) => m.value === before.value)
    .sort((a, b) => a.row - b.row || a.col - b.col).map((m) => cellName(m.row, m.col));
  if (WORTH[after.value] < WORTH[before.value]) return { kind: "mistake", before, after, keep };
  const best = (answer.best ?? []).some((m) => m.row === move.row && m.col === move.col);
  const samePace = after.value === "draw" || after.plies === before.plies;
  return { kind: best || samePace ? "best" : "slower", before, after, keep };
}

/** A value in words: "draw", "win in 3", "loss in 2", or "not proven". */
export function valueWords({ value, plies }) {
  if (!value) return t("not proven");
  if (value === "draw") return t("draw");
  if (value === "win") return plies == null ? t("win") : t("win in {plies}", { plies });
  return plies == null ? t("loss") : t("loss in {plies}", { plies });
}

/** The verdict in plain words, such as "The mistake: turned a draw into a loss — a1 or c3 would have held." */
export function verdictWords(result) {
  const { kind, before, after, keep } = result;
  if (kind === "unproven") return t("Not proven on this board: no verdict.");
  if (kind === "best") return t("Best.");
  if (kind === "slower") {
    return before.value === "win" ? t("Kept the win, but slower.") : t("Still a loss, but a quicker one.");
  }
  const named = keep.slice(0, NAMED);
  const others = keep.length - named.length;
  const list = listWords(named, "or");
  const moves = others > 0 ? tn("{moves} (or {count} other)", "{moves} (or {count} others)", others, { moves: list })
    : list;
  if (before.value === "draw") return t("The mistake: turned a draw into a loss — {moves} would have held.", { moves });
  return after.value === "draw" ? t("The mistake: turned a win into a draw — {moves} would have won.", { moves })
    : t("The mistake: turned a win into a loss — {moves} would have won.", { moves });
}

/** The start of a move's line: "3. X b2" (its number in the game, who played it, where). */
export function moveHead(move, number) {
  return `${number}. ${MARK[move.by]} ${cellName(move.row, move.col)}`;
}

/** One line of the review: "3. X b2 — draw → loss in 4. The mistake: …" (verdict null while loading). */
export function reviewLine(move, number, result) {
  const head = moveHead(move, number);
  if (!result) return t("{move} — checking…", { move: head });
  const values = t("{move} — {before} → {after}.",
    { move: head, before: valueWords(result.before), after: valueWords(result.after) });
  return `${values} ${verdictWords(result)}`;
}
