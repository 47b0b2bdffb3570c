// puzzle-progress.js: the player's rating, streak and tried puzzles, and the choice of the next puzzle.

import "./server-sets.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  K, START_RATING, emptyProgress, expectedScore, nextPuzzle, readProgress, recordResult, solvedCount,
} from "../../static/js/puzzle-progress.js";
import { firstWords, lineWords, puzzleMeta } from "../../static/js/puzzle-play.js";

const puzzle = (id, rating) => ({ id, rating });

test("a new player starts at the start rating with nothing tried", () => {
  assert.deepEqual(emptyProgress(), { rating: START_RATING, streak: 0, best: 0, tried: {}, choice: { board: "", task: "" } });
});

test("expectedScore: even odds at equal ratings, 10 to 1 at 400 points", () => {
  assert.equal(expectedScore(1000, 1000), 0.5);
  assert.ok(Math.abs(expectedScore(1400, 1000) - 10 / 11) < 1e-12);
});

test("recordResult: a first-try solve raises the rating by K times the surprise, and the streak", () => {
  const after = recordResult(emptyProgress(), puzzle("a", 1000), true);
  assert.equal(after.rating, START_RATING + K / 2);
  assert.equal(after.streak, 1);
  assert.equal(after.best, 1);
  assert.deepEqual(after.tried, { a: "solved" });
  const missed = recordResult(after, puzzle("b", 1000), false);
  assert.equal(missed.streak, 0);
  assert.equal(missed.best, 1);
  assert.ok(missed.rating < after.rating);
  assert.equal(solvedCount(missed), 1);
});

test("recordResult: only a puzzle's first try counts", () => {
  const once = recordResult(emptyProgress(), puzzle("a", 1200), false);
  assert.equal(recordResult(once, puzzle("a", 1200), true), once);
});

test("readProgress keeps what is well formed and starts the rest again", () => {
  const saved = { rating: 1234, streak: 3, best: 5, tried: { a: "solved", b: "won?" }, choice: { board: "4x4k4", task: "lose" } };
  assert.deepEqual(readProgress(saved), { rating: 1234, streak: 3, best: 5, tried: { a: "solved" }, choice: { board: "4x4k4", task: "" } });
  assert.deepEqual(readProgress(null), emptyProgress());
  assert.deepEqual(readProgress({ rating: -5, streak: "x" }).rating, START_RATING);
});

test("nextPuzzle: the untried one nearest the player's rating, then round the list", () => {
  const list = [puzzle("a", 800), puzzle("b", 1200), puzzle("c", 1000)];
  assert.equal(nextPuzzle(list, emptyProgress()).id, "c");
  const tried = { ...emptyProgress(), tried: { a: "solved", b: "missed", c: "solved" } };
  assert.equal(nextPuzzle(list, tried, "b").id, "c");
  assert.equal(nextPuzzle(list, tried, "c").id, "a");
  assert.equal(nextPuzzle([], emptyProgress()), null);
  // The puzzle on the board is never offered again at once.
  assert.equal(nextPuzzle(list, emptyProgress(), "c").id, "a");
});

test("the puzzle's words: its line, the first words, the moves after it", () => {
  const shown = { rows: 3, cols: 3, k: 3, difficulty: 2, rating: 1000, moves: 1, player: "o" };
  assert.equal(puzzleMeta(shown), "3 × 3 · 3 in a row · difficulty 2 of 5 · rated 1000");
  assert.equal(firstWords(shown), "One move to find: O to move.");
  assert.equal(firstWords({ ...shown, moves: 3 }), "3 moves to find, one at a time: O to move.");
  assert.equal(lineWords([{ row: 1, col: 1 }, { row: 0, col: 0 }], "o"), "Then X b2, O a1.");
  assert.equal(lineWords([], "x"), "");
});
