// The project's one coordinate language: a cell is named by its column letter
// (a = leftmost) and its row number counted from the top (a1 = top left), as
// in the lab and the CLI.  The API speaks 0-based indices instead: `row` 0 is
// the top row (number 1) and `col` 0 the leftmost column (letter a).

export const COLUMNS = "abcdefghijklmnopqrstuvwxyz";

/** The name of the cell at the API's 0-based (row, col): cellName(1, 1) is "b2". */
export function cellName(row, col) {
  return `${COLUMNS[col]}${row + 1}`;
}

/** The letter above the API's 0-based column `col` ("a" for 0). */
export function columnLetter(col) {
  return COLUMNS[col];
}

/** The number beside the API's 0-based row `row` (1 for 0). */
export function rowNumber(row) {
  return String(row + 1);
}

/** The API's 0-based {row, col} of a cell name ("b2" -> {row: 1, col: 1}), or null when it is not one. */
export function parseCellName(name) {
  // Row numbers start at 1 and have no leading zero, as cellName writes them: "a0" is no cell.
  const match = /^([a-z])([1-9][0-9]?)$/.exec(name);
  if (!match) return null;
  return { row: Number(match[2]) - 1, col: COLUMNS.indexOf(match[1]) };
}
