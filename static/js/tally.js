// The score tally: finished games counted per mode (and, against the engine,
// per level, so a win on Easy never counts like one against Perfect), kept
// across reloads.
//
// tally = {engine: {easy: {win, loss, draw}, medium: {...}, perfect: {...}}, two: {x, o, draw}}
// Against the engine the counts are the human's wins, losses and draws; in
// two-player mode they are X's wins, O's wins and draws.  A tally saved before
// levels were kept apart has no level to put its counts under, so they start again.

import { LEVELS } from "./server-sets.js";

const KEY = "tally";

/** An empty tally. */
export function emptyTally() {
  const engine = Object.fromEntries(LEVELS.map((level) => [level, { win: 0, loss: 0, draw: 0 }]));
  return { engine, two: { x: 0, o: 0, draw: 0 } };
}

/** The tally saved in the store (a fresh one when none or a broken one is there). */
export function loadTally(store) {
  const saved = store.get(KEY);
  const tally = emptyTally();
  const copy = (into, from) => {
    for (const field of Object.keys(into)) {
      const count = from?.[field];
      if (Number.isInteger(count) && count >= 0) into[field] = count;
    }
  };
  for (const level of LEVELS) copy(tally.engine[level], saved?.engine?.[level]);
  copy(tally.two, saved?.two);
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

/** A tally with one finished `game` ({mode, level}) added (delta 1) or taken back (delta -1) in `field`. */
export function counted(tally, { mode, level }, field, delta = 1) {
  const next = structuredClone(tally);
  const counts = mode === "two" ? next.two : next.engine[level];
  counts[field] = Math.max(0, counts[field] + delta);
  return next;
}

/** The score of the game's mode and level by side, {x, o, draw}, or null for watched games (not scored). */
export function scoreFor(tally, { mode, level, human }) {
  if (mode === "two") return { ...tally.two };
  if (mode !== "engine") return null;
  const { win, loss, draw } = tally.engine[level];
  return human === "x" ? { x: win, o: loss, draw } : { x: loss, o: win, draw };
}
