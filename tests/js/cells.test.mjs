// cells.js: cell names ("b2") from the API's 0-based row and column, and back.
// The names must be those of tictactoe/game/notation.py's cell_label:
// tests/test_page_agrees_with_server.py checks that for every cell of 15x15.

import { test } from "node:test";
import assert from "node:assert/strict";

import { cellName, columnLetter, parseCellName, rowNumber } from "../../static/js/cells.js";

test("cellName: column letter, then the row counted from 1 at the top", () => {
  //     a  b  c
  //  1  a1 .  .
  //  2  .  b2 .
  //  3  a3 .  c3
  assert.equal(cellName(0, 0), "a1");
  assert.equal(cellName(1, 1), "b2");
  assert.equal(cellName(2, 0), "a3");
  assert.equal(cellName(2, 2), "c3");
  assert.equal(cellName(0, 2), "c1");
});

test("cellName: the far corner of 15x15 is o15", () => {
  assert.equal(cellName(14, 14), "o15");
  assert.equal(cellName(14, 0), "a15");
  assert.equal(cellName(0, 14), "o1");
});

test("columnLetter and rowNumber: the board's margins", () => {
  assert.equal(columnLetter(0), "a");
  assert.equal(columnLetter(14), "o");
  assert.equal(rowNumber(0), "1");
  assert.equal(rowNumber(14), "15");
  assert.equal(typeof rowNumber(3), "string");
});

test("parseCellName: the 0-based row and column of a name", () => {
  assert.deepEqual(parseCellName("a1"), { row: 0, col: 0 });
  assert.deepEqual(parseCellName("b2"), { row: 1, col: 1 });
  assert.deepEqual(parseCellName("c1"), { row: 0, col: 2 });
  assert.deepEqual(parseCellName("o15"), { row: 14, col: 14 });
});

test("parseCellName reads back every name cellName writes on 15x15", () => {
  for (let row = 0; row < 15; row++) {
    for (let col = 0; col < 15; col++) {
      assert.deepEqual(parseCellName(cellName(row, col)), { row, col });
    }
  }
});

test("parseCellName: null for what is not a cell name", () => {
  // Row 0 does not exist (numbers start at 1), and cellName never writes a leading zero.
  for (const name of ["", "b", "2", "2b", "bb2", "b2 ", " b2", "b123", "B2", "a0", "a00", "a01", "b-1", "b2,c3"]) {
    assert.equal(parseCellName(name), null, name);
  }
});

test("parseCellName: syntax only, a name past a small board is still read (links.js checks the size)", () => {
  assert.deepEqual(parseCellName("z99"), { row: 98, col: 25 });
});
