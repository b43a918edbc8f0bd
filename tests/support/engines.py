"""Which engines the services of a test run use: SQLite and a directory (the default), or
PostgreSQL and an S3 bucket (``pytest --engine postgres``).

With ``--engine postgres`` the session starts one PostgreSQL server and one SeaweedFS
(:mod:`.pg_server`, :mod:`.s3_server`) and every service started by
:func:`support.service.start_service` gets a database of its own and a prefix of its own
in one bucket, through the same variables a team deployment sets
(``CHATSPACE_DATABASE_URL``, ``CHATSPACE_BLOB_STORE``, ``AWS_*``): the service tests run
unchanged on both engines.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from .pg_server import PgServer, running_postgres
from .s3_server import S3Server, running_seaweedfs

ENGINES = ("sqlite", "postgres")


@dataclass
class TeamEngines:
    """A PostgreSQL server and an S3 bucket that services get a database and a prefix of."""

    pg: PgServer
    s3: S3Server
    bucket: str
    _given: dict[Path, dict[str, str]] = field(default_factory=dict)

    def service_env(self, data_dir: Path) -> dict[str, str]:
        """The environment of a service of ``data_dir``: a new database and a prefix of
        its own in the run's bucket for a new data dir (a bucket each would exhaust
        SeaweedFS's volumes), the same again for a service restarted on it."""
        if data_dir not in self._given:
            self._given[data_dir] = {
                "CHATSPACE_DATABASE_URL": self.pg.new_database(),
                "CHATSPACE_BLOB_STORE": f"s3://{self.bucket}/{uuid.uuid4().hex[:12]}",
                **self.s3.env,
            }
        return self._given[data_dir]


@contextmanager
def running_team_engines(base: Path) -> Iterator[TeamEngines]:
    """PostgreSQL and SeaweedFS (its data under ``base``) until the block ends."""
    with ExitStack() as stack:
        pg = stack.enter_context(running_postgres())
        s3 = stack.enter_context(running_seaweedfs(base / "s3"))
        yield TeamEngines(pg, s3, s3.new_bucket())


current: TeamEngines | None = None
"""The engines of this run's services; None: SQLite and the data dir."""
