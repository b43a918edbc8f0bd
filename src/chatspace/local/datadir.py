"""Which data dir a command, a service or a launcher works in.

``--data-dir`` (or the ``directory`` argument), else ``CHATSPACE_DATA_DIR``, else the
platform's user data dir: the service, ``chatspace token``, ``chatspace models`` and the
embedded launcher agree on it, so a token minted by one is accepted by the other.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

__all__ = ["DATA_DIR_ENV", "data_dir"]

DATA_DIR_ENV = "CHATSPACE_DATA_DIR"


def data_dir(path: str | os.PathLike[str] | None = None) -> Path:
    """The data dir: ``path``, else ``CHATSPACE_DATA_DIR``, else the platform's user data dir."""
    chosen = path or os.environ.get(DATA_DIR_ENV) or platformdirs.user_data_dir("chatspace")
    return Path(chosen).expanduser()
