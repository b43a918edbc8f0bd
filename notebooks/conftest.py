"""nbval runs the notebooks against a throwaway embedded service, never the user's own.

``pytest --nbval ... notebooks`` loads this file before any kernel starts: the kernels
inherit ``CHATSPACE_DATA_DIR`` pointing at a temporary directory (and no other
``CHATSPACE_*`` setting, so that the notebooks run with nothing configured, as a new user
would). The embedded service the first kernel starts there is stopped at the end.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import tempfile
from pathlib import Path

import pytest

_SAVED = "_chatspace_saved_environ"


def pytest_configure(config: pytest.Config) -> None:
    home = Path(tempfile.mkdtemp(prefix="chatspace-nbval-"))
    setattr(config, _SAVED, (dict(os.environ), home))
    for name in [n for n in os.environ if n.startswith("CHATSPACE_")]:
        del os.environ[name]
    os.environ.update(
        CHATSPACE_DATA_DIR=str(home / "data"),
        IPYTHONDIR=str(home / "ipython"),
        MPLCONFIGDIR=str(home / "matplotlib"),
        MPLBACKEND="module://matplotlib_inline.backend_inline",
    )


def pytest_unconfigure(config: pytest.Config) -> None:
    saved = getattr(config, _SAVED, None)
    if saved is None:
        return
    environ, home = saved
    _stop_service(home / "data")
    os.environ.clear()
    os.environ.update(environ)
    shutil.rmtree(home, ignore_errors=True)


def _stop_service(data_dir: Path, timeout: float = 20.0) -> None:
    """Stop the embedded service the notebooks started (it outlives its kernel on purpose)."""
    try:
        pid = int(json.loads((data_dir / "service.json").read_text())["pid"])
    except (OSError, ValueError, KeyError, TypeError):
        return
    try:
        handle = os.pidfd_open(pid)  # an event to wait on; the service is not our child
    except ProcessLookupError:
        return
    try:
        os.kill(pid, signal.SIGTERM)
        if not select.select([handle], [], [], timeout)[0]:
            os.kill(pid, signal.SIGKILL)
            select.select([handle], [], [], timeout)
    except ProcessLookupError:
        pass
    finally:
        os.close(handle)
