"""Model connections kept in a data dir: ``models.toml`` and the key files beside it.

A connection is a model name users pick, an OpenAI-compatible base URL, an optional key,
the remote model name and a timeout. ``chatspace models add`` writes them here (a
notebook adds models over HTTP instead, ``POST /models``); a running service of the data
dir re-reads the file whenever it changes (it compares the file's ``stat`` on every
look-up, so a change is seen by the next request, without a restart). Adding one checks
it first (:func:`.checks.check_connection`, skipped with
``--no-check``): nothing is saved for a server that cannot be reached, refuses the key or
does not serve the model. The file never holds a key: a key is either the name of an
environment variable of the service (``key_env``) or a file of mode 0600 under ``keys/``
(``--key-stdin``)::

    [models.llama]
    url = "http://127.0.0.1:8080/v1"
    model = "llama-3.1-8b-instruct"
    key_env = "LLAMA_KEY"
    timeout = 120.0
"""

from __future__ import annotations

import logging
import os
import re
import tomllib
from collections.abc import Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomli_w
from pydantic import SecretStr

from .checks import BadConnection, check_connection, check_name, check_url
from .locks import locked

__all__ = [
    "DEFAULT_TIMEOUT",
    "FILE_NAME",
    "Connection",
    "ConnectionsFile",
    "add_connection",
    "check_saved",
    "read_connections",
    "remove_connection",
]

log = logging.getLogger("chatspace.service")

FILE_NAME = "models.toml"
_KEYS = "keys"
DEFAULT_TIMEOUT = 120.0


@dataclass(frozen=True, slots=True)
class Connection:
    """One model served by forwarding to an OpenAI-compatible server."""

    name: str
    url: str
    model: str
    key_env: str | None = None
    key_file: str | None = None
    timeout: float = DEFAULT_TIMEOUT

    def key(self, data_dir: Path, environ: Mapping[str, str] | None = None) -> SecretStr | None:
        """The key as the service resolves it: its environment, or the key file."""
        env = os.environ if environ is None else environ
        if self.key_env:
            value = env.get(self.key_env)
            if not value:
                log.warning(
                    "model %s: the environment variable %s holding its key is not set",
                    self.name,
                    self.key_env,
                )
                return None
            return SecretStr(value)
        if self.key_file:
            try:
                return SecretStr((data_dir / self.key_file).read_text().strip())
            except OSError:
                log.warning("model %s: its key file cannot be read", self.name)
        return None

    def describe_key(self) -> str:
        """Where the key comes from, for listings (never the key itself)."""
        if self.key_env:
            return f"${self.key_env}"
        return "key file" if self.key_file else "none"


def _path(data_dir: Path) -> Path:
    return data_dir / FILE_NAME


