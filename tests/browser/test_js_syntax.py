"""Every module in static/js parses as an ES module; no browser needed.

``node --check file.js`` is not enough: on a file with import/export, Node 20
detects module syntax and exits 0 without reporting errors in it.  The source
is therefore fed on stdin with ``--input-type=module``, and the check is first
shown to fail on a broken module.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.servers import ROOT

SCRIPTS = sorted((ROOT / "static" / "js").glob("*.js"))


def node_check(source: str) -> subprocess.CompletedProcess:
    """Run ``node --check`` on ES-module source text."""
    node = shutil.which("node")
    assert node is not None, "node is not installed"
    return subprocess.run(
        [node, "--input-type=module", "--check"], input=source, capture_output=True, text=True, timeout=60
    )


def test_there_are_scripts():
    assert SCRIPTS, "static/js has no scripts"


def test_the_check_catches_a_broken_module():
    assert node_check("import { a } from './a.js';\nexport const b = ;\n").returncode != 0


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_node_check(script):
    result = node_check(script.read_text(encoding="utf-8"))
    assert result.returncode == 0, f"{script.name}: {result.stderr}"
