// tally.js: the score, per board and mode and (against the engine) per level, kept in a store.

import "./server-sets.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";

import { boardKey, counted, emptyTally, fieldFor, loadTally, saveTally, scoreFor } from "../../static/js/tally.js";
import { createMemoryStore } from "../../static/js/storage.js";

const THREE = { rows: 3, cols: 3, k: 3 };
const FOUR = { rows: 4, cols: 4, k: 4 };
const ZERO = { win: 0, loss: 0, draw: 0 };

test("emptyTally: no board has a score yet, and each is new", () => {
  assert.deepEqual(emptyTally(), { boards: {} });
  const tally = emptyTally();
  tally.boards.x = 5;
  assert.deepEqual(emptyTally(), { boards: {} });
});

test("boardKey: the size and k", () => {
  assert.equal(boardKey(THREE), "3x3:3");
  assert.equal(boardKey({ rows: 15, cols: 7, k: 5 }), "15x7:5");
});

test("saveTally then loadTally gives the tally back", () => {
  const store = createMemoryStore();
  let tally = counted(emptyTally(), { mode: "engine", level: "perfect", ...THREE }, "draw");
  tally = counted(tally, { mode: "two", ...FOUR }, "o");
  saveTally(store, tally);
  assert.deepEqual(loadTally(store), tally);
});

test("loadTally: a fresh tally when nothing is stored", () => {
  assert.deepEqual(loadTally(createMemoryStore()), emptyTally());
});

test("loadTally: broken counts start again, good ones are kept", () => {
  const store = createMemoryStore();
  store.set("tally", {
    boards: {
      "3x3:3": {
        engine: { easy: { win: 3, loss: -1, draw: 1.5 }, medium: "lots", perfect: { win: "2", draw: 4 } },
        two: { x: 7, o: null, draw: 2 },
      },
      "not a board": { two: { x: 9 } },
    },
  });
  const board = loadTally(store).boards["3x3:3"];
  assert.deepEqual(board.engine.easy, { win: 3, loss: 0, draw: 0 });
  assert.deepEqual(board.engine.medium, ZERO);
  assert.deepEqual(board.engine.perfect, { win: 0, loss: 0, draw: 4 });
  assert.deepEqual(board.two, { x: 7, o: 0, draw: 2 });
  assert.deepEqual(Object.keys(loadTally(store).boards), ["3x3:3"]);
});

test("loadTally: a tally saved before boards (or levels) were kept apart starts again", () => {
  for (const older of [
    { engine: { easy: { win: 4, loss: 2, draw: 1 } }, two: { x: 1, o: 0, draw: 0 } },
    { engine: { win: 4, loss: 2, draw: 1 }, two: { x: 1, o: 0, draw: 0 } },
  ]) {
    const store = createMemoryStore();
    store.set("tally", older);
    assert.deepEqual(loadTally(store), emptyTally());
  }
});

test("loadTally: something that is not a tally at all", () => {
  for (const junk of ["tally", 42, [], { engine: null, two: 3 }, { boards: [] }, { boards: "3x3:3" }]) {
    const store = createMemoryStore();
    store.set("tally", junk);
    assert.deepEqual(loadTally(store), emptyTally(), JSON.stringify(junk));
  }
});

test("fieldFor: the human's win, loss or draw against the engine; the winning side between two", () => {
  assert.equal(fieldFor("engine", "x", "x"), "win");
  assert.equal(fieldFor("engine", "o", "x"), "loss");
  assert.equal(fieldFor("engine", "o", "o"), "win");
  assert.equal(fieldFor("engine", "x", null), "draw");
  assert.equal(fieldFor("two", "x", "o"), "o");
  assert.equal(fieldFor("two", "x", null), "draw");
});

test("counted: adds to the game's board and level only, and takes back without going below zero", () => {
  const easy = { mode: "engine", level: "easy", ...THREE };
  const once = counted(emptyTally(), easy, "win");
  assert.equal(once.boards["3x3:3"].engine.easy.win, 1);
  assert.equal(once.boards["3x3:3"].engine.perfect.win, 0, "a win on Easy never counts like one against Perfect");
  assert.equal(once.boards["4x4:4"], undefined, "nor like one on another board");
  assert.equal(counted(once, easy, "win", -1).boards["3x3:3"].engine.easy.win, 0);
  assert.equal(counted(emptyTally(), easy, "win", -1).boards["3x3:3"].engine.easy.win, 0);
  assert.equal(counted(emptyTally(), { mode: "two", level: "perfect", ...FOUR }, "x").boards["4x4:4"].two.x, 1);
});

test("counted: the tally it was given is left as it was", () => {
  const tally = emptyTally();
  counted(tally, { mode: "two", ...THREE }, "draw");
  assert.deepEqual(tally, emptyTally());
});

test("scoreFor: the counts by side on the game's board, mode and level; nothing for watched games", () => {
  const medium = { mode: "engine", level: "medium", ...THREE };
  let tally = counted(emptyTally(), medium, "win");
  tally = counted(tally, medium, "loss");
  tally = counted(tally, medium, "loss");
  assert.deepEqual(scoreFor(tally, { ...medium, human: "x" }), { x: 1, o: 2, draw: 0 });
  assert.deepEqual(scoreFor(tally, { ...medium, human: "o" }), { x: 2, o: 1, draw: 0 });
  assert.deepEqual(scoreFor(tally, { ...medium, level: "perfect", human: "x" }), { x: 0, o: 0, draw: 0 });
  assert.deepEqual(scoreFor(tally, { ...medium, ...FOUR, human: "x" }), { x: 0, o: 0, draw: 0 });
  const two = { mode: "two", human: "x", ...THREE };
  assert.deepEqual(scoreFor(counted(tally, two, "x"), two), { x: 1, o: 0, draw: 0 });
  assert.deepEqual(scoreFor(counted(tally, two, "x"), { ...two, ...FOUR }), { x: 0, o: 0, draw: 0 });
  assert.equal(scoreFor(tally, { mode: "watch", level: "perfect", human: "x", ...THREE }), null);
});
