// The server's closed sets for modules run under node, where no page carries them: asked of the
// Python that declares them (`python -m web.pages.closed_sets`, web/pages/closed_sets.py), so the
// tests hold no copy.  Import it before any module of static/js: ES modules run in import order,
// and static/js/server-sets.js reads globalThis.serverSets when there is no document.

import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const venvPython = `${root}.venv/bin/python`;
const python = existsSync(venvPython) ? venvPython : "python3";

/** The sets as the pages' JSON block carries them. */
export const SERVER_SETS = JSON.parse(
  execFileSync(python, ["-m", "web.pages.closed_sets"], { cwd: root, encoding: "utf-8" }),
);
globalThis.serverSets = SERVER_SETS;
