"""chatspace: chat with a model over your own files, from Python and JupyterLab.

The import is light on purpose: the client, pandas, the widgets and the service load on
first use, so that ``import chatspace`` and ``%load_ext chatspace`` stay fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._version import __version__
from .errors import (
    APIConnectionError,
    APIStatusError,
    APIStreamError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    ChatspaceError,
    ConfigurationError,
    ConflictError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    RequestTooLargeError,
    ServerError,
    UnprocessableEntityError,
)

if TYPE_CHECKING:
    from .client import AsyncClient, Client

__all__ = [
    "APIConnectionError",
    "APIStatusError",
    "APIStreamError",
    "APITimeoutError",
    "AsyncClient",
    "AuthenticationError",
    "BadRequestError",
    "ChatspaceError",
    "Client",
    "ConfigurationError",
    "ConflictError",
    "NotFoundError",
    "PermissionDeniedError",
    "RateLimitError",
    "RequestTooLargeError",
    "ServerError",
    "UnprocessableEntityError",
    "__version__",
    "dashboard",
    "load_ipython_extension",
    "types",
]

_LAZY = {
    "Client": ("chatspace.client", "Client"),
    "AsyncClient": ("chatspace.client", "AsyncClient"),
    "dashboard": ("chatspace.notebook.panels", "dashboard"),
    "types": ("chatspace.types", None),
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'chatspace' has no attribute {name!r}")
    import importlib

    module_name, attr = _LAZY[name]
    module = importlib.import_module(module_name)
    value = module if attr is None else getattr(module, attr)
    globals()[name] = value
    return value


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext chatspace``: registers the magics (they import the client on first use)."""
    from .notebook.magics import load_ipython_extension as load

    load(ipython)


def unload_ipython_extension(ipython: Any) -> None:
    from .notebook.magics import unload_ipython_extension as unload

    unload(ipython)


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "chatspace.serverext"}]
