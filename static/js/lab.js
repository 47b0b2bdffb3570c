// The lab page: wires the position editor, the engines' runs, the chart and the line of perfect play.

import { createApi } from "./api.js";
import { drawChart } from "./lab-chart.js";
import {
  afterMoves, cycleCell, emptyPosition, formatRows, fromSavedGame, parseRows,
} from "./lab-position.js";
import { cellName } from "./cells.js";
import { addResultRow, drawEditor, drawLine } from "./lab-render.js";
import { createWatch } from "./lab-watch.js";
import { fromPositionText, toPositionText } from "./position-text.js";
import { createWaitNotice } from "./refusal.js";
import { createStore } from "./storage.js";
import { DEFAULT_THEME, applyTheme } from "./theme.js";

const $ = (id) => document.getElementById(id);
// Every figure of the lab is the server's: without it, nothing is answered in the browser.
const api = createApi({ offlineWords: "The lab's engines run on the server: run them again when it answers." });
const store = createStore("tictactoe:v1:"); // the game page's keys
const form = $("position");
const buttons = [...form.querySelectorAll("button"), $("lab-size")];
// The positions of the two experiments, as moves from the empty 3x3 board.
const EXPERIMENTS = { empty: [], centre: [[1, 1]] };

let position = emptyPosition(3, 3, 3);
let running = false;
// The Nodes column of the table, by engine, for the position shown (emptied when it changes).
let tableNodes = new Map();

/** Show `next` in the editor; `link`: also write it into the address bar (not for the first, empty board). */
function show(next, { link = true } = {}) {
  position = next;
  tableNodes = new Map();
  drawEditor($("editor"), position, (row, col) => { if (!running) show(cycleCell(position, row, col)); });
  $("lab-text").value = formatRows(position.rows);
  const size = `${position.rows.length}x${position.rows[0]?.length ?? 0}:${position.k ?? "default"}`;
  const select = $("lab-size");
  if (![...select.options].some((option) => option.value === size)) {
    select.append(new Option(`${size.replace(":", " · k ")} (typed or from the game)`, size));
  }
  select.value = size;
  if (!link) return;
  // The address bar carries the position, in the form of GET /position: a link to this position.
  const query = new URLSearchParams({ board: toPositionText(position.rows) });
  if (position.k !== null) query.set("k", String(position.k));
  const search = `?${query.toString().replaceAll("%2F", "/")}`;
  if (search !== window.location.search) window.history.replaceState(null, "", search);
}

/** The position in the address bar (?board=x2/1o1/3&k=3), checked by the server; else the empty 3x3 board. */
async function fromLink() {
  const query = new URLSearchParams(window.location.search);
  if (!query.has("board")) return;
  const rows = fromPositionText(query.get("board"));
  const kText = query.get("k");
  const k = kText === null ? null : Number(kText);
  let problem = null;
  if (!rows) problem = `The link's board “${query.get("board")}” is not a position such as x2/1o1/3.`;
  else if (k !== null && !/^[0-9]{1,2}$/.test(kText)) problem = `The link's k “${kText}” is not a whole number.`;
  else {
    try {
      await api.state(k === null ? { board: rows } : { board: rows, k });
    } catch (error) {
      problem = error.kind === "offline" ? error.message : `The server refused the link's position: ${error.message}`;
    }
  }
  if (problem) {
    status(`${problem} Here is an empty board instead.`, true);
    show(emptyPosition(3, 3, 3));
  } else {
    show({ rows, k });
    status("Position taken from the link. Run every engine to compare them.");
  }
}

// The cue over the results table, while the table is wider than its box (a phone).
const tableBox = document.querySelector(".lab-table-wrap");
function showScrollCue() {
  $("lab-scroll-cue").hidden = tableBox.scrollWidth <= tableBox.clientWidth;
}
new ResizeObserver(showScrollCue).observe(tableBox);

function status(text, error = false) {
  $("lab-status").textContent = text;
  $("lab-status").classList.toggle("error", error);
}

// A refused run (429): the words, then the seconds until the engines may run again.
const refusal = createWaitNotice({ say: status, timer: $("lab-wait"), what: "run the engines again" });

/** Say why a run stopped: a refusal with its wait, or the error's own message. */
function failed(error) {
  if (error.kind === "limited") refusal.show(error);
  else status(error.message, true);
}

function setRunning(value) {
  running = value;
  for (const button of buttons) button.disabled = value;
  $("editor").setAttribute("aria-busy", String(value));
}

