"""The base of every resource: the client that runs its calls, and the workspace to use."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from ._call import Call

if TYPE_CHECKING:
    from ._base import BaseClient

__all__ = ["Resource"]

R = TypeVar("R")


class Resource:
    """Builds :class:`~chatspace.client._call.Call` objects for its client to run.

    Each resource narrows ``_client`` to the client class that owns it, so that the
    types of its answers are known.
    """

    __slots__ = ("_client",)
    _client: BaseClient[Any]

    def __init__(self, client: BaseClient[Any]) -> None:
        self._client = client

    def _ws(self, workspace: str | None) -> str:
        return workspace or self._client.workspace

    def _in_workspace(
        self,
        method: str,
        path: str,
        workspace: str | None,
        parse: Callable[[bytes], R],
        *,
        content: bytes | None = None,
        stream: bool = False,
    ) -> Call[R]:
        """A call on ``path`` in a workspace (by default the client's)."""
        params = {"workspace": self._ws(workspace)}
        return Call(method, path, parse, params=params, content=content, stream=stream)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self._client!r}>"
