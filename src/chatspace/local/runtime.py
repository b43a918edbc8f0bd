"""``<data dir>/service.json``: the one record of a running ``chatspace serve``.

The service writes it once it listens and removes it when it stops (if it is still its
own: a newer service may have taken it over); the launcher reads it to find the service,
and to tell whether that service saw the same model variables (:data:`CONNECTION_ENV`)
as the process asking. One schema, :class:`Runtime`, serves both sides::

    {"url": "http://127.0.0.1:43123", "pid": 4242, "version": "0.1.0", "env": "9f3c..."}

A file that does not match it (half-written, of another program) reads as no service.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import os
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

__all__ = [
    "CONNECTION_ENV",
    "RUNTIME_FILE",
    "Runtime",
    "env_fingerprint",
    "process_alive",
    "remove_runtime",
    "runtime_path",
]

RUNTIME_FILE = "service.json"
CONNECTION_ENV = (
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "OLLAMA_HOST",
    "CHATSPACE_AUTODETECT",
    "CHATSPACE_UPSTREAMS",
)
"""The variables whose values decide which models a service serves."""


class Runtime(BaseModel):
    """What a running service tells the processes of its machine about itself."""

    model_config = ConfigDict(frozen=True)

    url: str
    """Where it listens (``--port 0`` picks the port, so only this file knows it)."""
    pid: int
    version: str
    env: str
    """:func:`env_fingerprint` of the environment it started in (never a key itself)."""

    @classmethod
    def read(cls, where: Path) -> Runtime | None:
        """The record of the data dir ``where``, or None when there is none (or not whole)."""
        try:
            return cls.model_validate_json(runtime_path(where).read_bytes())
        except (OSError, ValidationError):
            return None

    def write(self, where: Path) -> None:
        """Replace the record at once: a reader never sees half of it."""
        path = runtime_path(where)
        draft = path.with_name(f".{path.name}.{os.getpid()}")
        draft.write_text(self.model_dump_json())
        os.replace(draft, path)


def runtime_path(where: Path) -> Path:
    """Where the service of the data dir ``where`` writes its record."""
    return where / RUNTIME_FILE


def remove_runtime(where: Path, pid: int) -> None:
    """Remove the record if it is still the one of process ``pid``."""
    found = Runtime.read(where)
    if found is not None and found.pid == pid:
        with contextlib.suppress(OSError):
            runtime_path(where).unlink()


def env_fingerprint(secret: str, environ: Mapping[str, str] | None = None) -> str:
    """A keyed hash of the :data:`CONNECTION_ENV` values set (keys are never written)."""
    env = os.environ if environ is None else environ
    items = sorted((name, env[name]) for name in CONNECTION_ENV if env.get(name))
    return hmac.new(secret.encode(), json.dumps(items).encode(), "sha256").hexdigest()[:32]


def process_alive(pid: int) -> bool:
    """Whether a process of that id exists (one of another user counts as alive)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True
