// The puzzles page: wires the puzzle player, the player's progress in this browser, the menus of
// boards and tasks, today's puzzle and the link to each puzzle.

import { createPuzzleApi } from "./puzzle-api.js";
import { puzzleElements } from "./puzzle-els.js";
import { createPuzzlePlay } from "./puzzle-play.js";
import { emptyProgress, nextPuzzle, readProgress, recordResult, solvedCount } from "./puzzle-progress.js";
import { bindShortcuts } from "./input.js";
import { createStore } from "./storage.js";
import { bindThemeButton } from "./theme.js";
import { LANG, number, sentences, t } from "./words.js";

const $ = (id) => document.getElementById(id);
const store = createStore("tictactoe:v1:");
const api = createPuzzleApi();
const els = puzzleElements();
const form = $("puzzle-choice");
let progress = readProgress(store.get("puzzles"));
const lists = new Map(); // "board|task" -> the server's list of puzzles

const play = createPuzzlePlay({
  els, api,
  onFinish: (puzzle, { firstTry }) => {
    progress = recordResult(progress, puzzle, firstTry);
    store.set("puzzles", progress);
    showProgress();
  },
});

function showProgress() {
  $("puzzle-rating").textContent = String(progress.rating); // as chess writes a rating: 1500, ungrouped
  $("puzzle-streak").textContent = number(progress.streak);
  $("puzzle-solved").textContent = number(solvedCount(progress));
}

/** The page's menus as the player set them last (or as the address asks). */
function showChoice({ board, task }) {
  if (board && [...form.elements.board.options].some((option) => option.value === board)) form.elements.board.value = board;
  form.elements.task.value = task;
}

function readChoice() {
  return { board: form.elements.board.value, task: form.elements.task.value };
}

/**
 * Put `puzzle` on the board; the address and the link field become its link, in the page's language
 * (the address keeps a ?lang= it was opened with).
 */
function load(puzzle) {
  play.show(puzzle);
  const link = new URL(puzzle.link, window.location.origin);
  link.searchParams.set("lang", LANG);
  $("puzzle-link").value = link.href;
  $("puzzle-copied").textContent = "";
  const lang = new URLSearchParams(window.location.search).get("lang");
  const address = lang ? `${puzzle.link}?lang=${encodeURIComponent(lang)}` : puzzle.link;
  if (window.location.pathname + window.location.search !== address) window.history.replaceState(null, "", address);
}

async function listFor(choice) {
  const key = `${choice.board}|${choice.task}`;
  if (!lists.has(key)) {
    const puzzles = [];
    let after = "";
    do {
      const page = await api.list({ ...choice, after, limit: 100 });
      puzzles.push(...page.puzzles);
      after = page.next ?? "";
    } while (after);
    lists.set(key, puzzles);
  }
  return lists.get(key);
}

async function next() {
  const choice = readChoice();
  try {
    const puzzle = nextPuzzle(await listFor(choice), progress, play.current()?.id);
    if (puzzle) load(puzzle);
    else say(t("No puzzle fits these choices."));
  } catch (error) {
    say(sentences(error.message || t("The puzzles could not be loaded."), t("Press Next puzzle to try again.")));
  }
}

async function daily() {
  try {
    load((await api.daily()).puzzle);
  } catch (error) {
    say(error.message || t("Today's puzzle could not be loaded."));
  }
}

function say(words) {
  els.status.textContent = words;
}

form.addEventListener("change", () => {
  progress = { ...progress, choice: readChoice() };
  store.set("puzzles", progress);
  next();
});
form.addEventListener("submit", (event) => event.preventDefault());
els.next.addEventListener("click", next);
els.reveal.addEventListener("click", () => play.reveal());
els.restart.addEventListener("click", () => play.restart());
$("puzzle-daily").addEventListener("click", daily);
$("puzzle-copy").addEventListener("click", async () => {
  const field = $("puzzle-link");
  try {
    await navigator.clipboard.writeText(field.value);
    $("puzzle-copied").textContent = t("The link is copied.");
  } catch {
    field.select();
    $("puzzle-copied").textContent = t("Copy the selected link.");
  }
});
// The letters act only with the focus in the play area (WCAG 2.1.4).
bindShortcuts(els.play, { n: next, s: () => play.reveal() });

bindThemeButton($("theme"), store);

/** The puzzle the address names (an id, or today's), else the player's next one. */
async function begin() {
  const query = new URLSearchParams(window.location.search);
  const saved = progress.choice ?? emptyProgress().choice;
  showChoice({ board: query.get("board") ?? saved.board, task: query.get("task") ?? saved.task });
  showProgress();
  const start = $("puzzles").dataset.start;
  if (start === "daily") return daily();
  if (!start) return next();
  try {
    const puzzle = await api.puzzle(start);
    showChoice({ board: `${puzzle.rows}x${puzzle.cols}k${puzzle.k}`, task: readChoice().task });
    load(puzzle);
  } catch (error) {
    await next();
    say(sentences(error.message || t("The link's puzzle could not be loaded."), t("Here is another one.")));
  }
}
begin();
