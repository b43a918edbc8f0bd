"""Model connections added over HTTP (``POST /models``) as this replica serves them.

They live in the database, so every replica serves the same ones: each replica reads them
every :data:`REFRESH` seconds in the background (and at once after it changed them
itself), unseals their keys (:mod:`.sealing`) and hands them to the registry. A key this
replica cannot unseal (another secret) leaves that model out, with one warning.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
import sqlalchemy as sa
from pydantic import SecretStr

from .config import Upstream
from .engines.registry import ModelRegistry
from .sealing import Sealer, Unsealable
from .store import connections as store

__all__ = ["REFRESH", "SavedModels"]

log = logging.getLogger("chatspace.service")

REFRESH = 2.0
"""Seconds between two readings of the saved connections: how long another replica may
go on serving a connection that was changed or removed."""


class SavedModels:
    """Reads the saved connections into the registry when they changed."""

    def __init__(self, db: sa.Engine, sealer: Sealer | None, registry: ModelRegistry) -> None:
        self._db, self._sealer, self._registry = db, sealer, registry
        self._seen: list[tuple[object, ...]] | None = None
        self._warned: set[str] = set()

    def load(self) -> None:
        with self._db.connect() as conn:
            rows = store.read_all(conn)
        seen = [tuple(r) for r in rows]
        if seen == self._seen:
            return
        first, self._seen = self._seen is None, seen
        upstreams = []
        for row in rows:
            key = None
            if row.sealed_key is not None:
                try:
                    key = SecretStr(self._unseal(row.sealed_key))
                except Unsealable as exc:
                    if row.name not in self._warned:
                        self._warned.add(row.name)
                        log.warning("model %s is not served: %s", row.name, exc)
                    continue
            models = {row.name: row.model}
            upstream = Upstream(url=row.url, key=key, models=models, timeout=row.timeout)
            upstreams.append((upstream, row.user_id))
        self._registry.set_saved(upstreams)
        if upstreams or not first:
            names = ", ".join(name for u, _ in upstreams for name in u.models) or "none"
            log.info("models added over HTTP served now: %s", names)

    def _unseal(self, sealed: bytes) -> str:
        if self._sealer is None:
            raise Unsealable("this service has no secret to unseal model keys with")
        return self._sealer.open(sealed)

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Read them before the service answers, then every :data:`REFRESH` seconds."""
        await anyio.to_thread.run_sync(self.load)
        task = asyncio.create_task(self._keep_loading())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _keep_loading(self) -> None:
        while True:
            await asyncio.sleep(REFRESH)
            try:
                await anyio.to_thread.run_sync(self.load)
            except sa.exc.SQLAlchemyError as exc:  # the database away a moment: next round
                log.warning("the saved model connections could not be read: %s", exc)
