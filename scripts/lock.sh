#!/usr/bin/env bash
# Regenerate the locks from pyproject.toml with pip-tools (pinned in requirements-dev.txt):
#   requirements.txt      <- [project] dependencies               (runtime: what the PaaS installs)
#   requirements-dev.txt  <- the same plus [project.optional-dependencies] dev, at the runtime lock's versions
# Every package is pinned with its hashes.  Existing pins are kept unless a changed requirement
# needs another: to move one package, raise its lower bound in pyproject.toml and run this again.
# `bash scripts/lock.sh --upgrade` moves every package to its newest allowed version.
# (Not --upgrade-package: pip-compile then writes that package into requirements.txt too.)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -gt 1 ] || { [ $# -eq 1 ] && [ "$1" != "--upgrade" ]; }; then
    echo "usage: bash scripts/lock.sh [--upgrade]" >&2
    exit 2
fi

# The header of each lock names this script as the command that made it.
export CUSTOM_COMPILE_COMMAND="bash scripts/lock.sh"
compile=(.venv/bin/pip-compile --quiet --generate-hashes --allow-unsafe --strip-extras
         --no-emit-index-url --no-emit-find-links "$@")
# pip's "Location ... is ignored" lines about a local mirror are noise.
"${compile[@]}" --output-file=requirements.txt pyproject.toml 2>&1 | { grep -v 'is ignored' || true; }
"${compile[@]}" --extra=dev --constraint=requirements.txt --output-file=requirements-dev.txt \
    pyproject.toml 2>&1 | { grep -v 'is ignored' || true; }
