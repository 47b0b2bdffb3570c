// What the page's modules make of the cases tests/test_page_agrees_with_server.py sends on
// stdin (JSON), written to stdout (JSON) for that test to set beside the server's own reading.
// Not a node:test file: it only computes, the pytest test asserts.
//
// in:  {positionTexts: [text], boards: [[row]], cells: [[row, col]], links: [{name: value}]}
// out: {fromText: [rows | null], toText: [text], cellNames: [name], parsedNames: [{row, col} | null],
//       links: [{settings} | {error}]}

import "./server-sets.mjs";
import { cellName, parseCellName } from "../../static/js/cells.js";
import { readGameLink } from "../../static/js/links.js";
import { fromPositionText, toPositionText } from "../../static/js/position-text.js";

// Filled in for parameters a case leaves out; the Python side only compares what a case gives.
const DEFAULTS = { level: "medium", human: "x", engines: { x: "perfect", o: "mcts" } };

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const cases = JSON.parse(Buffer.concat(chunks).toString("utf-8"));

const names = cases.cells.map(([row, col]) => cellName(row, col));
process.stdout.write(JSON.stringify({
  fromText: cases.positionTexts.map(fromPositionText),
  toText: cases.boards.map(toPositionText),
  cellNames: names,
  parsedNames: names.map(parseCellName),
  links: cases.links.map((params) => {
    const link = readGameLink(`?${new URLSearchParams(params)}`, DEFAULTS);
    return link.error ? { error: link.error } : { settings: link.settings };
  }),
}));
