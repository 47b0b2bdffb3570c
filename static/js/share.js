// The "Share / embed" dialog: a link to the game, and the <iframe> snippet for /embed built from
// chosen settings, with a live preview and copy buttons.  The snippet's query uses only what
// /embed accepts (web/pages/routes.py: size, k, level, side, theme); the server checks it.

import { defaultK } from "./server-sets.js";
import { PRESETS } from "./settings.js";

/** The /embed query for builder choices {size, k ("" for the default), level, side, theme}, or a
 * room's ({room, theme}: the room's own game, watched or played by the seat in its fragment). */
export function embedQuery({ size, k, level, side, theme, room = null }) {
  if (room) return new URLSearchParams({ room, theme }).toString();
  const query = new URLSearchParams({ size });
  if (k) query.set("k", k);
  query.set("level", level);
  query.set("side", side);
  query.set("theme", theme);
  return query.toString();
}

/** The snippet to paste: an iframe of `origin`/embed with the choices and its width and height. */
export function embedSnippet(origin, choices) {
  const src = `${origin}/embed?${embedQuery(choices)}`.replaceAll("&", "&amp;");
  return `<iframe src="${src}" width="${choices.width}" height="${choices.height}" ` +
    `title="Tic-tac-toe" loading="lazy"></iframe>`;
}

/** The choices in the builder's form (elements named size, k, level, side, theme, width, height). */
export function readChoices(form) {
  const value = (name) => form.elements[name].value;
  const dimension = (name, fallback) => {
    const number = Math.round(Number(value(name)));
    return Number.isFinite(number) && number >= 200 && number <= 2000 ? number : fallback;
  };
  return {
    size: value("size"), k: value("k"), level: value("level"), side: value("side"), theme: value("theme"),
    width: dimension("width", 360), height: dimension("height", 420),
  };
}

/** Offer k from 3 to the longer side of the chosen size, keeping the choice when it still fits. */
export function fillK(form) {
  const preset = PRESETS.find((p) => p.id === form.elements.size.value) ?? PRESETS[0];
  const select = form.elements.k;
  const chosen = select.value;
  const longest = Math.max(preset.rows, preset.cols);
  // "default" is what /embed takes without k: the API's default for the size, not the preset's k.
  select.replaceChildren(new Option(`default (${defaultK(preset.rows, preset.cols)})`, ""),
    ...Array.from({ length: longest - 2 }, (_, i) => new Option(String(i + 3), String(i + 3))));
  select.value = [...select.options].some((option) => option.value === chosen) ? chosen : "";
}

/**
 * Show the preview iframe at `width` x `height`, scaled down to fit `room` px when it is wider
 * (a phone then sees the whole embed, not a box that scrolls sideways); no room yet means no scaling.
 */
function fitPreview(preview, { width, height }, room) {
  const scale = room > 0 ? Math.min(1, room / width) : 1;
  const wrap = preview.parentElement;
  wrap.classList.toggle("scaled", scale < 1);
  wrap.style.setProperty("--preview-scale", String(scale));
  wrap.style.setProperty("--preview-width", `${width}px`);
  wrap.style.setProperty("--preview-height", `${height}px`);
}

/**
 * Wire the dialog: `els` {dialog, open, form, link, code, preview, note}; `current()` gives
 * {settings, link}: the game's settings (to start from) and its link's query.
 */
export function bindShareDialog(els, current) {
  const origin = window.location.origin;
  let room = null; // the room on the page when the dialog opened: its embed is the room's
  const refresh = () => {
    const choices = { ...readChoices(els.form), room };
    els.code.value = embedSnippet(origin, choices);
    const src = `${origin}/embed?${embedQuery(choices)}`;
    if (els.preview.getAttribute("src") !== src) els.preview.src = src;
    els.preview.width = String(choices.width);
    els.preview.height = String(choices.height);
    fitPreview(els.preview, choices, els.form.clientWidth);
  };
  // The room changes when the dialog opens (it has none while closed) and when the screen turns.
  new ResizeObserver(() => fitPreview(els.preview, readChoices(els.form), els.form.clientWidth))
    .observe(els.form);
  els.open.addEventListener("click", () => {
    const { settings, link, room: shown = null } = current();
    room = shown;
    for (const name of ["size", "k", "level", "side"]) els.form.elements[name].disabled = Boolean(room);
    const size = PRESETS.find((p) => p.rows === settings.rows && p.cols === settings.cols);
    if (size) els.form.elements.size.value = size.id;
    if (settings.mode === "engine") {
      els.form.elements.level.value = settings.level;
      els.form.elements.side.value = settings.human;
    }
    fillK(els.form);
    els.link.value = `${origin}/${link}`;
    els.note.textContent = "";
    refresh();
    els.dialog.showModal();
  });
  els.form.addEventListener("change", (event) => {
    if (event.target.name === "size") fillK(els.form);
    refresh();
  });
  els.form.addEventListener("input", refresh);
  els.form.addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-copy]");
    if (button) els.note.textContent = await copyField(document.getElementById(button.dataset.copy));
  });
}

/** Copy a text field's value to the clipboard (selected first, to copy by hand): resolves to the words saying so. */
export async function copyField(field) {
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
    return "Copied.";
  } catch {
    return "Selected: press Ctrl+C (or ⌘C) to copy.";
  }
}