async function runAll() {
  const request = position.k === null ? { board: position.rows } : { board: position.rows, k: position.k };
  setRunning(true);
  $("results").tBodies[0].replaceChildren();
  drawChart($("chart"), []);
  $("pv").replaceChildren();
  const done = [];
  refusal.clear();
  try {
    const { engines } = await api.engines();
    for (const { name } of engines) {
      status(`Running ${name}… (${done.length} of ${engines.length} done)`);
      const answer = await api.analyze({ ...request, engine: name });
      done.push(answer);
      tableNodes.set(answer.engine, answer.nodes);
      addResultRow($("results").tBodies[0], answer);
      showScrollCue();
      drawChart($("chart"), done.map(({ engine, nodes }) => ({ engine, nodes })));
    }
    status(`Every engine has answered. Now the line of perfect play…`);
    await showPerfectLine(request);
    // The position in quotes: its dots are the board's, not the sentence's.
    status(`Done: ${engines.length} engines searched “${formatRows(request.board)}”; perfect play from it is below.`);
  } catch (error) {
    failed(error);
  } finally {
    setRunning(false);
  }
}

// The line of perfect play, from the server's /move at perfect (seeded, so it repeats)
// until the server says the game is over.
async function showPerfectLine(request) {
  const line = [{ rows: request.board, move: null, label: "now" }];
  let board = request.board;
  for (let ply = 1; ; ply++) {
    const answer = await api.move({ board, k: request.k, level: "perfect", seed: 0 });
    board = answer.board;
    line.push({ rows: board, move: answer.move,
      label: `${ply}. ${answer.player.toUpperCase()} ${cellName(answer.move.row, answer.move.col)}` });
    drawLine($("pv"), line);
    if (answer.status !== "in_progress") {
      line[line.length - 1].label += answer.status === "draw" ? " · draw" : ` · ${answer.status[0].toUpperCase()} wins`;
      drawLine($("pv"), line);
      return;
    }
  }
}

$("lab-size").addEventListener("change", () => {
  const [size, k] = $("lab-size").value.split(":");
  const [rows, cols] = size.split("x").map(Number);
  show(emptyPosition(rows, cols, k === "default" ? null : Number(k)));
});
form.addEventListener("submit", (event) => {
  event.preventDefault();
  const rows = parseRows($("lab-text").value);
  if (rows.length === 0) return status("Type the rows, such as x../.o./...", true);
  // Another size keeps no k: the server then applies its default for that size.
  const sameSize = position.rows.length === rows.length && position.rows[0].length === rows[0].length;
  show({ rows, k: sameSize ? position.k : null });
  status("Position set. Run every engine to compare them.");
});
$("clear").addEventListener("click", () => show(emptyPosition(position.rows.length, position.rows[0].length, position.k)));
$("from-game").addEventListener("click", () => {
  const saved = fromSavedGame(store.get("game"));
  if (saved) {
    show(saved);
    status("Position taken from the game.");
  } else status("There is no saved game in this browser yet: play one on the game page.", true);
});
$("run").addEventListener("click", runAll);
for (const button of form.querySelectorAll("[data-experiment]")) {
  button.addEventListener("click", () => {
    show(afterMoves(emptyPosition(3, 3, 3), EXPERIMENTS[button.dataset.experiment]));
    runAll();
  });
}

createWatch(api, {
  load: $("trace-load"), play: $("trace-play"), step: $("trace-step"), end: $("trace-end"),
  speed: $("trace-speed"), status: $("trace-status"), wait: $("trace-wait"), trees: $("trace-trees"),
  engines: $("trace-engines"),
}, {
  getPosition: () => position,
  // Only a table run on the very position a tree was searched on is comparable.
  tableNodes: (engine, searched) => (searched === position ? tableNodes.get(engine) ?? null : null),
});

applyTheme(store.get("theme") ?? DEFAULT_THEME);
const linked = new URLSearchParams(window.location.search).has("board");
if (!linked) show(position, { link: false });
fromLink();

// The page as an app (static/js/offline-app.js), after the load: the network's going and coming back in words.
window.addEventListener("load", () => {
  import("./offline-app.js").then(({ startApp }) => startApp({
    box: $("notices"), store: null,
    words: { offline: "You are offline: the lab's engines wait for the network.", online: "You are back online." },
  })).catch(() => {});
});
