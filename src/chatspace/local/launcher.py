"""The embedded local service: one per machine (per data dir), shared by every kernel.

A client with no base URL anywhere calls :func:`ensure_service`. It reuses the service
named by ``<data dir>/service.json`` when that one answers, and otherwise starts
``python -m chatspace serve --port 0`` (:func:`.serving.serve_command`) detached
(its own session, output to ``<data dir>/service.log``), so that it outlives the kernel
that started it. A file lock makes two kernels starting at once share one service.
Requests run as user ``local`` of org ``local``, with tokens minted from the data dir's
secret.

The service finds model servers in the environment it starts in (``OPENAI_API_KEY``,
``OLLAMA_HOST``, ...: :data:`.runtime.CONNECTION_ENV`), so it records a keyed hash of
those variables in ``service.json`` (:mod:`.runtime`). A process whose environment sets
them differently (a JupyterLab started again with ``OPENAI_API_KEY``) restarts the
service on the same port, so that the models of its environment are served and other
kernels' clients keep their address; a process that sets none of them takes the service
as it is.

    >>> url, token, where = ensure_service()
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from chatspace.errors import ConfigurationError

from .auth import load_or_create_secret, mint_token
from .datadir import data_dir
from .locks import locked
from .runtime import CONNECTION_ENV, Runtime, env_fingerprint, process_alive
from .serving import serve_command

__all__ = ["LOCAL_ORG", "LOCAL_USER", "ensure_service", "live_service_url", "stop_service"]

log = logging.getLogger("chatspace")

LOCAL_USER = "local"
LOCAL_ORG = "local"
TOKEN_TTL = 12 * 3600
_LOCK = "service.lock"
_LOG = "service.log"
# Started through a short-lived launcher, so that the service is not our child: no
# zombie when it exits, and nothing of ours to wait for.
_LAUNCHER = (
    "import subprocess, sys\n"
    "log = open(sys.argv[1], 'ab')\n"
    "p = subprocess.Popen(sys.argv[2:], stdin=subprocess.DEVNULL, stdout=log,"
    " stderr=subprocess.STDOUT, start_new_session=True)\n"
    "print(p.pid)\n"
)


def ensure_service(
    directory: str | os.PathLike[str] | None = None, *, timeout: float = 60.0
) -> tuple[str, Callable[[], str], Path]:
    """The URL of the local service (started if need be), a token provider, and its data dir."""
    where = data_dir(directory)
    where.mkdir(parents=True, exist_ok=True)
    secret = load_or_create_secret(where)
    url = live_service_url(where)
    if url is None or _other_environment(where, secret):
        with locked(where / _LOCK):
            url = live_service_url(where)
            if url is not None and _other_environment(where, secret):
                log.info("restarting the local chatspace service for this environment's models")
                stop_service(where)
                url = _start(where, timeout, port=_port_of(url))
            elif url is None:
                url = _start(where, timeout)
    # the machine's user administers its own service (whoever reads the data dir's secret
    # could mint such a token anyway)
    provider = functools.partial(
        mint_token, user=LOCAL_USER, org=LOCAL_ORG, secret=secret, ttl_seconds=TOKEN_TTL, admin=True
    )
    return url, provider, where


def _other_environment(where: Path, secret: str) -> bool:
    """Whether this process sets model variables that the running service did not see."""
    if not any(os.environ.get(name) for name in CONNECTION_ENV):
        return False
    seen = Runtime.read(where)
    return seen is not None and seen.env != env_fingerprint(secret)


def _port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


def live_service_url(where: Path) -> str | None:
    """The URL in ``service.json`` if its process lives and answers HTTP, else None."""
    found = Runtime.read(where)
    if found is None or not process_alive(found.pid):
        return None
    try:
        httpx.get(found.url + "/models", timeout=2.0)
    except httpx.HTTPError:
        return None
    return found.url


def stop_service(directory: str | os.PathLike[str] | None = None, *, timeout: float = 20.0) -> bool:
    """Stop the local service of a data dir, if one runs; whether one was stopped.

    It is not our child, so its exit is awaited through a pidfd where the platform has
    them (Linux), else by polling; SIGKILL follows a SIGTERM it ignores for ``timeout``.
    """
    found = Runtime.read(data_dir(directory))
    if found is None or not process_alive(found.pid):
        return False
    pid = found.pid
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
        if not _gone_within(pid, timeout):
            os.kill(pid, signal.SIGKILL)
            _gone_within(pid, timeout)
    return True


def _gone_within(pid: int, timeout: float) -> bool:
    if hasattr(os, "pidfd_open"):
        try:
            handle = os.pidfd_open(pid)
        except ProcessLookupError:
            return True
        try:
            return bool(select.select([handle], [], [], timeout)[0])
        finally:
            os.close(handle)
    deadline = time.monotonic() + timeout  # pragma: no cover - platforms without pidfd
    while process_alive(pid) and time.monotonic() < deadline:  # pragma: no cover
        time.sleep(0.05)
    return not process_alive(pid)  # pragma: no cover


def _start(where: Path, timeout: float, *, port: int = 0) -> str:
    """Start the service (on ``port``, else on any free port if that one is taken)."""
    try:
        return _launch(where, timeout, port)
    except ConfigurationError:
        if not port:
            raise
        return _launch(where, timeout, 0)


def _launch(where: Path, timeout: float, port: int) -> str:
    serve = serve_command(where, port=port)
    log = where / _LOG
    flags = 0
    if sys.platform == "win32":  # pragma: no cover - POSIX is what CI runs
        flags = subprocess.DETACHED_PROCESS | subprocess.CREATE_NEW_PROCESS_GROUP  # type: ignore[attr-defined]
    launched = subprocess.run(  # noqa: S603 - our own interpreter and module
        [sys.executable, "-c", _LAUNCHER, str(log), *serve],
        capture_output=True,
        text=True,
        check=False,
        creationflags=flags,
        timeout=timeout,
    )
    if launched.returncode != 0 or not launched.stdout.strip().isdigit():
        raise ConfigurationError(
            f"Could not start the local chatspace service: {launched.stderr.strip()[-300:]}"
        )
    pid = int(launched.stdout.strip())
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        url = _ready(where, pid)
        if url is not None:
            return url
        if not process_alive(pid):
            break
        time.sleep(0.05)  # a process of another session: no event to wait on
    raise ConfigurationError(
        "The local chatspace service did not start; see its log at "
        f"{log}: {_tail(log)} Set CHATSPACE_BASE_URL to use a remote service instead."
    )


def _ready(where: Path, pid: int) -> str | None:
    found = Runtime.read(where)
    if found is None or found.pid != pid:
        return None
    return live_service_url(where)


def _tail(log: Path) -> str:
    try:
        lines = log.read_text(errors="replace").strip().splitlines()
    except OSError:
        return "(no log)"
    return (lines[-1] if lines else "(empty log)")[-300:]
