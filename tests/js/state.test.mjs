// state.js: the game state's pure functions.  None decides the game: the status and the
// winning line only ever come from the server's answers, which these tests write by hand.

import { SERVER_SETS } from "./server-sets.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  EMPTY, STATUSES, VERSION, canPlay, canRedo, canUndo, cellAt, currentBoard, fromSaved, isOver, lastMove,
  moveBetween, newGame, place, redo, requestFor, sideToMove, undo, winner, withEngineMove, withStatus,
} from "../../static/js/state.js";

const engineGame = (human = "x") =>
  newGame({ rows: 3, cols: 3, k: 3, level: "perfect", mode: "engine", human });
const twoGame = () => newGame({ rows: 3, cols: 3, k: 3, level: "medium", mode: "two", human: "x" });
const watchGame = () => newGame({
  rows: 3, cols: 3, k: 3, level: "perfect", mode: "watch", human: "x", engines: { x: "perfect", o: "mcts" },
});

test("the closed sets: statuses as the API names them", () => {
  assert.deepEqual(STATUSES, ["in_progress", "x_won", "o_won", "draw"]);
  assert.equal(EMPTY, ".");
});

test("newGame: one empty board in the history, nothing pending when the human opens", () => {
  const game = engineGame("x");
  assert.deepEqual(game.history, [["...", "...", "..."]]);
  assert.equal(game.version, VERSION);
  assert.equal(game.status, "in_progress");
  assert.equal(game.pending, null);
  assert.equal(game.line, null);
  assert.equal(lastMove(game), null);
  assert.deepEqual(game.undone, []);
  assert.equal(game.recorded, false);
  assert.equal("engines" in game, false);
});

test("newGame: the engine opens when the human plays O", () => {
  assert.equal(engineGame("o").pending, "engine");
  // Two people on one device: nobody waits for the engine.
  assert.equal(newGame({ rows: 3, cols: 3, k: 3, level: "easy", mode: "two", human: "o" }).pending, null);
});

test("newGame: 15x15 and a non-square board", () => {
  const big = newGame({ rows: 15, cols: 15, k: 5, level: "perfect", mode: "engine", human: "x" });
  assert.equal(currentBoard(big).length, 15);
  assert.ok(currentBoard(big).every((row) => row === ".".repeat(15)));
  const wide = newGame({ rows: 3, cols: 5, k: 3, level: "perfect", mode: "engine", human: "x" });
  assert.deepEqual(currentBoard(wide), [".....", ".....", "....."]);
});

test("newGame: watch mode copies the engines, so a later change to the settings does not leak in", () => {
  const engines = { x: "perfect", o: "mcts" };
  const game = newGame({ rows: 3, cols: 3, k: 3, level: "perfect", mode: "watch", human: "x", engines });
  engines.x = "minimax";
  assert.deepEqual(game.engines, { x: "perfect", o: "mcts" });
  assert.equal(game.pending, null);
});

test("sideToMove: X on equal counts, else O", () => {
  assert.equal(sideToMove(["...", "...", "..."]), "x");
  //  x . .
  //  . . .
  //  . . .
  assert.equal(sideToMove(["x..", "...", "..."]), "o");
  //  x . .
  //  . o .
  //  . . .
  assert.equal(sideToMove(["x..", ".o.", "..."]), "x");
  // A full board: five X and four O.
  //  x o x
  //  x o o
  //  o x x
  assert.equal(sideToMove(["xox", "xoo", "oxx"]), "o");
});

test("moveBetween: the one stone that differs, or null", () => {
  const before = ["x..", "...", "..."];
  assert.deepEqual(moveBetween(before, ["x..", ".o.", "..."]), { row: 1, col: 1, by: "o" });
  assert.equal(moveBetween(before, before), null);
  const corner = Array.from({ length: 15 }, () => ".".repeat(15));
  const after = [...corner.slice(0, 14), `${".".repeat(14)}x`];
  assert.deepEqual(moveBetween(corner, after), { row: 14, col: 14, by: "x" });
});

test("cellAt: what occupies a cell", () => {
  const board = ["x..", ".o.", "..."];
  assert.equal(cellAt(board, 0, 0), "x");
  assert.equal(cellAt(board, 1, 1), "o");
  assert.equal(cellAt(board, 2, 2), EMPTY);
});

