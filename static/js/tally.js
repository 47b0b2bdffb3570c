// The score tally: finished games counted per mode, kept across reloads.
//
// Against the engine the counts are the human's wins, losses and draws; in
// two-player mode they are X's wins, O's wins and draws.

const KEY = "tally";

/** An empty tally. */
export function emptyTally() {
  return { engine: { win: 0, loss: 0, draw: 0 }, two: { x: 0, o: 0, draw: 0 } };
}

/** The tally saved in the store (a fresh one when none or a broken one is there). */
export function loadTally(store) {
  const saved = store.get(KEY);
  const tally = emptyTally();
  for (const mode of Object.keys(tally)) {
    for (const field of Object.keys(tally[mode])) {
      const count = saved?.[mode]?.[field];
      if (Number.isInteger(count) && count >= 0) tally[mode][field] = count;
    }
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

/** A tally with one game added (delta 1) or taken back (delta -1). */
export function counted(tally, mode, field, delta = 1) {
  const next = { engine: { ...tally.engine }, two: { ...tally.two } };
  next[mode][field] = Math.max(0, next[mode][field] + delta);
  return next;
}
