"""The models a running service serves, by name, and which of them runs file instructions.

``service-l0`` is always there. Each configured upstream (``Settings.upstreams``) adds
the names of its ``models`` map, served by forwarding to the remote names; one HTTP client
per upstream is shared by its names and closed with the service. A name served twice is a
configuration error at startup, not a silent choice.

File ``instructions`` (contract 5) run on ``Settings.instructions_model`` (default
``service-l0``, whose deterministic extractor is :mod:`.extractor`); naming an upstream
model there makes that model derive the metadata (:mod:`.instructions`).
"""

from __future__ import annotations

from typing import Any

import httpx

from chatspace.service.config import Settings
from chatspace.service.problems import NotFound
from chatspace.types import Model

from .base import Engine
from .extractor import derive_locally
from .instructions import derive_with_model
from .local import LocalEngine
from .upstream import UpstreamEngine, new_client

__all__ = ["ModelRegistry"]


class ModelRegistry:
    """Engines by model name."""

    def __init__(
        self,
        engines: dict[str, Engine],
        *,
        instructions_model: str = LocalEngine.name,
        clients: list[httpx.AsyncClient] | None = None,
    ) -> None:
        if instructions_model not in engines:
            raise ValueError(f"instructions model {instructions_model!r} is not served")
        self._engines = engines
        self._clients = clients or []
        self.instructions_model = instructions_model

    @classmethod
    def from_settings(cls, settings: Settings) -> ModelRegistry:
        engines: dict[str, Engine] = {LocalEngine.name: LocalEngine()}
        clients = []
        for upstream in settings.upstreams:
            client = new_client(upstream)
            clients.append(client)
            for name, remote in upstream.models.items():
                if name in engines:
                    raise ValueError(f"model name {name!r} is served twice")
                engines[name] = UpstreamEngine(name=name, remote=remote, client=client)
        return cls(engines, instructions_model=settings.instructions_model, clients=clients)

    def get(self, name: str) -> Engine:
        """The engine serving ``name``; an unknown name is a 404."""
        try:
            return self._engines[name]
        except KeyError:
            raise NotFound(f"model '{name}' not found") from None

    def list_models(self) -> list[Model]:
        return [Model(id=name, owned_by=e.owned_by) for name, e in self._engines.items()]

    async def derive_metadata(
        self, *, text: str | None, filename: str, content_type: str, instructions: str
    ) -> tuple[dict[str, Any], str]:
        """Metadata derived from a file by instructions, and the status_details sentence."""
        engine = self._engines[self.instructions_model]
        if isinstance(engine, UpstreamEngine):
            return await derive_with_model(
                engine,
                text=text,
                filename=filename,
                content_type=content_type,
                instructions=instructions,
            )
        return derive_locally(
            text=text, filename=filename, content_type=content_type, instructions=instructions
        )

    async def aclose(self) -> None:
        for client in self._clients:
            await client.aclose()
