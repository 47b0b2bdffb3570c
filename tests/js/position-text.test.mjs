// position-text.js: the position text of GET /position and the lab's links ("x2/1o1/3").
// tests/test_page_agrees_with_server.py checks both directions against
// tictactoe/game/notation.py on the same texts the server reads.

import { test } from "node:test";
import assert from "node:assert/strict";

import { fromPositionText, toPositionText } from "../../static/js/position-text.js";

const empty = (rows, cols) => Array.from({ length: rows }, () => ".".repeat(cols));

test("toPositionText: runs of empty cells become numbers, rows joined by /", () => {
  //  x . .
  //  . o .
  //  . . .
  assert.equal(toPositionText(["x..", ".o.", "..."]), "x2/1o1/3");
});

test("toPositionText: an empty board is one number a row", () => {
  assert.equal(toPositionText(empty(3, 3)), "3/3/3");
  assert.equal(toPositionText(empty(3, 5)), "5/5/5");
});

test("toPositionText: a full board has no numbers", () => {
  //  x o x
  //  x o o
  //  o x x
  assert.equal(toPositionText(["xox", "xoo", "oxx"]), "xox/xoo/oxx");
});

test("toPositionText: a run of 15 on 15x15 is written 15, never 1 and 5", () => {
  const rows = empty(15, 15);
  rows[7] = `${".".repeat(7)}x${".".repeat(7)}`;
  const text = toPositionText(rows);
  assert.equal(text.split("/").length, 15);
  assert.equal(text.split("/")[0], "15");
  assert.equal(text.split("/")[7], "7x7");
});

test("fromPositionText reads what toPositionText writes", () => {
  const boards = [
    ["x..", ".o.", "..."],
    empty(3, 3),
    ["xox", "xoo", "oxx"],
    empty(15, 15),
    ["x...", "....", "...o"],
    ["x..x.", "..o..", "o...."],
  ];
  for (const rows of boards) assert.deepEqual(fromPositionText(toPositionText(rows)), rows);
});

test("fromPositionText: dots, upper-case stones and mixed forms", () => {
  assert.deepEqual(fromPositionText("x../.o./..."), ["x..", ".o.", "..."]);
  assert.deepEqual(fromPositionText("X2/1O1/3"), ["x..", ".o.", "..."]);
  assert.deepEqual(fromPositionText("x.1/1o./3"), ["x..", ".o.", "..."]);
});

test("fromPositionText: a two-digit number is one run (12 is twelve, not one and two)", () => {
  assert.deepEqual(fromPositionText("12/12/12"), empty(3, 12));
});

test("fromPositionText: null for what is not a position text", () => {
  for (const text of ["", "/", "x2//3", "x2/1o1/4", "a../.../...", "x2 /1o1/3", "x2/1o1/3\n"]) {
    assert.equal(fromPositionText(text), null, JSON.stringify(text));
  }
});

test("fromPositionText: null for a value that is not text (a missing query parameter)", () => {
  assert.equal(fromPositionText(null), null);
  assert.equal(fromPositionText(undefined), null);
  assert.equal(fromPositionText(33), null);
});

test("fromPositionText: syntax only, a board too small for the server is still read", () => {
  assert.deepEqual(fromPositionText("x2/1o1"), ["x..", ".o."]);
});

test("fromPositionText: syntax only, a run too long for the server is still read (capped at 99)", () => {
  // The server refuses runs over 15 with its own words; the page must not hang on "999999".
  assert.equal(fromPositionText("999999")[0].length, 99);
});
