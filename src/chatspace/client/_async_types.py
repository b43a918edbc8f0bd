"""The async signatures of the resources, for type checkers only.

At run time :class:`~chatspace.client.AsyncClient` uses the very resource classes of
:class:`~chatspace.client.Client`, whose calls then return awaitables; these protocols
tell a type checker so. Parameters and defaults are those of the sync methods.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Literal, Protocol, Unpack, overload

from chatspace.types import (
    Access,
    ChatCompletion,
    ChatCompletionDeleted,
    ChatCompletionMessageObject,
    File,
    FileDeleted,
    Model,
    Workspace,
    WorkspaceUser,
)

from ._pagination import AsyncPage
from ._streaming import AsyncChatStream
from ._transfer import ProgressSetting
from .resources.chat import ChatCreateParams
from .resources.files import PathInput

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["AsyncChat", "AsyncFiles", "AsyncModels", "AsyncWorkspaces"]

_Order = Literal["asc", "desc"]


class AsyncChat(Protocol):
    @overload
    async def create(
        self, *, stream: Literal[False] = False, **params: Unpack[ChatCreateParams]
    ) -> ChatCompletion: ...
    @overload
    async def create(
        self, *, stream: Literal[True], **params: Unpack[ChatCreateParams]
    ) -> AsyncChatStream: ...
    def stream(self, **params: Unpack[ChatCreateParams]) -> AsyncChatStream: ...
    def list(
        self,
        *,
        workspace: str | None = None,
        after: str | None = None,
        limit: int = 20,
        order: _Order = "asc",
        model: str | None = None,
        metadata: Mapping[str, str] | None = None,
    ) -> AsyncPage[ChatCompletion]: ...
    async def get(self, completion_id: str, *, workspace: str | None = None) -> ChatCompletion: ...
    async def update(
        self, completion_id: str, metadata: Mapping[str, str], *, workspace: str | None = None
    ) -> ChatCompletion: ...
    async def delete(
        self, completion_id: str, *, workspace: str | None = None
    ) -> ChatCompletionDeleted: ...
    def messages(
        self,
        completion_id: str,
        *,
        workspace: str | None = None,
        after: str | None = None,
        limit: int = 20,
        order: _Order = "asc",
    ) -> AsyncPage[ChatCompletionMessageObject]: ...


class AsyncFiles(Protocol):
    @overload
    async def upload(
        self,
        file: bytes | bytearray | BinaryIO,
        *,
        filename: str | None = None,
        purpose: str = "user_data",
        metadata: Mapping[str, Any] | None = None,
        instructions: str | None = None,
        workspace: str | None = None,
        format: Literal["csv", "parquet"] = "csv",
        progress: ProgressSetting = None,
    ) -> File: ...
    @overload
    async def upload(
        self,
        file: PathInput,
        *,
        filename: str | None = None,
        purpose: str = "user_data",
        metadata: Mapping[str, Any] | None = None,
        instructions: str | None = None,
        workspace: str | None = None,
        format: Literal["csv", "parquet"] = "csv",
        progress: ProgressSetting = None,
    ) -> File | list[File]: ...
    @overload
    async def upload(
        self,
        file: list[PathInput] | tuple[PathInput, ...],
        *,
        filename: str | None = None,
        purpose: str = "user_data",
        metadata: Mapping[str, Any] | None = None,
        instructions: str | None = None,
        workspace: str | None = None,
        format: Literal["csv", "parquet"] = "csv",
        progress: ProgressSetting = None,
    ) -> list[File]: ...
    @overload
    async def upload(
        self,
        file: pd.DataFrame,
        *,
        filename: str | None = None,
        purpose: str = "user_data",
        metadata: Mapping[str, Any] | None = None,
        instructions: str | None = None,
        workspace: str | None = None,
        format: Literal["csv", "parquet"] = "csv",
        progress: ProgressSetting = None,
    ) -> File: ...
    async def upload(
        self,
        file: Any,
        *,
        filename: str | None = None,
        purpose: str = "user_data",
        metadata: Mapping[str, Any] | None = None,
        instructions: str | None = None,
        workspace: str | None = None,
        format: Literal["csv", "parquet"] = "csv",
        progress: ProgressSetting = None,
    ) -> Any: ...
    def list(
        self,
        *,
        workspace: str | None = None,
        after: str | None = None,
        limit: int = 10000,
        order: _Order = "desc",
        purpose: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> AsyncPage[File]: ...
    async def get(self, file_id: str, *, workspace: str | None = None) -> File: ...
    async def delete(self, file_id: str, *, workspace: str | None = None) -> FileDeleted: ...
    async def content(self, file_id: str, *, workspace: str | None = None) -> bytes: ...
    async def text(self, file_id: str, *, workspace: str | None = None) -> str: ...
    async def download(
        self,
        file_id: str,
        path: str | os.PathLike[str] = ".",
        *,
        workspace: str | None = None,
        progress: ProgressSetting = None,
    ) -> Path: ...
    async def update_metadata(
        self,
        file_id: str,
        metadata: Mapping[str, Any] | None = None,
        *,
        instructions: str | None = None,
        workspace: str | None = None,
    ) -> File: ...


class AsyncWorkspaces(Protocol):
    async def create(self, id: str, name: str | None = None) -> Workspace: ...
    def list(self) -> AsyncPage[Workspace]: ...
    async def get(self, workspace_id: str | None = None) -> Workspace: ...
    async def delete(self, workspace_id: str) -> None: ...
    def users(self, workspace_id: str | None = None) -> AsyncPage[WorkspaceUser]: ...
    async def add_user(
        self, user: str, access: Access = "writer", *, workspace: str | None = None
    ) -> None: ...
    async def update_user(
        self, user: str, access: Access, *, workspace: str | None = None
    ) -> None: ...
    async def remove_user(self, user: str, *, workspace: str | None = None) -> None: ...


class AsyncModels(Protocol):
    def list(self) -> AsyncPage[Model]: ...
    async def get(self, model_id: str) -> Model: ...
