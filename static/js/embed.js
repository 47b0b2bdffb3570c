// The embeddable game (/embed): settings from the root element's data attributes,
// nothing persisted, and a postMessage to the parent page when a game ends.

import { createApi } from "./api.js";
import { createGame } from "./game.js";
import { bindBoard, bindShortcuts } from "./input.js";
import { createRenderer } from "./render.js";
import { createPageReview } from "./review-panel.js";
import { fromDataset } from "./settings.js";
import { createMemoryStore } from "./storage.js";
import { applyTheme } from "./theme.js";

const $ = (id) => document.getElementById(id);
const root = document.querySelector("[data-rows]") ?? document.documentElement;
const settings = fromDataset(root.dataset);
applyTheme(root.dataset.theme);

// The message carries no secret, so any embedding origin may read it ("*").
const tellParent = (winner) => {
  if (window.parent !== window) window.parent.postMessage({ type: "tictactoe:gameover", winner }, "*");
};

const renderer = createRenderer({
  board: $("board"), status: $("status"), wait: $("wait"), thinking: $("thinking"), newGame: $("new-game"),
  retry: $("retry"), undo: $("undo"), hint: $("hint"), outcome: $("outcome"), strip: $("turn-strip"),
  colLabels: $("col-labels"), rowLabels: $("row-labels"),
});
const api = createApi();
// The review opens on demand here (the Review button): the frame is sized for the board.
const review = createPageReview({ api, render: renderer.render, currentView: () => game.view() });
const game = createGame({
  api, store: createMemoryStore(), settings, restore: false, onChange: review.draw, onGameOver: tellParent,
});

// While the review shows a past position, the board takes no moves.
bindBoard($("board"), {
  onPlay: (row, col) => review.stepping() || game.play(row, col), onFocus: renderer.focusCell,
});
$("new-game").addEventListener("click", () => game.newGame(settings));
$("undo").addEventListener("click", () => game.undo());
$("hint").addEventListener("click", () => game.hint());
$("retry").addEventListener("click", () => game.retry());
// The letters act only with the focus in the play area (WCAG 2.1.4).
bindShortcuts($("play"), {
  n: () => game.newGame(settings), u: () => game.undo(), h: () => game.hint(), r: () => game.retry(),
});
game.start();