test("requestFor: board, k and level; in watch mode the engine of the side to move", () => {
  const game = place(engineGame("x"), 1, 1);
  assert.deepEqual(requestFor(game), { board: ["...", ".x.", "..."], k: 3, level: "perfect" });
  const watched = watchGame();
  assert.deepEqual(requestFor(watched), { board: ["...", "...", "..."], k: 3, engine: "perfect" });
  const afterX = { ...watched, history: [...watched.history, ["x..", "...", "..."]] };
  assert.equal(requestFor(afterX).engine, "mcts");
});

test("place: the side to move's stone, pending the server's check", () => {
  const game = place(engineGame("x"), 0, 2);
  //  . . x
  //  . . .
  //  . . .
  assert.deepEqual(currentBoard(game), ["..x", "...", "..."]);
  assert.equal(game.history.length, 2);
  assert.equal(game.pending, "check");
  assert.deepEqual(lastMove(game), { row: 0, col: 2, by: "x" });
  const second = place(place(twoGame(), 0, 0), 2, 2);
  assert.deepEqual(currentBoard(second), ["x..", "...", "..o"]);
  assert.equal(lastMove(second).by, "o");
});

test("place: returns a new state and leaves the old one as it was", () => {
  const game = engineGame("x");
  place(game, 1, 1);
  assert.deepEqual(game.history, [["...", "...", "..."]]);
  assert.equal(game.pending, null);
});

test("canPlay: only on an empty cell, on the human's turn, with nothing pending", () => {
  const game = engineGame("x");
  assert.equal(canPlay(game, 1, 1), true);
  const placed = place(game, 1, 1);
  assert.equal(canPlay(placed, 0, 0), false, "a check is pending");
  const checked = withStatus(placed, { status: "in_progress" });
  assert.equal(canPlay(checked, 0, 0), false, "the engine's turn");
  const answered = withEngineMove(checked, { board: ["o..", ".x.", "..."], move: { row: 0, col: 0 }, status: "in_progress" });
  assert.equal(canPlay(answered, 1, 1), false, "a taken cell");
  assert.equal(canPlay(answered, 2, 2), true);
  assert.equal(canPlay({ ...answered, status: "draw" }, 2, 2), false, "the game is over");
  assert.equal(canPlay(watchGame(), 0, 0), false, "nobody plays by hand in watch mode");
  assert.equal(canPlay(engineGame("o"), 0, 0), false, "the engine opens");
});

test("withStatus: the server's status and line; against the engine, its turn comes next", () => {
  const placed = place(engineGame("x"), 1, 1);
  const on = withStatus(placed, { status: "in_progress", line: null });
  assert.equal(on.pending, "engine");
  assert.equal(isOver(on), false);
  // Two people: nobody to wait for.
  assert.equal(withStatus(place(twoGame(), 1, 1), { status: "in_progress" }).pending, null);
  // A line the server reported is kept exactly.
  //  x x x
  //  o o .
  //  . . .
  const won = { ...twoGame(), history: [["...", "...", "..."], ["xxx", "oo.", "..."]] };
  const over = withStatus(won, { status: "x_won", line: [[0, 0], [0, 1], [0, 2]] });
  assert.equal(over.pending, null);
  assert.deepEqual(over.line, [[0, 0], [0, 1], [0, 2]]);
  assert.equal(isOver(over), true);
  assert.equal(winner(over), "x");
});

test("withEngineMove: the engine's board, move and facts; missing facts are null, not undefined", () => {
  const checked = withStatus(place(engineGame("x"), 1, 1), { status: "in_progress" });
  const answer = {
    board: ["o..", ".x.", "..."], move: { row: 0, col: 0 }, status: "in_progress",
    value: "draw", plies: 8, proven: true, nodes: 41, ms: 2.5, engine: "perfect", source: "proof",
  };
  const next = withEngineMove(checked, answer);
  assert.deepEqual(currentBoard(next), ["o..", ".x.", "..."]);
  assert.deepEqual(lastMove(next), { row: 0, col: 0, by: "o" });
  assert.equal(next.pending, null);
  assert.deepEqual(next.engine, {
    value: "draw", plies: 8, proven: true, cached: false, nodes: 41, ms: 2.5, name: "perfect", source: "proof",
    offline: false,
  });
  // An answer made in the browser without the server (static/js/offline.js) says so.
  assert.equal(withEngineMove(checked, { ...answer, offline: true }).engine.offline, true);
  const bare = withEngineMove(checked, { board: answer.board, move: answer.move, status: "in_progress" });
  assert.deepEqual(bare.engine, {
    value: null, plies: null, proven: false, cached: false, nodes: null, ms: null, name: null, source: null,
    offline: false,
  });
  assert.equal(bare.line, null);
});

