"""The client's classes (``scripts/unasync_client.py`` writes the sync ones from the async)."""

from ._client import AsyncClient
from ._pagination import AsyncPage
from ._streaming import AsyncChatStream

__all__ = ["AsyncChatStream", "AsyncClient", "AsyncPage"]