def read_connections(data_dir: Path) -> list[Connection]:
    """The connections of ``models.toml``; an unreadable entry is logged and left out."""
    try:
        raw = tomllib.loads(_path(data_dir).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        log.warning("%s cannot be read, no model of it is served: %s", FILE_NAME, exc)
        return []
    found = []
    models = raw.get("models")
    for name, entry in (models if isinstance(models, dict) else {}).items():
        try:
            found.append(_connection(name, entry))
        except (BadConnection, TypeError, ValueError) as exc:
            log.warning("%s: model %r is left out: %s", FILE_NAME, name, exc)
    return found


def _connection(name: str, entry: Any) -> Connection:
    if not isinstance(entry, dict):
        raise TypeError("not a table")
    timeout = float(entry.get("timeout", DEFAULT_TIMEOUT))
    if not 0 < timeout <= 3600:
        raise ValueError("timeout must be between 0 and 3600 seconds")
    return Connection(
        name=check_name(name),
        url=check_url(str(entry["url"])),
        model=str(entry.get("model") or name),
        key_env=entry.get("key_env") or None,
        key_file=entry.get("key_file") or None,
        timeout=timeout,
    )


def _write(data_dir: Path, connections: list[Connection]) -> None:
    """Replace ``models.toml`` at once (a reader never sees half a file)."""
    table: dict[str, Any] = {}
    for c in connections:
        entry: dict[str, Any] = {"url": c.url, "model": c.model, "timeout": c.timeout}
        if c.key_env:
            entry["key_env"] = c.key_env
        if c.key_file:
            entry["key_file"] = c.key_file
        table[c.name] = entry
    path = _path(data_dir)
    tmp = path.with_name(f".{FILE_NAME}.{os.getpid()}")
    header = "# Model connections of this chatspace data dir: chatspace models add/remove.\n"
    tmp.write_text(header + tomli_w.dumps({"models": table}), encoding="utf-8")
    os.replace(tmp, path)


def _locked(data_dir: Path) -> AbstractContextManager[None]:
    """One writer at a time (two `chatspace models` commands at once)."""
    return locked(data_dir / f".{FILE_NAME}.lock")


def add_connection(
    data_dir: Path,
    name: str,
    *,
    url: str,
    model: str | None = None,
    key: str | None = None,
    key_env: str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    replace: bool = False,
    check: bool = True,
    environ: Mapping[str, str] | None = None,
) -> Connection:
    """Add (or with ``replace``, change) a connection; a ``key`` goes to a 0600 file.

    With ``check`` (the default) the server is asked first (:func:`check_connection`),
    with the key of ``key`` or of ``key_env`` in ``environ`` (default: this process's).
    """
    if key is not None and key_env is not None:
        raise BadConnection("give the key either in a variable or directly, not both")
    if key is not None and not key.strip():
        raise BadConnection("the key is empty")
    if key_env is not None and not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", key_env):
        raise BadConnection(f"--key-env {key_env!r} is not an environment variable name")
    if not 0 < timeout <= 3600:
        raise BadConnection("--timeout must be between 0 and 3600 seconds")
    connection = Connection(
        name=check_name(name),
        url=check_url(url),
        model=model or name,
        key_env=key_env,
        key_file=f"{_KEYS}/{_key_file_name(name)}" if key is not None else None,
        timeout=float(timeout),
    )
    if check:
        _refuse_taken(read_connections(data_dir), name, replace)  # before the network
        checked_key = key.strip() if key is not None else _checked_key(key_env, environ)
        check_connection(connection.url, connection.model, checked_key)
    with _locked(data_dir):
        current = read_connections(data_dir)
        _refuse_taken(current, name, replace)
        old = next((c for c in current if c.name == name), None)
        if key is not None:
            _write_key(data_dir, connection.key_file or "", key.strip())
        elif old is not None and old.key_file:
            (data_dir / old.key_file).unlink(missing_ok=True)
        _write(data_dir, [c for c in current if c.name != name] + [connection])
    return connection


def remove_connection(data_dir: Path, name: str) -> Connection:
    """Remove a connection and its key file; an unknown name lists the known ones."""
    with _locked(data_dir):
        current = read_connections(data_dir)
        found = _find(current, name)
        _write(data_dir, [c for c in current if c.name != name])
        if found.key_file:
            (data_dir / found.key_file).unlink(missing_ok=True)
    return found


def check_saved(data_dir: Path, name: str, environ: Mapping[str, str] | None = None) -> str:
    """Check a saved connection as :func:`add_connection` checks a new one; the sentence
    saying that it works."""
    found = _find(read_connections(data_dir), name)
    if found.key_env:
        key = _checked_key(found.key_env, environ)
    else:
        secret = found.key(data_dir)
        key = None if secret is None else secret.get_secret_value()
    served = check_connection(found.url, found.model, key, adding=False)
    keyed = "accepts its key and " if key else ""
    return (
        f"model {found.name} works: {found.url} {keyed}serves {found.model} "
        f"(one of the {len(served)} models it serves)"
    )


def _find(current: list[Connection], name: str) -> Connection:
    """The connection named ``name``; an unknown name lists the known ones."""
    found = next((c for c in current if c.name == name), None)
    if found is None:
        known = ", ".join(c.name for c in current) or "none"
        raise BadConnection(f"no model {name!r} in {FILE_NAME} (it has: {known})")
    return found


def _refuse_taken(current: list[Connection], name: str, replace: bool) -> None:
    if not replace and any(c.name == name for c in current):
        raise BadConnection(
            f"model {name!r} exists already; remove it first or add it with --replace"
        )


def _checked_key(key_env: str | None, environ: Mapping[str, str] | None) -> str | None:
    """The key ``key_env`` names here, to check the connection with."""
    if key_env is None:
        return None
    value = (os.environ if environ is None else environ).get(key_env)
    if not value:
        raise BadConnection(
            f"--key-env {key_env} is not set here, so the key cannot be checked: set it, "
            "or add the model with --no-check"
        )
    return value


def _key_file_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", name) + ".key"


def _write_key(data_dir: Path, relative: str, key: str) -> None:
    keys = data_dir / _KEYS
    keys.mkdir(mode=0o700, exist_ok=True)
    path = data_dir / relative
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(key)
    os.replace(tmp, path)


class ConnectionsFile:
    """``models.toml`` as a running service sees it: re-read when its ``stat`` changes."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self._seen: tuple[int, int, int] | None = None
        self.connections: list[Connection] = []

    def changed(self) -> bool:
        """Whether the file changed since the last call (then ``connections`` is fresh)."""
        try:
            st = _path(self.data_dir).stat()
            signature: tuple[int, int, int] | None = (st.st_mtime_ns, st.st_size, st.st_ino)
        except OSError:
            signature = None
        if signature == self._seen:
            return False
        self._seen = signature
        self.connections = read_connections(self.data_dir) if signature else []
        return True
