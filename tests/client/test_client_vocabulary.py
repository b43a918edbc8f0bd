"""The client's spellings of docs/vocabulary.md, against the real service with both
clients; 0.1.0 is the first release, so no older spelling is kept."""

from __future__ import annotations

import pytest

from chatspace.types import File
from support.clients import AnyClient, collect, run

pytestmark = pytest.mark.anyio


async def test_files_update_is_the_verb(
    client: AnyClient,
) -> None:
    uploaded = await run(client.files.upload(b"hi", filename="h.txt", metadata={"a": "1"}))
    updated = await run(client.files.update(uploaded.id, {"b": "2"}))
    assert isinstance(updated, File)
    assert updated.metadata == {"a": "1", "b": "2"}
    assert (await run(client.files.get(uploaded.id))).metadata == {"a": "1", "b": "2"}


async def test_users_takes_the_workspace_by_keyword_like_every_other_method(
    client: AnyClient,
) -> None:
    await run(client.workspaces.create("team"))
    await run(client.workspaces.add_user("bob", "reader", workspace="team"))
    users = await collect(client.workspaces.users(workspace="team"))
    assert {u.user_id: u.access for u in users} == {"alice": "admin", "bob": "reader"}
    # the default is the client's workspace, as for add_user/update_user/remove_user
    assert [u.user_id for u in await collect(client.workspaces.users())] == ["alice"]
    with pytest.raises(TypeError):
        client.workspaces.users("team")  # type: ignore[misc]


async def test_to_pandas_max_items_is_a_total(client: AnyClient) -> None:
    for i in range(3):
        await run(client.chat.create(messages=f"question {i}", store=True))
    page = client.chat.list(limit=1, order="asc")  # limit: the size of a page
    frame = await run(page.to_pandas(max_items=2))
    assert len(frame) == 2  # two pages of one, and no more
    # (completions of the same second are ordered by id, so which two is not checked)
    assert set(frame["question"]) <= {f"question {i}" for i in range(3)}
    with pytest.raises(TypeError):
        await run(page.to_pandas(limit=2))  # type: ignore[call-arg]
