// Words for the view: the status line, cell labels and hint labels.  Pure
// functions of the view object, so the renderer only places them.  Every sentence is one message of
// the page's catalog (words.js), whole: a line of several says each, one after the other.

import { cellName } from "./cells.js";
import { LIMITED_WORDS, waitWords } from "./refusal.js";
import { FREE_SIZES, OFFLINE_SIZE_WORDS, defaultK, isFreeSize, levelEntry } from "./server-sets.js";
import { listWords, sentences, t, tn } from "./words.js";

const MARK = { x: "X", o: "O" };

/** The status line: whose turn, who is thinking, who won, or what failed. */
export function statusText(view) {
  if (view.reviewing) return view.reviewing.text;
  if (view.error) return errorText(view);
  if (view.mode === "watch") return watchText(view);
  if (view.mode === "room") return roomText(view);
  const last = view.last ? playedWords(view) : "";
  if (view.status !== "in_progress") return sentences(last, resultText(view));
  const mark = MARK[view.human];
  if (view.mode === "two") {
    return view.pending ? last
      : sentences(last, t("{mark} to move.", { mark: MARK[view.toMove] }), view.last ? "" : restoreNote(view));
  }
  const engine = MARK[view.human === "x" ? "o" : "x"];
  if (view.pending === "engine" || (view.pending === "check")) {
    return view.last ? sentences(last, t("The engine ({mark}) is thinking…", { mark: engine }))
      : t("You are {mark}. The engine plays {engine} and moves first…", { mark, engine });
  }
  if (!view.last) return sentences(t("You are {mark} and move first. Your turn.", { mark }), restoreNote(view));
  return sentences(last, t("Your turn ({mark}).", { mark }));
}

/** The last move in a sentence, against the engine or between two at one screen: "You played b2." */
function playedWords(view) {
  const cell = cellName(view.last.row, view.last.col);
  if (view.mode === "two") return t("{mark} played {cell}.", { mark: MARK[view.last.by], cell });
  return view.last.by === view.human ? t("You played {cell}.", { cell }) : t("The engine played {cell}.", { cell });
}

// What failed and what to do; a refusal's seconds are waitText's, beside it, so that the status (a
// live region) changes only when the refusal comes and when its wait is over.
function errorText(view) {
  const error = view.error;
  if (error.kind === "limited") {
    return error.wait > 0 ? sentences(LIMITED_WORDS, freeNote(view))
      : sentences(waitWords(0, "play"), t("Press Retry."));
  }
  // A room has no Undo and no new game of its own: its error says what happens next itself.
  if (view.mode === "room") return endWithStop(error.message);
  const next = error.retryable ? t("Press Retry to try again.") : t("Undo, or start a new game.");
  return sentences(endWithStop(error.message), next);
}

/** `words` ending with a full stop (the server's refusals are lower-case clauses without one). */
export function endWithStop(words) {
  const text = words.trim();
  if (!text) return text;
  const sentence = text[0].toUpperCase() + text.slice(1);
  return /[.!?…]$/.test(sentence) ? sentence : `${sentence}.`;
}

// During a refusal: the sizes the server still searches for free play on ("" on one of them).
function freeNote(view) {
  if (FREE_SIZES.length === 0 || isFreeSize(view.rows, view.cols)) return "";
  const sizes = listWords(FREE_SIZES.map((size) => size.replace("x", "\u00a0×\u00a0")), "and");
  return t("{sizes} games still play.", { sizes });
}

/**
 * The countdown beside the status line while a refusal's wait runs, else "": "Your move goes in 42 s."
 * when the refused move is sent again by itself, "You can play again in 42 s." otherwise.
 */
export function waitText(view) {
  const error = view.error;
  if (error?.kind !== "limited" || error.wait === 0) return "";
  if (!error.resend) return waitWords(error.wait, "play");
  return view.mode === "watch" ? t("The game goes on in {seconds} s.", { seconds: error.wait })
    : t("Your move goes in {seconds} s.", { seconds: error.wait });
}

// After New game replaced a game in progress, until the new game has a move to undo.
function restoreNote(view) {
  return view.canRestore ? t("Undo brings back the game you left.") : "";
}

