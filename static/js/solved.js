// The engine's value of every 3x3 position, and what follows from it for play without the
// server: each move's value, the best moves, the moves a level chooses among.  The values are
// the solver's own (`python -m tictactoe table` writes static/data/solved-3x3k3.json; its layout
// is in tictactoe/tools/solved_table.py), so nothing here searches.  The one step taken is
// negamax's: a move is worth the value of the position it leads to, turned round (a loss for
// the side then to move is a win for the mover), one ply longer; the engine's order of
// preference (MoveValue.rank: quicker wins, then draws, then slower losses) names the best.
// tests/test_offline_player.py holds every answer here to the engine's on all 4,520 positions
// where the game goes on, at every level.

import { winningCells } from "./rules.js";
import { levelEntry } from "./server-sets.js";
import { sideToMove } from "./state.js";

const DIGIT = { ".": 0, x: 1, o: 2 };
const TURNED = { win: "loss", draw: "draw", loss: "win" };
const OTHER = { x: "o", o: "x" };

/**
 * The table read from its JSON: {rows, cols, k, valueOf(board)}, where valueOf gives a position's
 * {value, plies} for the side to move (a finished one: a loss or a draw in 0), or null when no
 * game reaches it.
 */
export function readTable(json) {
  // Each value's letter of plies 0, the highest first: a character belongs to the first not above it.
  const starts = Object.entries(json.letters)
    .map(([value, letter]) => ({ value, code: letter.charCodeAt(0) }))
    .sort((a, b) => b.code - a.code);
  return {
    rows: json.rows,
    cols: json.cols,
    k: json.k,
    valueOf(board) {
      const char = json.values[indexOf(board)];
      if (char === undefined || char === json.unreachable) return null;
      const code = char.charCodeAt(0);
      const start = starts.find((entry) => entry.code <= code);
      return { value: start.value, plies: code - start.code };
    },
  };
}

// The table's index of a board: each cell a base-3 digit, cell 0 (the top left) the lowest.
function indexOf(board) {
  let index = 0;
  let weight = 1;
  for (const text of board) {
    for (const mark of text) {
      index += DIGIT[mark] * weight;
      weight *= 3;
    }
  }
  return index;
}

/** The engine's order of preference (MoveValue.rank) as one number, higher is better: quicker wins,
 * then draws, then slower losses. */
export function rank({ value, plies }) {
  if (value === "win") return 200 - plies;
  return value === "draw" ? 100 : plies;
}

/**
 * What the engine knows of a position where the game goes on: {value, plies, best, moves}, the
 * position's value for the side to move, its best moves [{row, col}] and every legal move
 * [{row, col, value, plies, best}], row by row.  Null when the table does not hold the position.
 */
export function analysis(table, board) {
  const own = table.valueOf(board);
  if (!own) return null;
  const side = sideToMove(board);
  const moves = [];
  board.forEach((text, row) => [...text].forEach((mark, col) => {
    if (mark !== ".") return;
    const after = board.map((line, r) => (r === row ? line.slice(0, col) + side + line.slice(col + 1) : line));
    const reply = table.valueOf(after);
    moves.push({ row, col, value: TURNED[reply.value], plies: reply.plies + 1 });
  }));
  const top = Math.max(...moves.map(rank));
  for (const move of moves) move.best = rank(move) === top;
  const best = moves.filter((move) => move.best).map(({ row, col }) => ({ row, col }));
  return { value: own.value, plies: own.plies, best, moves };
}

/**
 * The moves a level chooses among, each as likely, as the server's closed sets say it plays
 * (tictactoe/search/levels.py's PLAYS): a level that searches, the best moves; a quick one, the
 * cells that win at once, else (if it blocks) those that stop the opponent's win in one, else
 * every move.  [{row, col}] in row order.
 */
export function candidates(table, board, level) {
  const known = analysis(table, board);
  const { quick, blocks } = levelEntry(level);
  if (!quick) return known.best;
  const side = sideToMove(board);
  const wins = winningCells(board, table.k, side);
  if (wins.length > 0) return wins;
  const stops = blocks ? winningCells(board, table.k, OTHER[side]) : [];
  if (stops.length > 0) return stops;
  return known.moves.map(({ row, col }) => ({ row, col }));
}
