// Words for the view: the status line, cell labels and hint labels.  Pure
// functions of the view object, so the renderer only places them.

import { cellName } from "./cells.js";
import { LIMITED_WORDS, waitWords } from "./refusal.js";
import { FREE_SIZE_WORDS, OFFLINE_SIZE_WORDS, defaultK, isFreeSize, levelEntry } from "./server-sets.js";

const MARK = { x: "X", o: "O" };

/** The status line: whose turn, who is thinking, who won, or what failed. */
export function statusText(view) {
  if (view.reviewing) return view.reviewing.text;
  if (view.error) return errorText(view);
  if (view.mode === "watch") return watchText(view);
  if (view.mode === "room") return roomText(view);
  const last = view.last ? `${lastMover(view)} played ${cellName(view.last.row, view.last.col)}. ` : "";
  if (view.status !== "in_progress") return last + resultText(view);
  if (view.mode === "two") {
    return view.pending ? last : `${last}${MARK[view.toMove]} to move.${view.last ? "" : restoreNote(view)}`;
  }
  const engine = MARK[view.human === "x" ? "o" : "x"];
  if (view.pending === "engine" || (view.pending === "check")) {
    return view.last ? `${last}The engine (${engine}) is thinking…`
      : `You are ${MARK[view.human]}. The engine plays ${engine} and moves first…`;
  }
  if (!view.last) return `You are ${MARK[view.human]} and move first. Your turn.${restoreNote(view)}`;
  return `${last}Your turn (${MARK[view.human]}).`;
}

// What failed and what to do; a refusal's seconds are waitText's, beside it, so that the status (a
// live region) changes only when the refusal comes and when its wait is over.
function errorText(view) {
  const error = view.error;
  if (error.kind === "limited") {
    return error.wait > 0 ? `${LIMITED_WORDS}${freeNote(view)}` : `${waitWords(0, "play again")} Press Retry.`;
  }
  // A room has no Undo and no new game of its own: its error says what happens next itself.
  if (view.mode === "room") return endWithStop(error.message);
  const next = error.retryable ? "Press Retry to try again." : "Undo, or start a new game.";
  return `${endWithStop(error.message)} ${next}`;
}

/** `words` ending with a full stop (the server's refusals are lower-case clauses without one). */
function endWithStop(words) {
  const text = words.trim();
  if (!text) return text;
  const sentence = text[0].toUpperCase() + text.slice(1);
  return /[.!?…]$/.test(sentence) ? sentence : `${sentence}.`;
}

// During a refusal: the sizes the server still searches for free play on ("" on one of them).
function freeNote(view) {
  if (FREE_SIZE_WORDS.length === 0 || isFreeSize(view.rows, view.cols)) return "";
  return ` ${FREE_SIZE_WORDS.join(" and ")} games still play.`;
}

/**
 * The countdown beside the status line while a refusal's wait runs, else "": "Your move goes in 42 s."
 * when the refused move is sent again by itself, "You can play again in 42 s." otherwise.
 */
export function waitText(view) {
  const error = view.error;
  if (error?.kind !== "limited" || error.wait === 0) return "";
  if (!error.resend) return waitWords(error.wait, "play again");
  const what = view.mode === "watch" ? "The game goes on" : "Your move goes";
  return `${what} in ${error.wait} s.`;
}

// After New game replaced a game in progress, until the new game has a move to undo.
function restoreNote(view) {
  return view.canRestore ? " Undo brings back the game you left." : "";
}

/** "X (perfect)": a side and the engine playing it in watch mode. */
export function watchSide(view, side) {
  return `${MARK[side]} (${view.engines?.[side] ?? "engine"})`;
}

/** A room's status line: the last move, then whose turn (this page's, the friend's) or the result. */
function roomText(view) {
  const me = view.room.me;
  const who = (side) => roomPlayer(view, side);
  const last = view.last ? `${who(view.last.by)} played ${cellName(view.last.row, view.last.col)}. ` : "";
  if (view.status !== "in_progress") return roomEnd(view, last);
  if (!me) return `${last}${who(view.toMove)} to move.`;
  if (view.toMove === me) return `${last}Your turn (${MARK[me]}).`;
  return `${last}${who(view.toMove)} (${MARK[view.toMove]}) is to move.`;
}

