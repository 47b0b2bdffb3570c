// The score tally: finished games counted per board (its size and k) and per mode, and against
// the engine per level too, so that a win on 3 x 3 at Easy never counts like one on 4 x 4 or
// against Perfect; kept across reloads.
//
// tally = {boards: {"3x3:3": {engine: {easy: {win, loss, draw}, medium: {...}, perfect: {...}},
//                             two: {x, o, draw}}, ...}}
// Against the engine the counts are the human's wins, losses and draws; in two-player mode they
// are X's wins, O's wins and draws.  A board nobody has finished a game on has no entry.  A tally
// saved before boards were kept apart has no board to put its counts under, so they start again.

import { LEVELS } from "./server-sets.js";

const KEY = "tally";
const BOARD_KEY = /^[0-9]{1,2}x[0-9]{1,2}:[0-9]{1,2}$/;

/** An empty tally. */
export function emptyTally() {
  return { boards: {} };
}

/** The key of a game's board in the tally: "3x3:3" (rows x cols : k). */
export function boardKey({ rows, cols, k }) {
  return `${rows}x${cols}:${k}`;
}

// Zero counts for one board.
function emptyBoard() {
  const engine = Object.fromEntries(LEVELS.map((level) => [level, { win: 0, loss: 0, draw: 0 }]));
  return { engine, two: { x: 0, o: 0, draw: 0 } };
}

/** The tally saved in the store (a fresh one when none or a broken one is there). */
export function loadTally(store) {
  const saved = store.get(KEY)?.boards;
  const tally = emptyTally();
  if (!saved || typeof saved !== "object" || Array.isArray(saved)) return tally;
  const copy = (into, from) => {
    for (const field of Object.keys(into)) {
      const count = from?.[field];
      if (Number.isInteger(count) && count >= 0) into[field] = count;
    }
  };
  for (const [key, counts] of Object.entries(saved)) {
    if (!BOARD_KEY.test(key)) continue;
    const board = emptyBoard();
    for (const level of LEVELS) copy(board.engine[level], counts?.engine?.[level]);
    copy(board.two, counts?.two);
    tally.boards[key] = board;
  }
  return tally;
}

/** Save the tally to the store. */
export function saveTally(store, tally) {
  store.set(KEY, tally);
}

/** The tally field a result counts in: win/loss/draw against the engine, x/o/draw between two people. */
export function fieldFor(mode, human, winner) {
  if (winner === null) return "draw";
  if (mode === "two") return winner;
  return winner === human ? "win" : "loss";
}

/**
 * A tally with one finished `game` ({mode, level, rows, cols, k}) added (delta 1) or taken back
 * (delta -1) in `field`, on the game's board.
 */
export function counted(tally, game, field, delta = 1) {
  const next = structuredClone(tally);
  const key = boardKey(game);
  next.boards[key] ??= emptyBoard();
  const counts = game.mode === "two" ? next.boards[key].two : next.boards[key].engine[game.level];
  counts[field] = Math.max(0, counts[field] + delta);
  return next;
}

/**
 * The score on the game's board, in its mode and (against the engine) level, by side: {x, o, draw};
 * null for watched games (not scored).
 */
export function scoreFor(tally, { mode, level, human, rows, cols, k }) {
  const board = tally.boards[boardKey({ rows, cols, k })] ?? emptyBoard();
  if (mode === "two") return { ...board.two };
  if (mode !== "engine") return null;
  const { win, loss, draw } = board.engine[level];
  return human === "x" ? { x: win, o: loss, draw } : { x: loss, o: win, draw };
}
