# Generated from _async/__init__.py by scripts/unasync_client.py; do not edit.
"""The client's classes (``scripts/unasync_client.py`` writes the sync ones from the async)."""

from ._client import Client
from ._pagination import SyncPage
from ._streaming import ChatStream

__all__ = ["ChatStream", "Client", "SyncPage"]
