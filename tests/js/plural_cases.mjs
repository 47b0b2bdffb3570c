// The plural rule of every shipped catalog, with the form gettext itself (Python's gettext.c2py)
// gives each count: asked of the Python, so the tests hold no copy of any rule.

import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const venvPython = `${root}.venv/bin/python`;
const python = existsSync(venvPython) ? venvPython : "python3";

const SCRIPT = `
import gettext, json
from web.words.catalogs import catalog_folder, read_catalog
from web.words.languages import LANGUAGES, SOURCE
rules = {read_catalog(catalog_folder(l) / "messages.po").plural_expr for l in LANGUAGES if l is not SOURCE and not l.pseudo}
rules.add("(n == 0 ? 0 : n == 1 ? 1 : n == 2 ? 2 : n % 100 >= 3 && n % 100 <= 10 ? 3 : n % 100 >= 11 ? 4 : 5)")
counts = [*range(0, 120), 1000000, 2000000, 1000001]
print(json.dumps([{"rule": r, "forms": [[n, gettext.c2py(r)(n)] for n in counts]} for r in sorted(rules)]))
`;

/** [{rule, forms: [[count, index], ...]}] */
export const PLURAL_CASES = JSON.parse(execFileSync(python, ["-c", SCRIPT], { cwd: root, encoding: "utf-8" }));
