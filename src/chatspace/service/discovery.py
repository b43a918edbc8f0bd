"""Model servers found in the environment the service starts in, with users' conventions.

- ``OPENAI_API_KEY`` (with ``OPENAI_BASE_URL``, default the public OpenAI API): that
  endpoint's chat models, as its ``GET /models`` lists them.
- A local Ollama (``OLLAMA_HOST``, default ``127.0.0.1:11434``) that answers: its models,
  through its OpenAI-compatible ``/v1``.

Discovery runs in the background: a failure is one log line and is tried again later,
never fatal, and never delays the start; only ``GET /models`` waits for its first round
(at most :data:`DISCOVERY_TIMEOUT`), so that a listing right after the start is whole.
``CHATSPACE_AUTODETECT=0`` (``--no-autodetect``) turns it off.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

import httpx
from pydantic import SecretStr

from chatspace.local.checks import model_ids

if TYPE_CHECKING:
    from .engines.registry import ModelRegistry

__all__ = ["OPENAI_URL", "Endpoint", "discover", "endpoints_from_env", "running"]

log = logging.getLogger("chatspace.service")

OPENAI_URL = "https://api.openai.com/v1"
OLLAMA_DEFAULT = "127.0.0.1:11434"
RETRY_SECONDS = 30.0
REFRESH_SECONDS = 600.0
DISCOVERY_TIMEOUT = 5.0
# The public OpenAI API lists every kind of model; these are not chat models.
_NOT_CHAT = re.compile(
    r"embed|tts|whisper|dall-e|davinci|babbage|moderation|transcribe|image|realtime|"
    r"audio|search|computer-use|sora",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Endpoint:
    """An OpenAI-compatible server whose models are served under their own ids."""

    source: str
    """``owned_by`` of its models: ``openai`` or ``ollama``."""
    url: str
    key: SecretStr | None = None

    def is_chat_model(self, model_id: str) -> bool:
        """Embedding, speech and image models are listed too; they cannot chat."""
        return not _NOT_CHAT.search(model_id)


def endpoints_from_env(environ: Mapping[str, str]) -> list[Endpoint]:
    """The endpoints the environment names (Ollama is always tried, on its default port)."""
    found = []
    key = environ.get("OPENAI_API_KEY")
    if key:
        url = (environ.get("OPENAI_BASE_URL") or OPENAI_URL).rstrip("/")
        found.append(Endpoint("openai", url, SecretStr(key)))
    found.append(Endpoint("ollama", _ollama_url(environ.get("OLLAMA_HOST") or OLLAMA_DEFAULT)))
    return found


def _ollama_url(host: str) -> str:
    """``OLLAMA_HOST`` as Ollama reads it: ``host``, ``host:port`` or a URL."""
    scheme, _, rest = host.rpartition("://")
    rest = rest.rstrip("/")
    if rest.startswith("0.0.0.0"):  # noqa: S104 - where Ollama listens, not where we bind
        rest = "127.0.0.1" + rest[len("0.0.0.0") :]  # noqa: S104
    if ":" not in rest.rsplit("]", 1)[-1]:
        rest += ":11434"
    return f"{scheme or 'http'}://{rest}/v1"


async def discover(endpoint: Endpoint, *, timeout: float = DISCOVERY_TIMEOUT) -> list[str]:
    """The chat model ids the endpoint lists; raises ``httpx.HTTPError`` or ``ValueError``."""
    headers = {}
    if endpoint.key is not None:
        headers["Authorization"] = f"Bearer {endpoint.key.get_secret_value()}"
    async with httpx.AsyncClient(timeout=timeout) as client:
        response = await client.get(endpoint.url + "/models", headers=headers)
    if response.status_code in (401, 403):
        raise ValueError(f"the key was refused (HTTP {response.status_code})")
    response.raise_for_status()
    return sorted(i for i in model_ids(response) if endpoint.is_chat_model(i))


def _reason(exc: Exception) -> str:
    if isinstance(exc, httpx.HTTPStatusError):
        return f"it answered HTTP {exc.response.status_code}"
    if isinstance(exc, httpx.TimeoutException):
        return "no answer in time"
    if isinstance(exc, httpx.HTTPError):
        return "it cannot be reached"
    return str(exc)


async def _keep_discovering(
    registry: ModelRegistry, endpoint: Endpoint, first_round: asyncio.Event
) -> None:
    """Discover ``endpoint`` now and again; say once when it fails, once when it works."""
    failing: str | None = None
    while True:
        try:
            models = await discover(endpoint)
        except (httpx.HTTPError, ValueError, KeyError, TypeError) as exc:
            first_round.set()
            reason = _reason(exc)
            # A missing local Ollama is the usual case, not worth a warning.
            level = logging.INFO if endpoint.source == "ollama" else logging.WARNING
            if reason != failing:
                log.log(
                    level,
                    "%s models not discovered: %s; trying again later",
                    endpoint.source,
                    reason,
                )
            failing = reason  # the models found before, if any, stay served
            await asyncio.sleep(RETRY_SECONDS)
            continue
        if failing is not None or not registry.discovered(endpoint):
            log.info("%s: %d models discovered", endpoint.source, len(models))
        failing = None
        registry.set_discovered(endpoint, models)
        first_round.set()
        await asyncio.sleep(REFRESH_SECONDS)


@asynccontextmanager
async def running(registry: ModelRegistry, endpoints: list[Endpoint]) -> AsyncIterator[None]:
    """Discover the endpoints in the background while the service runs (``GET /models``
    waits for their first round: :meth:`~.engines.registry.ModelRegistry.first_discovery`)."""
    registry.first_rounds = [asyncio.Event() for _ in endpoints]
    tasks = [
        asyncio.create_task(_keep_discovering(registry, e, first))
        for e, first in zip(endpoints, registry.first_rounds, strict=True)
    ]
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
