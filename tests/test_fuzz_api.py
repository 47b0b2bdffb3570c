"""Schemathesis against the app's own /openapi.json, in process, with every check.

Seeded, with no example database, and bounded: the examples and fuzzing phases
run with ``MAX_EXAMPLES`` cases per operation and generation mode (positive
and negative).  The coverage phase is off: on the request schema's anyOf of
91 board shapes it spends about 11 minutes generating boundary cases (see
docs/reliability.md, which also gives the CLI command that runs it).
"""

from __future__ import annotations

import json
import tempfile

import schemathesis
from schemathesis.checks import CHECKS, load_all_checks

from web.assembly import create_app

SEED = 1
MAX_EXAMPLES = 60
# The rooms' routes: their bodies are small and their ids unknown (404), so fewer cases say as much.
ROOM_EXAMPLES = 20
CONFIG = {
    "seed": SEED,
    # Generating from the request schema's anyOf of board shapes is slow on a loaded machine, and
    # Hypothesis would then stop the test: what is checked is every answer, not generation's speed.
    "suppress-health-check": ["too_slow"],
    "generation": {"database": "none", "max-examples": MAX_EXAMPLES},
    "phases": {"coverage": {"enabled": False}},
    "operations": [{"include-path-regex": "^/rooms", "generation": {"max-examples": ROOM_EXAMPLES}}],
}


# schemathesis needs the schema when the module is collected (its lazy
# ``from_fixture`` loader does not run under pytest 9), so the app is built
# here, on a cache folder that is removed when the test process exits.
_CACHE = tempfile.TemporaryDirectory(prefix="fuzz-cache-")
# A 10 ms budget: on the big boards every search and teaching engine stops there, and the
# checks (status, the answers' form) do not depend on how far a search got.  At 0.2 s the
# engines' searches took about a third of the module's time.
# Rooms as many as the fuzzing makes (the allowance of an address has its own test).
APP = create_app({"CACHE_DIR": _CACHE.name, "SEARCH_BUDGET": "0.01", "ROOMS_PER_MINUTE": "10000"})
schema = schemathesis.openapi.from_wsgi("/openapi.json", APP, config=schemathesis.Config.from_dict(CONFIG))


@schema.parametrize()
def test_every_operation_meets_its_schema_and_every_check(case):
    # Plain bodies: schemathesis asks for gzip the way requests does, but in process nothing
    # unzips the answer (compression has its own tests: tests/test_compression.py).
    response = case.call_and_validate(headers={"Accept-Encoding": "identity"})  # every check, all enabled
    assert response.status_code < 500, response.content
    if response.status_code >= 400:
        body = json.loads(response.content)
        # A refusal that passes (429, 503) says when to try again, in the body too.
        fields = {"error", "retry_after"} if response.status_code in (429, 503) else {"error"}
        assert set(body) <= fields and isinstance(body["error"], str) and body["error"]


def test_the_run_is_seeded_bounded_and_has_every_check_on():
    config = schema.config
    assert config.seed == SEED and config.has_explicit_seed
    generation = config.generation_for(operation=None)
    assert generation.database == "none" and generation.max_examples == MAX_EXAMPLES
    phases = config.phases_for(operation=None)
    assert phases.examples.enabled and phases.fuzzing.enabled and not phases.coverage.enabled
    load_all_checks()
    names = CHECKS.get_all_names()
    assert {
        "not_a_server_error",
        "positive_data_acceptance",
        "negative_data_rejection",
        "response_schema_conformance",
    } <= set(names)
    checks = config.checks_config_for(operation=None)
    assert [name for name in names if not checks.get_by_name(name=name).enabled] == []
