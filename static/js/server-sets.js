// The closed sets the server declares (web/pages/closed_sets.py), read once: the levels with
// their words, the themes, the board presets and the default k of every size.  Every page
// carries them in a JSON block (<script type="application/json" id="server-sets">), so the
// page types none of them again and asks nothing more on first load.
//
// sets = {
//   levels: [{name, label, description, help, quick, blocks}],  // weakest first (the engine's registry)
//   defaultLevel, gamePageLevel,            // the API's default level; the game page's first
//   themes: ["auto", ...], defaultTheme,
//   presets: [{id, rows, cols, k, label}],  // the game page's boards
//   labPresets: [{id, rows, cols, k, label}],
//   defaultK: {"5x5": 5, ...},              // the API's k for a request without one, every size
//   freeSizes: ["3x3"],                     // sizes searched for free: their games play on through a 429
//   offline: {rows, cols, k, table},        // the board the engine plays offline; its table under static/
// }
//
// Under node there is no document: the unit tests put the server's own sets in
// globalThis.serverSets first (tests/js/server-sets.mjs asks the Python for them).

function readSets() {
  const block = globalThis.document?.getElementById("server-sets");
  if (block) return JSON.parse(block.textContent);
  if (globalThis.serverSets) return globalThis.serverSets;
  throw new Error("This page has no server-sets block: the server renders one into every page.");
}

/** The server's closed sets (see above), frozen. */
export const SETS = Object.freeze(readSets());

/** The level names, weakest first. */
export const LEVELS = SETS.levels.map((level) => level.name);

/** The k the API takes for a board of `rows` x `cols` when none is given; undefined for a size it refuses. */
export function defaultK(rows, cols) {
  return SETS.defaultK[`${rows}x${cols}`];
}

/** Whether a board of `rows` x `cols` still plays while the server refuses this address's searches. */
export function isFreeSize(rows, cols) {
  return SETS.freeSizes.includes(`${rows}x${cols}`);
}

/** The sizes that still play while the server refuses this address's searches, in words ("3 × 3", unbroken). */
export const FREE_SIZE_WORDS = SETS.freeSizes.map((size) => size.replace("x", "\u00a0×\u00a0"));

/** A level's entry {name, label, description, help, quick, blocks}, or undefined for a name that is no level. */
export function levelEntry(name) {
  return SETS.levels.find((level) => level.name === name);
}

/** The board the engine plays without the server, in words ("3 × 3", unbroken). */
export const OFFLINE_SIZE_WORDS = `${SETS.offline.rows}\u00a0×\u00a0${SETS.offline.cols}`;
