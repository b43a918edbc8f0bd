"""The models a running service serves, by name, and which of them runs file instructions.

Models come from five places, the most specific first; a name taken by an earlier one is
not served again by a later one (the later is logged once):

1. ``service-l0``, the built-in local engine (``owned_by: chatspace``);
2. the upstreams the service was started with (``--upstream-url``, ``CHATSPACE_UPSTREAMS``;
   ``owned_by: chatspace serve``), where a name given twice is a startup error;
3. ``models.toml`` of the data dir (``chatspace models add`` on the service's host;
   ``owned_by: models.toml``), re-read whenever it changes, so a model added there is
   served at the next request;
4. connections added over HTTP (``POST /models``, ``%chat models add``; ``owned_by:
   added by USER``, the admin who added it), kept in the database for every replica
   (:mod:`..saved_models`);
5. endpoints found in the environment (:mod:`..discovery`; ``owned_by: openai`` or
   ``ollama``), updated in the background.

One HTTP client per distinct (URL, key, timeout) is shared by its models and closed with
the service; clients of connections removed while the service runs stay open until then,
as a request may still be streaming through them.

``instructions`` (docs/interface.md#metadata-and-instructions) run on the ``instructions_model``
setting (default ``service-l0``, whose extractor is :mod:`.extractor`); naming an upstream
model there makes that model derive the metadata (:mod:`.instructions`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import httpx
from pydantic import SecretStr

from chatspace.local.connections import DEFAULT_TIMEOUT, FILE_NAME, ConnectionsFile
from chatspace.service.config import Settings, Upstream
from chatspace.service.discovery import Endpoint
from chatspace.service.problems import NotFound
from chatspace.types import Model

from .base import Engine
from .local import LocalEngine
from .upstream import UpstreamEngine, new_client

__all__ = ["SAVED", "SERVE", "ModelRegistry", "added_by"]

log = logging.getLogger("chatspace.service")
SERVE = "chatspace serve"
SAVED = "POST /models"
"""The source of the connections added over HTTP (their ``owned_by`` is :func:`added_by`)."""
HOW_TO_ADD = (
    "Add one with 'chatspace models add NAME --url URL' or, in a notebook, "
    "'%chat models add NAME --url URL'."
)
_ClientKey = tuple[str, str | None, float]


def _advice(owned_by: str, name: str) -> str:
    """Where a connection comes from and how to check it, for its failures' messages."""
    if owned_by == FILE_NAME:
        return (
            f"It comes from models.toml: check it with '%chat models test {name}' (in a "
            f"shell: 'chatspace models test {name}'), change it with 'models add {name} "
            "--replace'"
        )
    if owned_by == SAVED:
        return (
            f"It was added with '%chat models add' (POST /models): check it with '%chat "
            f"models test {name}', change it with '%chat models add {name} --replace'"
        )
    if owned_by == SERVE:
        return (
            "It comes from the service's command line (--upstream-url or "
            "CHATSPACE_UPSTREAMS): check the URL, key and model name given there"
        )
    if owned_by == "openai":
        return "It comes from OPENAI_BASE_URL and OPENAI_API_KEY where the service started"
    if owned_by == "ollama":
        return "It comes from the local Ollama: check that it serves the model ('ollama list')"
    return f"It comes from {owned_by}: check that it serves the model"


def added_by(user_id: str) -> str:
    """``owned_by`` of a model added over HTTP: who added it, rather than the route it came
    by (``%chat models`` showed "POST /models", which tells a notebook's user nothing)."""
    return f"added by {user_id}"


def _upstream(
    name: str, remote: str, client: httpx.AsyncClient, source: str, owned_by: str | None = None
) -> UpstreamEngine:
    """The engine of a connection from ``source`` (its ``owned_by`` unless told), whose
    failures say how to check it."""
    return UpstreamEngine(
        name=name,
        remote=remote,
        client=client,
        owned_by=owned_by or source,
        advice=_advice(source, name),
    )


