// The win check of the m,n,k rules, for play without the server only (static/js/offline.js):
// online the server alone says how a game stands (POST /state).  It follows the engine
// (tictactoe/game/board.py, tictactoe/game/rules.py) step for step, and
// tests/test_offline_player.py holds it to the engine's answers on every 3x3 position and on
// thousands of seeded random positions of every size from 3x3 to 15x15.
//
// A board is its rows of text, top first: "x", "o" and "." (empty), as the API writes them.

// The directions a line runs in from its first cell, in the engine's order: across, down,
// down-right, down-left.
const STEPS = [[0, 1], [1, 0], [1, 1], [1, -1]];
const windowsBySize = new Map();

/**
 * The lines of k cells on a rows x cols board, in the engine's order (by first cell, row by row,
 * then by direction), each as its cells [[row, col], ...] from the first, so in row order.
 */
function windows(rows, cols, k) {
  const key = `${rows}x${cols}k${k}`;
  const known = windowsBySize.get(key);
  if (known) return known;
  const lines = [];
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols; col++) {
      for (const [dr, dc] of STEPS) {
        const endRow = row + dr * (k - 1);
        const endCol = col + dc * (k - 1);
        if (endRow < 0 || endRow >= rows || endCol < 0 || endCol >= cols) continue;
        lines.push(Array.from({ length: k }, (_, i) => [row + dr * i, col + dc * i]));
      }
    }
  }
  windowsBySize.set(key, lines);
  return lines;
}

/**
 * How the game on `board` stands with k in a row to win, as POST /state says it: {status, line}.
 * status is "x_won", "o_won", "draw" (a full board without a line) or "in_progress"; line is the
 * first full window (X's before O's, in the engine's order of windows) as [[row, col], ...], or null.
 */
export function outcome(board, k) {
  const lines = windows(board.length, board[0].length, k);
  for (const side of ["x", "o"]) {
    const line = lines.find((cells) => cells.every(([row, col]) => board[row][col] === side));
    if (line) return { status: `${side}_won`, line: line.map(([row, col]) => [row, col]) };
  }
  const full = board.every((text) => !text.includes("."));
  return { status: full ? "draw" : "in_progress", line: null };
}

/** The empty cells where one more stone of `side` would make k in a row, in row order: [{row, col}]. */
export function winningCells(board, k, side) {
  const cols = board[0].length;
  const lines = windows(board.length, cols, k);
  const found = new Set();
  for (const line of lines) {
    // A line of k - 1 of the side's stones and one empty cell: that cell completes it.
    let gap = null;
    let stones = 0;
    for (const [row, col] of line) {
      const mark = board[row][col];
      if (mark === side) stones++;
      else if (mark === "." && gap === null) gap = row * cols + col;
      else break;
    }
    if (stones === k - 1 && gap !== null) found.add(gap);
  }
  return [...found].sort((a, b) => a - b).map((cell) => ({ row: Math.floor(cell / cols), col: cell % cols }));
}
