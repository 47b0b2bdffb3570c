// The game page: wires the API, the store, the game, the renderer and the input together.

import { createApi } from "./api.js";
import { levelHelp } from "./describe.js";
import { createGame } from "./game.js";
import { bindBoard, bindShortcuts } from "./input.js";
import { checkGame, gameLink, readGameLink } from "./links.js";
import { bindLanguagePicker } from "./language-picker.js";
import { createRenderer } from "./render.js";
import { createPageReview } from "./review-panel.js";
import { bindShareDialog } from "./share.js";
import {
  DEFAULT_SETTINGS, fillEngines, readEngines, readForm, readRoomRules, readSpeed, reflectMode, writeForm,
} from "./settings.js";
import { OFFLINE_SIZE_WORDS } from "./server-sets.js";
import { createStore } from "./storage.js";
import { bindThemeButton } from "./theme.js";
import { SPEEDS } from "./watch.js";
import { LANG, sentences, t } from "./words.js";

const $ = (id) => document.getElementById(id);
const store = createStore("tictactoe:v1:");
const form = $("settings");

const renderer = createRenderer({
  board: $("board"), status: $("status"), wait: $("wait"), thinking: $("thinking"), newGame: $("new-game"),
  retry: $("retry"), undo: $("undo"), redo: $("redo"), hint: $("hint"), engine: $("engine-info"), engineDetails: $("engine-details"),
  hintSummary: $("hint-summary"), outcome: $("outcome"), watchToggle: $("watch-toggle"),
  strip: $("turn-strip"), colLabels: $("col-labels"), rowLabels: $("row-labels"),
});
const api = createApi();
const review = createPageReview({ api, render: renderer.render, currentView: () => current() });
// The address bar carries the game (a link to share, and what a reload opens), and the language its
// own address named, if any.
const addressLang = new URLSearchParams(window.location.search).get("lang");
const writeLink = (view) => {
  const link = gameLink(game.settings(), view.history, addressLang);
  if (link !== window.location.search) window.history.replaceState(null, "", link);
};
// A game with a friend (static/js/room-page.js, loaded when one is opened): it has the board while it lasts.
let room = null;
const draw = (view) => {
  if (room) return;
  review.draw(view);
  writeLink(view);
};
const game = createGame({
  api, store, settings: DEFAULT_SETTINGS, onChange: draw,
  // A finished game opens its review.
  onGameOver: () => review.open(game.view()),
});
const current = () => (room ? room.view() : game.view());

// The form shows the game's settings, and the help line what its level does.
const showSettings = (settings) => {
  writeForm(form, settings);
  $("level-help").textContent = levelHelp(form.elements.level.value);
};
showSettings(game.settings());
game.setSpeed(SPEEDS[readSpeed(form)]);
// Watch mode's engine menus come from the server; the defaults in the page stand until then.
api.engines().then(({ engines }) => {
  fillEngines(form, engines, game.settings().engines ?? DEFAULT_SETTINGS.engines);
}).catch(() => {});
const startNew = () => {
  if (room || form.elements.mode.value === "friend") return; // a room is made with its own button
  review.close();
  game.newGame(readForm(form));
  $("settings-note").hidden = true;
  $("link-message").hidden = true;
};

// While the review shows a past position, the board takes no moves; a tap on a small cell takes two.
const play = (row, col) => review.stepping() || (room ? room.play(row, col) : game.play(row, col));
bindBoard($("board"), {
  onPlay: play,
  onTouch: (row, col) => review.stepping() || (renderer.tap(row, col) && play(row, col)),
  onFocus: renderer.focusCell,
});
$("new-game").addEventListener("click", () => (room ? room.rematch() : startNew()));
// Undo may bring back a game that New game replaced: the form then shows that game's settings.
const undo = () => {
  if (room) return;
  if (game.undo() === "game") {
    showSettings(game.settings());
    $("settings-note").hidden = true;
  }
};
$("undo").addEventListener("click", undo);
const redo = () => room || game.redo();
$("redo").addEventListener("click", redo);
$("hint").addEventListener("click", () => room || game.hint());
$("retry").addEventListener("click", () => room || game.retry());
$("watch-toggle").addEventListener("click", () => game.toggleWatch());
form.addEventListener("submit", (event) => { event.preventDefault(); startNew(); });
form.addEventListener("change", (event) => {
  reflectMode(form);
  $("level-help").textContent = levelHelp(form.elements.level.value);
  if (event.target.name === "speed") game.setSpeed(SPEEDS[readSpeed(form)]);
  else if (room || form.elements.mode.value === "friend") return; // the room's button makes one
  else if (event.target.name.startsWith("engine-") && game.settings().mode === "watch") game.setEngines(readEngines(form));
  else if (game.inProgress()) $("settings-note").hidden = false;
  else startNew();
});
// The letters act only with the focus in the play area (WCAG 2.1.4), so a stray key elsewhere does nothing.
bindShortcuts($("play"), {
  n: () => (room ? room.rematch() : startNew()), u: undo, y: redo, h: () => room || game.hint(),
  r: () => room || game.retry(),
});

bindThemeButton($("theme"), store);
bindShareDialog({
  dialog: $("share"), open: $("share-open"), form: $("share-form"), link: $("share-link"),
  code: $("share-code"), preview: $("share-preview"), note: $("share-note"),
}, () => ({
  settings: game.settings(),
  // In a room, the link to share is the one that watches it (the seat's link plays for you), and
  // the embed is the room's; either opens in this page's language.
  link: room ? `?room=${room.view().room.id}&lang=${encodeURIComponent(LANG)}`
    : gameLink(game.settings(), game.view().history, LANG),
  room: room ? room.view().room.id : null,
}));

