"""WorkspacePanel driven from Python against the real reference service."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import chatspace
from chatspace.notebook.panels import WorkspacePanel
from chatspace.notebook.session import NotebookSession
from support.service import HOSTILE, Service


@pytest.fixture
def panel(client: chatspace.Client, session: NotebookSession) -> Iterator[WorkspacePanel]:
    p = WorkspacePanel(client, session=session)
    yield p
    p.close()


def workspace_ids(client: chatspace.Client) -> list[str]:
    return [ws.id for ws in client.workspaces.list()]


def test_lists_and_creates(panel: WorkspacePanel, client: chatspace.Client) -> None:
    assert [r["id"] for r in panel.workspaces] == ["default"]
    assert panel.selected == "default"
    panel.new_id.value = "team-ml"
    panel.new_name.value = HOSTILE
    panel.create_button.click()
    assert panel.error == ""
    assert "team-ml" in workspace_ids(client)
    assert panel.selected == "team-ml"
    assert panel.picker.value == "team-ml"
    assert (panel.new_id.value, panel.new_name.value) == ("", "")
    assert "<script" not in panel.table.value
    assert "&lt;script&gt;" in panel.table.value
    assert panel.users == [
        {"user_id": "alice", "access": "admin", "created_at": panel.users[0]["created_at"]}
    ]


@pytest.mark.parametrize(
    ("ws_id", "name", "message"),
    [
        ("", "Name", "workspace id is empty"),
        ("Team ML", "Name", "is invalid"),
        ("a--b", "Name", "is invalid"),
        ("x" * 65, "Name", "is invalid"),
        ("ok", "   ", "give the workspace a name"),
        ("ok", "n" * 201, "name is too long"),
        ("default", "Again", "409"),
    ],
)
def test_bad_creates_change_nothing(
    panel: WorkspacePanel, client: chatspace.Client, ws_id: str, name: str, message: str
) -> None:
    panel.create(ws_id, name)
    assert message in panel.error
    assert "\n" not in panel.error
    assert workspace_ids(client) == ["default"]


def test_use_switches_every_panel_of_the_session(
    panel: WorkspacePanel, client: chatspace.Client, session: NotebookSession
) -> None:
    from chatspace.notebook.panels import FilesPanel

    files = FilesPanel(client, session=session)
    panel.create("research", "Research")
    panel.use_button.click()
    assert session.settings.default_workspace == "research"
    assert files.workspace == "research"
    assert files.workspace_picker.value == "research"
    assert "✓" in panel.table.value
    session.settings.default_workspace = "default"  # as %workspace default would
    assert panel.workspace == "default"
    assert panel.use("Not Valid") is None
    assert "is invalid" in panel.error
    assert session.settings.default_workspace == "default"
    files.close()


def test_users_add_change_remove(panel: WorkspacePanel, client: chatspace.Client) -> None:
    panel.create("team", "Team")
    panel.user_text.value = "bob"
    panel.access_picker.value = "reader"
    panel.add_button.click()
    assert panel.error == ""
    assert {u["user_id"]: u["access"] for u in panel.users} == {"alice": "admin", "bob": "reader"}
    panel.access_picker.value = "writer"
    panel.set_button.click()
    assert {u.user_id: u.access for u in client.workspaces.users(workspace="team")}[
        "bob"
    ] == "writer"
    panel.remove_button.click()
    assert "bob" in panel.confirm.question
    panel.confirm.accept()
    assert [u.user_id for u in client.workspaces.users(workspace="team")] == ["alice"]
    assert "bob" not in panel.users_table.value


@pytest.mark.parametrize(
    ("user", "access", "message"),
    [
        ("", "writer", "user id must be"),
        ("bob smith", "writer", "user id must be"),
        ("u" * 257, "writer", "user id must be"),
        ("bob", "owner", "access must be one of reader, writer, admin"),
        ("alice", "writer", "409"),
    ],
)
def test_bad_user_changes_change_nothing(
    panel: WorkspacePanel, client: chatspace.Client, user: str, access: str, message: str
) -> None:
    panel.create("team", "Team")
    panel.add_user(user, access)
    assert message in panel.error
    assert [(u.user_id, u.access) for u in client.workspaces.users(workspace="team")] == [
        ("alice", "admin")
    ]


def test_update_user_of_a_stranger_is_404(panel: WorkspacePanel) -> None:
    panel.create("team", "Team")
    panel.update_user("nobody", "reader")
    assert panel.error.startswith("404")


def test_delete_asks_first_and_protects_default(
    panel: WorkspacePanel, client: chatspace.Client, session: NotebookSession
) -> None:
    panel.create("doomed", "Doomed")
    panel.use("doomed")
    panel.delete_button.click()
    assert "doomed" in panel.confirm.question
    panel.confirm.reject()
    assert "doomed" in workspace_ids(client)
    panel.delete("doomed")
    panel.confirm.accept()
    assert workspace_ids(client) == ["default"]
    assert session.settings.default_workspace == "default"
    assert panel.delete("default", confirm=True) is None
    assert panel.error.startswith("409")
    assert workspace_ids(client) == ["default"]


def test_reader_cannot_manage_users(
    service: Service, org: str, client: chatspace.Client, session: NotebookSession
) -> None:
    client.workspaces.create("team", "Team")
    client.workspaces.add_user("bob", "reader", workspace="team")
    with chatspace.Client(base_url=service.url, token=service.token("bob", org)) as bob:
        p = WorkspacePanel(bob, session=NotebookSession(client=bob))
        p.add_user("carol", "writer", "team")
        assert p.error.startswith("403")
        p.close()
    assert [u.user_id for u in client.workspaces.users(workspace="team")] == ["alice", "bob"]
