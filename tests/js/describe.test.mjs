// describe.js: the words of the view (status line, labels, hints, the engine's details).
// A view here is the plain object game.js hands the renderer: the state's fields plus
// toMove, board, hints, error, reviewing, watching, canRestore.

import { SERVER_SETS } from "./server-sets.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  allAlike, cellLabel, engineDetails, hintBadge, hintSummary, hintWords, levelHelp, outcomeBadge, resultText,
  sideNames, statusText, stripCaption, waitText, watchSide,
} from "../../static/js/describe.js";

const view = (fields) => ({
  mode: "engine", human: "x", level: "perfect", status: "in_progress", pending: null, last: null,
  toMove: "x", engine: null, error: null, reviewing: null, ...fields,
});

test("statusText against the engine: whose turn, who is thinking", () => {
  assert.equal(statusText(view({})), "You are X and move first. Your turn.");
  assert.equal(statusText(view({ canRestore: true })),
    "You are X and move first. Your turn. Undo brings back the game you left.");
  assert.equal(statusText(view({ human: "o", pending: "engine" })),
    "You are O. The engine plays X and moves first…");
  const afterYou = view({ last: { row: 1, col: 1, by: "x" }, pending: "engine", toMove: "o" });
  assert.equal(statusText(afterYou), "You played b2. The engine (O) is thinking…");
  const afterEngine = view({ last: { row: 0, col: 0, by: "o" } });
  assert.equal(statusText(afterEngine), "The engine played a1. Your turn (X).");
});

test("statusText: the result after the last move", () => {
  const won = view({ status: "x_won", last: { row: 2, col: 2, by: "x" } });
  assert.equal(statusText(won), "You played c3. You win!");
  assert.equal(statusText(view({ status: "o_won", last: { row: 0, col: 2, by: "o" } })),
    "The engine played c1. The engine wins.");
  assert.equal(statusText(view({ status: "draw", last: { row: 0, col: 0, by: "x" } })),
    "You played a1. It's a draw.");
});

test("statusText between two people", () => {
  assert.equal(statusText(view({ mode: "two" })), "X to move.");
  const after = view({ mode: "two", last: { row: 1, col: 1, by: "x" }, toMove: "o" });
  assert.equal(statusText(after), "X played b2. O to move.");
  assert.equal(statusText({ ...after, pending: "check" }), "X played b2. ");
  assert.equal(statusText(view({ mode: "two", status: "o_won", last: { row: 2, col: 0, by: "o" } })),
    "O played a3. O wins!");
});

test("statusText in watch mode: the engines, the node count, paused or watching", () => {
  const watched = view({ mode: "watch", engines: { x: "perfect", o: "mcts" } });
  assert.equal(statusText(watched), "X (perfect) against O (mcts). Press Start to watch.");
  const moved = { ...watched, last: { row: 1, col: 1, by: "x" }, toMove: "o", engine: { nodes: 12345, name: "perfect" } };
  assert.equal(statusText(moved), "X (perfect) played b2 — 12,345 nodes. Paused.");
  assert.equal(statusText({ ...moved, watching: true }), "X (perfect) played b2 — 12,345 nodes. O (mcts) to move.");
  assert.equal(statusText({ ...moved, engine: { nodes: 1 } }), "X (perfect) played b2 — 1 node. Paused.");
  assert.equal(statusText({ ...moved, status: "x_won" }), "X (perfect) played b2 — 12,345 nodes. X (perfect) wins.");
});

test("statusText: a review's text and an error come before everything else", () => {
  assert.equal(statusText(view({ reviewing: { text: "Move 3 of 7." }, error: { message: "x" } })), "Move 3 of 7.");
  assert.equal(statusText(view({ error: { kind: "timeout", message: "The server did not answer.", retryable: true } })),
    "The server did not answer. Press Retry to try again.");
  assert.equal(statusText(view({ error: { kind: "rejected", message: "Bad board.", retryable: false } })),
    "Bad board. Undo, or start a new game.");
});

