// Draws a view object into the page.  Redraws are coalesced: any number of
// render(view) calls within one animation frame lead to one draw of the last view.
// The renderer also owns the board's roving tabindex (which cell is the tab stop).

import { cellLabel, engineText, hintBadge, hintShort, hintSummary, outcomeBadge, statusText } from "./describe.js";

const MARK = { x: "X", o: "O" };

/**
 * A renderer over the page's elements: {board, status, thinking, retry, undo,
 * hint, engine, hintSummary, outcome, tally: {"mode.field": element}, modeNotes:
 * [elements with data-mode, shown in that mode only], watchToggle} (all but board
 * and status optional).  Returns {render(view), focusCell(row, col, move)}.
 */
export function createRenderer(els) {
  let latest = null;
  let frame = 0;
  let shape = ""; // "rowsxcols" of the cells currently in the DOM
  let cells = []; // cells[row][col] = button
  let stop = { row: 0, col: 0 }; // the cell that is the board's tab stop

  function render(view) {
    latest = view;
    if (!frame) frame = requestAnimationFrame(() => {
      frame = 0;
      draw(latest);
    });
  }

  function draw(view) {
    buildBoard(view);
    drawCells(view);
    drawStatus(view);
  }

  function buildBoard(view) {
    const key = `${view.rows}x${view.cols}`;
    if (key === shape) return;
    shape = key;
    const grid = els.board;
    grid.style.setProperty("--rows", view.rows);
    grid.style.setProperty("--cols", view.cols);
    grid.dataset.size = key;
    grid.setAttribute("aria-rowcount", view.rows);
    grid.setAttribute("aria-colcount", view.cols);
    cells = [];
    const rows = [];
    for (let r = 0; r < view.rows; r++) {
      const row = document.createElement("div");
      row.className = "board-row";
      row.setAttribute("role", "row");
      const line = [];
      for (let c = 0; c < view.cols; c++) {
        const gridcell = document.createElement("div");
        gridcell.className = "board-cell";
        gridcell.setAttribute("role", "gridcell");
        const button = document.createElement("button");
        button.type = "button";
        button.className = "cell";
        button.dataset.row = r;
        button.dataset.col = c;
        button.tabIndex = -1;
        const mark = document.createElement("span");
        mark.className = "mark";
        mark.setAttribute("aria-hidden", "true");
        const badge = document.createElement("span");
        badge.className = "badge";
        badge.setAttribute("aria-hidden", "true");
        const short = document.createElement("span");
        short.className = "short";
        const long = document.createElement("span");
        long.className = "long";
        badge.append(short, long);
        button.append(mark, badge);
        gridcell.append(button);
        row.append(gridcell);
        line.push(button);
      }
      rows.push(row);
      cells.push(line);
    }
    grid.replaceChildren(...rows);
    stop = { row: Math.floor((view.rows - 1) / 2), col: Math.floor((view.cols - 1) / 2) };
  }

  function drawCells(view) {
    const inLine = new Set((view.line ?? []).map(([r, c]) => `${r},${c}`));
    const hints = view.hints?.moves ?? null;
    // When every move is equally good, ringing them all says nothing.
    const values = hints ? Object.values(hints) : [];
    const someBest = values.some((h) => h.best) && !values.every((h) => h.best);
    const over = view.status !== "in_progress";
    for (let r = 0; r < view.rows; r++) {
      for (let c = 0; c < view.cols; c++) {
        const button = cells[r][c];
        const key = `${r},${c}`;
        const mark = view.board[r][c];
        const found = mark === "." && hints ? hints[key] ?? null : null;
        // An unproven move says nothing unless it is the engine's best guess.
        const shown = found && (found.value || found.best) ? found : null;
        const hint = shown && { ...shown, best: (someBest || !shown.value) && shown.best };
        const playable = mark === "." && view.humanCanPlay;
        button.firstChild.textContent = MARK[mark] ?? "";
        const [short, long] = button.lastChild.children;
        short.textContent = hint ? hintBadge(hint) : "";
        long.textContent = hint ? hintShort(hint) : "";
        button.className = classes({
          cell: true,
          x: mark === "x",
          o: mark === "o",
          win: inLine.has(key),
          last: Boolean(view.last && view.last.row === r && view.last.col === c),
          playable,
          dim: inLine.size > 0 && !inLine.has(key),
          [`hint-${hint?.value ?? "unknown"}`]: Boolean(hint),
          best: Boolean(hint?.best),
        });
        button.setAttribute("aria-label", cellLabel(view, r, c, { inLine: inLine.has(key), hint }));
        button.setAttribute("aria-disabled", String(!playable));
        button.tabIndex = r === stop.row && c === stop.col ? 0 : -1;
      }
    }
    els.board.setAttribute("aria-busy", String(view.busy === "engine" || view.busy === "check"));
    els.board.classList.toggle("over", over);
    els.board.dataset.turn = view.humanCanPlay ? view.toMove : "";
    els.board.classList.toggle("waiting", !view.humanCanPlay && !over);
  }

  function drawStatus(view) {
    setText(els.status, statusText(view));
    els.status.classList.toggle("error", Boolean(view.error));
    els.status.dataset.status = view.status;
    if (els.thinking) els.thinking.hidden = !view.busy;
    if (els.retry) els.retry.hidden = !(view.error && view.error.retryable);
    if (els.undo) els.undo.disabled = !view.canUndo;
    if (els.hint) {
      els.hint.disabled = !view.canHint && !view.hints;
      els.hint.setAttribute("aria-pressed", String(Boolean(view.hints)));
    }
    if (els.engine) setText(els.engine, engineText(view));
    if (els.hintSummary) setText(els.hintSummary, hintSummary(view));
    if (els.outcome) {
      const badge = outcomeBadge(view);
      setText(els.outcome, badge);
      els.outcome.hidden = !badge;
    }
    if (els.tally) {
      for (const [key, el] of Object.entries(els.tally)) {
        const [mode, field] = key.split(".");
        setText(el, String(view.tally[mode][field]));
        const group = el.closest("[data-mode]");
        if (group) group.hidden = group.dataset.mode !== view.mode;
      }
    }
    for (const el of els.modeNotes ?? []) el.hidden = el.dataset.mode !== view.mode;
    if (els.watchToggle) drawWatchToggle(els.watchToggle, view);
  }

  /** Make (row, col) the board's tab stop and, unless `move` is false, focus it (clamped to the board). */
  function focusCell(row, col, move = true) {
    if (!cells.length) return;
    stop = {
      row: Math.max(0, Math.min(cells.length - 1, row)),
      col: Math.max(0, Math.min(cells[0].length - 1, col)),
    };
    for (const line of cells) for (const button of line) button.tabIndex = -1;
    const button = cells[stop.row][stop.col];
    button.tabIndex = 0;
    if (move) button.focus();
  }

  return { render, focusCell };
}

/** The watch button: Start, Pause while the engines play, Resume after a pause; disabled once the game is over. */
function drawWatchToggle(button, view) {
  const over = view.status !== "in_progress";
  setText(button, view.watching ? "Pause" : view.last && !over ? "Resume" : "Start");
  button.disabled = view.mode !== "watch" || over;
}

function classes(flags) {
  return Object.keys(flags).filter((name) => flags[name]).join(" ");
}

function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}
