// The game review on the page: the list of moves with their verdicts, read from GET /position
// (one request per position before a move; the browser's cache answers positions seen before),
// and stepping through the game's positions on the board, then back to the game.

import { cellName } from "./cells.js";
import { LIMITED_WORDS, createCountdown, secondsLeft, waitWords } from "./refusal.js";
import { gameMoves, moveHead, reviewLine, verdict } from "./review.js";

const MARK = { x: "X", o: "O" };

// What may be done when a refusal's wait is over.
const CHECK_AGAIN = "check the other moves";

/**
 * A review over the elements {panel, status, wait, retry, list, prev, next, back, toggle}.
 * `api.position(rows, k, signal)` answers a position; `onChange()` is called when the board must be
 * redrawn (a step was chosen or left).  Returns {update(view), open(view, {reveal}), close(), isOpen(),
 * boardView(view), stepping()}.
 */
export function createReviewPanel({ els, api, onChange }) {
  const answers = new Map(); // "k:rows" -> the server's answer, or {error}
  let isOpen = false;
  let game = null; // {history, k}: the game under review
  let moves = [];
  let step = null; // the history index shown on the board, or null for the game itself
  let loading = null; // the AbortController of the fetch loop
  // What stopped the fetch loop, or null: a 429 ({words, until}: the end of its wait, Date.now()'s
  // clock) or the network gone ({words: the offline player's, until: null}, so that Retry shows at once).
  let stopped = null;
  // Each second redraws only the words, not the list, whose buttons may hold the focus.
  const waiting = createCountdown(() => drawStatus());

  const keyOf = (rows) => `${game.k}:${rows.join("/")}`;

  function sameGame(view) {
    return game && game.k === view.k && game.history.length === view.history.length &&
      game.history.every((rows, i) => rows.join("/") === view.history[i].join("/"));
  }

  /** Follow the game: a new move, an undo or a new game changes what the open review lists. */
  function update(view) {
    if (!isOpen || sameGame(view)) return;
    game = { history: view.history, k: view.k };
    moves = gameMoves(view.history);
    if (step !== null) {
      step = null;
      onChange();
    }
    draw();
    fetchMissing();
  }

  async function fetchMissing() {
    loading?.abort();
    waiting.stop();
    stopped = null;
    const controller = new AbortController();
    loading = controller;
    for (const move of moves) {
      const key = keyOf(move.before);
      if (answers.has(key) && !answers.get(key).error) continue;
      try {
        answers.set(key, await api.position(move.before, game.k, controller.signal));
      } catch (error) {
        if (controller.signal.aborted) return;
        if (error.kind === "limited" || error.kind === "offline") {
          // The rest waits for the player (once a refusal's wait is over): nothing is sent before then.
          stopped = error.kind === "limited" ? { words: LIMITED_WORDS, until: error.until }
            : { words: error.message, until: null };
          draw(); // the moves not asked say so
          if (stopped.until !== null) waiting.start(stopped.until);
          return;
        }
        answers.set(key, { error: error.message || "Something went wrong." });
      }
      if (controller.signal.aborted) return;
      draw();
    }
  }

  function resultOf(move) {
    const answer = answers.get(keyOf(move.before));
    return answer && !answer.error ? verdict(answer, move) : null;
  }

  function draw() {
    const results = moves.map(resultOf);
    const items = moves.map((move, i) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "review-move";
      button.dataset.index = move.index;
      const result = results[i];
      const failed = answers.get(keyOf(move.before))?.error;
      const unasked = stopped !== null && !answers.has(keyOf(move.before));
      button.textContent = failed ? `${moveHead(move, i + 1)} — ${failed}`
        : unasked ? `${moveHead(move, i + 1)} — not checked yet.` : reviewLine(move, i + 1, result);
      if (result) button.dataset.verdict = result.kind;
      if (step === move.index) button.setAttribute("aria-current", "step");
      const item = document.createElement("li");
      item.append(button);
      return item;
    });
    els.list.replaceChildren(...items);
    drawStatus(results);
    els.prev.disabled = step === null ? moves.length === 0 : step <= 0;
    els.next.disabled = step === null || step >= game.history.length - 1;
    // On the game's own position it closes the review: what the review stands in for (the settings,
    // in the page's side column) is then one click away at a game's end.
    const label = step === null ? "Done" : "Back to the game";
    if (els.back.textContent !== label) els.back.textContent = label;
  }

  /** The summary, and after a refusal its countdown or (once the wait is over) the button to check the rest. */
  function drawStatus(results = moves.map(resultOf)) {
    const status = summary(results);
    // A live region: it changes when the refusal comes and when its wait is over, not each second.
    if (els.status.textContent !== status) els.status.textContent = status;
    // Screen readers wait for the whole summary rather than announcing each answer's progress.
    const loadingMore = stopped === null && moves.some((move) => !answers.has(keyOf(move.before)));
    els.status.setAttribute("aria-busy", String(loadingMore));
    const wait = stopped?.until == null ? 0 : secondsLeft(stopped.until);
    els.wait.textContent = wait > 0 ? waitWords(wait, CHECK_AGAIN) : "";
    els.wait.hidden = wait === 0;
    els.retry.hidden = stopped === null || wait > 0;
  }

  function summary(results) {
    if (moves.length === 0) return "No move has been played yet.";
    const done = results.filter(Boolean);
    if (stopped !== null) {
      const waited = stopped.until !== null && secondsLeft(stopped.until) === 0;
      const over = waited ? ` ${waitWords(0, CHECK_AGAIN)}` : "";
      return `${stopped.words} ${done.length} of ${moves.length} moves checked.${over}`;
    }
    const failed = moves.filter((move) => answers.get(keyOf(move.before))?.error).length;
    if (done.length + failed < moves.length) {
      return `Checking ${moves.length} moves with the server… (${done.length} done)`;
    }
    if (failed > 0) {
      return `${failed} of ${moves.length} moves could not be checked; close and reopen the review to try again.`;
    }
    const mistakes = moves.filter((_, i) => results[i].kind === "mistake")
      .map((move) => `${MARK[move.by]} ${cellName(move.row, move.col)}`);
    const unproven = results.some((result) => result.kind === "unproven")
      ? " Some values on this board are not proven, so those moves get no verdict." : "";
    const found = mistakes.length === 0 ? "no mistake"
      : `${mistakes.length === 1 ? "one mistake" : `${mistakes.length} mistakes`} (${mistakes.join(", ")})`;
    return `${moves.length} ${moves.length === 1 ? "move" : "moves"}: ${found}.${unproven}`;
  }

  /** Show the position at history index `index` on the board (null: back to the game). */
  function show(index, focus = true) {
    step = index === null ? null : Math.max(0, Math.min(game.history.length - 1, index));
    draw();
    onChange();
    if (!focus) return;
    const target = step === null ? null : els.list.querySelector(`[data-index="${step}"]`);
    (target ?? (step === null ? els.toggle : els.back))?.focus();
  }

  els.list.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-index]");
    if (button) show(Number(button.dataset.index));
  });
  // The arrows step through the game while the focus is in the review; Escape goes back to it.
  els.panel.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || !game) return;
    const last = game.history.length - 1;
    const here = step ?? last;
    const keys = {
      ArrowLeft: here - 1, ArrowUp: here - 1, ArrowRight: here + 1, ArrowDown: here + 1,
      Home: 0, End: last, Escape: null,
    };
    if (!(event.key in keys) || (event.key === "Escape" && step === null)) return;
    event.preventDefault();
    show(keys[event.key]);
  });
  els.retry.addEventListener("click", () => {
    const next = moves.find((move) => !answers.has(keyOf(move.before)));
    fetchMissing();
    draw();
    // The button hides itself: the focus goes to the first move it checks, not to the page.
    if (next) els.list.querySelector(`[data-index="${next.index}"]`)?.focus();
  });
  els.prev.addEventListener("click", () => show((step ?? game.history.length - 1) - 1));
  els.next.addEventListener("click", () => show(step + 1));
  els.back.addEventListener("click", () => {
    if (step !== null) {
      show(null);
      return;
    }
    panel.close();
    els.toggle?.focus(); // the panel it was in is gone: the focus goes to the button that opens it
  });

  const panel = {
    update,

    /**
     * Open the review of the game in `view` (and fetch what it needs); `reveal`: scroll the page to
     * it where it opened out of sight.
     */
    open(view, { reveal = false } = {}) {
      isOpen = true;
      els.panel.hidden = false;
      els.toggle?.setAttribute("aria-expanded", "true");
      game = null;
      update(view);
      if (reveal) bringIntoView(els.panel);
    },

    /** Close the review and show the game. */
    close() {
      isOpen = false;
      loading?.abort();
      waiting.stop();
      els.panel.hidden = true;
      els.toggle?.setAttribute("aria-expanded", "false");
      if (step !== null) show(null, false);
    },

    /** Whether the review is open. */
    isOpen: () => isOpen,

    /** The view the board should draw: the game's own, or the reviewed position with its move. */
    boardView(view) {
      if (step === null || !game) return view;
      const move = moves.find((m) => m.index === step) ?? null;
      const number = moves.indexOf(move) + 1;
      const result = move && resultOf(move);
      const text = move ? `Reviewing ${reviewLine(move, number, result)}`
        : "Reviewing the start of the game.";
      return {
        ...view,
        board: game.history[step],
        last: move && { row: move.row, col: move.col, by: move.by },
        line: step === game.history.length - 1 ? view.line : null,
        hints: null,
        humanCanPlay: false,
        canHint: false,
        reviewing: { step, text },
      };
    },

    /** Whether a past position is on the board (the board then takes no moves). */
    stepping: () => step !== null,
  };
  return panel;
}