/** "X (perfect)": a side and the engine playing it in watch mode. */
export function watchSide(view, side) {
  return t("{mark} ({engine})", { mark: MARK[side], engine: view.engines?.[side] ?? t("engine") });
}

/** A room's status line: the last move, then whose turn (this page's, the friend's) or the result. */
function roomText(view) {
  const me = view.room.me;
  const last = view.last ? roomPlayed(view) : "";
  if (view.status !== "in_progress") return roomEnd(view, last);
  const side = view.toMove;
  if (!me) return sentences(last, t("{player} to move.", { player: spectatorName(view, side) }));
  if (side === me) return sentences(last, t("Your turn ({mark}).", { mark: MARK[me] }));
  const name = view.room.names?.[side];
  return sentences(last, name ? t("{name} ({mark}) is to move.", { name, mark: MARK[side] })
    : t("Your friend ({mark}) is to move.", { mark: MARK[side] }));
}

/** A room's last move in a sentence, as this page names its player. */
function roomPlayed(view) {
  const { me, names = {} } = view.room;
  const { by } = view.last;
  const cell = cellName(view.last.row, view.last.col);
  if (!me) return t("{player} played {cell}.", { player: spectatorName(view, by), cell });
  if (by === me) return t("You played {cell}.", { cell });
  return names[by] ? t("{name} played {cell}.", { name: names[by], cell }) : t("Your friend played {cell}.", { cell });
}

/** A side as a spectator names it: the seat's name with its mark ("Ada (X)"), or the mark alone. */
function spectatorName(view, side) {
  const name = view.room.names?.[side];
  return name ? t("{name} ({mark})", { name, mark: MARK[side] }) : MARK[side];
}

/** A finished room game in words, with why it ended when its players ended it. */
function roomEnd(view, last) {
  const reason = view.room.reason;
  if (reason === "agreed") return t("A draw, agreed.");
  if (reason !== "resigned" && reason !== "abandoned") return sentences(last, resultText(view));
  const loser = view.status === "x_won" ? "o" : "x";
  const { me, names = {} } = view.room;
  const resigned = reason === "resigned";
  let why;
  if (!me) {
    const player = spectatorName(view, loser);
    why = resigned ? t("{player} resigned.", { player }) : t("{player} left the game.", { player });
  } else if (loser === me) {
    why = resigned ? t("You resigned.") : t("You left the game.");
  } else if (names[loser]) {
    why = resigned ? t("{name} resigned.", { name: names[loser] }) : t("{name} left the game.", { name: names[loser] });
  } else {
    why = resigned ? t("Your friend resigned.") : t("Your friend left the game.");
  }
  return sentences(why, resultText(view));
}

/** The status line while a tapped cell waits for a second tap: "Tap h8 again to play there." */
export function armedText(cell) {
  return t("Tap {cell} again to play there, or tap another cell.", { cell: cellName(cell.row, cell.col) });
}

/** Watch mode's status line: the last move with its node count, then what happens next. */
function watchText(view) {
  let last = "";
  if (view.last) {
    const nodes = view.engine?.nodes;
    const player = view.engine?.name ? t("{mark} ({engine})", { mark: MARK[view.last.by], engine: view.engine.name })
      : watchSide(view, view.last.by);
    const cell = cellName(view.last.row, view.last.col);
    last = Number.isFinite(nodes)
      ? tn("{player} played {cell} — {count} node.", "{player} played {cell} — {count} nodes.", nodes, { player, cell })
      : t("{player} played {cell}.", { player, cell });
  }
  if (view.status !== "in_progress") return sentences(last, resultText(view));
  if (view.watching) return sentences(last, t("{player} to move.", { player: watchSide(view, view.toMove) }));
  if (view.last) return sentences(last, t("Paused."));
  return t("{x} against {o}. Press Start to watch.", { x: watchSide(view, "x"), o: watchSide(view, "o") });
}

/** The result in words for a finished game. */
export function resultText(view) {
  if (view.status === "draw") return t("It's a draw.");
  const won = view.status === "x_won" ? "x" : "o";
  if (view.mode === "two") return t("{mark} wins!", { mark: MARK[won] });
  if (view.mode === "watch") return t("{player} wins.", { player: watchSide(view, won) });
  if (view.mode === "room") {
    const { me, names = {} } = view.room;
    if (!me) return t("{player} wins!", { player: spectatorName(view, won) });
    if (won === me) return t("You win!");
    return names[won] ? t("{name} wins.", { name: names[won] }) : t("Your friend wins.");
  }
  return won === view.human ? t("You win!") : t("The engine wins.");
}

