// words.js and plural.js: the page's words from its catalog, and the catalog's plural rule read
// without eval, as gettext reads it (the cases: tests/js/plural_cases.mjs asks the Python).

import { PLURAL_CASES } from "./plural_cases.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";

// A French page's catalog, as the server writes its JSON block (web/words/catalogs.py).
globalThis.pageWords = {
  lang: "fr",
  numbers: "fr",
  plural: "(n == 0 || n == 1) ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2",
  messages: {
    "You played {cell}.": "Vous avez joué {cell}.",
    "{count} move": ["{count} coup", "{count} de coups", "{count} coups"],
    "{name} played {cell}.": "{name} a joué {cell}.",
  },
};
const { clause, listWords, number, sentences, t, tn } = await import("../../static/js/words.js");
const { pluralRule } = await import("../../static/js/plural.js");

test("t: the catalog's words, placeholders filled wherever the translation puts them", () => {
  assert.equal(t("You played {cell}.", { cell: "b2" }), "Vous avez joué b2.");
  assert.equal(t("{name} played {cell}.", { cell: "a1", name: "Ada" }), "Ada a joué a1.");
  // A message the catalog lacks stays the code's English, its placeholders filled all the same.
  assert.equal(t("Paused."), "Paused.");
  assert.equal(t("Game {number}", { number: 12 }), "Game 12");
});

test("tn: the form the count takes in the language, the count written as the language writes it", () => {
  assert.equal(tn("{count} move", "{count} moves", 0), "0 coup"); // French: 0 takes the singular
  assert.equal(tn("{count} move", "{count} moves", 1), "1 coup");
  assert.equal(tn("{count} move", "{count} moves", 2), "2 coups");
  assert.equal(tn("{count} move", "{count} moves", 1234), "1\u202f234 coups");
  assert.equal(tn("{count} move", "{count} moves", 1_000_000), "1\u202f000\u202f000 de coups");
  // Without a translation, English's rule: one, else the plural.
  assert.equal(tn("{count} node", "{count} nodes", 1), "1 node");
  assert.equal(tn("{count} node", "{count} nodes", 0), "0 nodes");
});

test("lists, numbers and sentences as the language writes them", () => {
  assert.equal(listWords(["a1", "b2", "c3"], "or"), "a1, b2 ou c3");
  assert.equal(listWords(["3 × 3", "4 × 4"], "and"), "3 × 3 et 4 × 4");
  assert.equal(number(12.5, 1), "12,5");
  assert.equal(sentences("Un.", "", "Deux."), "Un. Deux.");
  assert.equal(clause("k must be at most 3.  "), "k must be at most 3");
});

test("plural rules: every shipped catalog's, read as gettext reads it", () => {
  assert.ok(PLURAL_CASES.length >= 3);
  for (const { rule, forms } of PLURAL_CASES) {
    const form = pluralRule(rule);
    for (const [n, index] of forms) assert.equal(form(n), index, `${rule} at ${n}`);
  }
});

test("plural rules: anything but gettext's C expression is refused", () => {
  for (const rule of ["n ++", "alert(1)", "(n != 1", "n ? 1", ""]) {
    assert.throws(() => pluralRule(rule), /not a plural rule/, rule);
  }
});
