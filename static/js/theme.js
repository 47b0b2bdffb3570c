// The colour theme: "auto" follows prefers-color-scheme; "light" and "dark" override it.

import { SETS, themeLabel } from "./server-sets.js";
import { t } from "./words.js";

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

/**
 * The theme button: it shows the theme and cycles it (auto -> light -> dark), kept in `store` under
 * "theme" and applied at once; the stored theme (or the default) applies now.
 */
export function bindThemeButton(button, store) {
  let theme = THEMES.includes(store.get("theme")) ? store.get("theme") : DEFAULT_THEME;
  const show = () => {
    applyTheme(theme);
    button.textContent = t("Theme: {theme}", { theme: themeLabel(theme) });
  };
  button.addEventListener("click", () => {
    theme = nextTheme(theme);
    store.set("theme", theme);
    show();
  });
  show();
}