/** A short result for a banner ("You win!", "Draw"...), or "" while the game is on. */
export function outcomeBadge(view) {
  return view.status === "in_progress" ? "" : resultText(view);
}

/** A hint in words: "win, game over in 3 moves", "draw", "loss, game over in 2 moves", or "best guess, not proven". */
export function hintWords(hint) {
  if (!hint || !hint.value) return hint?.best ? t("best guess, not proven") : t("unknown");
  if (hint.value === "draw") return t("draw");
  if (hint.plies == null) return hint.value === "win" ? t("win") : t("loss");
  return hint.value === "win"
    ? tn("win, game over in {count} move", "win, game over in {count} moves", hint.plies)
    : tn("loss, game over in {count} move", "loss, game over in {count} moves", hint.plies);
}

/** A hint on a cell: roomy, "win · 3", "draw", "loss · 2", "best?"; small, "W3", "D", "L2", "★"; else "?". */
export function hintBadge(hint, roomy) {
  if (!hint || !hint.value) return hint?.best ? (roomy ? t("best?") : "★") : "?";
  const plies = hint.plies ?? "";
  if (roomy) {
    if (hint.value === "draw") return t("draw");
    if (hint.plies == null) return hint.value === "win" ? t("win") : t("loss");
    return hint.value === "win" ? t("win · {plies}", { plies }) : t("loss · {plies}", { plies });
  }
  // Translators: the hints' short forms on a small cell (W3: a win in 3, D: a draw, L2: a loss in 2),
  // named in the hints' legend ("W n (win), D (draw) or L n (loss)"): one letter each.
  const short = { win: t("W{plies}", { plies }), draw: t("D"), loss: t("L{plies}", { plies }) };
  return short[hint.value];
}

/** Whether every one of several hints reads the same (same value and count), so marking each says nothing. */
export function allAlike(hints) {
  return hints.length > 1 && hints.every((hint) => hint.value !== null &&
    hint.value === hints[0].value && hint.plies === hints[0].plies);
}

/** A cell's accessible name: "b1, X" or "b1, empty, hint: draw" (column letter, row number from the top). */
export function cellLabel(view, row, col, { inLine, hint }) {
  const mark = view.board[row][col];
  const cell = cellName(row, col);
  const parts = [mark === "." ? t("{cell}, empty", { cell }) : t("{cell}, {mark}", { cell, mark: MARK[mark] })];
  if (inLine) parts.push(t("winning line"));
  if (hint) {
    const words = hintWords(hint);
    parts.push(hint.best ? t("hint: {hint} (best)", { hint: words }) : t("hint: {hint}", { hint: words }));
  }
  return parts.join(", ");
}

/** How an answer is known (the API's `source`), in a player's words: a sentence for the details. */
function howItKnows(info) {
  switch (info.source) {
    case "proof": return t("How it knows: proven by search.");
    case "book": return t("How it knows: from the opening book.");
    // A loss known from threats: each of the engine's moves lets the player win by one.
    case "threats": return info.value === "loss"
      ? t("How it knows: found a forced sequence of threats for you after every move it could make.")
      : t("How it knows: found a forced sequence of threats.");
    case "heuristic": return t("How it knows: best guess within the time limit.");
    default: return null;
  }
}

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
  if (entry && view.level !== "perfect") {
    lines.push(t("How {level} plays: {description}.", { level: entry.label, description: entry.description }));
  }
  if (info.value && info.proven) lines.push(bestPlayWords(info));
  else if (view.level === "perfect") {
    lines.push(t("This board is too big to solve in time, so the move is the engine's best guess."));
  }
  const how = howItKnows(info);
  if (how) lines.push(how);
  const ms = Number.isFinite(info.ms) ? Math.round(info.ms) : null;
  if (Number.isFinite(info.nodes) && info.nodes > 0) {
    lines.push(ms === null
      ? tn("It looked at {count} position.", "It looked at {count} positions.", info.nodes)
      : tn("It looked at {count} position in {ms} ms.", "It looked at {count} positions in {ms} ms.", info.nodes,
        { ms }));
  } else if (ms !== null) {
    lines.push(t("It answered in {ms} ms.", { ms }));
  }
  if (info.cached) lines.push(t("The answer was already stored from an earlier game."));
  if (info.offline) {
    lines.push(t("Without the server, it played from its own table of every {size} position, kept in this browser.",
      { size: OFFLINE_SIZE_WORDS }));
  }
  return lines;
}

