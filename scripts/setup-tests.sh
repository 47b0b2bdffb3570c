#!/usr/bin/env bash
# Set up everything the whole test suite needs on a Debian machine:
# Debian's chromium (browser tests), redis-server (Redis tests) and nodejs (the
# page's JavaScript unit tests, and the syntax checks), then a
# virtualenv in .venv with the locked test and tooling requirements
# (requirements-dev.txt: every package pinned and hash-checked), and the catalogs of words
# compiled.  Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ]; then
        sudo=()
    elif command -v sudo >/dev/null 2>&1; then
        sudo=(sudo)
    else
        echo "setup-tests: need root or sudo to install: ${missing[*]}" >&2
        exit 1
    fi
    echo "setup-tests: installing ${missing[*]} from Debian" >&2
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 \
        install -y -qq "${missing[@]}" >/dev/null
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
# pip's "Location ... is ignored" lines about a local mirror are noise; pip's own exit
# status still decides (pipefail), so a failed install stops here.
if ! .venv/bin/pip install -q -r requirements-dev.txt 2>&1 | { grep -v 'is ignored' || true; }; then
    echo "setup-tests: pip install -r requirements-dev.txt failed" >&2
    exit 1
fi
.venv/bin/python -c "import flask, flask_babel, flask_caching, gunicorn, playwright, pytest, redis, hypothesis, schemathesis"
# The catalogs of words, compiled from translations/ (the app would compile them as it starts).
.venv/bin/python -m web.words.catalogs compile >/dev/null
.venv/bin/ruff --version >/dev/null && .venv/bin/mypy --version >/dev/null
