// The colour theme: "auto" follows prefers-color-scheme; "light" and "dark" override it.

import { SETS } from "./server-sets.js";

export const THEMES = SETS.themes;
export const DEFAULT_THEME = SETS.defaultTheme;

/** Apply a theme to the document (sets data-theme on <html>; "auto" leaves it to the CSS media query). */
export function applyTheme(theme) {
  const root = document.documentElement;
  if (theme === "light" || theme === "dark") root.dataset.theme = theme;
  else delete root.dataset.theme;
}

/** The theme after `theme` in the cycle auto -> light -> dark -> auto. */
export function nextTheme(theme) {
  return THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length];
}