/** With best play from here, who wins and in how many moves (a threat sequence: within how many). */
function bestPlayWords(info) {
  if (info.value === "draw") return t("With best play from here, the game is a draw.");
  const count = info.plies;
  const within = info.source === "threats";
  if (info.value === "win") {
    if (count == null) return t("With best play from here, the engine wins.");
    return within
      ? tn("With best play from here, the engine wins within {count} move.",
        "With best play from here, the engine wins within {count} moves.", count)
      : tn("With best play from here, the engine wins in {count} move.",
        "With best play from here, the engine wins in {count} moves.", count);
  }
  if (count == null) return t("With your best play from here, you win.");
  return within
    ? tn("With your best play from here, you win within {count} move.",
      "With your best play from here, you win within {count} moves.", count)
    : tn("With your best play from here, you win in {count} move.",
      "With your best play from here, you win in {count} moves.", count);
}

/** The hints' summary and legend ("With best play: a draw. …") or ""; `roomy`: the cells spell hints out. */
export function hintSummary(view, { roomy, alike }) {
  const hints = view.hints;
  if (!hints) return "";
  const side = MARK[view.toMove];
  if (!hints.proven || !hints.value) {
    return roomy ? t("Not solved in time. The engine's best guess for {side} is marked “best?”.", { side })
      : t("Not solved in time. The engine's best guess for {side} is marked ★.", { side });
  }
  const result = hints.value === "draw" ? t("a draw")
    : hints.value === "win" ? tn("{side} wins in {count} move", "{side} wins in {count} moves", hints.plies, { side })
      : tn("{side} loses in {count} move", "{side} loses in {count} moves", hints.plies, { side });
  if (alike) {
    return t("With best play: {result}. Every empty cell leads to the same result, so none is marked.", { result });
  }
  const marks = roomy ? t("“win · n”, “draw” or “loss · n”") : t("W n (win), D (draw) or L n (loss)");
  return t("With best play: {result}. Each empty cell shows how the game ends if {side} plays there: {marks}, " +
    "where n counts both players' moves to the end.", { result, side, marks });
}

/** The turn strip's names for each side: "You" and "Engine", "X" and "O", or the watched engines' names. */
export function sideNames(view) {
  const player = (side) => t("Player {mark}", { mark: MARK[side] });
  if (view.mode === "two") return { x: player("x"), o: player("o") };
  if (view.mode === "watch") return { x: view.engines?.x ?? t("engine"), o: view.engines?.o ?? t("engine") };
  if (view.mode === "room") {
    const { me, names = {} } = view.room;
    if (!me) return { x: names.x ?? player("x"), o: names.o ?? player("o") };
    const friend = me === "x" ? "o" : "x";
    return { [me]: t("You"), [friend]: names[friend] ?? t("Friend") };
  }
  return view.human === "x" ? { x: t("You"), o: t("Engine") } : { x: t("Engine"), o: t("You") };
}

/**
 * The caption between the two sides: what the score counts, the board and the level ("3 × 3 ·
 * Perfect") or the mode ("3 × 3 · 2 players"); a k other than the size's usual one is named too.
 */
export function stripCaption(view) {
  if (view.mode === "watch") return t("Watching");
  if (view.mode === "room") return t("Game {number}", { number: view.room.game });
  const { rows, cols, k } = view;
  const board = k === defaultK(rows, cols) ? `${rows} × ${cols}` : t("{rows} × {cols} ({k} in a row)", { rows, cols, k });
  if (view.mode === "two") return t("{board} · 2 players", { board });
  return `${board} · ${levelEntry(view.level)?.label ?? view.level}`;
}
