"""The README and docs/*.md name only what exists: scripts, modules, and the headings their links point to."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

# A path in the repository, as docs write it: `bench/match.py`, `scripts/check.sh`, `web/api/routes.py`.
# Not preceded by a path character, so that /tmp/x/tictactoe/... or static/js/... are not taken for one.
NAMED_PATH = re.compile(r"(?<![\w/.-])((?:bench|scripts|tests|tictactoe|web)/[\w/.-]*?\.(?:py|sh))\b")
# A module run with -m: `python -m tictactoe.tools.experiments`, `python -m bench.match`.
RUN_MODULE = re.compile(r"python3? -m ((?:tictactoe|bench)(?:\.\w+)*)")
# A Markdown link or image: [text](target); targets with a scheme are other sites.
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def missing_paths(text: str) -> list[str]:
    """The scripts, modules and `-m` modules a document names that are not in the repository."""
    missing = [name for name in NAMED_PATH.findall(text) if not (ROOT / name).is_file()]
    for module in RUN_MODULE.findall(text):
        base = ROOT / module.replace(".", "/")
        if not (base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()):
            missing.append(f"python -m {module}")
    return sorted(set(missing))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: markup gone, lowercase, punctuation but - and _ gone, spaces to -."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = text.replace("`", "").replace("*", "").lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every heading anchor of a Markdown document (headings inside code fences are not headings)."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    fenced = False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        match = None if fenced else HEADING.match(line)
        if match:
            base = slug(match.group(2))
            # GitHub numbers repeated headings: name, name-1, name-2...
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def broken_links(text: str, folder: Path) -> list[str]:
    """The relative links of a document (read from `folder`) whose file or heading does not exist."""
    broken = []
    for target in LINK.findall(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
            continue
        path_part, _, anchor = target.partition("#")
        if not path_part:  # a heading of this document
            if anchor not in anchors(text):
                broken.append(target)
            continue
        path = (folder / path_part).resolve()
        if not path.exists():
            broken.append(target)
            continue
        if anchor and path.suffix == ".md" and anchor not in anchors(path.read_text(encoding="utf-8")):
            broken.append(target)
    return sorted(set(broken))


@pytest.mark.parametrize("doc", DOCS, ids=lambda doc: doc.relative_to(ROOT).as_posix())
def test_every_script_and_module_a_doc_names_exists(doc):
    missing = missing_paths(doc.read_text(encoding="utf-8"))
    assert not missing, f"{doc.relative_to(ROOT)} names what is not in the repository: {missing}"


@pytest.mark.parametrize("doc", DOCS, ids=lambda doc: doc.relative_to(ROOT).as_posix())
def test_every_relative_link_points_to_a_file_and_heading(doc):
    broken = broken_links(doc.read_text(encoding="utf-8"), doc.parent)
    assert not broken, f"{doc.relative_to(ROOT)} links to what does not exist: {broken}"


def test_slugs_follow_githubs_rules():
    assert slug("In whole games (`bench/game_proofs.py`)") == "in-whole-games-benchgame_proofspy"
    assert slug("Memory: what a worker keeps, and the plan") == "memory-what-a-worker-keeps-and-the-plan"
    assert slug("GET /position: a [place](x.md) as **a** resource") == "get-position-a-place-as-a-resource"
    text = "# Top\n\n```sh\n# a comment, not a heading\n```\n\n## Twice\n\n## Twice\n"
    assert anchors(text) == {"top", "twice", "twice-1"}


def test_the_checks_find_a_missing_script_module_file_and_heading():
    # The tests above must be able to fail: a page naming what is not there is caught.
    page = (
        "Run `bench/no_such_script.py`, then `.venv/bin/python -m tictactoe.no_such_module`;\n"
        "see `bench/match.py` and [the speed floor](benchmarks.md#the-speed-floor-benchwrk_movepy),\n"
        "[gone](benchmarks.md#no-such-heading), [nowhere](nowhere.md) and [here](#nor-here).\n"
    )
    assert missing_paths(page) == ["bench/no_such_script.py", "python -m tictactoe.no_such_module"]
    assert broken_links(page, ROOT / "docs") == ["#nor-here", "benchmarks.md#no-such-heading", "nowhere.md"]


def test_a_line_that_lists_levels_lists_them_all_or_the_quick_ones():
    """A level is one entry (tictactoe/search/levels.py): a doc that lists levels lists every one,
    or those that search nothing, so that a new level cannot be left out of a list by hand."""
    from tictactoe import LEVELS, QUICK_LEVELS

    level = "`?(?:" + "|".join(LEVELS) + ")`?"
    # Two or more levels joined as a list is: "easy, medium or perfect", "`easy`/`medium`".
    listed = re.compile(rf"\b{level}(?:(?:, (?:or |and )?| or | and |/){level})+")
    wrong = []
    for doc in DOCS:
        for number, line in enumerate(doc.read_text().splitlines(), 1):
            for found in listed.findall(line):
                levels = set(re.findall("|".join(LEVELS), found))
                if levels not in (set(LEVELS), set(QUICK_LEVELS)):
                    wrong.append(f"{doc.name}:{number}: {found}")
    assert wrong == []
    assert listed.findall("`easy`, `medium` or `perfect`")
    assert not listed.findall('"easy", "level": "perfect"')


def test_the_benchmarks_hold_current_figures_in_at_most_600_lines():
    """History lives in git; docs/benchmarks.md keeps what is true now, each figure with its command."""
    assert len((ROOT / "docs" / "benchmarks.md").read_text().splitlines()) <= 600
