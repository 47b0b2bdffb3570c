"""docs/architecture.md stays true: it names every module, and the engine imports nothing above it."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ARCHITECTURE = ROOT / "docs" / "architecture.md"
PACKAGES = ("tictactoe", "web")
# A module is named in a table's first column as `tictactoe/game/board.py`.
NAMED = re.compile(r"^\| `((?:tictactoe|web)/[\w/]+\.py|app\.py)` \|", re.MULTILINE)


def modules_on_disk() -> set[str]:
    """Every .py file of the engine and web packages, as a path from the repository root, and app.py."""
    found = {
        path.relative_to(ROOT).as_posix() for package in PACKAGES for path in (ROOT / package).rglob("*.py")
    }
    return found | {"app.py"}


def modules_named() -> list[str]:
    """The modules docs/architecture.md gives a line to, in its order."""
    return NAMED.findall(ARCHITECTURE.read_text(encoding="utf-8"))


def test_every_module_on_disk_has_its_line():
    missing = sorted(modules_on_disk() - set(modules_named()))
    assert not missing, f"docs/architecture.md says nothing of {missing}"


def test_every_module_named_exists_and_is_named_once():
    named = modules_named()
    assert len(named) == len(set(named)), "a module has two lines in docs/architecture.md"
    gone = sorted(set(named) - modules_on_disk())
    assert not gone, f"docs/architecture.md names modules that are not on disk: {gone}"


def imported_roots(path: Path) -> set[str]:
    """The top-level names of the absolute imports in a module (relative ones stay inside its package)."""
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize(
    "path", sorted((ROOT / "tictactoe").rglob("*.py")), ids=lambda path: path.relative_to(ROOT).as_posix()
)
def test_the_engine_imports_only_the_standard_library_and_itself(path):
    # The bottom layer: no Flask, nothing from web/, no third-party package.
    foreign = imported_roots(path) - set(sys.stdlib_module_names) - {"tictactoe"}
    assert not foreign, f"{path.relative_to(ROOT)} imports {sorted(foreign)}"


def imported_modules(path: Path) -> set[str]:
    """The modules a file imports by absolute name (``from a.b import c`` counts ``a.b``)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return found


@pytest.mark.parametrize(
    ("path", "allowed"),
    [
        # The app is web's to assemble (under the contracts in pyproject.toml): app.py names it only.
        ("app.py", {"web.assembly"}),
        # gunicorn's settings take what they hand gunicorn from web.server, which loads no app.
        ("gunicorn.conf.py", {"web"}),
    ],
)
def test_the_top_level_files_reach_the_code_through_one_module_of_web(path, allowed):
    foreign = imported_modules(ROOT / path) - allowed - set(sys.stdlib_module_names)
    assert not foreign, f"{path} imports {sorted(foreign)}: only {sorted(allowed)} and the standard library"
    names = {
        alias.name
        for node in ast.walk(ast.parse((ROOT / path).read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.module == "web"
        for alias in node.names
    }
    assert names <= {"server"}, f"{path} takes {sorted(names)} from web: only web.server"


def test_the_check_finds_a_module_the_page_does_not_name(tmp_path, monkeypatch):
    # The test above must be able to fail: a page without web/api/routes.py's line misses it.
    page = tmp_path / "architecture.md"
    text = ARCHITECTURE.read_text(encoding="utf-8")
    page.write_text(
        re.sub(r"^\| `web/api/routes\.py` \|.*\n", "", text, flags=re.MULTILINE), encoding="utf-8"
    )
    monkeypatch.setattr(sys.modules[__name__], "ARCHITECTURE", page)
    assert "web/api/routes.py" in modules_on_disk() - set(modules_named())
