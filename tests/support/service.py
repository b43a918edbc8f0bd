"""Test support: the real reference service, started as a user would start it.

Every test that needs a service talks to one started by :func:`start_service`: the
``chatspace serve`` command in its own process on a free port of 127.0.0.1, with its
own data dir. It prints its address once it listens, which is the event we wait on
(:func:`chatspace.serving.start_serve`).
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from chatspace.local_auth import mint_token
from chatspace.serving import READY_LINE, start_serve

TEST_SECRET = "test-secret-that-is-long-enough-for-hs256-0123456789"
READY_PREFIX = READY_LINE + " "


@dataclass
class Service:
    """A running reference service and the means to call it."""

    url: str
    data_dir: Path
    process: subprocess.Popen[str]
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

    def token(self, user: str = "alice", org: str = "acme", ttl: int = 3600) -> str:
        return mint_token(user=user, org=org, secret=self.secret, ttl_seconds=ttl)

    def headers(self, user: str = "alice", org: str = "acme") -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token(user, org)}"}

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.reader is not None:
            self.reader.join(timeout=20)  # the output ends with the process
        if self.process.stdout is not None:
            self.process.stdout.close()


def start_service(data_dir: Path, *args: str, env: dict[str, str] | None = None) -> Service:
    """Start ``chatspace serve`` on a free port and return once it listens."""
    full_env = dict(os.environ, CHATSPACE_JWT_SECRET=TEST_SECRET, PYTHONUNBUFFERED="1")
    full_env.update(env or {})
    started = start_serve(data_dir, *args, env=full_env)
    service = Service(
        url=started.url, data_dir=data_dir, process=started.process, log=started.output
    )
    _drain(started.process, service)
    return service


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
