// review.js: each move of a game set against the server's answer (GET /position) for the
// position it was played in.  The answers here are written by hand in the API's shape:
// {value, plies, proven, moves: [{row, col, value, plies}], best: [{row, col}]}, values
// from the side to move's point of view.

import "./server-sets.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  gameMoves, moveHead, reasonWords, reviewLine, valueWords, verdict, verdictWords,
} from "../../static/js/review.js";

test("gameMoves: each move with its index, side and the position before it", () => {
  const history = [["...", "...", "..."], ["...", ".x.", "..."], ["o..", ".x.", "..."]];
  assert.deepEqual(gameMoves(history), [
    { row: 1, col: 1, by: "x", index: 1, before: ["...", "...", "..."] },
    { row: 0, col: 0, by: "o", index: 2, before: ["...", ".x.", "..."] },
  ]);
});

test("gameMoves: no moves on an empty board, and a repeated position is skipped", () => {
  assert.deepEqual(gameMoves([["...", "...", "..."]]), []);
  assert.deepEqual(gameMoves([]), []);
  const same = [["...", "...", "..."], ["...", "...", "..."], ["x..", "...", "..."]];
  assert.deepEqual(gameMoves(same).map((move) => move.index), [2]);
});

test("gameMoves: a full 3x3 game has nine moves, X and O in turn", () => {
  //  x o x
  //  x o o
  //  o x x
  const order = [[0, 0], [0, 1], [0, 2], [1, 1], [1, 0], [2, 0], [2, 1], [1, 2], [2, 2]];
  const history = [["...", "...", "..."]];
  for (const [i, [row, col]] of order.entries()) {
    const board = history[history.length - 1];
    const mark = i % 2 === 0 ? "x" : "o";
    history.push(board.map((text, r) => (r === row ? text.slice(0, col) + mark + text.slice(col + 1) : text)));
  }
  assert.deepEqual(history[9], ["xox", "xoo", "oxx"]);
  const moves = gameMoves(history);
  assert.equal(moves.length, 9);
  assert.deepEqual(moves.map((move) => move.by).join(""), "xoxoxoxox");
  assert.deepEqual(moves.map(({ row, col }) => [row, col]), order);
});

// X to move on  x . .   in this made-up answer a2, a3 and c3 keep the draw and c1 loses in 4
//               . o .   (the other cells are left out of it).
//               . . .
const drawnAnswer = {
  proven: true, value: "draw", plies: 6,
  moves: [
    { row: 0, col: 2, value: "loss", plies: 4 },
    { row: 2, col: 0, value: "draw", plies: 6 },
    { row: 2, col: 2, value: "draw", plies: 6 },
    { row: 1, col: 0, value: "draw", plies: 6 },
  ],
  best: [{ row: 2, col: 0 }, { row: 2, col: 2 }, { row: 1, col: 0 }],
};

test("verdict: a move that keeps the value is best", () => {
  const result = verdict(drawnAnswer, { row: 2, col: 2 });
  assert.equal(result.kind, "best");
  assert.deepEqual(result.before, { value: "draw", plies: 6 });
  assert.deepEqual(result.after, { value: "draw", plies: 6 });
});

test("verdict: a move to a worse value is a mistake, naming the moves that kept it in board order", () => {
  const result = verdict(drawnAnswer, { row: 0, col: 2 });
  assert.equal(result.kind, "mistake");
  assert.deepEqual(result.after, { value: "loss", plies: 4 });
  // a2 (row 1) before a3 and c3 (row 2): sorted by row, then column.
  assert.deepEqual(result.keep, ["a2", "a3", "c3"]);
});

test("verdict: a slower win and a quicker loss are 'slower'; the fastest is best", () => {
  const winning = {
    proven: true, value: "win", plies: 1,
    moves: [{ row: 0, col: 0, value: "win", plies: 1 }, { row: 1, col: 1, value: "win", plies: 5 }],
    best: [{ row: 0, col: 0 }],
  };
  assert.equal(verdict(winning, { row: 0, col: 0 }).kind, "best");
  assert.equal(verdict(winning, { row: 1, col: 1 }).kind, "slower");
  const losing = {
    proven: true, value: "loss", plies: 6,
    moves: [{ row: 0, col: 0, value: "loss", plies: 6 }, { row: 1, col: 1, value: "loss", plies: 2 }],
    best: [{ row: 0, col: 0 }],
  };
  assert.equal(verdict(losing, { row: 1, col: 1 }).kind, "slower");
});

