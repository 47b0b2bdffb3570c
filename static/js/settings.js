// Game settings: the board presets and the settings form's values.
//
// settings = {rows, cols, k, level, mode: "engine"|"two"|"watch", human: "x"|"o", engines: {x, o}}

import { LEVELS, SETS, defaultK } from "./server-sets.js";

/** Board presets offered on the page: id, size and line length (web/pages/closed_sets.py). */
export const PRESETS = SETS.presets;

// The game page's first level for a newcomer is the server's choice (gamePageLevel).
export const DEFAULT_SETTINGS = {
  rows: PRESETS[0].rows, cols: PRESETS[0].cols, k: PRESETS[0].k, level: SETS.gamePageLevel, mode: "engine", human: "x", engines: { x: "perfect", o: "mcts" },
};

/** The preset id matching a size and k, or null when none does. */
export function presetId({ rows, cols, k }) {
  const preset = PRESETS.find((p) => p.rows === rows && p.cols === cols && p.k === k);
  return preset ? preset.id : null;
}

/** The settings chosen in the form (elements named size, mode, human, level, engine-x, engine-o). */
export function readForm(form) {
  const preset = PRESETS.find((p) => p.id === form.elements.size.value) ?? PRESETS[0];
  return {
    rows: preset.rows,
    cols: preset.cols,
    k: preset.k,
    level: form.elements.level.value,
    mode: form.elements.mode.value,
    human: form.elements.human.value,
    engines: readEngines(form),
  };
}

/** The engines chosen for watch mode: {x, o}. */
export function readEngines(form) {
  return { x: form.elements["engine-x"].value, o: form.elements["engine-o"].value };
}

/** The watch speed chosen in the form, as a key of watch.js's SPEEDS. */
export function readSpeed(form) {
  return form.elements.speed.value;
}

/** Fill the watch engine selects with GET /engines' list, then choose `chosen` ({x, o}) where it is offered. */
export function fillEngines(form, engines, chosen = readEngines(form)) {
  for (const side of ["x", "o"]) {
    const select = form.elements[`engine-${side}`];
    select.replaceChildren(...engines.map((engine) => {
      const option = new Option(engine.name, engine.name);
      if (engine.description) option.title = engine.description;
      return option;
    }));
    if (engines.some((engine) => engine.name === chosen[side])) select.value = chosen[side];
  }
}

/** Show settings in the form; side and level are disabled in two-player mode. */
export function writeForm(form, settings) {
  const id = presetId(settings);
  if (id) form.elements.size.value = id;
  form.elements.level.value = settings.level;
  form.elements.mode.value = settings.mode;
  form.elements.human.value = settings.human;
  if (settings.engines) {
    form.elements["engine-x"].value = settings.engines.x;
    form.elements["engine-o"].value = settings.engines.o;
  }
  reflectMode(form);
}

/** Disable the fields for playing the engine unless a human plays it; show the watch (and friend) fields in their mode. */
export function reflectMode(form) {
  const mode = form.elements.mode.value;
  for (const name of ["human", "level"]) {
    form.querySelector(`fieldset[data-field="${name}"]`).disabled = mode !== "engine";
  }
  form.querySelector('fieldset[data-field="watch"]').hidden = mode !== "watch";
  form.querySelector('fieldset[data-field="friend"]').hidden = mode !== "friend";
}

/** The rules and side for a new room (POST /rooms): the form's board, and the side chosen for the friend's game. */
export function readRoomRules(form) {
  const { rows, cols, k } = readForm(form);
  return { rows, cols, k, side: form.elements["friend-side"].value };
}

/** Settings from an embed's data attributes (already validated by the server). */
export function fromDataset(data) {
  const rows = Number(data.rows) || DEFAULT_SETTINGS.rows;
  const cols = Number(data.cols) || DEFAULT_SETTINGS.cols;
  const k = Number(data.k) || defaultK(rows, cols);
  // X always moves first: the side decides who starts.  `first` only speaks
  // when no side is given ("engine" first means the human plays O).
  const human = data.side === "x" || data.side === "o" ? data.side
    : data.first === "engine" ? "o" : "x";
  const mode = data.mode === "two" ? "two" : "engine";
  // The embed's default level is the API's, not the game page's.
  const level = LEVELS.includes(data.level) ? data.level : SETS.defaultLevel;
  return { rows, cols, k, level, mode, human };
}
