"""Settings from the environment: defaults, derived values, and bad values refused at startup."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest

from tests.servers import TEST_SECRET
from tictactoe import DEFAULT_BUDGET
from web.assembly import create_app
from web.cache.backends import UnsafeCacheDir, prepare_cache_dir
from web.config import ConfigError, load_settings


def test_defaults():
    settings = load_settings(env={})
    assert settings.backend == "filesystem" and settings.redis_url is None
    assert settings.cache_dir.parent == Path(tempfile.gettempdir())
    assert settings.cache_dir_is_default
    assert settings.search_budget == DEFAULT_BUDGET and settings.single_flight_wait == DEFAULT_BUDGET + 1
    assert settings.max_concurrent_searches == 2
    assert settings.frame_ancestors == "*"


def test_redis_url_selects_redis_unless_cache_type_says_otherwise():
    url = "redis://127.0.0.1:6390/0"
    assert load_settings(env={"REDIS_URL": url, "CACHE_SECRET": TEST_SECRET}).backend == "redis"
    explicit = load_settings(env={"REDIS_URL": url, "CACHE_TYPE": "filesystem"})
    assert explicit.backend == "filesystem" and explicit.redis_url is None
    assert load_settings(env={"CACHE_TYPE": "NULL"}).backend == "null"


def test_empty_variables_count_as_unset():
    assert load_settings(env={"REDIS_URL": "", "SEARCH_BUDGET": ""}).backend == "filesystem"


def test_overrides_win_over_the_environment():
    settings = load_settings(env={"SEARCH_BUDGET": "0.5"}, overrides={"SEARCH_BUDGET": 1.5})
    assert settings.search_budget == 1.5 and settings.single_flight_wait == 2.5


@pytest.mark.parametrize(
    "env,message",
    [
        ({"CACHE_TYPE": "memcached"}, "CACHE_TYPE must be one of filesystem, redis, null"),
        ({"CACHE_TYPE": "redis"}, "CACHE_TYPE=redis needs REDIS_URL"),
        ({"REDIS_URL": "http://localhost"}, "REDIS_URL must start with redis://"),
        ({"SEARCH_BUDGET": "3"}, "SEARCH_BUDGET must be more than 0 and at most 2.0"),
        ({"SEARCH_BUDGET": "0"}, "SEARCH_BUDGET must be more than 0"),
        ({"SEARCH_BUDGET": "nan"}, "SEARCH_BUDGET must be a number"),
        ({"SEARCH_BUDGET": "fast"}, "SEARCH_BUDGET must be a number, not 'fast'"),
        ({"MAX_CONCURRENT_SEARCHES": "0"}, "MAX_CONCURRENT_SEARCHES must be between 1 and 64"),
        ({"MAX_CONCURRENT_SEARCHES": "2.5"}, "MAX_CONCURRENT_SEARCHES must be an integer"),
        ({"SINGLE_FLIGHT_WAIT": "-1"}, "SINGLE_FLIGHT_WAIT must be between 0 and 10"),
        ({"SINGLE_FLIGHT_WAIT": "11"}, "SINGLE_FLIGHT_WAIT must be between 0 and 10"),
        ({"SOLVER_TABLE_LIMIT": "10"}, "SOLVER_TABLE_LIMIT must be between 1000"),
        ({"REDIS_TIMEOUT": "0"}, "REDIS_TIMEOUT must be more than 0"),
        ({"STATIC_MAX_AGE": "-5"}, "STATIC_MAX_AGE must be between 0"),
        ({"CACHE_KEY_PREFIX": "a b"}, "CACHE_KEY_PREFIX may hold"),
        ({"FRAME_ANCESTORS": "https://a.example; script-src *"}, "is not a CSP source"),
        ({"FRAME_ANCESTORS": "https://a.example,https://b.example"}, "is not a CSP source"),
        ({"FRAME_ANCESTORS": "'unsafe-inline'"}, "is not a CSP source"),
        ({"FRAME_ANCESTORS": "   "}, "FRAME_ANCESTORS must name at least one source"),
    ],
)
def test_bad_values_stop_the_app_naming_the_variable(env, message):
    with pytest.raises(
        ConfigError, match=message.replace("(", r"\(").replace(".", r"\.").replace("*", r"\*")
    ):
        load_settings(env=env)


def test_create_app_refuses_a_bad_setting():
    with pytest.raises(ConfigError):
        create_app({"SEARCH_BUDGET": "10"})


def test_the_default_cache_dir_must_be_private(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    with pytest.raises(UnsafeCacheDir):
        prepare_cache_dir(shared, is_default=True)
    folders = prepare_cache_dir(tmp_path / "private", is_default=True)
    assert folders["solved"].is_dir() and folders["locks"].is_dir()
    assert (tmp_path / "private").stat().st_mode & 0o777 == 0o700


# -- the README's settings table is web/config.py's ---------------------------------------------


def names_read(*modules: str) -> set[str]:
    """The environment variables the modules read: every string literal that is a whole name."""
    root = Path(__file__).resolve().parent.parent
    return {
        name
        for module in modules
        for name in re.findall(r"[\"']([A-Z][A-Z0-9_]{2,})[\"']", (root / module).read_text())
    }


APP_SIDE = ("web/config.py", "web/environment.py")
GUNICORN_SIDE = (
    "gunicorn.conf.py",
    "web/server.py",
    "web/telemetry/logs.py",
    "web/telemetry/metrics_folder.py",
)


def readme_settings() -> dict[str, str]:
    """The README's Configuration table: each variable and its Default cell (a row naming several
    variables is read by gunicorn.conf.py)."""
    text = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    table = text.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in table.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) >= 3 and cells[0].startswith("`"):
            for name in re.findall(r"`([A-Z_]+)`", cells[0]):
                rows[name] = cells[1]
    return rows


def test_every_setting_the_app_reads_is_in_the_readmes_table_with_its_default():
    read = names_read(*APP_SIDE)
    settings = load_settings(env={})
    table = readme_settings()
    # SEARCH_RATE_LIMIT is read only to say it is gone (the table says so in SEARCH_SECONDS_PER_MINUTE's row).
    assert read - {"SEARCH_RATE_LIMIT"} <= set(table)
    fields = {"CACHE_TYPE": "backend", "GUNICORN_CONNECTIONS": None}
    checked = 0
    for name in sorted(read & set(table)):
        literal = re.fullmatch(r"`([^`]*)`", table[name])
        field = fields.get(name, name.lower())
        if literal is None or field is None or "<" in literal.group(1):
            continue  # a default in words ("unset", "SEARCH_BUDGET + 1", "<temp dir>/..."): said, not a value
        value = getattr(settings, field)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if not re.fullmatch(r"[0-9.]+", literal.group(1)):
                continue  # "SEARCH_BUDGET + 1": a default that follows from another
            assert float(literal.group(1)) == value, name
        else:
            assert literal.group(1) == str(value), name
        checked += 1
    assert checked >= 15
    assert table["SEARCH_BUDGET"] == f"`{DEFAULT_BUDGET}`"  # the engine's default, the web's


def test_the_webs_default_search_budget_is_the_engines():
    assert load_settings(env={}).search_budget == DEFAULT_BUDGET


def test_every_variable_in_the_table_is_read_by_the_app_or_gunicorn():
    read = names_read(*APP_SIDE, *GUNICORN_SIDE)
    assert {"SEARCH_BUDGET", "ROOM_STREAM_SECONDS", "GUNICORN_CONNECTIONS", "LOG_FORMAT"} <= read
    assert [name for name in readme_settings() if name not in read] == []
