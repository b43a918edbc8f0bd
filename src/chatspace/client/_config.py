"""Where a client's settings come from: arguments, then ``CHATSPACE_*``, then defaults.

Resolved once, when the client is made, so that no request pays for it again. The
result records the origin of every value, which ``%chat config`` shows:

    >>> Client(base_url="http://127.0.0.1:8000", token="t").config.sources["base_url"]
    'argument'
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from chatspace.errors import ConfigurationError

__all__ = [
    "BASE_URL_ENV",
    "BETA_BASE_URL_ENV",
    "DEFAULT_WORKSPACE",
    "TOKEN_ENV",
    "WORKSPACE_ENV",
    "ClientConfig",
    "ResolvedConfig",
    "TokenSource",
    "mask",
    "resolve_config",
]

BASE_URL_ENV = "CHATSPACE_BASE_URL"
BETA_BASE_URL_ENV = "CHATSPACE_BETA_BASE_URL"
TOKEN_ENV = "CHATSPACE_TOKEN"  # noqa: S105 - a variable name
WORKSPACE_ENV = "CHATSPACE_WORKSPACE"
DEFAULT_WORKSPACE = "default"

TokenSource = str | Callable[[], str]
"""A bearer token, or a callable returning one (called again once after a 401)."""


def mask(token: TokenSource | None) -> str | None:
    """A token as it may be shown: never more than its last four characters."""
    if token is None:
        return None
    if callable(token):
        return "<token provider>"
    return "****" + token[-4:] if len(token) >= 16 else "****"


@dataclass(frozen=True)
class ClientConfig:
    """A client's resolved settings, with the origin of each value in ``sources``.

    ``token`` is already masked: the secret itself is not kept here, so this object
    can be printed, logged and displayed safely.
    """

    base_url: str
    workspace: str
    token: str | None
    beta: bool = False
    timeout: float | None = None
    max_retries: int = 2
    sources: dict[str, str] = field(default_factory=dict)
    embedded_data_dir: Path | None = None
    """The data dir of the embedded local service in use; None for any other service."""


@dataclass(frozen=True)
class ResolvedConfig:
    """What :func:`resolve_config` found; ``base_url`` is None for the embedded service."""

    base_url: str | None
    token: TokenSource | None
    workspace: str
    sources: dict[str, str]


def resolve_config(
    *,
    base_url: str | None,
    token: TokenSource | None,
    workspace: str | None,
    beta: bool,
    environ: dict[str, str] | None = None,
) -> ResolvedConfig:
    """Apply docs/interface.md#configuration: arguments, then environment, then defaults."""
    env = os.environ if environ is None else environ
    sources: dict[str, str] = {}

    url: str | None
    if base_url:
        url, sources["base_url"] = base_url, "argument"
    elif beta:
        url = env.get(BETA_BASE_URL_ENV) or None
        if url is None:
            raise ConfigurationError(
                f"beta=True needs the beta address: set {BETA_BASE_URL_ENV} "
                "or pass base_url=... to the client."
            )
        sources["base_url"] = f"environment ({BETA_BASE_URL_ENV})"
    elif env.get(BASE_URL_ENV):
        url, sources["base_url"] = env[BASE_URL_ENV], f"environment ({BASE_URL_ENV})"
    else:
        url, sources["base_url"] = None, "embedded local service"
    if url is not None and not url.startswith(("http://", "https://")):
        raise ConfigurationError(
            f"base URL {url!r} ({sources['base_url']}) must start with http:// or https://."
        )

    chosen_token: TokenSource | None
    if token is not None:
        chosen_token, sources["token"] = token, "argument"
    elif env.get(TOKEN_ENV):
        chosen_token, sources["token"] = env[TOKEN_ENV], f"environment ({TOKEN_ENV})"
    else:
        chosen_token = None
        sources["token"] = "embedded local service" if url is None else "none"

    if workspace:
        ws, sources["workspace"] = workspace, "argument"
    elif env.get(WORKSPACE_ENV):
        ws, sources["workspace"] = env[WORKSPACE_ENV], f"environment ({WORKSPACE_ENV})"
    else:
        ws, sources["workspace"] = DEFAULT_WORKSPACE, "default"

    return ResolvedConfig(
        base_url=url.rstrip("/") if url else None,
        token=chosen_token,
        workspace=ws,
        sources=sources,
    )