test("statusText and waitText: a refusal's words stay still while its seconds count down", () => {
  // A 7x7 move refused: the server's free sizes (3x3) play on meanwhile, and the move goes again.
  const waiting = view({ rows: 7, cols: 7, error: { kind: "limited", wait: 42, resend: true } });
  // "3 × 3" never breaks across the status line's two lines.
  assert.equal(statusText(waiting), "Too many searches from this network. 3\u00a0×\u00a03 games still play.");
  assert.equal(statusText({ ...waiting, error: { kind: "limited", wait: 41, resend: true } }), statusText(waiting));
  assert.equal(waitText(waiting), "Your move goes in 42 s.");
  assert.equal(waitText({ ...waiting, mode: "watch" }), "The game goes on in 42 s.");
  // Refused again after that (or a hint): the player retries once the wait is over.
  const again = { ...waiting, error: { kind: "limited", wait: 42, resend: false } };
  assert.equal(statusText(again), statusText(waiting));
  assert.equal(waitText(again), "You can play again in 42 s.");
  const over = view({ rows: 7, cols: 7, error: { kind: "limited", wait: 0, resend: false } });
  assert.equal(statusText(over), "You can play again now. Press Retry.");
  assert.equal(waitText(over), "");
  assert.equal(waitText(view({})), "");
  // On a free size itself there is nothing else to point to.
  assert.equal(statusText(view({ rows: 3, cols: 3, error: { kind: "limited", wait: 5 } })),
    "Too many searches from this network.");
});

test("watchSide: a side and its engine, or 'engine' when none is named", () => {
  assert.equal(watchSide({ engines: { x: "perfect", o: "mcts" } }, "o"), "O (mcts)");
  assert.equal(watchSide({}, "x"), "X (engine)");
});

test("resultText and outcomeBadge", () => {
  assert.equal(resultText(view({ status: "draw" })), "It's a draw.");
  assert.equal(resultText(view({ status: "o_won", human: "o" })), "You win!");
  assert.equal(resultText(view({ status: "x_won", human: "o" })), "The engine wins.");
  assert.equal(resultText(view({ status: "x_won", mode: "two" })), "X wins!");
  assert.equal(outcomeBadge(view({ status: "in_progress" })), "");
  assert.equal(outcomeBadge(view({ status: "draw" })), "It's a draw.");
});

test("hintWords: the value and how many moves to the end", () => {
  assert.equal(hintWords({ value: "win", plies: 3 }), "win, game over in 3 moves");
  assert.equal(hintWords({ value: "loss", plies: 1 }), "loss, game over in 1 move");
  assert.equal(hintWords({ value: "draw", plies: 9 }), "draw");
  assert.equal(hintWords({ value: "win", plies: null }), "win");
  assert.equal(hintWords({ value: null, best: true }), "best guess, not proven");
  assert.equal(hintWords({ value: null }), "unknown");
  assert.equal(hintWords(null), "unknown");
});

test("hintBadge: roomy words, or one letter and a count on a small cell", () => {
  assert.equal(hintBadge({ value: "win", plies: 3 }, true), "win · 3");
  assert.equal(hintBadge({ value: "win", plies: 3 }, false), "W3");
  assert.equal(hintBadge({ value: "loss", plies: 2 }, false), "L2");
  assert.equal(hintBadge({ value: "loss", plies: null }, true), "loss");
  assert.equal(hintBadge({ value: "loss", plies: null }, false), "L");
  assert.equal(hintBadge({ value: "draw", plies: 8 }, true), "draw");
  assert.equal(hintBadge({ value: "draw", plies: 8 }, false), "D");
  assert.equal(hintBadge({ value: null, best: true }, true), "best?");
  assert.equal(hintBadge({ value: null, best: true }, false), "★");
  assert.equal(hintBadge(undefined, true), "?");
});

test("allAlike: several hints that all read the same", () => {
  assert.equal(allAlike([{ value: "draw", plies: 8 }, { value: "draw", plies: 8 }]), true);
  assert.equal(allAlike([{ value: "draw", plies: 8 }, { value: "draw", plies: 6 }]), false);
  assert.equal(allAlike([{ value: "draw", plies: 8 }, { value: "win", plies: 8 }]), false);
  assert.equal(allAlike([{ value: null, plies: null }, { value: null, plies: null }]), false, "unknowns say nothing");
  assert.equal(allAlike([{ value: "draw", plies: 8 }]), false, "one hint is not several");
  assert.equal(allAlike([]), false);
});

