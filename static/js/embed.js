// The embeddable game (/embed): settings from the root element's data attributes, the game itself
// not persisted, and a postMessage to the parent page when a game ends.  With ?room=, it hosts a
// room's game instead (static/js/room-page.js: /embed?room=ID#guest=TOKEN, or watching), and keeps
// its seat in the embed's own storage, so that the embedding page's reload finds the seat again.

import { createApi } from "./api.js";
import { createGame } from "./game.js";
import { bindBoard, bindShortcuts } from "./input.js";
import { createRenderer } from "./render.js";
import { createPageReview } from "./review-panel.js";
import { fromDataset } from "./settings.js";
import { cookieBackend, createMemoryStore, createStore, defaultBackend } from "./storage.js";
import { applyTheme } from "./theme.js";

const $ = (id) => document.getElementById(id);
const root = document.querySelector("[data-rows]") ?? document.documentElement;
const settings = fromDataset(root.dataset);
applyTheme(root.dataset.theme);

// The message carries no secret, so any embedding origin may read it ("*"): who won, which side
// the embed's own player had (null: two players at one screen, or a spectator) and so its result.
const tellParent = (winner, player) => {
  if (window.parent === window) return;
  const result = player == null ? null : winner == null ? "draw" : winner === player ? "win" : "loss";
  window.parent.postMessage({ type: "tictactoe:gameover", winner, player: player ?? null, result }, "*");
};

const renderer = createRenderer({
  board: $("board"), status: $("status"), wait: $("wait"), thinking: $("thinking"), newGame: $("new-game"),
  retry: $("retry"), undo: $("undo"), redo: $("redo"), hint: $("hint"), outcome: $("outcome"), strip: $("turn-strip"),
  colLabels: $("col-labels"), rowLabels: $("row-labels"),
});
const api = createApi();
let room = null; // a room's game, when the embed hosts one
// The review opens on demand here (the Review button): the frame is sized for the board.
const review = createPageReview({ api, render: renderer.render, currentView: () => (room ?? game).view() });
const store = createMemoryStore();
// The seats this browser holds in rooms, kept for the next load of the embedding page: in this
// frame's storage, or (a third-party frame refused it) in a partitioned cookie of /embed.
const seats = createStore("tictactoe:v1:", defaultBackend() ?? cookieBackend("/embed"));
const game = createGame({
  api, store, settings, restore: false, onChange: review.draw,
  onGameOver: (winner) => tellParent(winner, game.view().mode === "engine" ? game.view().human : null),
});
const local = (action) => () => room || action();

// While the review shows a past position, the board takes no moves; a tap on a small cell takes two.
const play = (row, col) => review.stepping() || (room ?? game).play(row, col);
bindBoard($("board"), {
  onPlay: play,
  onTouch: (row, col) => review.stepping() || (renderer.tap(row, col) && play(row, col)),
  onFocus: renderer.focusCell,
});
const again = () => (room ? room.rematch() : game.newGame(settings));
$("new-game").addEventListener("click", again);
$("undo").addEventListener("click", local(() => game.undo()));
$("redo").addEventListener("click", local(() => game.redo()));
$("hint").addEventListener("click", local(() => game.hint()));
$("retry").addEventListener("click", local(() => game.retry()));
// The letters act only with the focus in the play area (WCAG 2.1.4).
bindShortcuts($("play"), {
  n: again, u: local(() => game.undo()), y: local(() => game.redo()), h: local(() => game.hint()),
  r: local(() => game.retry()),
});

/** Host the room of the address's link; a refusal is said on the status line, over an empty board. */
async function hostRoom() {
  const { openRoom, readRoomLink } = await import("./room-page.js");
  try {
    room?.stop();
    const opened = await openRoom({
      link: readRoomLink(window.location.search, window.location.hash), store: seats,
      els: { note: $("room-note"), bar: $("room-bar"), confirm: $("room-confirm"), answer: $("room-answer") },
      draw: review.draw, onGameOver: (winner, view) => tellParent(winner, view.room.me), onLeave: () => {},
    });
    room = opened.game;
    if (opened.notice) $("room-note").textContent = opened.notice;
  } catch (error) {
    game.start();
    $("status").textContent = error.message || "The room could not be opened.";
  }
}

if (new URLSearchParams(window.location.search).has("room")) {
  hostRoom();
  // A seat's link given to the frame changes only what follows the "#": read it again.
  window.addEventListener("hashchange", hostRoom);
} else {
  game.start();
}
