// The API's answers made in the browser, for when the server cannot be reached: api.js asks here
// only then (online, the server answers, as ever).  The engine plays 3x3 at every level, with
// hints and the review, from its own table of every 3x3 position (solved.js); how any board
// stands comes from the win check (rules.js), so two players play on every board.  What only the
// server can do (the engine on a bigger board, the lab's and watch mode's engines) gets no
// answer here, and `unavailableWords` says what waits for it.  The answers have the server's
// fields (those the page reads), and `offline: true`.

import { outcome } from "./rules.js";
import { OFFLINE_SIZE_WORDS, SETS } from "./server-sets.js";
import { analysis, candidates, rank, readTable } from "./solved.js";
import { sideToMove } from "./state.js";
import { t } from "./words.js";

const { rows: ROWS, cols: COLS, k: K } = SETS.offline;

let table = null; // a promise of the table, fetched once (the service worker keeps it)

function loadTable() {
  table ??= fetch(new URL(`../${SETS.offline.table}`, import.meta.url))
    .then((response) => {
      if (!response.ok) throw new Error(`the table answered HTTP ${response.status}`);
      return response.json();
    })
    .then(readTable)
    .catch((error) => {
      table = null; // the next question asks again
      throw error;
    });
  return table;
}

// Whether the engine's table holds this board: the table's size and k.
function tabled(payload) {
  const board = payload?.board;
  return Array.isArray(board) && board.length === ROWS && board[0]?.length === COLS && payload.k === K;
}

/**
 * The server's answer to `path` ("/state", "/move", "/analyze" or "/position") for `payload` (its
 * body; for GET /position, {board, k}), made here; null when only the server can answer it.
 * Rejects when the table cannot be read.
 */
export async function answerOffline(path, payload) {
  const started = performance.now();
  if (path === "/state") return stateAnswer(payload);
  // A teaching engine, and a seeded move (which repeats the server's draw), are the server's alone.
  const serverOnly = payload?.engine !== undefined || payload?.seed !== undefined;
  if (serverOnly || !tabled(payload) || outcome(payload.board, K).status !== "in_progress") return null;
  const solved = await loadTable();
  const known = analysis(solved, payload.board);
  if (!known) return null; // no game reaches this board: the server would refuse it
  const done = { proven: true, source: "proof", cached: false, depth: null, nodes: 0, offline: true };
  const ms = () => Math.round((performance.now() - started) * 1000) / 1000;
  const fields = { board: payload.board, k: K, player: sideToMove(payload.board), best: known.best };
  if (path === "/analyze") {
    return { ...fields, moves: known.moves, value: known.value, plies: known.plies, ...done, ms: ms() };
  }
  if (path === "/position") {
    // The server's order: the best first, by the engine's preference, row by row among equals.  A
    // move's reason and the rule ladder's advice are the server's words: offline there are none.
    const moves = [...known.moves].sort((a, b) => rank(b) - rank(a)).map((move) => ({ ...move, reason: null }));
    const { proven, source, depth, offline } = done;
    return { ...fields, moves, value: known.value, plies: known.plies, proven, source, depth, rule: null, offline };
  }
  if (path !== "/move") return null;
  const choices = candidates(solved, payload.board, payload.level);
  const move = choices[Math.floor(Math.random() * choices.length)];
  const side = sideToMove(payload.board);
  const board = payload.board.map((text, row) =>
    (row === move.row ? text.slice(0, move.col) + side + text.slice(move.col + 1) : text));
  return {
    move, player: side, board, ...outcome(board, K), level: payload.level, k: K,
    value: known.value, plies: known.plies, ...done, ms: ms(),
  };
}

// POST /state's answer: how the game on the board stands (any board the page plays).
function stateAnswer({ board, k }) {
  const { status, line } = outcome(board, k);
  return { board, k, status, line, to_move: status === "in_progress" ? sideToMove(board) : null };
}

/** What waits for the server, in a player's words: the sentence after "Could not reach the server." */
export function unavailableWords(path, payload) {
  if (payload?.engine !== undefined || path === "/engines" || path === "/trace") {
    return t("Watching engines play needs the server.");
  }
  const size = OFFLINE_SIZE_WORDS;
  if (path === "/analyze") return t("Without the server, hints are there for {size} only.", { size });
  if (path === "/position") return t("Without the server, the review checks {size} games only.", { size });
  return t("Without the server, the engine plays {size} only.", { size });
}