// Your turn, in a room: in the tab's title (seen from another tab), and a sound and a buzz if this
// browser asked for them (the checkbox is the gesture a browser needs before it plays a sound).
const TITLE = document.title;
const showTurn = (view) => {
  const mine = view?.mode === "room" && view.humanCanPlay;
  document.title = mine ? t("● Your turn — {title}", { title: TITLE }) : TITLE;
};
let sound = null;
$("room-signal").checked = store.get("turn-signal") === true;
$("room-signal").addEventListener("change", (event) => {
  store.set("turn-signal", event.target.checked);
  if (event.target.checked) signal();
});
function signal() {
  if (!$("room-signal").checked) return;
  navigator.vibrate?.(80);
  try {
    sound ??= new AudioContext();
    const tone = sound.createOscillator();
    const level = sound.createGain();
    tone.frequency.value = 660;
    level.gain.setValueAtTime(0.08, sound.currentTime);
    level.gain.exponentialRampToValueAtTime(0.0001, sound.currentTime + 0.25);
    tone.connect(level).connect(sound.destination);
    tone.start();
    tone.stop(sound.currentTime + 0.25);
  } catch {
    // No sound here: the title still says it.
  }
}

/** Make a room (`create`: its rules) or open one (`link`), and give it the board; a refusal is shown in words. */
async function enterRoom({ create = null, link = null }) {
  const { openRoom } = await import("./room-page.js");
  room?.stop(); // a new room replaces the one on the page
  room = null;
  review.close();
  try {
    const opened = await openRoom({
      create, link, store,
      els: {
        panel: $("room-panel"), note: $("room-note"), invite: $("room-invite"), inviteLink: $("room-invite-link"),
        inviteCode: $("room-invite-code"), share: document.querySelector("#room-panel [data-share]"),
        watchLink: $("room-watch-link"), copied: $("room-copied"), leave: $("room-leave"),
        seatHelp: $("room-seat-help"), nameForm: $("room-name-form"), name: $("room-name"),
        bar: $("room-bar"), confirm: $("room-confirm"), answer: $("room-answer"),
      },
      draw: (view) => {
        // A rematch's first position closes the last game's review, as a new game does.
        if (view.history.length === 1 && view.status === "in_progress") review.close();
        review.draw(view);
        showTurn(view);
      },
      onGameOver: (_, view) => review.open(view),
      onTurn: signal,
      onLeave: () => {
        room = null;
        showTurn(null);
        review.close();
        form.elements.mode.value = "engine";
        showSettings(game.settings());
        game.start();
      },
    });
    room = opened.game;
    if (opened.notice) showMessage(opened.notice);
    const view = room.view();
    if (view.status !== "in_progress") review.open(view);
    if (create) $("room-panel").scrollIntoView({ block: "nearest" });
  } catch (error) {
    const words = error.kind === "limited"
      ? t("Too many rooms were made from this network: you can make another in {seconds} s.",
        { seconds: error.retryAfter })
      : error.kind === "offline" ? t("You are offline: Play a friend needs the network.")
        : error.message || t("The room could not be opened.");
    showMessage(sentences(words, link ? t("Here is a game against the engine instead.") : ""));
    if (link) window.history.replaceState(null, "", addressLang ? `/?lang=${encodeURIComponent(addressLang)}` : "/");
    game.start();
  }
}

function showMessage(words) {
  $("link-message").textContent = words;
  $("link-message").hidden = false;
}

$("room-create").addEventListener("click", () => enterRoom({ create: readRoomRules(form) }));

/** Open the game in the address bar's link, if any (a bad link: its message and an empty board). */
async function begin() {
  if (new URLSearchParams(window.location.search).has("room")) {
    const { readRoomLink } = await import("./room-page.js");
    await enterRoom({ link: readRoomLink(window.location.search, window.location.hash) });
    return;
  }
  const link = readGameLink(window.location.search, DEFAULT_SETTINGS);
  // A reload of the saved game's own link resumes it as it was (with its score already counted).
  const resumes = link && !link.error &&
    gameLink(link.settings, link.history) === gameLink(game.settings(), game.view().history);
  if (!link || resumes) {
    game.start();
    return;
  }
  const { problem, answer, refused } = link.error ? { problem: link.error } : await checkGame(api, link);
  if (problem) {
    $("link-message").textContent = sentences(problem, t("Here is an empty board instead."));
    $("link-message").hidden = false;
    // The link's own board when the server plays it, else the board of the game this browser had.
    game.newGame(link.settings && !refused ? link.settings : game.settings());
  } else {
    game.load(link.settings, link.history, answer);
    if (game.view().status !== "in_progress") review.open(game.view());
  }
  showSettings(game.settings());
}
begin();
bindLanguagePicker($("language"));
// A seat's link pasted into a tab already on the page changes only what follows the "#": read it again.
window.addEventListener("hashchange", async () => {
  if (!new URLSearchParams(window.location.search).has("room")) return;
  const { readRoomLink } = await import("./room-page.js");
  await enterRoom({ link: readRoomLink(window.location.search, window.location.hash) });
});

// The page as an app (static/js/offline-app.js), after the load: nothing in it is needed to play.
// When the network comes back, a move or a hint that waited for it goes again.
const NETWORK_WORDS = {
  offline: t("You are offline: {size} against the engine and two players still play.", { size: OFFLINE_SIZE_WORDS }),
  online: t("You are back online: every board and Play a friend work again."),
};
window.addEventListener("load", () => {
  import("./offline-app.js").then(({ startApp }) => startApp({
    box: $("notices"), store, words: NETWORK_WORDS,
    onOnline: () => room || (game.view().error?.kind === "offline" && game.retry()),
  })).catch(() => {}); // not loaded (offline, and no worker kept it): the page plays as it is
});
