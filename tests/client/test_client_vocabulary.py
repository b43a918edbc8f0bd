"""The client's spellings of docs/vocabulary.md, and the old ones kept for one release.

Each old spelling still does what it did, against the real service, with both clients,
and warns once with a ``DeprecationWarning`` that names the new spelling.
"""

from __future__ import annotations

import pytest

from chatspace.types import File
from support.clients import AnyClient, collect, run

pytestmark = pytest.mark.anyio


async def test_files_update_is_the_verb_and_update_metadata_still_works(
    client: AnyClient,
) -> None:
    uploaded = await run(client.files.upload(b"hi", filename="h.txt", metadata={"a": "1"}))
    updated = await run(client.files.update(uploaded.id, {"b": "2"}))
    assert isinstance(updated, File)
    assert updated.metadata == {"a": "1", "b": "2"}
    with pytest.warns(DeprecationWarning, match=r"files\.update_metadata\(\).*files\.update\(\)"):
        old = await run(client.files.update_metadata(uploaded.id, {"a": None}))
    assert old.metadata == {"b": "2"}
    assert (await run(client.files.get(uploaded.id))).metadata == {"b": "2"}


async def test_users_takes_the_workspace_by_keyword_like_every_other_method(
    client: AnyClient,
) -> None:
    await run(client.workspaces.create("team"))
    await run(client.workspaces.add_user("bob", "reader", workspace="team"))
    users = await collect(client.workspaces.users(workspace="team"))
    assert {u.user_id: u.access for u in users} == {"alice": "admin", "bob": "reader"}
    # the default is the client's workspace, as for add_user/update_user/remove_user
    assert [u.user_id for u in await collect(client.workspaces.users())] == ["alice"]
    with pytest.warns(DeprecationWarning, match=r'users\(workspace="ID"\)'):
        old = client.workspaces.users("team")
    assert {u.user_id for u in await collect(old)} == {"alice", "bob"}


async def test_to_pandas_max_items_is_a_total_and_limit_still_works(client: AnyClient) -> None:
    for i in range(3):
        await run(client.chat.create(messages=f"question {i}", store=True))
    page = client.chat.list(limit=1, order="asc")  # limit: the size of a page
    frame = await run(page.to_pandas(max_items=2))
    assert len(frame) == 2  # two pages of one, and no more
    # (completions of the same second are ordered by id, so which two is not checked)
    assert set(frame["question"]) <= {f"question {i}" for i in range(3)}
    with pytest.warns(DeprecationWarning, match=r"to_pandas\(max_items=\.\.\.\)"):
        old = await run(client.chat.list(limit=1, order="asc").to_pandas(limit=2))
    assert old.equals(frame)