class ModelRegistry:
    """Engines by model name, over the five sources of models."""

    def __init__(
        self,
        upstreams: list[Upstream] | None = None,
        *,
        data_dir: Path | None = None,
        instructions_model: str = LocalEngine.name,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        self._environ = os.environ if environ is None else environ
        self._clients: dict[_ClientKey, httpx.AsyncClient] = {}
        self._fixed: dict[str, Engine] = {LocalEngine.name: LocalEngine()}
        for upstream in upstreams or []:
            for name, remote in upstream.models.items():
                if name in self._fixed:
                    raise ValueError(f"model name {name!r} is served twice")
                client = self._client(upstream.url, upstream.key, upstream.timeout)
                self._fixed[name] = _upstream(name, remote, client, SERVE)
        self._file = ConnectionsFile(data_dir) if data_dir is not None else None
        self._from_file: dict[str, Engine] = {}
        self._saved: dict[str, Engine] = {}
        self._discovered: dict[Endpoint, dict[str, Engine]] = {}
        self._merged: dict[str, Engine] = dict(self._fixed)
        self._shadowed: set[tuple[str, str]] = set()
        self.first_rounds: list[asyncio.Event] = []
        """Set once each endpoint of the environment was asked (:mod:`..discovery`)."""
        if instructions_model not in self.engines():
            raise ValueError(f"instructions model {instructions_model!r} is not served")
        self.instructions_model = instructions_model

    @classmethod
    def from_settings(cls, settings: Settings) -> ModelRegistry:
        return cls(
            settings.upstreams,
            data_dir=settings.data_dir,
            instructions_model=settings.instructions_model,
        )

    def _client(self, url: str, key: SecretStr | None, timeout: float) -> httpx.AsyncClient:
        ident = (url, key.get_secret_value() if key else None, timeout)
        if ident not in self._clients:
            self._clients[ident] = new_client(Upstream(url=url, key=key, timeout=timeout))
        return self._clients[ident]

    # ------------------------------------------------------------------ the sources

    def engines(self) -> dict[str, Engine]:
        """Every served model by name, ``models.toml`` re-read first if it changed."""
        if self._file is not None and self._file.changed():
            self._from_file = {
                c.name: _upstream(
                    c.name,
                    c.model,
                    self._client(c.url, c.key(self._file.data_dir, self._environ), c.timeout),
                    FILE_NAME,
                )
                for c in self._file.connections
            }
            self._merge()
        return self._merged

    def set_saved(self, connections: list[tuple[Upstream, str]]) -> None:
        """The connections of ``POST /models`` now (each an upstream of one model, with
        the user who added it)."""
        self._saved = {
            name: _upstream(
                name, remote, self._client(c.url, c.key, c.timeout), SAVED, added_by(user)
            )
            for c, user in connections
            for name, remote in c.models.items()
        }
        self._merge()

    def source_of(self, name: str) -> str | None:
        """Where the model ``name`` is served from (:data:`SAVED` for a connection added
        over HTTP, else its ``owned_by``), if it is."""
        engine = self.engines().get(name)
        if engine is None:
            return None
        return SAVED if engine is self._saved.get(name) else engine.owned_by

    def set_discovered(self, endpoint: Endpoint, model_ids: list[str]) -> None:
        """The models an endpoint of the environment serves now (:mod:`..discovery`)."""
        client = self._client(endpoint.url, endpoint.key, DEFAULT_TIMEOUT)
        self._discovered[endpoint] = {
            i: _upstream(i, i, client, endpoint.source) for i in model_ids
        }
        self._merge()

    async def first_discovery(self, timeout: float) -> None:
        """Wait (at most ``timeout`` seconds) until every endpoint of the environment was
        asked once, so that a listing right after the start holds their models: a
        notebook's first ``%%chat`` takes its default model from it."""
        pending = [e.wait() for e in self.first_rounds if not e.is_set()]
        if pending:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*pending), timeout)

    def discovered(self, endpoint: Endpoint) -> list[str]:
        return list(self._discovered.get(endpoint, {}))

    def _merge(self) -> None:
        merged = dict(self._fixed)
        for layer in [self._from_file, self._saved, *self._discovered.values()]:
            for name, engine in layer.items():
                if name not in merged:
                    merged[name] = engine
                elif (name, engine.owned_by) not in self._shadowed:
                    self._shadowed.add((name, engine.owned_by))
                    log.info(
                        "model %s of %s is not served: %s serves that name",
                        name,
                        engine.owned_by,
                        merged[name].owned_by,
                    )
        self._merged = merged

    # ------------------------------------------------------------------ look-ups

    def get(self, name: str) -> Engine:
        """The engine serving ``name``; an unknown name is a 404 that lists the known ones."""
        engines = self.engines()
        try:
            return engines[name]
        except KeyError:
            known = ", ".join(sorted(engines))
            raise NotFound(
                f"model '{name[:200]}' not found; this service serves: {known}. {HOW_TO_ADD}"
            ) from None

    def list_models(self) -> list[Model]:
        return [Model(id=name, owned_by=e.owned_by) for name, e in self.engines().items()]

    async def derive_metadata(
        self, *, text: str | None, filename: str, content_type: str, instructions: str
    ) -> tuple[dict[str, Any], str]:
        """Metadata derived from a file by instructions, and the status_details sentence."""
        return await self.get(self.instructions_model).derive_metadata(
            text=text, filename=filename, content_type=content_type, instructions=instructions
        )

    async def aclose(self) -> None:
        for client in self._clients.values():
            await client.aclose()
