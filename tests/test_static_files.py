"""Static files (web/pages/static_files.py): CSS and JavaScript revalidated on every load, so
that no page runs a new module beside an old one; unchanged files answered 304;
images kept for STATIC_MAX_AGE.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.first_load import first_load_paths
from web.assembly import create_app

STATIC = Path(__file__).resolve().parent.parent / "static"
ASKS = {"Accept-Encoding": "gzip, deflate, br, zstd"}


@pytest.fixture
def site(tmp_path):
    """The app serving a copy of static/ that a test may edit (each test its own copy and app)."""
    app = create_app({"CACHE_DIR": str(tmp_path / "cache"), "STATIC_MAX_AGE": "120"})
    shutil.copytree(STATIC, tmp_path / "static")
    app.static_folder = str(tmp_path / "static")
    return app


@pytest.mark.parametrize("page", ["/", "/embed?size=4x4", "/lab"])
def test_every_script_and_stylesheet_a_page_loads_is_revalidated_and_an_unchanged_one_is_a_304(site, page):
    client = site.test_client()
    paths = [path for path in first_load_paths(lambda path: client.get(path).data, page) if path != page]
    assert any(path.endswith(".js") for path in paths) and any(path.endswith(".css") for path in paths)
    for path in paths:
        for headers in ({}, ASKS):
            first = client.get(path, headers=headers)
            expected = "public, max-age=120" if path.endswith(".svg") else "no-cache"
            assert first.headers["Cache-Control"] == expected, path
            again = client.get(path, headers={**headers, "If-None-Match": first.headers["ETag"]})
            assert again.status_code == 304 and again.data == b"", path
            assert again.headers["ETag"] == first.headers["ETag"], path


def test_after_a_file_changes_the_next_load_gets_the_new_bytes(site):
    client = site.test_client()
    path = Path(site.static_folder) / "js" / "api.js"
    first = client.get("/static/js/api.js")
    stat = path.stat()
    # The same size and modification time: what a reproducible build leaves after a one-letter edit.
    text = path.read_bytes()
    index = text.index(b"fetch")
    path.write_bytes(text[:index] + b"Fetch" + text[index + 5 :])
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert path.stat().st_size == stat.st_size
    again = client.get("/static/js/api.js", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 200
    assert again.data == path.read_bytes() != first.data
    assert again.headers["ETag"] != first.headers["ETag"]
    assert again.headers["Cache-Control"] == "no-cache"


def test_a_gzipped_copy_and_the_plain_one_share_their_weak_etag(site):
    client = site.test_client()
    plain = client.get("/static/js/game.js")
    gzipped = client.get("/static/js/game.js", headers=ASKS)
    assert gzipped.headers["Content-Encoding"] == "gzip"
    assert plain.headers["ETag"] == gzipped.headers["ETag"] and plain.headers["ETag"].startswith('W/"')


@pytest.mark.parametrize(
    "path", ["/static/js/nope.js", "/static/../app.py", "/static/js", "/static/%2e%2e/app.py"]
)
def test_what_is_not_a_static_file_is_a_404(site, path):
    client = site.test_client()
    assert client.get(path).status_code == 404
