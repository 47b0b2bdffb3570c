// links.js: game links ("?size=3x3&k=3&level=perfect&side=x&moves=b2,a1,c3"), written and
// read back, syntax only; checkGame asks the server (a fake api here) about each position.
// tests/test_page_agrees_with_server.py checks the size, k, level and side against
// /embed's checks in web/pages/routes.py.

import { SERVER_SETS } from "./server-sets.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";

import { checkGame, gameLink, readGameLink } from "../../static/js/links.js";

const DEFAULTS = { level: "medium", human: "x", engines: { x: "perfect", o: "mcts" } };
const ENGINE = { rows: 3, cols: 3, k: 3, level: "perfect", mode: "engine", human: "x" };

// b2, a1, c3:   o . .
//               . x .
//               . . x
const HISTORY = [["...", "...", "..."], ["...", ".x.", "..."], ["o..", ".x.", "..."], ["o..", ".x.", "..x"]];

test("gameLink: size, k, level, side and the moves by name, commas left readable", () => {
  assert.equal(gameLink(ENGINE, HISTORY), "?size=3x3&k=3&level=perfect&side=x&moves=b2,a1,c3");
});

test("gameLink: no moves on an empty board", () => {
  assert.equal(gameLink(ENGINE, HISTORY.slice(0, 1)), "?size=3x3&k=3&level=perfect&side=x");
});

test("gameLink: two people name their mode instead of a level; watch mode names its engines", () => {
  assert.equal(gameLink({ ...ENGINE, mode: "two" }, HISTORY.slice(0, 2)), "?size=3x3&k=3&mode=two&moves=b2");
  const watch = { ...ENGINE, mode: "watch", engines: { x: "perfect", o: "alpha-beta" } };
  assert.equal(gameLink(watch, HISTORY.slice(0, 1)), "?size=3x3&k=3&mode=watch&x=perfect&o=alpha-beta");
});

test("gameLink: 15x15 cells past i and past row 9", () => {
  const empty = Array.from({ length: 15 }, () => ".".repeat(15));
  const corner = [...empty.slice(0, 14), `${".".repeat(14)}x`];
  const settings = { ...ENGINE, rows: 15, cols: 15, k: 5 };
  assert.equal(gameLink(settings, [empty, corner]), "?size=15x15&k=5&level=perfect&side=x&moves=o15");
});

test("readGameLink reads back what gameLink writes", () => {
  const link = readGameLink(gameLink(ENGINE, HISTORY), DEFAULTS);
  assert.deepEqual(link.history, HISTORY);
  assert.deepEqual(link.settings, { ...ENGINE, engines: DEFAULTS.engines });
  const watch = { ...ENGINE, mode: "watch", engines: { x: "negascout", o: "mcts" } };
  assert.deepEqual(readGameLink(gameLink(watch, HISTORY), DEFAULTS).settings, { ...watch, level: "medium" });
});

test("readGameLink: null when the query holds no game", () => {
  assert.equal(readGameLink("", DEFAULTS), null);
  assert.equal(readGameLink("?utm_source=mail", DEFAULTS), null);
});

test("readGameLink: the defaults fill level, side and engines; a size alone starts an empty game", () => {
  const link = readGameLink("?size=4x4&k=4", DEFAULTS);
  assert.deepEqual(link.settings, {
    rows: 4, cols: 4, k: 4, level: "medium", mode: "engine", human: "x", engines: DEFAULTS.engines,
  });
  assert.deepEqual(link.history, [["....", "....", "....", "...."]]);
});

test("readGameLink: a board wider than tall, rows first", () => {
  //  . . . . x
  //  . . . . .
  //  o . . . .
  const link = readGameLink("?size=3x5&k=3&moves=e1,a3", DEFAULTS);
  assert.deepEqual([link.settings.rows, link.settings.cols], [3, 5]);
  assert.deepEqual(link.history[2], ["....x", ".....", "o...."]);
  assert.match(readGameLink("?size=3x5&k=3&moves=a4", DEFAULTS).error, /“a4”, is not a cell of a 3×5 board/);
});

test("readGameLink: moves alone mean 3x3, k 3", () => {
  const link = readGameLink("?moves=b2", DEFAULTS);
  assert.equal(link.settings.rows, 3);
  assert.equal(link.settings.k, 3);
  assert.deepEqual(link.history[1], ["...", ".x.", "..."]);
});

test("readGameLink: without k, a size takes the API's default k, whatever a preset's k", () => {
  // The 5x5 preset plays four in a row; a link with only the size plays as the API and /embed do.
  assert.equal(readGameLink("?size=5x5", DEFAULTS).settings.k, 5);
  for (const [size, k] of Object.entries(SERVER_SETS.defaultK)) {
    assert.equal(readGameLink(`?size=${size}`, DEFAULTS).settings.k, k, size);
  }
  assert.match(readGameLink("?size=16x16", DEFAULTS).error, /needs k/, "a size the server does not play");
});

test("readGameLink: upper-case cell names and a trailing comma are read", () => {
  assert.deepEqual(readGameLink("?moves=B2,A1,", DEFAULTS).history, HISTORY.slice(0, 3));
});

test("readGameLink: syntax only, k larger than the board and sizes the server refuses pass to the server", () => {
  assert.equal(readGameLink("?size=3x3&k=9", DEFAULTS).settings.k, 9);
  assert.equal(readGameLink("?size=2x20&k=3", DEFAULTS).settings.cols, 20);
});

