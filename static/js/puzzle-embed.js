// A puzzle in an iframe (/embed?puzzle=ID): the puzzle player alone, nothing kept, and a message to
// the parent page when the puzzle is finished.

import { createPuzzlePlay } from "./puzzle-play.js";
import { createPuzzleApi } from "./puzzle-api.js";
import { puzzleElements } from "./puzzle-els.js";
import { bindShortcuts } from "./input.js";
import { applyTheme } from "./theme.js";
import { LANG, t } from "./words.js";

const root = document.getElementById("puzzle-embed");
applyTheme(document.getElementById("app").dataset.theme);
const els = puzzleElements();
const api = createPuzzleApi();
// The message carries no secret, so any embedding origin may read it ("*").
const play = createPuzzlePlay({
  els, api,
  onFinish: (puzzle, { firstTry }) => {
    if (window.parent !== window) {
      window.parent.postMessage({ type: "tictactoe:puzzle", id: puzzle.id, firstTry }, "*");
    }
  },
});
// The embed shows one puzzle: "Next puzzle" opens the puzzles page on the next one, in a new tab, in
// the embed's language.
els.next.textContent = t("More puzzles");
els.next.addEventListener("click", () => window.open(`/puzzles?lang=${encodeURIComponent(LANG)}`, "_blank", "noopener"));
els.reveal.addEventListener("click", () => play.reveal());
els.restart.addEventListener("click", () => play.restart());
bindShortcuts(els.play, { s: () => play.reveal() });

api.puzzle(root.dataset.puzzle).then(play.show).catch((error) => {
  els.status.textContent = error.message || t("The puzzle could not be loaded.");
});
