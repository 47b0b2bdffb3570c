// Draws a view object into the page.  Redraws are coalesced: any number of
// render(view) calls within one animation frame lead to one draw of the last view.
// The renderer also owns the board's roving tabindex (which cell is the tab stop).

import { columnLetter, rowNumber } from "./cells.js";
import {
  allAlike, armedText, cellLabel, engineDetails, hintBadge, hintSummary, outcomeBadge, sideNames, statusText,
  stripCaption, waitText,
} from "./describe.js";
import { t } from "./words.js";

const MARK = { x: "X", o: "O" };

// A cell at least this wide (CSS px) spells a hint out ("win · 3"); a smaller one shortens it ("W3").
const ROOMY_CELL = 72;
// A cell narrower than a fingertip (CSS px) takes two taps: the first marks it and names it, the
// second plays it, so that a finger that lands on a neighbour can still choose.
const FINGER = 44;

/**
 * A renderer over the page's elements: {board, status, wait (a refusal's countdown), thinking,
 * newGame, retry, undo, redo, hint, engine (the details list), engineDetails (its disclosure), hintSummary,
 * outcome, strip (the turn strip), colLabels, rowLabels, watchToggle} (all but board and status
 * optional).  Returns {render(view), focusCell(row, col, move), tap(row, col)}.
 */