test("readGameLink: an error in words for each thing it cannot read", () => {
  const errors = {
    "?size=3by3": /size must look like 3x3, not “3by3”/,
    "?size=100x3": /size must look like 3x3/,
    "?size=3x3&k=three": /needs k/,
    "?size=3x3&k=": /needs k/,
    "?size=3x3&k=3&mode=solo": /mode “solo” is not engine, two or watch/,
    "?size=3x3&k=3&level=hard": /level “hard” is not easy, medium or perfect/,
    "?size=3x3&k=3&side=z": /side “z” is not x or o/,
    "?size=3x3&k=3&moves=d1": /Move 1 of the link, “d1”, is not a cell of a 3×3 board/,
    "?size=3x3&k=3&moves=b2,a4": /Move 2 of the link, “a4”/,
    "?size=3x3&k=3&moves=a0": /Move 1 of the link, “a0”/,
    "?size=3x3&k=3&moves=b2x": /Move 1 of the link, “b2x”/,
    "?size=3x3&k=3&moves=b2,b2": /plays b2 twice \(move 2\)/,
  };
  for (const [query, error] of Object.entries(errors)) {
    const link = readGameLink(query, DEFAULTS);
    assert.ok(link && "error" in link, `${query}: ${JSON.stringify(link)}`);
    assert.match(link.error, error, query);
  }
});

test("readGameLink: a full 3x3 board and a 15x15 corner", () => {
  //  x o x
  //  x o o
  //  o x x
  const full = readGameLink("?size=3x3&k=3&moves=a1,b1,c1,b2,a2,a3,b3,c2,c3", DEFAULTS);
  assert.deepEqual(full.history[9], ["xox", "xoo", "oxx"]);
  assert.equal(full.history.length, 10);
  const big = readGameLink("?size=15x15&k=5&moves=o15,a1", DEFAULTS);
  assert.equal(big.history[2][14], `${".".repeat(14)}x`);
  assert.equal(big.history[2][0], `o${".".repeat(14)}`);
  assert.match(readGameLink("?size=15x15&k=5&moves=p1", DEFAULTS).error, /“p1”, is not a cell of a 15×15 board/);
  assert.match(readGameLink("?size=15x15&k=5&moves=a16", DEFAULTS).error, /“a16”/);
});

// A fake api whose state() answers from a table of boards, and records what it was asked.
function fakeApi(answers) {
  const asked = [];
  return {
    asked,
    async state(body) {
      asked.push(body);
      const answer = answers[body.board.join("/")];
      if (answer instanceof Error) throw answer;
      return answer ?? { status: "in_progress", line: null };
    },
  };
}

test("checkGame: every position is asked about, in order, and the last answer is kept", async () => {
  const api = fakeApi({ "o../.x./..x": { status: "in_progress", line: null, value: "draw" } });
  const result = await checkGame(api, { settings: ENGINE, history: HISTORY });
  assert.deepEqual(result, { answer: { status: "in_progress", line: null, value: "draw" } });
  assert.deepEqual(api.asked, HISTORY.slice(1).map((board) => ({ board, k: 3 })));
});

test("checkGame: an empty game asks nothing", async () => {
  const api = fakeApi({});
  assert.deepEqual(await checkGame(api, { settings: ENGINE, history: HISTORY.slice(0, 1) }),
    { answer: { status: "in_progress", line: null } });
  assert.deepEqual(api.asked, []);
});

test("checkGame: a link that plays on after the game ended says where it ended", async () => {
  //  x x x   X won with c1 (move 5); the link then plays c3.
  //  o o .
  //  . . x
  const link = readGameLink("?size=3x3&k=3&moves=a1,a2,b1,b2,c1,c3", DEFAULTS);
  const api = fakeApi({ "xxx/oo./...": { status: "x_won", line: [[0, 0], [0, 1], [0, 2]] } });
  const result = await checkGame(api, link);
  assert.equal(result.problem, "The link plays on after the game ended at move 5 (X c1).");
  assert.equal(api.asked.length, 5, "nothing is asked after the end");
});

test("checkGame: the server's refusal is passed on in words, marked refused", async () => {
  const refusal = (said, status = 400) => Object.assign(new Error(said ?? "refused"), { said, status });
  const link = { settings: { ...ENGINE, k: 9 }, history: HISTORY.slice(0, 1).concat([["x..", "...", "..."]]) };
  // The server's words, in the page's language: said as its reason.
  let result = await checkGame(fakeApi({ "x../.../...": refusal("k must be at most 3 on this board") }), link);
  assert.deepEqual(result, { problem: "The server refused the link's game: k must be at most 3 on this board.", refused: true });
  // Its words in another language (api.js keeps none): the page says the refusal's status instead.
  result = await checkGame(fakeApi({ "x../.../...": refusal(null, 400) }), link);
  assert.deepEqual(result, { problem: "The server refused the link's game (HTTP 400).", refused: true });
  // No answer at all: what kept the check from being made.
  result = await checkGame(fakeApi({ "x../.../...": Object.assign(new Error("Could not reach the server."), { said: null, status: null }) }), link);
  assert.deepEqual(result, { problem: "The link's game could not be checked. Could not reach the server.", refused: true });
});
