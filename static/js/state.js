// The game state: a plain, serialisable object (saved to localStorage, and
// the source of the payload posted to the server).  Functions here return new
// states and never decide the game: status and winning line come only from
// the server's answers.
//
// state = {
//   version: 1,
//   rows, cols, k, level,          // the rules and the engine's level
//   mode: "engine" | "two" | "watch", // against the engine, two people on one device, or engine vs engine
//   engines: {x, o} | undefined,   // watch mode: the engine (a GET /engines name) playing each side
//   human: "x" | "o",              // the human's side against the engine (X always moves first)
//   history: [[row strings], ...], // every position since the empty board; the last is current
//   status: "in_progress" | "x_won" | "o_won" | "draw",
//   line: [[r, c], ...] | null,    // the winning line, as the server reported it
//   pending: null | "check" | "engine",  // the server call the position still needs
//   undone: [{positions, status, line, pending}], // what undo took back, the latest last: redo
//                                  // puts `positions` back with the server's word on the last one
//   engine: {...} | null,          // facts from the engine's last answer (value, plies, nodes, ms...)
//   recorded: false | true | "elsewhere", // whether the result is in the score tally ("elsewhere":
//                                  // a finished game opened from a link, known but not scored here)
// }
//
// The last move is not stored: it is the stone between the last two positions (lastMove), so that
// undo, redo, a reload and a link all name the same one.

import { LEVELS } from "./server-sets.js";

export const VERSION = 1;
export const EMPTY = ".";
export const STATUSES = ["in_progress", "x_won", "o_won", "draw"];
// The server call a position may still need.
const PENDING = [null, "check", "engine"];

/** A fresh game for the settings {rows, cols, k, level, mode, human}; the engine opens when the human is O. */
export function newGame({ rows, cols, k, level, mode, human, engines }) {
  const empty = Array.from({ length: rows }, () => EMPTY.repeat(cols));
  return {
    version: VERSION,
    rows, cols, k, level, mode, human,
    ...(mode === "watch" ? { engines: { x: engines.x, o: engines.o } } : {}),
    history: [empty],
    status: "in_progress",
    line: null,
    pending: mode === "engine" && human === "o" ? "engine" : null,
    undone: [],
    engine: null,
    recorded: false,
  };
}

/** The current position's rows. */
export function currentBoard(state) {
  return state.history[state.history.length - 1];
}

/** The side to move on a board: X when the counts are equal, else O (X always moves first). */
export function sideToMove(board) {
  let x = 0;
  let o = 0;
  for (const row of board) {
    for (const ch of row) {
      if (ch === "x") x++;
      else if (ch === "o") o++;
    }
  }
  return x === o ? "x" : "o";
}

/** The stone that differs between two consecutive positions: {row, col, by}, or null when none does. */
export function moveBetween(before, after) {
  const row = after.findIndex((text, r) => text !== before[r]);
  if (row < 0) return null;
  const col = [...after[row]].findIndex((ch, c) => ch !== before[row][c]);
  return { row, col, by: after[row][col] };
}

/** The most recent move, {row, col, by}: the stone between the last two positions (null at the start). */
export function lastMove(state) {
  const { history } = state;
  return history.length < 2 ? null : moveBetween(history[history.length - 2], history[history.length - 1]);
}

/** What occupies a cell: "x", "o" or "." (empty). */
export function cellAt(board, row, col) {
  return board[row][col];
}

/** The JSON body of /move, /analyze and /state for this state. */
export function requestFor(state) {
  const board = currentBoard(state);
  if (state.mode === "watch") return { board, k: state.k, engine: state.engines[sideToMove(board)] };
  return { board, k: state.k, level: state.level };
}

/** Whether the game is over, by the server's last word. */
export function isOver(state) {
  return state.status !== "in_progress";
}

/** Whether a human may put a stone on the cell now (the game is on, nothing pending, their turn, cell empty). */
export function canPlay(state, row, col) {
  if (isOver(state) || state.pending || state.mode === "watch") return false;
  const board = currentBoard(state);
  if (state.mode === "engine" && sideToMove(board) !== state.human) return false;
  return cellAt(board, row, col) === EMPTY;
}

/** The state after a human's stone on (row, col); its status is pending until the server checks it. */
export function place(state, row, col) {
  const board = currentBoard(state);
  const side = sideToMove(board);
  const next = board.map((text, r) =>
    r === row ? text.slice(0, col) + side + text.slice(col + 1) : text);
  return {
    ...state,
    history: [...state.history, next],
    pending: "check",
    undone: [], // a new move leaves nothing to redo
  };
}

