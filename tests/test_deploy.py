"""The one-push deploy files (app.json, render.yaml) against what the app actually reads."""

from __future__ import annotations

import importlib.metadata
import json
import re
import secrets
import subprocess
import sys

import pytest
import yaml

from tests.servers import ROOT
from web.assembly import create_app
from web.config import load_settings
from web.telemetry.logs import log_format, log_level

# Every place that reads an environment variable: the settings, the gunicorn
# configuration and the log setup.  The names are read off their source, so a
# setting added or renamed there is seen here.
READERS = ("web/config.py", "web/environment.py", "gunicorn.conf.py", "web/telemetry/logs.py")
_READ = re.compile(r"""(?:\.get\(|(?:number|int_between)\(source,\s*)\s*['"]([A-Z][A-Z0-9_]+)['"]""")
# Read by gunicorn.conf.py (not by the app's settings): each with its check.
GUNICORN_INTEGERS = ("WEB_CONCURRENCY", "GUNICORN_THREADS", "GUNICORN_TIMEOUT")
# Set by the platform itself: a deploy file must not set it.
PLATFORM_SET = ("PORT",)


def variables_read() -> set[str]:
    return {name for path in READERS for name in _READ.findall((ROOT / path).read_text())}


def heroku_env() -> dict[str, str]:
    """app.json's variables with the values Heroku would give them (a secret generated)."""
    env = json.loads((ROOT / "app.json").read_text())["env"]
    return {name: spec["value"] if "value" in spec else secrets.token_hex(32) for name, spec in env.items()}


def render_env() -> dict[str, str]:
    """render.yaml's variables, a generated value standing in for ``generateValue``."""
    service = web_service()
    return {
        item["key"]: str(item["value"]) if "value" in item else secrets.token_urlsafe(32)
        for item in service["envVars"]
    }


def web_service() -> dict:
    blueprint = yaml.safe_load((ROOT / "render.yaml").read_text())
    return next(s for s in blueprint["services"] if s["type"] == "web")


def test_the_variables_read_are_found():
    assert {
        "REDIS_URL",
        "SEARCH_BUDGET",
        "PORT",
        "WEB_CONCURRENCY",
        "LOG_FORMAT",
        "TRUSTED_PROXIES",
    } <= variables_read()


@pytest.mark.parametrize("deploy_env", [heroku_env, render_env], ids=["app.json", "render.yaml"])
def test_every_variable_a_deploy_file_sets_is_read_by_the_app_with_a_valid_value(deploy_env):
    env = deploy_env()
    assert env, "no variables"
    unknown = set(env) - variables_read()
    assert not unknown, f"the app never reads {sorted(unknown)}"
    assert not set(env) & set(PLATFORM_SET)
    load_settings(env=env)  # raises ConfigError naming a bad value
    log_format(env), log_level(env)  # raise ValueError for a bad one
    for name in GUNICORN_INTEGERS:
        if name in env:
            assert int(env[name]) >= 1, name
    assert len(env["CACHE_SECRET"]) >= 16  # generated, never a fixed value in the file


def test_app_json_formation_and_no_required_add_on():
    manifest = json.loads((ROOT / "app.json").read_text())
    assert manifest["formation"]["web"]["quantity"] == 1  # one dyno needs no Redis
    assert manifest["addons"] == []  # Redis is optional: docs/deploy.md says when to add it
    assert manifest["env"]["CACHE_SECRET"] == {**manifest["env"]["CACHE_SECRET"], "generator": "secret"}
    client = create_app({"CACHE_TYPE": "null"}).test_client()
    assert client.get(manifest["success_url"]).status_code == 200


def test_render_blueprint_runs_the_procfile_command_and_checks_a_real_health_path():
    service = web_service()
    procfile = (ROOT / "Procfile").read_text().strip()
    assert procfile == f"web: {service['startCommand']}"
    assert service["buildCommand"] == "pip install -r requirements.txt"
    health = create_app({"CACHE_TYPE": "null"}).test_client().get(service["healthCheckPath"])
    assert health.status_code == 200 and health.get_json()["status"] == "ok"


# What a Python process holds before it imports anything of ours (site's .pth hooks included).
LOADED_AT_START = "import json, sys; print(json.dumps(sorted({name.split('.')[0] for name in sys.modules})))"


def top_level_modules(code: str) -> set[str]:
    """The top-level modules a fresh interpreter holds after running ``code``, from the project's root."""
    command = [sys.executable, "-c", f"{code}\n{LOADED_AT_START}"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_the_runtime_lock_holds_every_package_the_served_app_imports():
    # What the README's run command and the Procfile's serve: the app, under gunicorn's gevent
    # worker (gunicorn.conf.py), installed from requirements.txt alone.  A package that only a
    # dev dependency pulls in would pass every other test and fail a fresh deploy.
    served = top_level_modules("import app, gunicorn.workers.ggevent") - top_level_modules("")
    distributions = importlib.metadata.packages_distributions()
    needed = {canonical(name) for module in served for name in distributions.get(module, [])}
    lock = (ROOT / "requirements.txt").read_text()
    locked = {canonical(name) for name in re.findall(r"^([A-Za-z0-9_.-]+)==", lock, re.MULTILINE)}
    assert needed and needed <= locked, sorted(needed - locked)


def canonical(name: str) -> str:
    """A distribution's name as pip compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()
