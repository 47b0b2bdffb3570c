// One puzzle on the board: shows what it asks, sends each move to the server (POST
// /puzzles/{id}/moves), and says the server's words.  A wrong move leaves the board as it was, to
// try again; a right one brings the opponent's answer, or the end.  The server judges every move:
// nothing here knows a rule of the game.

import { cellName } from "./cells.js";
import { bindBoard } from "./input.js";
import { createRenderer } from "./render.js";
import { sentences, t, tn } from "./words.js";

const MARK = { x: "X", o: "O" };
const OTHER = { x: "o", o: "x" };

/** "3 × 3 · 3 in a row · difficulty 2 of 5 · rated 1000": the puzzle's line under its goal. */
export function puzzleMeta(puzzle) {
  // A rating is written without grouping in every language (1500, as chess writes it).
  return t("{rows} × {cols} · {k} in a row · difficulty {difficulty} of 5 · rated {rating}", {
    rows: puzzle.rows, cols: puzzle.cols, k: puzzle.k, difficulty: puzzle.difficulty, rating: String(puzzle.rating),
  });
}

/** The words before the first move: "One move to find." or "3 moves to find, one at a time." */
export function firstWords(puzzle) {
  return tn("One move to find: {side} to move.", "{count} moves to find, one at a time: {side} to move.",
    puzzle.moves, { side: MARK[puzzle.player] });
}

/** The moves after the puzzle's end, in words: "Then O b2, X a1." ("" when there are none). */
export function lineWords(line, player) {
  if (!line.length) return "";
  const moves = line.map((cell, i) => `${MARK[i % 2 === 0 ? OTHER[player] : player]} ${cellName(cell.row, cell.col)}`);
  return t("Then {moves}.", { moves: moves.join(", ") });
}

/**
 * A puzzle player over {board, status, thinking, colLabels, rowLabels, goal, meta, line, reveal,
 * restart}.  `onFinish(puzzle, {firstTry})` is called once when a puzzle is solved, or shown to the
 * end; `onChange()` after every change.  Returns {show(puzzle), reveal(), restart(), current()}.
 */
export function createPuzzlePlay({ els, api, onFinish = () => {}, onChange = () => {} }) {
  const renderer = createRenderer({
    board: els.board, status: els.status, thinking: els.thinking, colLabels: els.colLabels, rowLabels: els.rowLabels,
  });
  let state = null; // {puzzle, board, moves, last, words, busy, done, missed, shown, line}
  let inFlight = null;

  function show(puzzle) {
    inFlight?.abort();
    state = {
      puzzle, board: puzzle.board, moves: [], last: null, words: firstWords(puzzle), busy: false,
      done: false, missed: false, shown: false, line: [], error: false,
    };
    draw();
  }

  function draw() {
    if (!state) return;
    const { puzzle } = state;
    els.goal.textContent = puzzle.goal;
    els.meta.textContent = puzzleMeta(puzzle);
    els.line.textContent = state.done ? lineWords(state.line, puzzle.player) : "";
    renderer.render({
      rows: puzzle.rows, cols: puzzle.cols, k: puzzle.k, board: state.board, status: "in_progress",
      toMove: puzzle.player, humanCanPlay: !state.busy && !state.done, last: state.last, line: null,
      hints: null, busy: state.busy ? "check" : null, error: null, mode: "puzzle",
      // describe.js's status line reads these words first: the server's, or the tap to confirm.
      reviewing: { text: state.words },
    });
    els.status.classList.toggle("error", state.error);
    els.reveal.disabled = state.busy || state.done;
    els.restart.disabled = state.busy || state.moves.length === 0;
    onChange();
  }

  async function send(moves, reveal) {
    const mine = new AbortController();
    inFlight = mine;
    state.busy = true;
    draw();
    try {
      return await api.move(state.puzzle.id, moves, reveal, mine.signal);
    } catch (error) {
      if (mine.signal.aborted) return null;
      state.words = sentences(error.message || t("Something went wrong."), t("Try the move again."));
      state.error = true;
      return null;
    } finally {
      if (inFlight === mine) {
        inFlight = null;
        state.busy = false;
        draw();
      }
    }
  }

  async function play(row, col) {
    if (!state || state.busy || state.done || state.board[row][col] !== ".") return;
    const move = { row, col };
    const answer = await send([...state.moves, move], false);
    if (answer) take(answer);
  }

  /** The server's verdict: its words; a right move's answer on the board; the end. */
  function take(answer) {
    state.words = answer.words;
    state.error = false;
    if (!answer.correct) {
      state.missed = true;
      draw();
      return;
    }
    state.shown ||= answer.revealed;
    state.moves.push(answer.move);
    state.board = answer.board;
    state.last = answer.reply ? { ...answer.reply, by: OTHER[state.puzzle.player] }
      : { ...answer.move, by: state.puzzle.player };
    if (answer.solved) {
      state.done = true;
      state.line = answer.line;
      onFinish(state.puzzle, { firstTry: !state.missed && !state.shown });
    }
    draw();
  }

  bindBoard(els.board, {
    onPlay: play,
    onTouch: (row, col) => renderer.tap(row, col) && play(row, col),
    onFocus: renderer.focusCell,
  });

  return {
    show,

    /** Ask the server for the next move of the solution (the puzzle then counts as missed). */
    async reveal() {
      if (!state || state.busy || state.done) return;
      const answer = await send(state.moves, true);
      if (answer) take(answer);
    },

    /** The puzzle from its start again (a try already missed stays missed). */
    restart() {
      if (!state || state.busy) return;
      const { puzzle, missed, shown } = state;
      show(puzzle);
      Object.assign(state, { missed, shown });
      draw();
    },

    /** The puzzle on the board, or null. */
    current: () => state?.puzzle ?? null,
  };
}
