// settings.js: the settings read from and written to the form, and an embed's settings.
// The form is a stand-in with the same shape (form.elements[name].value, fieldsets found by
// querySelector): settings.js only reads and writes those properties.  The presets themselves
// are the server's (tests/test_closed_sets.py checks them) and are only checked for agreeing with presetId.

import "./server-sets.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  DEFAULT_SETTINGS, PRESETS, fillEngines, fromDataset, presetId, readEngines, readForm, readSpeed,
  readRoomRules, reflectMode, writeForm,
} from "../../static/js/settings.js";

function fakeForm(values) {
  const fieldsets = {
    human: { disabled: false }, level: { disabled: false }, watch: { hidden: false }, friend: { hidden: false },
  };
  const elements = {};
  for (const [name, value] of Object.entries(values)) elements[name] = { value };
  return {
    elements,
    fieldsets,
    querySelector(selector) {
      const name = /^fieldset\[data-field="([a-z]+)"\]$/.exec(selector)?.[1];
      assert.ok(name in fieldsets, `unexpected selector ${selector}`);
      return fieldsets[name];
    },
  };
}

const FORM = {
  size: "4x4", level: "easy", mode: "engine", human: "o", "engine-x": "minimax", "engine-o": "mcts", speed: "fast",
};

test("presetId: each preset's id from its size and k, null for any other", () => {
  for (const preset of PRESETS) assert.equal(presetId(preset), preset.id);
  assert.equal(presetId({ rows: 3, cols: 3, k: 2 }), null);
  assert.equal(presetId({ rows: 3, cols: 3, k: 4 }), null, "k larger than the board");
  assert.equal(presetId({ rows: 6, cols: 6, k: 4 }), null);
});

test("the default settings are a preset's", () => {
  assert.notEqual(presetId(DEFAULT_SETTINGS), null);
});

test("readForm: the preset's size and k, and the form's choices", () => {
  const preset = PRESETS.find((p) => p.id === FORM.size);
  assert.deepEqual(readForm(fakeForm(FORM)), {
    rows: preset.rows, cols: preset.cols, k: preset.k, level: "easy", mode: "engine", human: "o",
    engines: { x: "minimax", o: "mcts" },
  });
});

test("readForm: an unknown size falls back to the first preset", () => {
  const settings = readForm(fakeForm({ ...FORM, size: "99x99" }));
  assert.deepEqual([settings.rows, settings.cols, settings.k], [PRESETS[0].rows, PRESETS[0].cols, PRESETS[0].k]);
});

test("readEngines and readSpeed", () => {
  assert.deepEqual(readEngines(fakeForm(FORM)), { x: "minimax", o: "mcts" });
  assert.equal(readSpeed(fakeForm(FORM)), "fast");
});

test("writeForm then readForm gives the settings back, on every preset", () => {
  for (const preset of PRESETS) {
    const settings = {
      rows: preset.rows, cols: preset.cols, k: preset.k, level: "perfect", mode: "watch", human: "x",
      engines: { x: "negascout", o: "perfect" },
    };
    const form = fakeForm(FORM);
    writeForm(form, settings);
    assert.deepEqual(readForm(form), settings, preset.id);
  }
});

test("writeForm: a size no preset has leaves the size field as it was", () => {
  const form = fakeForm(FORM);
  writeForm(form, { rows: 6, cols: 6, k: 4, level: "medium", mode: "two", human: "x" });
  assert.equal(form.elements.size.value, FORM.size);
  assert.equal(form.elements.mode.value, "two");
  assert.equal(form.elements["engine-x"].value, "minimax", "no engines given: the choice stays");
});

test("reflectMode: side and level only against the engine, the watch and friend fields in their mode", () => {
  const expected = {
    engine: { human: false, level: false, watchHidden: true, friendHidden: true },
    two: { human: true, level: true, watchHidden: true, friendHidden: true },
    watch: { human: true, level: true, watchHidden: false, friendHidden: true },
    friend: { human: true, level: true, watchHidden: true, friendHidden: false },
  };
  for (const [mode, want] of Object.entries(expected)) {
    const form = fakeForm({ ...FORM, mode });
    reflectMode(form);
    assert.deepEqual({
      human: form.fieldsets.human.disabled, level: form.fieldsets.level.disabled,
      watchHidden: form.fieldsets.watch.hidden, friendHidden: form.fieldsets.friend.hidden,
    }, want, mode);
  }
});

test("readRoomRules: the form's board and the side chosen for the friend's game", () => {
  const form = fakeForm({ ...FORM, size: PRESETS[1].id, "friend-side": "o" });
  const { rows, cols, k } = PRESETS[1];
  assert.deepEqual(readRoomRules(form), { rows, cols, k, side: "o" });
});

test("fillEngines: one option per engine, the chosen one kept where it is offered", (t) => {
  // The one DOM constructor fillEngines uses, in the shape it needs.
  const made = [];
  globalThis.Option = class {
    constructor(text, value) {
      this.text = text;
      this.value = value;
      made.push(this);
    }
  };
  t.after(() => delete globalThis.Option);
  const form = fakeForm(FORM);
  for (const side of ["x", "o"]) {
    form.elements[`engine-${side}`].replaceChildren = function (...options) {
      this.options = options;
    };
  }
  const engines = [{ name: "perfect", description: "The production solver." }, { name: "mcts" }];
  fillEngines(form, engines, { x: "mcts", o: "retired" });
  const select = form.elements["engine-x"];
  assert.deepEqual(select.options.map((option) => [option.text, option.value]), [["perfect", "perfect"], ["mcts", "mcts"]]);
  assert.equal(select.options[0].title, "The production solver.");
  assert.equal("title" in select.options[1], false);
  assert.equal(select.value, "mcts");
  assert.equal(form.elements["engine-o"].value, "mcts", "an engine the server no longer offers is not chosen");
  assert.equal(made.length, 4);
});

test("fromDataset: the embed's checked data attributes", () => {
  assert.deepEqual(fromDataset({ rows: "4", cols: "5", k: "4", level: "easy", side: "o", first: "engine", mode: "two" }), {
    rows: 4, cols: 5, k: 4, level: "easy", mode: "two", human: "o",
  });
  assert.deepEqual(fromDataset({ rows: "15", cols: "15", k: "5" }), {
    rows: 15, cols: 15, k: 5, level: "perfect", mode: "engine", human: "x",
  });
});

test("fromDataset: what is missing or unknown takes the embed's defaults", () => {
  assert.deepEqual(fromDataset({}), { rows: 3, cols: 3, k: 3, level: "perfect", mode: "engine", human: "x" });
  assert.deepEqual(fromDataset({ level: "hard", mode: "watch", side: "z" }),
    { rows: 3, cols: 3, k: 3, level: "perfect", mode: "engine", human: "x" });
  // k: 3 on 3x3, else min(rows, cols, 5), as the server's default.
  assert.equal(fromDataset({ rows: "4", cols: "4" }).k, 4);
  assert.equal(fromDataset({ rows: "7", cols: "9" }).k, 5);
});

test("fromDataset: the side decides who starts; first speaks only when no side is given", () => {
  assert.equal(fromDataset({ first: "engine" }).human, "o");
  assert.equal(fromDataset({ first: "human" }).human, "x");
  assert.equal(fromDataset({ side: "x", first: "engine" }).human, "x");
});