/** A side of a room as this page names it: "You", the friend's name or "Your friend"; for a
 * spectator, the seat's name with its mark ("Ada (X)") or the mark alone. */
function roomPlayer(view, side) {
  const { me, names = {} } = view.room;
  if (!me) return names[side] ? `${names[side]} (${MARK[side]})` : MARK[side];
  return side === me ? "You" : (names[side] ?? "Your friend");
}

/** A finished room game in words, with why it ended when its players ended it. */
function roomEnd(view, last) {
  const reason = view.room.reason;
  if (reason === "agreed") return "A draw, agreed.";
  if (reason !== "resigned" && reason !== "abandoned") return last + resultText(view);
  const loser = view.status === "x_won" ? "o" : "x";
  const what = reason === "resigned" ? "resigned" : "left the game";
  return `${roomPlayer(view, loser)} ${what}. ${resultText(view)}`;
}

/** The status line while a tapped cell waits for a second tap: "Tap h8 again to play there." */
export function armedText(cell) {
  return `Tap ${cellName(cell.row, cell.col)} again to play there, or tap another cell.`;
}

/** Watch mode's status line: the last move with its node count, then what happens next. */
function watchText(view) {
  let last = "";
  if (view.last) {
    const nodes = view.engine?.nodes;
    const count = Number.isFinite(nodes) ? ` — ${nodes.toLocaleString("en")} ${nodes === 1 ? "node" : "nodes"}` : "";
    const who = view.engine?.name ? `${MARK[view.last.by]} (${view.engine.name})` : watchSide(view, view.last.by);
    last = `${who} played ${cellName(view.last.row, view.last.col)}${count}. `;
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
  if (view.mode === "room") return won === view.room.me ? "You win!" : `${roomPlayer(view, won)} ${view.room.me ? "wins." : "wins!"}`;
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

/** A hint on a cell: roomy, "win · 3", "draw", "loss · 2", "best?"; small, "W3", "D", "L2", "★"; else "?". */
export function hintBadge(hint, roomy) {
  if (!hint || !hint.value) return hint?.best ? (roomy ? "best?" : "★") : "?";
  if (hint.value === "draw") return roomy ? "draw" : "D";
  if (roomy) return hint.plies == null ? hint.value : `${hint.value} · ${hint.plies}`;
  return (hint.value === "win" ? "W" : "L") + (hint.plies ?? "");
}

/** Whether every one of several hints reads the same (same value and count), so marking each says nothing. */
export function allAlike(hints) {
  return hints.length > 1 && hints.every((hint) => hint.value !== null &&
    hint.value === hints[0].value && hint.plies === hints[0].plies);
}

/** A cell's accessible name: "b1, X" or "b1, empty, hint: draw" (column letter, row number from the top). */
export function cellLabel(view, row, col, { inLine, hint }) {
  const mark = view.board[row][col];
  let text = `${cellName(row, col)}, ${mark === "." ? "empty" : MARK[mark]}`;
  if (inLine) text += ", winning line";
  if (hint) text += `, hint: ${hintWords(hint)}${hint.best ? " (best)" : ""}`;
  return text;
}

// How an answer is known (the API's `source`), in a player's words.
const SOURCES = {
  proof: "proven by search",
  book: "from the opening book",
  threats: "found a forced sequence of threats",
  heuristic: "best guess within the time limit",
};
// A loss known from threats: each of the engine's moves lets the player win by one.
const THREATS_AFTER_EVERY_MOVE = "found a forced sequence of threats for you after every move it could make";

/** A level in words for the settings' help: "Medium: takes a win in one, …, else random." ("" for no level). */
export function levelHelp(level) {
  return levelEntry(level)?.help ?? "";
}

/** The engine's last move in plain sentences (for the details disclosure); [] when there is none. */
export function engineDetails(view) {
  const info = view.engine;
  if (!info || view.mode !== "engine") return [];
  const lines = [];
  // Perfect's move is explained by what its search found, below; the other levels say how they choose.
  const entry = levelEntry(view.level);
  if (entry && view.level !== "perfect") lines.push(`How ${entry.label} plays: ${entry.description}.`);
  // A threat sequence shows a win within its length: a quicker one may exist.
  const within = info.source === "threats" ? "within" : "in";
  if (info.value && info.proven) {
    const moves = info.plies == null ? "" : ` ${within} ${info.plies} ${info.plies === 1 ? "move" : "moves"}`;
    lines.push(info.value === "draw" ? "With best play from here, the game is a draw."
      : info.value === "win" ? `With best play from here, the engine wins${moves}.`
        : `With your best play from here, you win${moves}.`);
  } else if (view.level === "perfect") {
    lines.push("This board is too big to solve in time, so the move is the engine's best guess.");
  }
  if (info.source === "threats" && info.value === "loss") {
    lines.push(`How it knows: ${THREATS_AFTER_EVERY_MOVE}.`);
  } else if (SOURCES[info.source]) {
    lines.push(`How it knows: ${SOURCES[info.source]}.`);
  }
  if (Number.isFinite(info.nodes) && info.nodes > 0) {
    const ms = Number.isFinite(info.ms) ? ` in ${Math.round(info.ms).toLocaleString("en")} ms` : "";
    lines.push(`It looked at ${info.nodes.toLocaleString("en")} positions${ms}.`);
  } else if (Number.isFinite(info.ms)) {
    lines.push(`It answered in ${Math.round(info.ms).toLocaleString("en")} ms.`);
  }
  if (info.cached) lines.push("The answer was already stored from an earlier game.");
  if (info.offline) {
    lines.push(`Without the server, it played from its own table of every ${OFFLINE_SIZE_WORDS} position, kept in this browser.`);
  }
  return lines;
}

/** The hints' summary and legend ("With best play: a draw. …") or ""; `roomy`: the cells spell hints out. */
export function hintSummary(view, { roomy, alike }) {
  const hints = view.hints;
  if (!hints) return "";
  const side = MARK[view.toMove];
  if (!hints.proven || !hints.value) {
    const mark = roomy ? "“best?”" : "★";
    return `Not solved in time. The engine's best guess for ${side} is marked ${mark}.`;
  }
  const result = hints.value === "draw" ? "a draw"
    : `${side} ${hints.value === "win" ? "wins" : "loses"} in ${hints.plies} moves`;
  if (alike) {
    return `With best play: ${result}. Every empty cell leads to the same result, so none is marked.`;
  }
  const marks = roomy ? "“win · n”, “draw” or “loss · n”" : "W n (win), D (draw) or L n (loss)";
  return `With best play: ${result}. Each empty cell shows how the game ends if ${side} plays there: ` +
    `${marks}, where n counts both players' moves to the end.`;
}

/** The turn strip's names for each side: "You" and "Engine", "X" and "O", or the watched engines' names. */
export function sideNames(view) {
  if (view.mode === "two") return { x: "Player X", o: "Player O" };
  if (view.mode === "watch") return { x: view.engines?.x ?? "engine", o: view.engines?.o ?? "engine" };
  if (view.mode === "room") {
    const { me, names = {} } = view.room;
    const named = (side, otherwise) => names[side] ?? otherwise;
    if (!me) return { x: named("x", "Player X"), o: named("o", "Player O") };
    const friend = me === "x" ? "o" : "x";
    return { [me]: "You", [friend]: named(friend, "Friend") };
  }
  return view.human === "x" ? { x: "You", o: "Engine" } : { x: "Engine", o: "You" };
}

/**
 * The caption between the two sides: what the score counts, the board and the level ("3 × 3 ·
 * Perfect") or the mode ("3 × 3 · 2 players"); a k other than the size's usual one is named too.
 */
export function stripCaption(view) {
  if (view.mode === "watch") return "Watching";
  if (view.mode === "room") return `Game ${view.room.game}`;
  const row = view.k === defaultK(view.rows, view.cols) ? "" : ` (${view.k} in a row)`;
  const board = `${view.rows} × ${view.cols}${row}`;
  if (view.mode === "two") return `${board} · 2 players`;
  return `${board} · ${levelEntry(view.level)?.label ?? view.level}`;
}
