// The position text of links and of GET /position: rows from the top, separated by "/";
// in a row, "x", "o", and a number for a run of empty cells ("x2/1o1/3"); "." is also
// read as one empty cell.  Syntax only: whether a position can happen is the server's word.

/** The compact text of board rows ("x..", ".o.", "...") -> "x2/1o1/3". */
export function toPositionText(rows) {
  return rows.map((row) => row.replace(/\.+/g, (run) => String(run.length))).join("/");
}

/** Board rows from a position text ("x2/1o1/3" or "x../.o./..."), or null when the text is not one. */
export function fromPositionText(text) {
  if (typeof text !== "string" || !/^[xo.0-9/]+$/i.test(text)) return null;
  const rows = text.toLowerCase().split("/").map((row) =>
    row.replace(/[0-9]+/g, (run) => ".".repeat(Math.min(Number(run), 99))));
  const cols = rows[0].length;
  return cols > 0 && rows.every((row) => row.length === cols) ? rows : null;
}
