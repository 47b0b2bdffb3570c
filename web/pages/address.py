"""How the pages' addresses spell their settings: a board's size (``3x3``) and a small whole number
(``k=4``), as /embed's query and a game's link (static/js/links.js) both write them.

ASCII digits only, matched whole: ``\\d`` would take other scripts' digits, and ``$`` a trailing
newline (``k=4%0A``).
"""

from __future__ import annotations

import re

SIZE = re.compile(r"([0-9]{1,2})x([0-9]{1,2})", re.ASCII)
SMALL_INT = re.compile(r"[0-9]{1,2}", re.ASCII)
