"""Code that uses both clients, for mypy only (``test_client_types.py``): each call has
the type the documentation promises. Never run."""

from __future__ import annotations

from pathlib import Path
from typing import assert_type

from chatspace.client import AsyncChatStream, AsyncClient, AsyncPage, ChatStream, Client, SyncPage
from chatspace.types import (
    ChatCompletion,
    ChatCompletionChunk,
    ChatCompletionDeleted,
    ChatCompletionMessageObject,
    File,
    FileDeleted,
    Model,
    Workspace,
    WorkspaceUser,
)


def blocking(client: Client) -> None:
    assert_type(client.chat.create(messages="Hi"), ChatCompletion)
    assert_type(client.chat.create(messages="Hi", stream=True), ChatStream)
    with client.chat.stream(messages="Hi") as stream:
        for chunk in stream:
            assert_type(chunk, ChatCompletionChunk)
        assert_type(stream.until_done(), ChatCompletion)
    assert_type(client.chat.list(), SyncPage[ChatCompletion])
    for completion in client.chat.list():
        assert_type(completion, ChatCompletion)
    assert_type(client.chat.get("c"), ChatCompletion)
    assert_type(client.chat.update("c", {"k": "v"}), ChatCompletion)
    assert_type(client.chat.delete("c"), ChatCompletionDeleted)
    assert_type(client.chat.messages("c"), SyncPage[ChatCompletionMessageObject])
    assert_type(client.files.upload(b"x"), File)
    assert_type(client.files.upload("notes.md"), File | list[File])
    assert_type(client.files.upload(["a.md", "b.md"]), list[File])
    assert_type(client.files.list(), SyncPage[File])
    assert_type(client.files.get("f"), File)
    assert_type(client.files.delete("f"), FileDeleted)
    assert_type(client.files.content("f"), bytes)
    assert_type(client.files.text("f"), str)
    assert_type(client.files.download("f"), Path)
    assert_type(client.files.update("f", {"k": 1}), File)
    assert_type(client.models.list(), SyncPage[Model])
    assert_type(client.models.get("m"), Model)
    assert_type(client.workspaces.create("w"), Workspace)
    assert_type(client.workspaces.get(), Workspace)
    assert_type(client.workspaces.list(), SyncPage[Workspace])
    assert_type(client.workspaces.users(), SyncPage[WorkspaceUser])
    assert_type(client.workspaces.users(workspace="w"), SyncPage[WorkspaceUser])
    assert_type(client.workspaces.delete("w"), None)
    assert_type(client.workspaces.add_user("bob"), None)
    assert_type(client.with_options(max_retries=0), Client)
    assert_type(client.close(), None)


async def awaiting(client: AsyncClient) -> None:
    assert_type(await client.chat.create(messages="Hi"), ChatCompletion)
    assert_type(await client.chat.create(messages="Hi", stream=True), AsyncChatStream)
    async with client.chat.stream(messages="Hi") as stream:
        async for chunk in stream:
            assert_type(chunk, ChatCompletionChunk)
        assert_type(await stream.until_done(), ChatCompletion)
    assert_type(await client.chat.stream(messages="Hi"), AsyncChatStream)
    assert_type(client.chat.list(), AsyncPage[ChatCompletion])
    assert_type(await client.chat.list(), AsyncPage[ChatCompletion])
    async for completion in client.chat.list():
        assert_type(completion, ChatCompletion)
    assert_type(await client.chat.get("c"), ChatCompletion)
    assert_type(await client.chat.update("c", {"k": "v"}), ChatCompletion)
    assert_type(await client.chat.delete("c"), ChatCompletionDeleted)
    assert_type(client.chat.messages("c"), AsyncPage[ChatCompletionMessageObject])
    assert_type(await client.files.upload(b"x"), File)
    assert_type(await client.files.upload("notes.md"), File | list[File])
    assert_type(await client.files.upload(["a.md", "b.md"]), list[File])
    assert_type(client.files.list(), AsyncPage[File])
    assert_type(await client.files.get("f"), File)
    assert_type(await client.files.delete("f"), FileDeleted)
    assert_type(await client.files.content("f"), bytes)
    assert_type(await client.files.text("f"), str)
    assert_type(await client.files.download("f"), Path)
    assert_type(await client.files.update("f", {"k": 1}), File)
    assert_type(client.models.list(), AsyncPage[Model])
    assert_type(await client.models.get("m"), Model)
    assert_type(await client.workspaces.create("w"), Workspace)
    assert_type(await client.workspaces.get(), Workspace)
    assert_type(client.workspaces.list(), AsyncPage[Workspace])
    assert_type(client.workspaces.users(), AsyncPage[WorkspaceUser])
    assert_type(client.workspaces.users(workspace="w"), AsyncPage[WorkspaceUser])
    assert_type(await client.workspaces.delete("w"), None)
    assert_type(await client.workspaces.add_user("bob"), None)
    assert_type(client.with_options(max_retries=0), AsyncClient)
    assert_type(await client.close(), None)
