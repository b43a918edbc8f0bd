"""Workspaces and their users (docs/interface.md#workspaces): the implicit ``default``, access
levels, 403 against 404, conflicts, and deletion of everything a workspace holds."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime

import httpx
import pytest

from support.platform import blob_files, blob_of, stored, upload
from support.service import Service

ISO_UTC = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")


def _ids(client: httpx.Client) -> list[str]:
    return [w["id"] for w in client.get("/workspaces").json()["data"]]


def test_default_is_always_listed_first_and_stable(alice: httpx.Client, org: str) -> None:
    first = alice.get("/workspaces")
    assert first.status_code == 200
    (default,) = first.json()["data"]
    assert default["id"] == "default"
    assert default["name"] == "Default"
    assert default["org_id"] == org
    assert default["creator_user_id"] == "system"
    assert ISO_UTC.match(default["created_at"])
    assert alice.get("/workspaces/default").json() == default
    assert alice.post("/workspaces", json={"id": "later", "name": "Later"}).status_code == 200
    assert alice.get("/workspaces").json()["data"][0] == default


def test_create_get_and_list(alice: httpx.Client, org: str) -> None:
    response = alice.post("/workspaces", json={"id": "research-2024", "name": "Research"})
    assert response.status_code == 200
    assert response.content == b""
    got = alice.get("/workspaces/research-2024").json()
    assert got["id"] == "research-2024"
    assert got["name"] == "Research"
    assert got["creator_user_id"] == "alice"
    assert got["org_id"] == org
    assert ISO_UTC.match(got["created_at"])
    assert alice.post("/workspaces", json={"id": "b_2", "name": "B"}).status_code == 200
    assert _ids(alice) == ["default", "research-2024", "b_2"]
    users = alice.get("/workspaces/research-2024/users").json()["data"]
    assert [(u["user_id"], u["access"]) for u in users] == [("alice", "admin")]
    assert ISO_UTC.match(users[0]["created_at"])


def test_duplicate_ids_are_409(alice: httpx.Client, service: Service, org: str) -> None:
    assert alice.post("/workspaces", json={"id": "dup", "name": "One"}).status_code == 200
    before = stored(service, org)
    again = alice.post("/workspaces", json={"id": "dup", "name": "Two"})
    assert again.status_code == 409
    assert again.json()["detail"] == "Workspace 'dup' already exists in this organization."
    assert alice.post("/workspaces", json={"id": "default", "name": "D"}).status_code == 409
    assert stored(service, org) == before
    assert alice.get("/workspaces/dup").json()["name"] == "One"


@pytest.mark.parametrize(
    ("body", "loc", "kind"),
    [
        ({"id": "Bad Id", "name": "x"}, ["body", "id"], "string_pattern_mismatch"),
        ({"id": "a--b", "name": "x"}, ["body", "id"], "string_pattern_mismatch"),
        ({"id": "-a", "name": "x"}, ["body", "id"], "string_pattern_mismatch"),
        ({"id": "a" * 65, "name": "x"}, ["body", "id"], "string_too_long"),
        ({"id": "ok", "name": ""}, ["body", "name"], "string_too_short"),
        ({"id": "ok"}, ["body", "name"], "missing"),
        ({"id": 5, "name": "x"}, ["body", "id"], "string_type"),
        ({"id": "ok", "name": "x", "owner": "me"}, ["body", "owner"], "extra_forbidden"),
    ],
)
def test_invalid_workspace_bodies_are_422(
    alice: httpx.Client, service: Service, org: str, body: dict, loc: list, kind: str
) -> None:
    before = stored(service, org)
    response = alice.post("/workspaces", json=body)
    assert response.status_code == 422
    (item,) = response.json()["detail"]
    assert set(item) == {"loc", "msg", "type"}
    assert (item["loc"], item["type"]) == (loc, kind)
    assert stored(service, org) == before


def test_access_levels(
    client_of: Callable[[str], httpx.Client], service: Service, org: str
) -> None:
    admin, writer, reader, stranger = (client_of(u) for u in ("ann", "wes", "rita", "sam"))
    assert admin.post("/workspaces", json={"id": "team", "name": "Team"}).status_code == 200
    for user, level in (("wes", "writer"), ("rita", "reader")):
        assert (
            admin.post("/workspaces/team/user", json={"user": user, "access": level}).status_code
            == 200
        )
    users = admin.get("/workspaces/team/users").json()["data"]
    assert {u["user_id"]: u["access"] for u in users} == {
        "ann": "admin",
        "wes": "writer",
        "rita": "reader",
    }

    # Readers read.
    assert reader.get("/workspaces/team").status_code == 200
    assert reader.get("/workspaces/team/users").status_code == 200
    assert reader.get("/files", params={"workspace": "team"}).json()["total"] == 0
    assert "team" in _ids(reader)
    # Writers upload; readers may not (403, and nothing is stored).
    upload(writer, ("w.txt", b"by the writer"), workspace="team")
    before = stored(service, org)
    denied = reader.post("/files", files={"file": ("r.txt", b"no")}, data={"workspace": "team"})
    assert denied.status_code == 403
    assert denied.json()["detail"] == (
        "This needs writer access to workspace 'team'; you have reader."
    )
    # Only admins manage users and delete.
    for client in (writer, reader):
        assert (
            client.post("/workspaces/team/user", json={"user": "x", "access": "reader"}).status_code
            == 403
        )
        assert (
            client.put(
                "/workspaces/team/user", json={"user": "rita", "access": "admin"}
            ).status_code
            == 403
        )
        assert client.delete("/workspaces/team/user/ann").status_code == 403
        assert client.delete("/workspaces/team").status_code == 403
    # Non-members get 404 for everything, so the workspace's existence does not leak.
    for response in (
        stranger.get("/workspaces/team"),
        stranger.get("/workspaces/team/users"),
        stranger.delete("/workspaces/team"),
        stranger.post("/workspaces/team/user", json={"user": "sam", "access": "admin"}),
        stranger.get("/files", params={"workspace": "team"}),
    ):
        assert response.status_code == 404
        assert response.json()["detail"] == "Workspace 'team' not found."
    assert stored(service, org) == before


def test_user_management_rules(
    client_of: Callable[[str], httpx.Client], service: Service, org: str
) -> None:
    ann = client_of("ann")
    assert ann.post("/workspaces", json={"id": "crew", "name": "Crew"}).status_code == 200
    add = {"user": "bob", "access": "writer"}
    assert ann.post("/workspaces/crew/user", json=add).status_code == 200
    again = ann.post("/workspaces/crew/user", json={"user": "bob", "access": "reader"})
    assert again.status_code == 409
    assert (
        ann.put("/workspaces/crew/user", json={"user": "nobody", "access": "reader"}).status_code
        == 404
    )
    assert ann.delete("/workspaces/crew/user/nobody").status_code == 404
    bad = ann.post("/workspaces/crew/user", json={"user": "eve", "access": "owner"})
    assert bad.status_code == 422
    assert [i["loc"] for i in bad.json()["detail"]] == [["body", "access"]]
    assert (
        ann.post("/workspaces/crew/user", json={"user": "", "access": "reader"}).status_code == 422
    )
    # A user no token could name (a token's sub is printable, without spaces) is refused.
    held = stored(service, org)
    for unnameable in ("nul\x00", "bidi\u202e", "ann\u200b"):
        for method in ("POST", "PUT"):
            body = {"user": unnameable, "access": "reader"}
            refused = ann.request(method, "/workspaces/crew/user", json=body)
            assert refused.status_code == 422, (method, unnameable)
            assert [i["loc"] for i in refused.json()["detail"]] == [["body", "user"]]
    assert stored(service, org) == held

    # The last admin can neither leave nor step down.
    before = stored(service, org)
    last = ann.delete("/workspaces/crew/user/ann")
    assert last.status_code == 409
    assert "last admin" in last.json()["detail"]
    assert (
        ann.put("/workspaces/crew/user", json={"user": "ann", "access": "writer"}).status_code
        == 409
    )
    assert stored(service, org) == before

    # With a second admin, the first may step down; then they lose the admin rights.
    assert (
        ann.put("/workspaces/crew/user", json={"user": "bob", "access": "admin"}).status_code == 200
    )
    assert (
        ann.put("/workspaces/crew/user", json={"user": "ann", "access": "reader"}).status_code
        == 200
    )
    assert ann.delete("/workspaces/crew/user/bob").status_code == 403
    bob = client_of("bob")
    assert bob.delete("/workspaces/crew/user/ann").status_code == 200
    assert ann.get("/workspaces/crew").status_code == 404
    users = bob.get("/workspaces/crew/users").json()["data"]
    assert [(u["user_id"], u["access"]) for u in users] == [("bob", "admin")]


def test_default_workspace_rules(client_of: Callable[[str], httpx.Client]) -> None:
    alice, bob = client_of("alice"), client_of("bob")
    # Every user of the org is a writer of default: bob may upload where alice did.
    upload(alice, ("a.txt", b"alice's"))
    upload(bob, ("b.txt", b"bob's"))
    assert alice.get("/files").json()["total"] == 2
    (me,) = bob.get("/workspaces/default/users").json()["data"]
    assert (me["user_id"], me["access"]) == ("bob", "writer")
    # Nobody administers default: users cannot be managed, and it cannot be deleted.
    assert (
        alice.post("/workspaces/default/user", json={"user": "x", "access": "admin"}).status_code
        == 403
    )
    deleted = alice.delete("/workspaces/default")
    assert deleted.status_code == 409
    assert deleted.json()["detail"] == "The default workspace cannot be deleted."
    assert alice.get("/files").json()["total"] == 2


def test_deleting_a_workspace_deletes_what_it_holds(
    alice: httpx.Client, service: Service, org: str
) -> None:
    assert alice.post("/workspaces", json={"id": "doomed", "name": "Doomed"}).status_code == 200
    assert (
        alice.post("/workspaces/doomed/user", json={"user": "bob", "access": "reader"}).status_code
        == 200
    )
    files = upload(
        alice,
        ("notes.md", b"# Notes\nThe launch is on Friday."),
        ("b.txt", b"bees"),
        workspace="doomed",
    )
    completion = alice.post(
        "/chat/completions",
        json={
            "messages": [{"content": "When is the launch?"}],
            "workspace": "doomed",
            "store": True,
        },
    )
    assert completion.status_code == 200, completion.text
    kept = upload(alice, ("keep.txt", b"in default"))
    held = stored(service, org)
    assert len(held["files"]) == 3
    assert held["passages"]
    assert held["completions"]
    blobs_before = set(blob_files(service))
    doomed_blobs = {blob_of(service, f["id"]) for f in files}

    assert alice.delete("/workspaces/doomed").status_code == 200

    after = stored(service, org)
    assert [r for r in after["workspaces"] if r[1] == "doomed"] == []
    assert [r for r in after["workspace_users"] if r[1] == "doomed"] == []
    assert [r[0] for r in after["files"]] == [kept[0]["id"]]
    assert all(r[3] == "default" for r in after["passages"])
    assert after["completions"] == []
    gone = blobs_before - set(blob_files(service))
    assert gone == doomed_blobs
    assert alice.get("/workspaces/doomed").status_code == 404
    assert (
        alice.get(
            f"/chat/completions/{completion.json()['id']}", params={"workspace": "doomed"}
        ).status_code
        == 404
    )
    # The id is free again, and the new workspace starts empty.
    assert alice.post("/workspaces", json={"id": "doomed", "name": "Again"}).status_code == 200
    assert alice.get("/files", params={"workspace": "doomed"}).json()["total"] == 0
    users = alice.get("/workspaces/doomed/users").json()["data"]
    assert [u["user_id"] for u in users] == ["alice"]


def test_created_at_is_utc(alice: httpx.Client) -> None:
    alice.post("/workspaces", json={"id": "clock", "name": "Clock"})
    stamp = alice.get("/workspaces/clock").json()["created_at"]
    parsed = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    offset = parsed.utcoffset()
    assert offset is not None
    assert offset.total_seconds() == 0