test("cellLabel: the cell's name, what is on it, the line and the hint", () => {
  //  x . .
  //  . o .
  //  . . .
  const board = view({ board: ["x..", ".o.", "..."] });
  assert.equal(cellLabel(board, 0, 0, {}), "a1, X");
  assert.equal(cellLabel(board, 1, 1, { inLine: true }), "b2, O, winning line");
  assert.equal(cellLabel(board, 2, 2, { hint: { value: "draw", plies: 6, best: true } }), "c3, empty, hint: draw (best)");
  assert.equal(cellLabel(board, 0, 2, { hint: { value: "loss", plies: 3 } }), "c1, empty, hint: loss, game over in 3 moves");
});

test("cellLabel: the far corner of 15x15", () => {
  const rows = Array.from({ length: 15 }, () => ".".repeat(15));
  assert.equal(cellLabel(view({ board: rows }), 14, 14, {}), "o15, empty");
});

test("engineDetails: nothing before the engine has moved, or outside a game against it", () => {
  assert.deepEqual(engineDetails(view({})), []);
  assert.deepEqual(engineDetails(view({ mode: "two", engine: { value: "draw", proven: true } })), []);
});

test("engineDetails: a proven draw, the nodes and the time", () => {
  const info = { value: "draw", plies: 8, proven: true, source: "proof", nodes: 1234, ms: 5.4, cached: false };
  assert.deepEqual(engineDetails(view({ engine: info })), [
    "With best play from here, the game is a draw.",
    "How it knows: proven by search.",
    "It looked at 1,234 positions in 5 ms.",
  ]);
});

test("engineDetails: a win from the opening book, already stored", () => {
  const info = { value: "win", plies: 1, proven: true, source: "book", nodes: 0, ms: 0.2, cached: true };
  assert.deepEqual(engineDetails(view({ engine: info })), [
    "With best play from here, the engine wins in 1 move.",
    "How it knows: from the opening book.",
    "It answered in 0 ms.",
    "The answer was already stored from an earlier game.",
  ]);
});

test("engineDetails: threats prove a win within their length, and the player's loss after every move", () => {
  const win = { value: "win", plies: 7, proven: true, source: "threats" };
  assert.equal(engineDetails(view({ engine: win }))[0], "With best play from here, the engine wins within 7 moves.");
  const loss = { value: "loss", plies: 5, proven: true, source: "threats" };
  assert.deepEqual(engineDetails(view({ engine: loss })), [
    "With your best play from here, you win within 5 moves.",
    "How it knows: found a forced sequence of threats for you after every move it could make.",
  ]);
});

test("engineDetails: an unproven move at Perfect is a best guess; Easy and Medium say their habits", () => {
  const guess = { value: null, proven: false, source: "heuristic" };
  assert.deepEqual(engineDetails(view({ engine: guess })), [
    "This board is too big to solve in time, so the move is the engine's best guess.",
    "How it knows: best guess within the time limit.",
  ]);
  for (const { name, label, description } of SERVER_SETS.levels.filter((level) => level.name !== "perfect")) {
    assert.equal(engineDetails(view({ level: name, engine: { value: null } }))[0], `How ${label} plays: ${description}.`);
  }
});

test("levelHelp: each level's name and what it does, in the server's words", () => {
  for (const { name, label, description } of SERVER_SETS.levels) assert.equal(levelHelp(name), `${label}: ${description}.`);
  assert.equal(levelHelp("hard"), "");
});

test("hintSummary: the result with best play and the legend, or why nothing is marked", () => {
  assert.equal(hintSummary(view({}), { roomy: true, alike: false }), "");
  const drawn = view({ hints: { proven: true, value: "draw", plies: 9 } });
  assert.equal(hintSummary(drawn, { roomy: false, alike: true }),
    "With best play: a draw. Every empty cell leads to the same result, so none is marked.");
  assert.match(hintSummary(drawn, { roomy: true, alike: false }), /^With best play: a draw\. Each empty cell shows .*“win · n”/);
  assert.match(hintSummary(drawn, { roomy: false, alike: false }), /W n \(win\), D \(draw\) or L n \(loss\)/);
  const losing = view({ toMove: "o", hints: { proven: true, value: "loss", plies: 4 } });
  assert.match(hintSummary(losing, { roomy: true, alike: false }), /^With best play: O loses in 4 moves\./);
  const guessed = view({ hints: { proven: false, value: null } });
  assert.equal(hintSummary(guessed, { roomy: false, alike: false }),
    "Not solved in time. The engine's best guess for X is marked ★.");
  assert.equal(hintSummary(guessed, { roomy: true, alike: false }),
    "Not solved in time. The engine's best guess for X is marked “best?”.");
});

