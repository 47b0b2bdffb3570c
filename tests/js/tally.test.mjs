// tally.js: the score, per mode and (against the engine) per level, kept in a store.

import "./server-sets.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";

import { counted, emptyTally, fieldFor, loadTally, saveTally, scoreFor } from "../../static/js/tally.js";
import { createMemoryStore } from "../../static/js/storage.js";

test("emptyTally: zero everywhere, one set of counts per level", () => {
  assert.deepEqual(emptyTally(), {
    engine: {
      easy: { win: 0, loss: 0, draw: 0 },
      medium: { win: 0, loss: 0, draw: 0 },
      perfect: { win: 0, loss: 0, draw: 0 },
    },
    two: { x: 0, o: 0, draw: 0 },
  });
});

test("emptyTally: a new object each time", () => {
  const tally = emptyTally();
  tally.two.x = 5;
  assert.equal(emptyTally().two.x, 0);
});

test("saveTally then loadTally gives the tally back", () => {
  const store = createMemoryStore();
  let tally = counted(emptyTally(), { mode: "engine", level: "perfect" }, "draw");
  tally = counted(tally, { mode: "two" }, "o");
  saveTally(store, tally);
  assert.deepEqual(loadTally(store), tally);
});

test("loadTally: a fresh tally when nothing is stored", () => {
  assert.deepEqual(loadTally(createMemoryStore()), emptyTally());
});

test("loadTally: broken counts start again, good ones are kept", () => {
  const store = createMemoryStore();
  store.set("tally", {
    engine: { easy: { win: 3, loss: -1, draw: 1.5 }, medium: "lots", perfect: { win: "2", draw: 4 } },
    two: { x: 7, o: null, draw: 2 },
  });
  const tally = loadTally(store);
  assert.deepEqual(tally.engine.easy, { win: 3, loss: 0, draw: 0 });
  assert.deepEqual(tally.engine.medium, { win: 0, loss: 0, draw: 0 });
  assert.deepEqual(tally.engine.perfect, { win: 0, loss: 0, draw: 4 });
  assert.deepEqual(tally.two, { x: 7, o: 0, draw: 2 });
});

test("loadTally: a tally saved before levels were kept apart starts again", () => {
  const store = createMemoryStore();
  store.set("tally", { engine: { win: 4, loss: 2, draw: 1 }, two: { x: 1, o: 0, draw: 0 } });
  const tally = loadTally(store);
  for (const level of ["easy", "medium", "perfect"]) assert.deepEqual(tally.engine[level], { win: 0, loss: 0, draw: 0 });
  assert.deepEqual(tally.two, { x: 1, o: 0, draw: 0 });
});

test("loadTally: something that is not a tally at all", () => {
  for (const junk of ["tally", 42, [], { engine: null, two: 3 }]) {
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

test("counted: adds to the game's level only, and takes back without going below zero", () => {
  const once = counted(emptyTally(), { mode: "engine", level: "easy" }, "win");
  assert.equal(once.engine.easy.win, 1);
  assert.equal(once.engine.perfect.win, 0, "a win on Easy never counts like one against Perfect");
  assert.equal(counted(once, { mode: "engine", level: "easy" }, "win", -1).engine.easy.win, 0);
  assert.equal(counted(emptyTally(), { mode: "engine", level: "easy" }, "win", -1).engine.easy.win, 0);
  assert.equal(counted(emptyTally(), { mode: "two", level: "perfect" }, "x").two.x, 1);
});

test("counted: the tally it was given is left as it was", () => {
  const tally = emptyTally();
  counted(tally, { mode: "two" }, "draw");
  assert.deepEqual(tally, emptyTally());
});

test("scoreFor: the counts by side for the game's mode and level; nothing for watched games", () => {
  let tally = counted(emptyTally(), { mode: "engine", level: "medium" }, "win");
  tally = counted(tally, { mode: "engine", level: "medium" }, "loss");
  tally = counted(tally, { mode: "engine", level: "medium" }, "loss");
  assert.deepEqual(scoreFor(tally, { mode: "engine", level: "medium", human: "x" }), { x: 1, o: 2, draw: 0 });
  assert.deepEqual(scoreFor(tally, { mode: "engine", level: "medium", human: "o" }), { x: 2, o: 1, draw: 0 });
  assert.deepEqual(scoreFor(tally, { mode: "engine", level: "perfect", human: "x" }), { x: 0, o: 0, draw: 0 });
  assert.deepEqual(scoreFor(counted(tally, { mode: "two" }, "x"), { mode: "two", human: "x" }), { x: 1, o: 0, draw: 0 });
  assert.equal(scoreFor(tally, { mode: "watch", level: "perfect", human: "x" }), null);
});
