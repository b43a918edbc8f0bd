"""Test support: the real reference service, started as a user would start it.

Every test that needs a service talks to one started by :func:`start_service`: the
``chatspace serve`` command in its own process on a free port of 127.0.0.1, with its
own data dir. It prints its address once it listens, which is the event we wait on
(:func:`chatspace.local.serving.start_serve`).
"""

from __future__ import annotations

import os
import subprocess
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from chatspace.local.auth import mint_token
from chatspace.local.serving import READY_LINE, start_serve

from . import engines
from .processes import stop_process

TEST_SECRET = "test-secret-that-is-long-enough-for-hs256-0123456789"
READY_PREFIX = READY_LINE + " "


@dataclass
class Service:
    """A running reference service and the means to call it."""

    url: str
    data_dir: Path
    process: subprocess.Popen[str]
    database_url: str = ""
    """Where its rows are (SQLAlchemy URL): ``chatspace.db`` of the data dir by default."""
    blob_store: str | None = None
    """``s3://bucket/prefix`` when its file bytes are in a bucket, else None (the data dir)."""
    s3_env: dict[str, str] = field(default_factory=dict)
    """The ``AWS_*`` variables it reaches its bucket with."""
    secret: str = TEST_SECRET
    log: list[str] = field(default_factory=list)
    log_changed: threading.Condition = field(default_factory=threading.Condition)
    reader: threading.Thread | None = None

    def wait_for_log(self, text: str, timeout: float = 20.0) -> str:
        """The first line of the service's output containing ``text``, once it is printed."""
        with self.log_changed:
            found = self.log_changed.wait_for(
                lambda: next((line for line in self.log if text in line), None), timeout
            )
        if found is None:
            raise AssertionError(f"the service did not print {text!r} within {timeout} s")
        return found

    def token(
        self, user: str = "alice", org: str = "acme", ttl: int = 3600, *, admin: bool = False
    ) -> str:
        return mint_token(user=user, org=org, secret=self.secret, ttl_seconds=ttl, admin=admin)

    def headers(
        self, user: str = "alice", org: str = "acme", *, admin: bool = False
    ) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token(user, org, admin=admin)}"}

    def stop(self) -> None:
        if self in running:
            running.remove(self)
        stop_process(self.process, 20)
        if self.reader is not None:
            self.reader.join(timeout=20)  # the output ends with the process
        if self.process.stdout is not None:
            self.process.stdout.close()


def start_service(
    data_dir: Path, *args: str, env: dict[str, str] | None = None, port: int = 0
) -> Service:
    """Start ``chatspace serve`` on ``port`` (0: a free one) and return once it listens (on
    the engines of this run: :mod:`.engines`)."""
    full_env = dict(os.environ, CHATSPACE_JWT_SECRET=TEST_SECRET, PYTHONUNBUFFERED="1")
    if engines.current is not None:
        full_env.update(engines.current.service_env(data_dir.resolve()))
    full_env.update(env or {})
    started = start_serve(data_dir, *args, env=full_env, port=port)
    service = Service(
        url=started.url,
        data_dir=data_dir,
        process=started.process,
        database_url=_option(args, "--database-url")
        or full_env.get("CHATSPACE_DATABASE_URL", f"sqlite:///{data_dir / 'chatspace.db'}"),
        blob_store=_option(args, "--blob-store") or full_env.get("CHATSPACE_BLOB_STORE"),
        s3_env={k: v for k, v in full_env.items() if k.startswith("AWS_")},
        log=started.output,
    )
    _drain(started.process, service)
    running.append(service)
    started_in_test.append(service)
    return service


running: list[Service] = []
"""The services started and not stopped yet."""
started_in_test: list[Service] = []
"""The services the current test started (``tests/conftest.py`` empties it per test and
shows their output when the test fails)."""


def output_of(services: list[Service], lines: int = 60) -> str:
    """The last ``lines`` of each service's output, for a failed test's report."""
    return "\n".join(
        f"--- {svc.url} ({svc.data_dir.name}):\n" + "".join(svc.log[-lines:]) for svc in services
    )


def _option(args: tuple[str, ...], name: str) -> str | None:
    """The value of ``name`` among a command line's ``args``, if given."""
    for i, arg in enumerate(args[:-1]):
        if arg == name:
            return args[i + 1]
    return None


def _drain(process: subprocess.Popen[str], service: Service) -> None:
    """Keep reading the service's output so that its pipe never fills up."""

    def pump() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            with service.log_changed:
                service.log.append(line)
                service.log_changed.notify_all()

    service.reader = threading.Thread(target=pump, daemon=True)
    service.reader.start()


@contextmanager
def running_service(data_dir: Path, *args: str, **kw: dict[str, str]) -> Iterator[Service]:
    service = start_service(data_dir, *args, **kw)
    try:
        yield service
    finally:
        service.stop()


def new_org() -> str:
    """A fresh organization, so that tests sharing one service never see each other's data."""
    return f"org-{uuid.uuid4().hex[:12]}"


HOSTILE = '<img src=x onerror="alert(1)"><script>alert(2)</script>'
"""Markup that must show as text wherever a name, a value or an answer is displayed."""