test("verdict: unproven when the server could not prove the values, or the move is not in its answer", () => {
  assert.equal(verdict({ ...drawnAnswer, proven: false }, { row: 2, col: 2 }).kind, "unproven");
  assert.equal(verdict({ ...drawnAnswer, value: null }, { row: 2, col: 2 }).kind, "unproven");
  const missing = verdict(drawnAnswer, { row: 1, col: 1 });
  assert.equal(missing.kind, "unproven");
  assert.deepEqual(missing.after, { value: null, plies: null });
  assert.deepEqual(missing.keep, []);
  assert.equal(verdict({}, { row: 0, col: 0 }).kind, "unproven");
});

test("valueWords", () => {
  assert.equal(valueWords({ value: "draw", plies: 6 }), "draw");
  assert.equal(valueWords({ value: "win", plies: 3 }), "win in 3");
  assert.equal(valueWords({ value: "loss", plies: null }), "loss");
  assert.equal(valueWords({ value: null, plies: null }), "not proven");
});

test("verdictWords: best, slower, unproven", () => {
  assert.equal(verdictWords({ kind: "best" }), "Best.");
  assert.equal(verdictWords({ kind: "unproven" }), "Not proven on this board: no verdict.");
  assert.equal(verdictWords({ kind: "slower", before: { value: "win" } }), "Kept the win, but slower.");
  assert.equal(verdictWords({ kind: "slower", before: { value: "loss" } }), "Still a loss, but a quicker one.");
});

test("verdictWords: a mistake names up to three moves and counts the rest", () => {
  const mistake = (keep, before = "draw") =>
    verdictWords({ kind: "mistake", before: { value: before }, after: { value: "loss" }, keep });
  assert.equal(mistake(["a1"]), "The mistake: turned a draw into a loss — a1 would have held.");
  assert.equal(mistake(["a1", "c3"]), "The mistake: turned a draw into a loss — a1 or c3 would have held.");
  assert.equal(mistake(["a1", "b1", "c3"]), "The mistake: turned a draw into a loss — a1, b1 or c3 would have held.");
  assert.equal(mistake(["a1", "b1", "c1", "c3"]),
    "The mistake: turned a draw into a loss — a1, b1 or c1 (or 1 other) would have held.");
  assert.equal(mistake(["a1", "b1", "c1", "c2", "c3"]),
    "The mistake: turned a draw into a loss — a1, b1 or c1 (or 2 others) would have held.");
  assert.equal(mistake(["b2"], "win"), "The mistake: turned a win into a loss — b2 would have won.");
});

test("moveHead and reviewLine", () => {
  const move = { row: 1, col: 1, by: "x" };
  assert.equal(moveHead(move, 3), "3. X b2");
  assert.equal(moveHead({ row: 14, col: 14, by: "o" }, 120), "120. O o15");
  assert.equal(reviewLine(move, 3, null), "3. X b2 — checking…");
  const result = verdict(drawnAnswer, { row: 0, col: 2 });
  assert.equal(reviewLine({ row: 0, col: 2, by: "x" }, 1, result),
    "1. X c1 — draw → loss in 4. The mistake: turned a draw into a loss — a2, a3 or c3 would have held.");
});

// The server's reasons ride along: what the move does, a keeper's reason on a mistake, the rule
// ladder's words where it is wrong.
const reasonedAnswer = {
  ...drawnAnswer,
  moves: drawnAnswer.moves.map((m) => ({ ...m, reason: m.row === 0 ? "blocks the fork at c1" : null })),
  rule: { holds: false, words: "The rule says take a corner; here only the edge a2 keeps the draw." },
};

test("verdict and reasonWords: the server's reasons after the verdict", () => {
  const keeper = { ...reasonedAnswer, moves: reasonedAnswer.moves.map((m) => (m.row === 1 ? { ...m, reason: "makes two in a row" } : m)) };
  const result = verdict(keeper, { row: 0, col: 2 });
  assert.equal(result.reason, "blocks the fork at c1");
  assert.deepEqual(result.kept, { name: "a2", reason: "makes two in a row" });
  assert.equal(result.rule, "The rule says take a corner; here only the edge a2 keeps the draw.");
  assert.equal(reasonWords(result),
    "It blocks the fork at c1; a2 makes two in a row. The rule says take a corner; here only the edge a2 keeps the draw.");
  assert.equal(reviewLine({ row: 0, col: 2, by: "x" }, 1, result),
    "1. X c1 — draw → loss in 4. The mistake: turned a draw into a loss — a2, a3 or c3 would have held." +
    " It blocks the fork at c1; a2 makes two in a row. The rule says take a corner; here only the edge a2 keeps the draw.");
  // A rule that holds says nothing in the review, nor does a move without a reason.
  const holding = verdict({ ...drawnAnswer, rule: { holds: true, words: "The rule says …" } }, { row: 2, col: 2 });
  assert.equal(reasonWords(holding), "");
  assert.equal(reviewLine({ row: 2, col: 2, by: "x" }, 2, holding), "2. X c3 — draw → draw. Best.");
});
