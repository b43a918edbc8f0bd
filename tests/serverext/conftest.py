"""A real Jupyter server with the chatspace extension, from pytest_jupyter's fixtures.

The fixtures (``jp_serverapp``, ``jp_fetch``, ...) and the hooks that run async tests
on the server's loop come from ``pytest_jupyter.jupyter_server``; importing them here
scopes them to this directory (``pytest_plugins`` is only allowed in the root conftest).
Authentication stays on, as in the extension template: requests without the Jupyter
token are refused.
"""

from __future__ import annotations

from typing import Any

import pytest
from pytest_jupyter.jupyter_server import *  # noqa: F403

from chatspace.serverext import BASE_URL_ENV
from support.service import Service


@pytest.fixture
def service_env(service: Service, org: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The server's environment names the test service and alice's token of a fresh org.

    ``BASE_URL_ENV`` is saved here so that the value the extension exports is taken
    back after the test.
    """
    env = {"CHATSPACE_BASE_URL": service.url, "CHATSPACE_TOKEN": service.token("alice", org)}
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv(BASE_URL_ENV, "unset")
    return env


@pytest.fixture
def jp_server_config(service_env: dict[str, str]) -> dict[str, Any]:
    return {
        "ServerApp": {
            # the extension is enabled by its package name, as the shipped JSON does
            "jpserver_extensions": {"chatspace": True},
            "allow_unauthenticated_access": False,
        }
    }
