"""The Python client of the chatspace service: :class:`Client` and :class:`AsyncClient`.

    >>> from chatspace import Client
    >>> client = Client()                      # CHATSPACE_* settings, or the local service
    >>> f = client.files.upload("notes.md")
    >>> answer = client.chat.create(messages=[user_message("What is due?", file_ids=[f.id])])
    >>> client.chat.list().to_pandas()

Modules are private (``_async``, ``_sync``, ``_base``, ...); this is the public surface.
``_async/`` is the source of the client; ``_sync/`` is generated from it by
``scripts/unasync_client.py`` (``make lint`` checks that it is up to date).
"""

from __future__ import annotations

from ._async import AsyncChatStream, AsyncClient, AsyncPage
from ._config import ClientConfig, ResolvedConfig, resolve_config
from ._frames import to_pandas
from ._messages import filter_part, text_part, user_message
from ._retry import RetryPolicy
from ._sync import ChatStream, Client, SyncPage
from ._transfer import PROGRESS_THRESHOLD

__all__ = [
    "PROGRESS_THRESHOLD",
    "AsyncChatStream",
    "AsyncClient",
    "AsyncPage",
    "ChatStream",
    "Client",
    "ClientConfig",
    "ResolvedConfig",
    "RetryPolicy",
    "SyncPage",
    "filter_part",
    "resolve_config",
    "text_part",
    "to_pandas",
    "user_message",
]
