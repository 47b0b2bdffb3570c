// Words for the view: the status line, cell labels and hint labels.  Pure
// functions of the view object, so the renderer only places them.

const MARK = { x: "X", o: "O" };

/** "row 2, column 3" for zero-based (row, col). */
export function place(row, col) {
  return `row ${row + 1}, column ${col + 1}`;
}

/** The status line: whose turn, who is thinking, who won, or what failed. */
export function statusText(view) {
  if (view.error) {
    const next = view.error.retryable ? "Press Retry to try again." : "Undo, or start a new game.";
    return `${view.error.message} ${next}`;
  }
  if (view.mode === "watch") return watchText(view);
  const last = view.last ? `${lastMover(view)} played ${place(view.last.row, view.last.col)}. ` : "";
  if (view.status !== "in_progress") return last + resultText(view);
  if (view.mode === "two") {
    return view.pending ? last : `${last}${MARK[view.toMove]} to move.`;
  }
  const engine = MARK[view.human === "x" ? "o" : "x"];
  if (view.pending === "engine" || (view.pending === "check")) {
    return view.last ? `${last}The engine (${engine}) is thinking…`
      : `You are ${MARK[view.human]}. The engine plays ${engine} and moves first…`;
  }
  if (!view.last) return `You are ${MARK[view.human]} and move first. Your turn.`;
  return `${last}Your turn (${MARK[view.human]}).`;
}

/** "X (perfect)": a side and the engine playing it in watch mode. */
export function watchSide(view, side) {
  return `${MARK[side]} (${view.engines?.[side] ?? "engine"})`;
}

/** Watch mode's status line: the last move with its node count, then what happens next. */
function watchText(view) {
  let last = "";
  if (view.last) {
    const nodes = view.engine?.nodes;
    const count = Number.isFinite(nodes) ? ` — ${nodes.toLocaleString("en")} ${nodes === 1 ? "node" : "nodes"}` : "";
    const who = view.engine?.name ? `${MARK[view.last.by]} (${view.engine.name})` : watchSide(view, view.last.by);
    last = `${who} played ${place(view.last.row, view.last.col)}${count}. `;
  }
  if (view.status !== "in_progress") return last + resultText(view);
  if (view.watching) return `${last}${watchSide(view, view.toMove)} to move.`;
  if (view.last) return `${last}Paused.`;
  return `${watchSide(view, "x")} against ${watchSide(view, "o")}. Press Start to watch.`;
}

function lastMover(view) {
  if (view.mode === "two") return MARK[view.last.by];
  return view.last.by === view.human ? "You" : "The engine";
}

/** The result in words for a finished game. */
export function resultText(view) {
  if (view.status === "draw") return "It's a draw.";
  const won = view.status === "x_won" ? "x" : "o";
  if (view.mode === "two") return `${MARK[won]} wins!`;
  if (view.mode === "watch") return `${watchSide(view, won)} wins.`;
  return won === view.human ? "You win!" : "The engine wins.";
}

/** A short result for a banner ("You win!", "Draw"...), or "" while the game is on. */
export function outcomeBadge(view) {
  return view.status === "in_progress" ? "" : resultText(view);
}

/** A hint in words: "win, game over in 3 moves", "draw", "loss, game over in 2 moves", or "best guess, not proven". */
export function hintWords(hint) {
  if (!hint || !hint.value) return hint?.best ? "best guess, not proven" : "unknown";
  if (hint.value === "draw") return "draw";
  const moves = hint.plies === 1 ? "1 move" : `${hint.plies} moves`;
  return hint.plies == null ? hint.value : `${hint.value}, game over in ${moves}`;
}

/** A hint on the cell itself: "W3", "D", "L2", "★" (best guess), "?". */
export function hintBadge(hint) {
  if (!hint || !hint.value) return hint?.best ? "★" : "?";
  if (hint.value === "draw") return "D";
  return (hint.value === "win" ? "W" : "L") + (hint.plies ?? "");
}

/** A hint spelled out on a roomy cell: "win · 3", "draw", "loss · 2", "best?", "?". */
export function hintShort(hint) {
  if (!hint || !hint.value) return hint?.best ? "best?" : "?";
  if (hint.value === "draw" || hint.plies == null) return hint.value;
  return `${hint.value} · ${hint.plies}`;
}

/** A cell's accessible name: "row 1, column 2, X" or "row 1, column 2, empty, hint: draw". */
export function cellLabel(view, row, col, { inLine, hint }) {
  const mark = view.board[row][col];
  let text = `${place(row, col)}, ${mark === "." ? "empty" : MARK[mark]}`;
  if (inLine) text += ", winning line";
  if (hint) text += `, hint: ${hintWords(hint)}${hint.best ? " (best)" : ""}`;
  return text;
}

/** The engine's own verdict on its last move, e.g. "Engine: a draw with best play · 1,204 nodes · 12 ms". */
export function engineText(view) {
  const info = view.engine;
  if (!info || view.mode !== "engine") return "";
  const parts = [];
  if (info.value && info.proven) {
    const plies = info.plies == null ? "" : ` in ${info.plies} moves`;
    parts.push(info.value === "draw" ? "a draw with best play"
      : info.value === "win" ? `it wins${plies}` : `it loses${plies} with your best play`);
  } else if (view.level === "perfect") {
    parts.push("best guess (not proven in time)");
  } else {
    parts.push(`${view.level} level`);
  }
  if (Number.isFinite(info.nodes) && info.nodes > 0) parts.push(`${info.nodes.toLocaleString("en")} nodes`);
  if (Number.isFinite(info.ms)) parts.push(`${Math.round(info.ms)} ms`);
  if (info.cached) parts.push("cached");
  return `Engine: ${parts.join(" · ")}`;
}

/** The hint panel's summary of the position, e.g. "With best play: a draw.", or "". */
export function hintSummary(view) {
  const hints = view.hints;
  if (!hints) return "";
  const side = MARK[view.toMove];
  const legend = ` Each empty cell shows how the game ends if ${side} plays there (W win, D draw, L loss); the number counts both players' moves to the end.`;
  if (!hints.proven || !hints.value) {
    return `Not solved in time. The engine's best guess for ${side} is marked ★.`;
  }
  if (hints.value === "draw") return `With best play: a draw.${legend}`;
  const who = hints.value === "win" ? `${side} wins` : `${side} loses`;
  return `With best play: ${who} in ${hints.plies} moves.${legend}`;
}
