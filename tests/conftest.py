"""Fixtures shared by every test: an isolated environment and the real reference service."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from support.service import Service, new_org, start_service


@pytest.fixture(scope="session", autouse=True)
def isolated_environment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """No test reads or writes the user's home: data, Jupyter and IPython dirs are temporary."""
    home = tmp_path_factory.mktemp("home")
    saved = dict(os.environ)
    for name in list(os.environ):
        if name.startswith(("CHATSPACE_", "OPENAI_", "OLLAMA_")):
            del os.environ[name]
    os.environ.update(
        CHATSPACE_DATA_DIR=str(home / "chatspace-data"),
        XDG_DATA_HOME=str(home / "xdg-data"),
        XDG_CONFIG_HOME=str(home / "xdg-config"),
        XDG_CACHE_HOME=str(home / "xdg-cache"),
        JUPYTER_CONFIG_DIR=str(home / "jupyter-config"),
        JUPYTER_DATA_DIR=str(home / "jupyter-data"),
        JUPYTER_RUNTIME_DIR=str(home / "jupyter-runtime"),
        JUPYTER_PLATFORM_DIRS="1",
        IPYTHONDIR=str(home / "ipython"),
        MPLBACKEND="Agg",
        # No service of the tests serves a model server the machine happens to run
        # (a local Ollama); the discovery tests turn it on for their own services.
        CHATSPACE_AUTODETECT="0",
    )
    yield home
    os.environ.clear()
    os.environ.update(saved)


@pytest.fixture(scope="session")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    """One reference service for the session; tests keep apart through their own org."""
    svc = start_service(tmp_path_factory.mktemp("service-data"))
    yield svc
    svc.stop()


@pytest.fixture
def org() -> str:
    return new_org()
