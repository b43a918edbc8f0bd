"""nbval runs the notebooks against a throwaway embedded service, never the user's own.

``pytest --nbval ... notebooks`` loads this file before any kernel starts: the kernels
inherit ``CHATSPACE_DATA_DIR`` pointing at a temporary directory (and no other
``CHATSPACE_*``, ``OPENAI_*`` or ``OLLAMA_*`` setting, so that the notebooks run with nothing
configured, as a new user would, and no model server of the machine is discovered). The
embedded service the first kernel starts there is stopped at the end.

With ``CHATSPACE_NBVAL_BASE_URL`` and ``CHATSPACE_NBVAL_TOKEN`` set, the kernels get them as
``CHATSPACE_BASE_URL`` and ``CHATSPACE_TOKEN`` instead: the notebooks then run against a
team deployment, as docs/deploy.md has a team run them (``tests/service/test_replicas.py``).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from chatspace.local.launcher import stop_service

_SAVED = "_chatspace_saved_environ"


def pytest_configure(config: pytest.Config) -> None:
    home = Path(tempfile.mkdtemp(prefix="chatspace-nbval-"))
    setattr(config, _SAVED, (dict(os.environ), home))
    deployment = {
        name: os.environ[f"CHATSPACE_NBVAL_{name}"]
        for name in ("BASE_URL", "TOKEN")
        if f"CHATSPACE_NBVAL_{name}" in os.environ
    }
    for name in [n for n in os.environ if n.startswith(("CHATSPACE_", "OPENAI_", "OLLAMA_"))]:
        del os.environ[name]
    os.environ.update({f"CHATSPACE_{name}": value for name, value in deployment.items()})
    os.environ.update(
        CHATSPACE_DATA_DIR=str(home / "data"),
        CHATSPACE_AUTODETECT="0",  # the outputs never depend on a model server of the machine
        IPYTHONDIR=str(home / "ipython"),
        MPLCONFIGDIR=str(home / "matplotlib"),
        MPLBACKEND="module://matplotlib_inline.backend_inline",
    )


def pytest_unconfigure(config: pytest.Config) -> None:
    saved = getattr(config, _SAVED, None)
    if saved is None:
        return
    environ, home = saved
    stop_service(home / "data")
    os.environ.clear()
    os.environ.update(environ)
    shutil.rmtree(home, ignore_errors=True)
