// User input: clicks and keys on the board, and the play area's keyboard shortcuts.
// Input only reports intentions; the game decides whether they count.

const MOVES = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
};

/**
 * Listen on the board grid.  `onPlay(row, col)` for a click (or Enter/Space,
 * which buttons turn into clicks), `onTouch(row, col)` instead for a finger's tap
 * when given; `onFocus(row, col, move)` to move the roving
 * tab stop: move=true from the arrow keys, Home/End, Ctrl+Home/End, PageUp/PageDown;
 * move=false when a cell got focus some other way (a click, a tab).
 */
export function bindBoard(grid, { onPlay, onTouch = onPlay, onFocus }) {
  grid.addEventListener("click", (event) => {
    const cell = cellOf(event.target);
    if (!cell) return;
    // A tap's click is a PointerEvent of a touch (or a pen); a key's or a mouse's is not.
    const touch = event.pointerType === "touch" || event.pointerType === "pen";
    (touch ? onTouch : onPlay)(cell.row, cell.col);
  });
  grid.addEventListener("focusin", (event) => {
    const cell = cellOf(event.target);
    if (cell) onFocus(cell.row, cell.col, false);
  });
  grid.addEventListener("keydown", (event) => {
    const cell = cellOf(event.target);
    if (!cell || event.altKey || event.metaKey) return;
    const rows = Number(grid.getAttribute("aria-rowcount"));
    const cols = Number(grid.getAttribute("aria-colcount"));
    const target = destination(event, cell, rows, cols);
    if (!target) return;
    event.preventDefault();
    onFocus(target.row, target.col, true);
  });
}

function destination(event, { row, col }, rows, cols) {
  if (event.key in MOVES && !event.ctrlKey) {
    const [dr, dc] = MOVES[event.key];
    return { row: row + dr, col: col + dc };
  }
  switch (event.key) {
    case "Home": return event.ctrlKey ? { row: 0, col: 0 } : { row, col: 0 };
    case "End": return event.ctrlKey ? { row: rows - 1, col: cols - 1 } : { row, col: cols - 1 };
    case "PageUp": return { row: 0, col };
    case "PageDown": return { row: rows - 1, col };
    default: return null;
  }
}

function cellOf(target) {
  const button = target instanceof Element ? target.closest("button[data-row]") : null;
  return button ? { row: Number(button.dataset.row), col: Number(button.dataset.col) } : null;
}

// Fields where a letter key is text (or a select's type-ahead), not a shortcut.
const TYPING = "textarea, select, [contenteditable], input:not([type=radio]):not([type=checkbox])";

/**
 * Single-key shortcuts for the focus inside `target` (keys pressed elsewhere do nothing):
 * `keys` maps a lower-case key to a handler.  Ignored while typing in a field, with a
 * modifier held, or on key repeat.
 */
export function bindShortcuts(target, keys) {
  target.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
    const el = event.target;
    if (el instanceof Element && el.closest(TYPING)) return;
    const handler = keys[event.key.toLowerCase()];
    if (!handler) return;
    event.preventDefault();
    handler();
  });
}
