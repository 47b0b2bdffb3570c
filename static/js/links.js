// Links to games: the address bar carries the game in the page's own words, such as
// "?size=3x3&k=3&level=perfect&side=x&moves=b2,a1,c3" (cells named as on the board).  This
// module only reads and writes that syntax; whether the game could be played is the server's
// answer (POST /state for each position, in checkGame).

import { cellName, parseCellName } from "./cells.js";
import { LEVELS, defaultK } from "./server-sets.js";
import { moveBetween, sideToMove } from "./state.js";

const MARK = { x: "X", o: "O" };

/** The query string ("?size=…") of a link to a game with `settings` and `history`. */
export function gameLink(settings, history) {
  const query = new URLSearchParams({ size: `${settings.rows}x${settings.cols}`, k: String(settings.k) });
  if (settings.mode === "engine") {
    query.set("level", settings.level);
    query.set("side", settings.human);
  } else {
    query.set("mode", settings.mode);
    if (settings.mode === "watch") {
      query.set("x", settings.engines.x);
      query.set("o", settings.engines.o);
    }
  }
  const moves = history.slice(1).map((rows, i) => moveBetween(history[i], rows))
    .filter(Boolean).map((move) => cellName(move.row, move.col));
  if (moves.length) query.set("moves", moves.join(","));
  // Commas and slashes stay readable in the address bar.
  return `?${query.toString().replaceAll("%2C", ",")}`;
}

/**
 * A game link read from a query string: null when the query holds no game, {error} when it is
 * not a link this page can read, else {settings, history} (history: every position from the
 * empty board).  `defaults` fills what the link leaves out (level, side, engines).
 */
export function readGameLink(search, defaults) {
  const query = new URLSearchParams(search);
  if (!query.has("size") && !query.has("moves")) return null;
  const size = /^([0-9]{1,2})x([0-9]{1,2})$/.exec(query.get("size") ?? "3x3");
  if (!size) return { error: `The link's size must look like 3x3, not “${query.get("size")}”.` };
  const rows = Number(size[1]);
  const cols = Number(size[2]);
  // Without k, the API's own default for the size (a link with only a size plays as /embed's).
  const kText = query.get("k") ?? String(defaultK(rows, cols) ?? "");
  if (!/^[0-9]{1,2}$/.test(kText)) return { error: "The link needs k, the line length, as a whole number." };
  const mode = query.get("mode") ?? "engine";
  if (!["engine", "two", "watch"].includes(mode)) return { error: `The link's mode “${mode}” is not engine, two or watch.` };
  const level = query.get("level") ?? defaults.level;
  if (!LEVELS.includes(level)) return { error: `The link's level “${level}” is not ${LEVELS.join(", ")}.` };
  const human = query.get("side") ?? defaults.human;
  if (!["x", "o"].includes(human)) return { error: `The link's side “${human}” is not x or o.` };
  const engines = { x: query.get("x") || defaults.engines.x, o: query.get("o") || defaults.engines.o };
  const settings = { rows, cols, k: Number(kText), level, mode, human, engines };
  const history = [Array.from({ length: rows }, () => ".".repeat(cols))];
  const names = (query.get("moves") ?? "").split(",").filter(Boolean);
  for (const [i, name] of names.entries()) {
    const cell = parseCellName(name.toLowerCase());
    if (!cell || cell.row >= rows || cell.col >= cols) {
      return { error: `Move ${i + 1} of the link, “${name}”, is not a cell of a ${rows}×${cols} board.` };
    }
    const board = history[history.length - 1];
    if (board[cell.row][cell.col] !== ".") return { error: `The link plays ${name} twice (move ${i + 1}).` };
    const mark = sideToMove(board);
    history.push(board.map((text, r) => (r !== cell.row ? text
      : text.slice(0, cell.col) + mark + text.slice(cell.col + 1))));
  }
  return { settings, history };
}

/**
 * Ask the server about every position of a linked game (POST /state), one at a time: resolves to
 * {answer} (the server's answer for the last position) when the game could be played move by move,
 * or to {problem} saying what is wrong with it (and `refused` when the server refused its rules,
 * such as a size it does not play).
 */
export async function checkGame(api, { settings, history }) {
  let answer = { status: "in_progress", line: null }; // the empty board
  for (let i = 1; i < history.length; i++) {
    if (answer.status !== "in_progress") {
      // The game ended: the check stops before its impossible sequels.
      const move = moveBetween(history[i - 2], history[i - 1]);
      return { problem: `The link plays on after the game ended at move ${i - 1} (${MARK[move.by]} ` +
        `${cellName(move.row, move.col)}).` };
    }
    try {
      answer = await api.state({ board: history[i], k: settings.k });
    } catch (error) {
      return { problem: `The server refused the link's game: ${error.message}.`, refused: true };
    }
  }
  return { answer };
}
