// What the page's offline player makes of the cases tests/test_offline_player.py sends on stdin
// (JSON), written to stdout (JSON) for that test to set beside the engine's answers.  Not a
// node:test file: it only computes, the pytest test asserts.  The table is the file the page
// fetches (static/data/...), read from disk: fetch() is given it here, as the service worker
// gives it to the page.
//
// in:  {positions: [[row]], boards: [{board, k}]}
// out: {analyze: [answer], position: [answer], candidates: {easy, medium, perfect: [[{row, col}]]},
//       moves: [answer], state: [answer], winning: [{x: [{row, col}], o: [...]}]}

import "./server-sets.mjs";
import { readFile } from "node:fs/promises";
import { answerOffline } from "../../static/js/offline.js";
import { winningCells } from "../../static/js/rules.js";
import { candidates, readTable } from "../../static/js/solved.js";
import { SETS } from "../../static/js/server-sets.js";

const tablePath = new URL(`../../static/${SETS.offline.table}`, import.meta.url);
globalThis.fetch = async (url) => {
  if (String(url) !== String(tablePath)) throw new Error(`offline_cases.mjs fetches only the table, not ${url}`);
  return new Response(await readFile(tablePath));
};

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const cases = JSON.parse(Buffer.concat(chunks).toString("utf-8"));
const { k } = SETS.offline;
const table = readTable(JSON.parse(await readFile(tablePath, "utf-8")));
const ask = (path) => Promise.all(cases.positions.map((board) => answerOffline(path, { board, k, level: "perfect" })));

process.stdout.write(JSON.stringify({
  analyze: await ask("/analyze"),
  position: await ask("/position"),
  candidates: Object.fromEntries(["easy", "medium", "perfect"].map((level) =>
    [level, cases.positions.map((board) => candidates(table, board, level))])),
  moves: await ask("/move"),
  state: await Promise.all(cases.boards.map((body) => answerOffline("/state", body))),
  winning: cases.boards.map(({ board, k: rowK }) =>
    ({ x: winningCells(board, rowK, "x"), o: winningCells(board, rowK, "o") })),
}));
