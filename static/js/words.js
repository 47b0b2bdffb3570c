// The page's words in its reader's language: t("Your turn ({mark}).", {mark}) and
// tn("{count} move", "{count} moves", count) look a message up in the page's catalog and fill its
// placeholders in, so that a translation puts them where its language does.  The English is the
// message itself: an English page carries no catalog, and a message a catalog lacks stays English.
//
// The catalog is the page's JSON block (<script type="application/json" id="words">, written by
// the server from translations/, web/words/catalogs.py): one language's, never all.
//
// catalog = {
//   lang: "fr",                       // the page's language (<html lang> says it too)
//   numbers: "fr",                    // the locale its numbers are written in
//   plural: "(n == 0 || n == 1) ? 0 : …",  // the catalog's plural rule: which form a count takes
//   messages: {"Hint": "Indice", "{count} move": ["{count} coup", "{count} coups", "{count} coups"]},
// }
//
// Under node there is no document: the unit tests may put a catalog in globalThis.pageWords first.

import { pluralRule } from "./plural.js";

function readCatalog() {
  const block = globalThis.document?.getElementById("words");
  if (block) return JSON.parse(block.textContent);
  return globalThis.pageWords ?? null;
}

const CATALOG = readCatalog() ?? { messages: {} };
const MESSAGES = CATALOG.messages;
const PLURAL = pluralRule(CATALOG.plural ?? "n != 1");
const NUMBERS = new Intl.NumberFormat(CATALOG.numbers ?? "en");

/** The page's language ("fr"), as its <html lang> says. */
export const LANG = globalThis.document?.documentElement.lang || CATALOG.lang || "en";
// The English of the page is British ("centre"), and writes "a1, b2 or c3" without Oxford's comma.
const LISTS = LANG === "en" ? "en-GB" : CATALOG.numbers ?? LANG;

/** `message` in the page's language, each {name} replaced by values[name] (numbers as the language writes them). */
export function t(message, values = {}) {
  const found = MESSAGES[message];
  return fill(typeof found === "string" ? found : message, values);
}

/**
 * The form of `singular` / `plural` that `count` takes in the page's language, its {count} written as
 * the language writes numbers and its other placeholders filled from `values`.
 */
export function tn(singular, plural, count, values = {}) {
  const forms = MESSAGES[singular];
  const text = Array.isArray(forms) ? forms[PLURAL(count)] ?? forms[forms.length - 1]
    : count === 1 ? singular : plural;
  return fill(text, { count, ...values });
}

/**
 * Words in a list as the page's language writes one: listWords(["a1", "b2", "c3"], "or") is
 * "a1, b2 or c3" ("and" for a list of all of them).
 */
export function listWords(items, joined) {
  return new Intl.ListFormat(LISTS, { type: joined === "or" ? "disjunction" : "conjunction" }).format(items);
}

/** Whole sentences, one after the other (empty ones left out): a line says each of its messages whole. */
export function sentences(...parts) {
  return parts.filter(Boolean).join(" ");
}

/** A sentence as a clause inside another: without the full stop that ends it, if any. */
export function clause(words) {
  return words.trim().replace(/[.!?…]+$/, "");
}

/** A number as the page's language writes it: 1,234 in English, 1 234 in French; `digits`: after the point. */
export function number(value, digits = null) {
  if (digits === null) return NUMBERS.format(value);
  return new Intl.NumberFormat(CATALOG.numbers ?? "en", { minimumFractionDigits: digits, maximumFractionDigits: digits })
    .format(value);
}

function fill(text, values) {
  return text.replace(/\{([A-Za-z_]\w*)\}/g, (whole, name) => {
    if (!(name in values)) return whole;
    const value = values[name];
    return typeof value === "number" ? number(value) : String(value);
  });
}
