// Links to games: the address bar carries the game in the page's own words, such as
// "?size=3x3&k=3&level=perfect&side=x&moves=b2,a1,c3" (cells named as on the board).  This
// module only reads and writes that syntax; whether the game could be played is the server's
// answer (POST /state for each position, in checkGame).

import { cellName, parseCellName } from "./cells.js";
import { LEVELS, defaultK } from "./server-sets.js";
import { moveBetween, sideToMove } from "./state.js";
import { clause, listWords, sentences, t } from "./words.js";

const MARK = { x: "X", o: "O" };

/**
 * The query string ("?size=…") of a link to a game with `settings` and `history`, opening in language
 * `lang` when given ("&lang=fr", last).
 */
export function gameLink(settings, history, lang = null) {
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
  if (lang) query.set("lang", lang);
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
  if (!size) return { error: t("The link's size must look like 3x3, not “{size}”.", { size: query.get("size") }) };
  const rows = Number(size[1]);
  const cols = Number(size[2]);
  // Without k, the API's own default for the size (a link with only a size plays as /embed's).
  const kText = query.get("k") ?? String(defaultK(rows, cols) ?? "");
  if (!/^[0-9]{1,2}$/.test(kText)) return { error: t("The link needs k, the line length, as a whole number.") };
  const mode = query.get("mode") ?? "engine";
  if (!["engine", "two", "watch"].includes(mode)) {
    return { error: t("The link's mode “{mode}” is not engine, two or watch.", { mode }) };
  }
  const level = query.get("level") ?? defaults.level;
  if (!LEVELS.includes(level)) {
    return { error: t("The link's level “{level}” is not {levels}.", { level, levels: listWords(LEVELS, "or") }) };
  }
  const human = query.get("side") ?? defaults.human;
  if (!["x", "o"].includes(human)) return { error: t("The link's side “{side}” is not x or o.", { side: human }) };
  const engines = { x: query.get("x") || defaults.engines.x, o: query.get("o") || defaults.engines.o };
  const settings = { rows, cols, k: Number(kText), level, mode, human, engines };
  const history = [Array.from({ length: rows }, () => ".".repeat(cols))];
  const names = (query.get("moves") ?? "").split(",").filter(Boolean);
  for (const [i, name] of names.entries()) {
    const cell = parseCellName(name.toLowerCase());
    if (!cell || cell.row >= rows || cell.col >= cols) {
      return {
        error: t("Move {number} of the link, “{cell}”, is not a cell of a {rows}×{cols} board.",
          { number: i + 1, cell: name, rows, cols }),
      };
    }
    const board = history[history.length - 1];
    if (board[cell.row][cell.col] !== ".") {
      return { error: t("The link plays {cell} twice (move {number}).", { cell: name, number: i + 1 }) };
    }
    const mark = sideToMove(board);
    history.push(board.map((text, r) => (r !== cell.row ? text
      : text.slice(0, cell.col) + mark + text.slice(cell.col + 1))));
  }
  return { settings, history };
}

/**
 * Why the server did not take a link's game, in the page's language: the server's reason when it gave
 * one in it, else the status of its refusal, else what kept the check from being made.
 */
function refusedWords(error) {
  if (error.said) return t("The server refused the link's game: {reason}.", { reason: clause(error.said) });
  if (error.status) return t("The server refused the link's game (HTTP {status}).", { status: String(error.status) });
  return sentences(t("The link's game could not be checked."), error.message);
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
      return {
        problem: t("The link plays on after the game ended at move {number} ({mark} {cell}).",
          { number: i - 1, mark: MARK[move.by], cell: cellName(move.row, move.col) }),
      };
    }
    try {
      answer = await api.state({ board: history[i], k: settings.k });
    } catch (error) {
      return { problem: refusedWords(error), refused: true };
    }
  }
  return { answer };
}