export function createRenderer(els) {
  let latest = null;
  let frame = 0;
  let shape = ""; // "rowsxcols" of the cells currently in the DOM
  let cells = []; // cells[row][col] = button
  let stop = { row: 0, col: 0 }; // the cell that is the board's tab stop
  let roomy = false; // whether the cells are wide enough for spelled-out hints (measured at each draw)
  let armed = null; // {row, col, position}: a small cell tapped once, waiting for the tap that plays it

  // The cells' size follows the window: redraw when hints should change form.
  new ResizeObserver(() => {
    if (latest && cells.length && measureRoomy() !== roomy) render(latest);
  }).observe(els.board);

  function render(view) {
    latest = view;
    if (!frame) frame = requestAnimationFrame(() => {
      frame = 0;
      draw(latest);
    });
  }

  function draw(view) {
    buildBoard(view);
    // A marked cell lasts while its position is on the board and the player may play there.
    if (armed && (!view.humanCanPlay || armed.position !== view.board.join("/"))) armed = null;
    roomy = measureRoomy();
    const alike = drawCells(view);
    drawStatus(view, alike);
    drawStrip(view);
  }

  function measureRoomy() {
    return cells[0][0].getBoundingClientRect().width >= ROOMY_CELL;
  }

  function buildBoard(view) {
    const key = `${view.rows}x${view.cols}`;
    if (key === shape) return;
    shape = key;
    const grid = els.board;
    // The board, its coordinates and their container all size themselves by these.
    const area = grid.parentElement;
    area.style.setProperty("--rows", view.rows);
    area.style.setProperty("--cols", view.cols);
    grid.dataset.size = key;
    grid.setAttribute("aria-rowcount", view.rows);
    grid.setAttribute("aria-colcount", view.cols);
    cells = [];
    const rows = [];
    for (let r = 0; r < view.rows; r++) {
      const row = document.createElement("div");
      row.className = "board-row";
      row.setAttribute("role", "row");
      // A row's name would otherwise string together every cell's label.
      row.setAttribute("aria-label", t("row {number}", { number: rowNumber(r) }));
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
        button.append(mark, badge);
        gridcell.append(button);
        row.append(gridcell);
        line.push(button);
      }
      rows.push(row);
      cells.push(line);
    }
    grid.replaceChildren(...rows);
    const label = (text) => Object.assign(document.createElement("span"), { textContent: text });
    els.colLabels?.replaceChildren(...Array.from({ length: view.cols }, (_, c) => label(columnLetter(c))));
    els.rowLabels?.replaceChildren(...Array.from({ length: view.rows }, (_, r) => label(rowNumber(r))));
    stop = { row: Math.floor((view.rows - 1) / 2), col: Math.floor((view.cols - 1) / 2) };
  }

  function drawCells(view) {
    const inLine = new Set((view.line ?? []).map(([r, c]) => `${r},${c}`));
    const hints = view.hints?.moves ?? null;
    // When every move is equally good, ringing them all says nothing.
    const values = hints ? Object.values(hints) : [];
    const someBest = values.some((h) => h.best) && !values.every((h) => h.best);
    // When every empty cell reads the same (the empty 3x3 board: all "draw"), marking each is noise;
    // the summary says so instead, and each cell's accessible name still carries its value.
    const alike = allAlike(values);
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
        const marked = hint && !alike ? hint : null;
        const playable = mark === "." && view.humanCanPlay;
        button.firstChild.textContent = MARK[mark] ?? "";
        button.lastChild.textContent = marked ? hintBadge(marked, roomy) : "";
        button.className = classes({
          cell: true,
          x: mark === "x",
          o: mark === "o",
          win: inLine.has(key),
          last: Boolean(view.last && view.last.row === r && view.last.col === c),
          armed: Boolean(armed && armed.row === r && armed.col === c),
          playable,
          dim: inLine.size > 0 && !inLine.has(key),
          [`hint-${marked?.value ?? "unknown"}`]: Boolean(marked),
          best: Boolean(marked?.best),
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
    els.board.classList.toggle("roomy", roomy);
    return alike;
  }

  function drawStatus(view, alike) {
    const focused = document.activeElement;
    setText(els.status, armed ? armedText(armed) : statusText(view));
    els.status.classList.toggle("error", Boolean(view.error));
    els.status.dataset.status = view.status;
    if (els.wait) {
      const wait = waitText(view);
      setText(els.wait, wait);
      els.wait.hidden = !wait;
    }
    if (els.thinking) els.thinking.hidden = !view.busy;
    const retryable = Boolean(view.error?.retryable);
    if (els.retry) els.retry.hidden = !retryable;
    if (els.undo) {
      els.undo.disabled = !view.canUndo;
      els.undo.hidden = view.mode === "room"; // a move in a room is played for good
    }
    if (els.redo) {
      els.redo.disabled = !view.canRedo;
      // Shown, if disabled, at a game's end too: Undo and Review keep their places (a room's moves are for good).
      els.redo.hidden = view.mode === "room";
    }
    if (els.hint) {
      els.hint.disabled = !view.canHint && !view.hints && view.busy !== "hint";
      els.hint.setAttribute("aria-pressed", String(Boolean(view.hints)));
      // Once the game is over the result takes Hint's place beside Play again, and Retry takes it while
      // a request waits to be sent again, so the row's other buttons stay where they are; a room has no hints.
      els.hint.hidden = view.status !== "in_progress" || view.mode === "room" || retryable;
    }
    if (els.engine) drawEngineDetails(view);
    if (els.hintSummary) setText(els.hintSummary, hintSummary(view, { roomy, alike }));
    const badge = outcomeBadge(view);
    if (els.outcome) {
      setText(els.outcome, badge);
      els.outcome.hidden = !badge;
    }
    if (els.newGame) {
      // A room's game says what the button does there (Rematch), and when it does nothing.
      const primary = view.primary ?? { label: badge ? t("Play again") : t("New game") };
      setText(els.newGame, primary.label);
      els.newGame.hidden = Boolean(primary.hidden);
      els.newGame.disabled = Boolean(primary.disabled);
    }
    if (els.watchToggle) drawWatchToggle(els.watchToggle, view);
    // A button that was just disabled or hidden drops the focus to the page, where the shortcuts
    // do not act: the focus goes back to the board instead.
    const buttons = [els.newGame, els.undo, els.redo, els.hint, els.retry];
    if (buttons.includes(focused) && (focused.disabled || focused.hidden)) focusCell(stop.row, stop.col);
  }

  function drawEngineDetails(view) {
    const lines = engineDetails(view);
    const text = lines.join("\n");
    if (els.engine.dataset.text === text) return;
    els.engine.dataset.text = text;
    els.engine.replaceChildren(...lines.map((line) => Object.assign(document.createElement("li"),
      { textContent: line })));
    if (els.engineDetails) els.engineDetails.hidden = lines.length === 0;
  }

  /** The turn strip: each side's name and score, the side to move highlighted. */
  function drawStrip(view) {
    const strip = els.strip;
    if (!strip) return;
    const names = sideNames(view);
    const moving = view.status === "in_progress" ? view.toMove : null;
    for (const side of ["x", "o"]) {
      setText(strip.querySelector(`[data-name="${side}"]`), names[side]);
      strip.querySelector(`[data-side="${side}"]`).classList.toggle("to-move", moving === side);
      // Translators: read after a side's name in the turn strip ("You, to move"), by screen readers only.
      setText(strip.querySelector(`[data-to-move="${side}"]`), moving === side ? t(", to move") : "");
    }
    setText(strip.querySelector(".strip-caption"), stripCaption(view));
    for (const el of strip.querySelectorAll("[data-score]")) {
      el.parentElement.hidden = !view.score;
      if (view.score) setText(el, String(view.score[el.dataset.score]));
    }
    strip.querySelector(".tally-note").hidden = Boolean(view.score);
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

  /**
   * A finger's tap on (row, col): whether to play it now.  On cells narrower than a fingertip the
   * first tap on an empty cell only marks it (and the status names it); a second tap on it plays.
   */
  function tap(row, col) {
    const view = latest;
    const small = cells.length > 0 && cells[0][0].getBoundingClientRect().width < FINGER;
    const open = view?.humanCanPlay && view.board[row][col] === ".";
    if (!small || !open || (armed && armed.row === row && armed.col === col)) {
      armed = null;
      return true; // the game decides whether it counts
    }
    armed = { row, col, position: view.board.join("/") };
    render(view);
    return false;
  }

  return { render, focusCell, tap };
}

/** The watch button: Start, Pause while the engines play, Resume after a pause; disabled once the game is over. */
function drawWatchToggle(button, view) {
  const over = view.status !== "in_progress";
  setText(button, view.watching ? t("Pause") : view.last && !over ? t("Resume") : t("Start"));
  button.disabled = view.mode !== "watch" || over;
}

function classes(flags) {
  return Object.keys(flags).filter((name) => flags[name]).join(" ");
}

function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}