/**
 * Scroll this document (never a page that embeds it, which scrollIntoView would also move) so that
 * `element` is in view: all of it when it fits, else its top; at once when the reader prefers
 * reduced motion, else smoothly.
 */
function bringIntoView(element) {
  const margin = 8; // px between the element and the viewport's edge
  const box = element.getBoundingClientRect();
  const overBottom = box.bottom + margin - window.innerHeight;
  const belowTop = box.top - margin;
  const by = overBottom > 0 ? Math.min(overBottom, belowTop) : Math.min(belowTop, 0);
  if (by === 0) return;
  const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  window.scrollBy({ top: by, behavior: reduce ? "instant" : "smooth" });
}

/**
 * The review over the play area's elements (#review, #review-status, #review-wait, #review-retry,
 * #review-moves, #review-prev, #review-next, #review-back) with its Review button (#review-toggle)
 * wired to open (and bring into view) and close it.
 * `currentView()` is the game's view; `render(view)` draws the board.  The result's draw(view)
 * follows the game and draws the board (the game's position, or the one under review).
 */
export function createPageReview({ api, render, currentView }) {
  const $ = (id) => document.getElementById(id);
  const draw = (view) => {
    review.update(view);
    render(review.boardView(view));
  };
  const onChange = () => draw(currentView());
  const review = createReviewPanel({
    els: {
      panel: $("review"), status: $("review-status"), wait: $("review-wait"), retry: $("review-retry"),
      list: $("review-moves"), prev: $("review-prev"),
      next: $("review-next"), back: $("review-back"), toggle: $("review-toggle"),
    },
    api, onChange,
  });
  $("review-toggle").addEventListener("click", () => {
    if (review.isOpen()) review.close();
    else review.open(currentView(), { reveal: true });
  });
  return { ...review, draw };
}