/** The state once the server has reported the current position's status and line (an answer of POST /state). */
export function withStatus(state, answer) {
  const status = answer.status;
  const over = status !== "in_progress";
  const engineTurn = state.mode === "engine" && sideToMove(currentBoard(state)) !== state.human;
  return {
    ...state,
    status,
    line: answer.line ?? null,
    pending: !over && engineTurn ? "engine" : null,
  };
}

/** The state after the engine's answer (POST /move): its board, move, status and line. */
export function withEngineMove(state, answer) {
  return {
    ...state,
    history: [...state.history, answer.board],
    status: answer.status,
    line: answer.line ?? null,
    pending: null,
    engine: {
      value: answer.value ?? null,
      plies: answer.plies ?? null,
      proven: Boolean(answer.proven),
      cached: Boolean(answer.cached),
      nodes: answer.nodes ?? null,
      ms: answer.ms ?? null,
      name: answer.engine ?? null,
      // How the answer is known (proof, book, threats, heuristic); older servers do not send it.
      source: answer.source ?? null,
      // Answered in this browser, the server out of reach (static/js/offline.js).
      offline: answer.offline === true,
    },
  };
}

/** The index in history that undo would return to, or -1 when there is nothing to undo. */
function undoTarget(state) {
  if (state.mode === "watch") return -1;
  for (let i = state.history.length - 2; i >= 0; i--) {
    if (state.mode === "two" || sideToMove(state.history[i]) === state.human) return i;
  }
  return -1;
}

/** Whether undo has a position to go back to. */
export function canUndo(state) {
  return undoTarget(state) >= 0;
}

/**
 * The state with the last move taken back (against the engine: back to the human's previous turn);
 * what it took back, with the server's word on it, goes on the redo stack.
 */
export function undo(state) {
  const target = undoTarget(state);
  if (target < 0) return state;
  const taken = {
    positions: state.history.slice(target + 1), status: state.status, line: state.line, pending: state.pending,
  };
  // Every position before the last one was in progress, or the game would have stopped there.
  return {
    ...state,
    history: state.history.slice(0, target + 1),
    status: "in_progress",
    line: null,
    pending: null,
    undone: [...(state.undone ?? []), taken],
    engine: null,
    recorded: false,
  };
}

/** Whether redo has moves to put back. */
export function canRedo(state) {
  return state.mode !== "watch" && (state.undone?.length ?? 0) > 0;
}

/**
 * The state with the moves the last undo took back played again: their positions, and the status,
 * line and pending step the server's answers had given the last of them (no rule decided here).
 */
export function redo(state) {
  if (!canRedo(state)) return state;
  const taken = state.undone[state.undone.length - 1];
  return {
    ...state,
    history: [...state.history, ...taken.positions],
    status: taken.status,
    line: taken.line,
    pending: taken.pending,
    undone: state.undone.slice(0, -1),
    engine: null,
    recorded: false,
  };
}

/** The winner of a finished game ("x", "o", or null for a draw or a game still on). */
export function winner(state) {
  if (state.status === "x_won") return "x";
  if (state.status === "o_won") return "o";
  return null;
}

/** A state read back from storage, or null when it is not one this version can resume. */
export function fromSaved(saved) {
  if (!saved || saved.version !== VERSION) return null;
  const { rows, cols, k, history } = saved;
  const sizeOk = [rows, cols, k].every(Number.isInteger) && rows >= 3 && cols >= 3 && k >= 3;
  if (!sizeOk || !Array.isArray(history) || history.length === 0) return null;
  const boardOk = (board) => Array.isArray(board) && board.length === rows &&
    board.every((row) => typeof row === "string" && row.length === cols && /^[xo.]*$/.test(row));
  const shapeOk = history.every(boardOk);
  if (!shapeOk || !STATUSES.includes(saved.status) || !LEVELS.includes(saved.level)) return null;
  if (!["engine", "two", "watch"].includes(saved.mode) || !["x", "o"].includes(saved.human)) return null;
  // Saved games of older pages stored the last move; it is now read off the history.
  const { last: _stored, ...game } = saved;
  if (saved.mode === "watch") {
    const named = (name) => typeof name === "string" && name.length > 0;
    if (!named(saved.engines?.x) || !named(saved.engines?.o)) return null;
    // A watched game comes back paused.
    return { ...game, pending: null, undone: [] };
  }
  // Redo's moves come back when each is whole; a game saved before redo existed has none.
  const takenOk = (taken) => Array.isArray(taken?.positions) && taken.positions.length > 0 &&
    taken.positions.every(boardOk) && STATUSES.includes(taken.status) && PENDING.includes(taken.pending) &&
    (taken.line === null || Array.isArray(taken.line));
  const undone = Array.isArray(saved.undone) && saved.undone.every(takenOk) ? saved.undone : [];
  // A request that was in flight when the page closed is made again.
  return { ...game, undone, pending: PENDING.includes(saved.pending) ? saved.pending : null };
}