test("undo against the engine: back to the human's previous turn, the engine's reply taken too", () => {
  const checked = withStatus(place(engineGame("x"), 1, 1), { status: "in_progress" });
  const answered = withEngineMove(checked, { board: ["o..", ".x.", "..."], move: { row: 0, col: 0 }, status: "in_progress" });
  assert.equal(canUndo(answered), true);
  const back = undo(answered);
  assert.deepEqual(back.history, [["...", "...", "..."]]);
  assert.equal(back.status, "in_progress");
  assert.equal(back.engine, null);
  assert.equal(lastMove(back), null);
  assert.equal(canUndo(back), false);
  assert.equal(undo(back), back, "nothing to undo: the same state");
});

test("undo names the move before the ones it took back; redo puts them back with the server's word", () => {
  //  . . .      x . .      x . .      x . .      x . .
  //  . . .  ->  . . .  ->  . o .  ->  . o .  ->  . o .
  //  . . .      . . .      . . .      . . x      o . x
  const boards = [["...", "...", "..."], ["x..", "...", "..."], ["x..", ".o.", "..."], ["x..", ".o.", "..x"],
    ["x..", ".o.", "o.x"]];
  const game = { ...engineGame("x"), history: boards, engine: { nodes: 3 } };
  const back = undo(game);
  assert.deepEqual(back.history, boards.slice(0, 3));
  assert.deepEqual(lastMove(back), { row: 1, col: 1, by: "o" }, "the engine's b2: who moved last");
  assert.equal(canRedo(back), true);
  const twice = undo(back);
  assert.equal(lastMove(twice), null);
  const again = redo(twice);
  assert.deepEqual(again.history, back.history);
  assert.deepEqual(lastMove(again), { row: 1, col: 1, by: "o" });
  const whole = redo(again);
  assert.deepEqual(whole.history, boards);
  assert.equal(whole.status, "in_progress");
  assert.equal(canRedo(whole), false);
  assert.equal(redo(whole), whole, "nothing to redo: the same state");
  // A new move leaves nothing to redo.
  assert.equal(canRedo(place(back, 2, 2)), false);
});

test("redo of a finished game: its status and line as the server gave them, to be scored again", () => {
  //  x x x
  //  o o .
  //  . . .
  const history = [["...", "...", "..."], ["x..", "...", "..."], ["x..", "o..", "..."], ["xx.", "o..", "..."],
    ["xx.", "oo.", "..."], ["xxx", "oo.", "..."]];
  const line = [[0, 0], [0, 1], [0, 2]];
  const over = { ...twoGame(), history, status: "x_won", line, recorded: true };
  const again = redo(undo(over));
  assert.equal(again.status, "x_won");
  assert.deepEqual(again.line, line);
  assert.equal(again.recorded, false);
  assert.equal(again.pending, null);
  // A reply that had not come yet is asked for again.
  const thinking = { ...place(engineGame("x"), 1, 1), pending: "engine" };
  assert.equal(redo(undo(thinking)).pending, "engine");
});

test("undo when the human plays O: never back past the engine's opening move", () => {
  //  x . .      the engine's opening; the human (O) has not played
  //  . . .
  //  . . .
  const opened = withEngineMove(engineGame("o"), { board: ["x..", "...", "..."], move: { row: 0, col: 0 }, status: "in_progress" });
  assert.equal(canUndo(opened), false);
});

test("undo between two people: one move back, and a finished game is on again", () => {
  //  x x x
  //  o o .
  //  . . .
  const history = [["...", "...", "..."], ["x..", "...", "..."], ["x..", "o..", "..."], ["xx.", "o..", "..."],
    ["xx.", "oo.", "..."], ["xxx", "oo.", "..."]];
  const over = { ...twoGame(), history, status: "x_won", line: [[0, 0], [0, 1], [0, 2]], recorded: true };
  const back = undo(over);
  assert.deepEqual(back.history, history.slice(0, 5));
  assert.equal(back.status, "in_progress");
  assert.equal(back.line, null);
  assert.equal(back.recorded, false);
  assert.equal(winner(back), null);
});

