// The lab's drawing: the position editor, the engines' table and the strip of boards of a line.

import { cellName } from "./cells.js";
import { number, t } from "./words.js";

/** A value's name in the page's language ("win", "draw", "loss"). */
function valueName(value) {
  return { win: t("win"), draw: t("draw"), loss: t("loss") }[value] ?? value;
}

/** Draw the editor's buttons for `position`; a click calls onCycle(row, col). */
export function drawEditor(container, position, onCycle) {
  const cols = position.rows[0]?.length ?? 0;
  container.style.setProperty("--cols", String(cols));
  container.replaceChildren(...position.rows.flatMap((text, row) => [...text].map((mark, col) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = `lab-cell ${mark === "." ? "" : mark}`.trim();
    button.textContent = mark === "." ? "" : mark.toUpperCase();
    const cell = cellName(row, col);
    button.setAttribute("aria-label", mark === "." ? t("{cell}, empty", { cell }) : t("{cell}, {mark}", { cell, mark }));
    button.addEventListener("click", () => onCycle(row, col));
    return button;
  })));
}

/** Append one engine's answer (the /analyze JSON) as a row of the results table. */
export function addResultRow(tbody, answer) {
  const row = document.createElement("tr");
  row.dataset.engine = answer.engine;
  const cells = [
    answer.engine,
    cellName(answer.move.row, answer.move.col),
    // No value means no proof (an estimate, such as mcts's), or a search stopped at its node budget.
    answer.value ? valueName(answer.value) : answer.finished ? t("not proven") : t("unknown (stopped)"),
    number(answer.nodes),
    number(answer.ms, 1),
    answer.note, // one sentence in the page's language, which says so when the search stopped at its budget
  ];
  cells.forEach((text, index) => {
    const cell = document.createElement(index === 0 ? "th" : "td");
    if (index === 0) cell.scope = "row";
    if (index === 3 || index === 4) cell.className = "num";
    cell.textContent = text;
    if (index === 5) cell.className = "search";
    row.append(cell);
  });
  tbody.append(row);
}

/** Replace the strip with one small board per position of `line` ([{rows, move, label}]). */
export function drawLine(list, line) {
  list.replaceChildren(...line.map(({ rows, move, label }) => {
    const item = document.createElement("li");
    item.className = "pv-step";
    const grid = document.createElement("div");
    grid.className = "pv-board";
    grid.style.setProperty("--cols", String(rows[0].length));
    rows.forEach((text, r) => [...text].forEach((mark, c) => {
      const cell = document.createElement("span");
      const last = move && move.row === r && move.col === c;
      cell.className = `pv-cell ${mark === "." ? "" : mark} ${last ? "last" : ""}`.trim();
      cell.textContent = mark === "." ? "" : mark.toUpperCase();
      grid.append(cell);
    }));
    const caption = document.createElement("span");
    caption.className = "pv-caption";
    caption.textContent = label;
    item.append(grid, caption);
    return item;
  }));
}
