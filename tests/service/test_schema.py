"""The OpenAPI document states what the service enforces: schemathesis, every check, over
every operation of the real service (stateful sequences included), finds nothing.

``schemathesis.toml`` names the two answers the contract makes depend on stored data;
``schema_hooks.py`` generates values for the document's ``json-object`` format. Two checks
are left out, each for a false alarm: ``negative_data_rejection`` mutates one branch of
the ``anyOf`` rules a message's role sets and calls the request invalid while another
branch admits it (jsonschema validates it: the service rightly accepts it), and
``ensure_resource_availability`` reads the contract's 404 for ``PUT`` of a user who is not
a member of a workspace just created as the workspace being lost.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from support.service import Service, new_org

HERE = Path(__file__).parent


@pytest.mark.slow
def test_schemathesis_finds_nothing(service: Service, tmp_path: Path) -> None:
    token = service.token("alice", new_org())
    command = [
        *(sys.executable, "-m", "schemathesis.cli", "--no-color"),
        *("--config-file", str(HERE / "schemathesis.toml")),
        *("run", service.url + "/openapi.json", "--checks", "all"),
        *("--exclude-checks", "negative_data_rejection,ensure_resource_availability"),
        *("--header", f"Authorization: Bearer {token}"),
        # One worker: hypothesis's lambda descriptions are not thread-safe on Python 3.11.7.
        *("--max-examples", "30", "--workers", "1", "--seed", "7"),
    ]
    env = dict(os.environ, SCHEMATHESIS_HOOKS="schema_hooks", PYTHONPATH=str(HERE))
    # In a temporary folder: schemathesis keeps its cache and replays in the one it runs in.
    run = subprocess.run(
        command, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=240
    )
    assert run.returncode == 0, run.stdout[-20000:] + run.stderr[-5000:]