test("undo in watch mode: never", () => {
  const watched = { ...watchGame(), history: [["...", "...", "..."], ["x..", "...", "..."]] };
  assert.equal(canUndo(watched), false);
  assert.equal(undo(watched), watched);
  assert.equal(canRedo({ ...watched, undone: [{ positions: [["x..", "...", "..."]], status: "in_progress" }] }), false);
});

test("winner: x, o, or null for a draw and a game still on", () => {
  assert.equal(winner({ status: "x_won" }), "x");
  assert.equal(winner({ status: "o_won" }), "o");
  assert.equal(winner({ status: "draw" }), null);
  assert.equal(winner({ status: "in_progress" }), null);
});

test("fromSaved: a saved game comes back, a request in flight is made again", () => {
  const saved = JSON.parse(JSON.stringify(place(engineGame("x"), 1, 1)));
  assert.deepEqual(fromSaved(saved), saved);
  assert.equal(fromSaved({ ...saved, pending: "engine" }).pending, "engine");
  assert.equal(fromSaved({ ...saved, pending: "nonsense" }).pending, null);
  // What undo took back comes back too; a broken redo stack is dropped, not the game.
  const undone = JSON.parse(JSON.stringify(undo(withStatus(saved, { status: "in_progress" }))));
  assert.deepEqual(fromSaved(undone).undone, undone.undone);
  assert.equal(fromSaved(undone).undone.length, 1);
  const broken = { ...undone, undone: [{ positions: [["..."]], status: "in_progress", line: null, pending: null }] };
  assert.deepEqual(fromSaved(broken).undone, []);
  // An older page's saved game: its stored last move is dropped (the history names it), no redo.
  const older = { ...saved, last: { row: 1, col: 1, by: "x" } };
  delete older.undone;
  assert.deepEqual(fromSaved(older), { ...saved, undone: [] });
});

test("fromSaved: a saved game's level is one the server declares", () => {
  const saved = JSON.parse(JSON.stringify(engineGame("x")));
  for (const { name } of SERVER_SETS.levels) assert.equal(fromSaved({ ...saved, level: name })?.level, name);
  assert.equal(fromSaved({ ...saved, level: "hard" }), null);
});

test("fromSaved: a watched game comes back paused", () => {
  const saved = { ...watchGame(), pending: "engine" };
  assert.equal(fromSaved(saved).pending, null);
  assert.equal(fromSaved({ ...saved, engines: { x: "perfect" } }), null);
  assert.equal(fromSaved({ ...saved, engines: { x: "", o: "mcts" } }), null);
});

test("fromSaved: a 15x15 game in progress comes back", () => {
  const big = place(newGame({ rows: 15, cols: 15, k: 5, level: "perfect", mode: "engine", human: "x" }), 7, 7);
  assert.deepEqual(fromSaved(JSON.parse(JSON.stringify(big))), big);
});

test("fromSaved: null for anything this version cannot resume", () => {
  const good = JSON.parse(JSON.stringify(engineGame("x")));
  const broken = {
    "nothing": null,
    "not an object": "game",
    "another version": { ...good, version: VERSION + 1 },
    "rows below 3": { ...good, rows: 2, history: [["...", "..."]] },
    "k below 3": { ...good, k: 2 },
    "k not a whole number": { ...good, k: 3.5 },
    "no history": { ...good, history: [] },
    "history not a list": { ...good, history: "..." },
    "a board of the wrong height": { ...good, history: [["...", "..."]] },
    "a row of the wrong width": { ...good, history: [["...", "....", "..."]] },
    "a stranger in a row": { ...good, history: [["..z", "...", "..."]] },
    "an unknown status": { ...good, status: "won" },
    "an unknown level": { ...good, level: "hard" },
    "an unknown mode": { ...good, mode: "solo" },
    "an unknown side": { ...good, human: "z" },
  };
  for (const [why, saved] of Object.entries(broken)) assert.equal(fromSaved(saved), null, why);
});

test("fromSaved: k larger than the board is the server's to refuse, not storage's", () => {
  const saved = JSON.parse(JSON.stringify(engineGame("x")));
  assert.equal(fromSaved({ ...saved, k: 9 }).k, 9);
});
