"""client.workspaces and client.models against the real service, with both clients."""

from __future__ import annotations

from datetime import UTC

import pytest

from chatspace.errors import ConflictError, NotFoundError, PermissionDeniedError
from chatspace.types import Workspace
from support.clients import AnyClient, close, collect, make_client, run
from support.service import Service

pytestmark = pytest.mark.anyio


async def test_create_get_list_delete(client: AnyClient) -> None:
    created = await run(client.workspaces.create("research", "Research"))
    assert isinstance(created, Workspace)
    assert (created.id, created.name, created.creator_user_id) == ("research", "Research", "alice")
    assert created.created_at.tzinfo is not None
    assert created.created_at.utcoffset() == UTC.utcoffset(None)
    assert await run(client.workspaces.get("research")) == created
    assert (await run(client.workspaces.get())).id == "default"  # the client's workspace
    named = await run(client.workspaces.create("plain"))
    assert named.name == "plain"

    listed = await collect(client.workspaces.list())
    assert [w.id for w in listed] == ["default", "research", "plain"]
    page = await run(client.workspaces.list())
    assert page.has_more is False
    frame = await run(client.workspaces.list().to_pandas())
    assert list(frame.columns) == ["id", "name", "creator_user_id", "org_id", "created_at"]
    assert str(frame["created_at"].dtype) == "datetime64[ns, UTC]"

    with pytest.raises(ConflictError):
        await run(client.workspaces.create("research"))
    assert await run(client.workspaces.delete("research")) is None
    with pytest.raises(NotFoundError):
        await run(client.workspaces.get("research"))


async def test_users_add_update_remove(
    client: AnyClient, kind: str, service: Service, org: str
) -> None:
    await run(client.workspaces.create("team"))
    team = client.with_options(workspace="team")
    assert await run(team.workspaces.add_user("bob", "reader")) is None
    users = await collect(team.workspaces.users())
    assert {(u.user_id, u.access) for u in users} == {("alice", "admin"), ("bob", "reader")}

    bob = make_client(kind, service.url, service.token("bob", org), workspace="team")
    with pytest.raises(PermissionDeniedError):
        await run(bob.chat.create(messages="Hi"))
    await run(team.workspaces.update_user("bob", "writer"))
    assert (await run(bob.chat.create(messages="Hi"))).text

    frame = await run(team.workspaces.users().to_pandas())
    assert list(frame.columns) == ["user_id", "access", "created_at"]
    assert dict(zip(frame["user_id"], frame["access"], strict=True)) == {
        "alice": "admin",
        "bob": "writer",
    }
    await run(team.workspaces.remove_user("bob"))
    with pytest.raises(NotFoundError):
        await run(bob.workspaces.get())
    with pytest.raises(NotFoundError):
        await run(team.workspaces.remove_user("bob"))
    await close(bob)


async def test_models_list(client: AnyClient) -> None:
    models = await collect(client.models.list())
    assert "service-l0" in [m.id for m in models]
    frame = await run(client.models.list().to_pandas())
    assert list(frame.columns) == ["id", "owned_by", "created"]