test("sideNames and stripCaption: the turn strip", () => {
  assert.deepEqual(sideNames(view({ human: "x" })), { x: "You", o: "Engine" });
  assert.deepEqual(sideNames(view({ human: "o" })), { x: "Engine", o: "You" });
  assert.deepEqual(sideNames(view({ mode: "two" })), { x: "Player X", o: "Player O" });
  assert.deepEqual(sideNames(view({ mode: "watch", engines: { x: "perfect", o: "mcts" } })), { x: "perfect", o: "mcts" });
  assert.deepEqual(sideNames(view({ mode: "watch" })), { x: "engine", o: "engine" });
  // The score is kept per board and level: the caption names both (and a k the size does not default to).
  const board = { rows: 3, cols: 3, k: 3 };
  assert.equal(stripCaption(view({ level: "medium", ...board })), "3 × 3 · Medium");
  assert.equal(stripCaption(view({ level: "perfect", rows: 15, cols: 15, k: 5 })), "15 × 15 · Perfect");
  assert.equal(stripCaption(view({ level: "easy", rows: 4, cols: 4, k: 3 })), "4 × 4 (3 in a row) · Easy");
  assert.equal(stripCaption(view({ mode: "two", ...board })), "3 × 3 · 2 players");
  assert.equal(stripCaption(view({ mode: "watch" })), "Watching");
});

test("a room's words: this page's seat, its friend, or a watcher", () => {
  const room = (me, fields = {}) => view({ mode: "room", room: { me, game: 2 }, ...fields });
  const afterFriend = { last: { row: 1, col: 1, by: "x" }, toMove: "o" };
  assert.equal(statusText(room("o", afterFriend)), "Your friend played b2. Your turn (O).");
  assert.equal(statusText(room("x", afterFriend)), "You played b2. Your friend (O) is to move.");
  assert.equal(statusText(room(null, afterFriend)), "X played b2. O to move.");
  const won = { status: "x_won", last: { row: 2, col: 1, by: "x" } };
  assert.equal(statusText(room("x", won)), "You played b3. You win!");
  assert.equal(statusText(room("o", won)), "Your friend played b3. Your friend wins.");
  assert.equal(statusText(room(null, won)), "X played b3. X wins!");
  assert.equal(resultText(room("o", { status: "draw" })), "It's a draw.");
  assert.deepEqual(sideNames(room("o")), { x: "Friend", o: "You" });
  assert.deepEqual(sideNames(room(null)), { x: "Player X", o: "Player O" });
  assert.equal(stripCaption(room("x")), "Game 2");
});

test("a room's words with names, and a game its players ended: resigned, left, a draw agreed", () => {
  const room = (me, { room: extra = {}, ...fields } = {}, names = { x: "Ada", o: null }) =>
    view({ mode: "room", room: { me, game: 1, names, reason: null, ...extra }, ...fields });
  const afterAda = { last: { row: 1, col: 1, by: "x" }, toMove: "o" };
  assert.equal(statusText(room("o", afterAda)), "Ada played b2. Your turn (O).");
  assert.equal(statusText(room(null, afterAda)), "Ada (X) played b2. O to move.");
  assert.deepEqual(sideNames(room("o")), { x: "Ada", o: "You" });
  assert.deepEqual(sideNames(room(null)), { x: "Ada", o: "Player O" });
  const resigned = { status: "x_won", toMove: null, room: { reason: "resigned" } };
  assert.equal(statusText(room("x", resigned)), "Your friend resigned. You win!");
  assert.equal(statusText(room("o", resigned)), "You resigned. Ada wins.");
  assert.equal(statusText(room(null, resigned)), "O resigned. Ada (X) wins!");
  const left = { status: "o_won", toMove: null, room: { reason: "abandoned" } };
  assert.equal(statusText(room("o", left)), "Ada left the game. You win!");
  assert.equal(statusText(room("x", left)), "You left the game. Your friend wins.");
  assert.equal(statusText(room("x", { status: "draw", toMove: null, room: { reason: "agreed" } })), "A draw, agreed.");
  // A refusal in a room: the server's words as a sentence, with nothing about Undo or a new game.
  const refused = { error: { message: "the game is over: there is no move to make", retryable: false } };
  assert.equal(statusText(room("x", refused)), "The game is over: there is no move to make.");
});

