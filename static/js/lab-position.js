// The lab's position: rows of x, o and "." with its k. Pure functions and no
// game rules: whether a position can be played on is the server's answer.

const NEXT = { ".": "x", x: "o", o: "." };

/** An empty position of `rows` x `cols` with `k` in a row. */
export function emptyPosition(rows, cols, k) {
  return { rows: Array.from({ length: rows }, () => ".".repeat(cols)), k };
}

/** The position with the cell at (row, col) cycled: empty -> x -> o -> empty. */
export function cycleCell(position, row, col) {
  const rows = position.rows.map((text, r) => (r !== row ? text
    : text.slice(0, col) + NEXT[text[col]] + text.slice(col + 1)));
  return { ...position, rows };
}

/** Rows typed as "x../.o./..." (separated by /, commas or white space), lower case; [] when empty. */
export function parseRows(text) {
  return text.split(/[\s/,]+/).filter(Boolean).map((row) => row.toLowerCase());
}

/** The rows as the text form shows them. */
export function formatRows(rows) {
  return rows.join("/");
}

/** The position after the moves [[row, col], ...] from an empty position, x first. */
export function afterMoves(position, moves) {
  let rows = position.rows;
  moves.forEach(([row, col], index) => {
    const mark = index % 2 === 0 ? "x" : "o";
    rows = rows.map((text, r) => (r !== row ? text : text.slice(0, col) + mark + text.slice(col + 1)));
  });
  return { ...position, rows };
}

/** The current position of the game page's saved state (localStorage), or null if there is none. */
export function fromSavedGame(saved) {
  const history = saved && Array.isArray(saved.history) ? saved.history : null;
  const rows = history && history[history.length - 1];
  if (!Array.isArray(rows) || !rows.every((row) => typeof row === "string")) return null;
  return { rows: rows.map((row) => row.toLowerCase()), k: Number.isInteger(saved.k) ? saved.k : 3 };
}
