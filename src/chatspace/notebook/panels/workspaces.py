"""``WorkspacePanel``: the caller's workspaces, their users and access levels.

``use()`` switches the notebook session's workspace, so every other panel and the magics
follow; the users part acts on the selected workspace (the current one by default).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import ipywidgets as w
from traitlets import Dict, List, Unicode

from ._common import Panel, PanelInputError, action, button, render_table, row
from ._inputs import parse_workspace_id

if TYPE_CHECKING:
    from chatspace.client import Client
    from chatspace.notebook.session import NotebookSession
    from chatspace.types import Access

__all__ = ["ACCESS_LEVELS", "WorkspacePanel"]

ACCESS_LEVELS = ("reader", "writer", "admin")
_WS_COLUMNS = ("id", "name", "creator_user_id", "created_at", "current")
_USER_COLUMNS = ("user_id", "access", "created_at")


def _user_id(text: str) -> str:
    value = text.strip()
    if not value or len(value) > 256 or any(c.isspace() for c in value):
        raise PanelInputError("user id must be 1..256 characters without spaces")
    return value


def _access(level: str) -> Access:
    if level in ACCESS_LEVELS:
        return cast("Access", level)
    raise PanelInputError(f"access must be one of {', '.join(ACCESS_LEVELS)}, not {level!r}")


class WorkspacePanel(Panel):
    """List, create, use and delete workspaces; list their users and change their access."""

    workspaces = List(Dict(), help="The caller's workspaces, one dict per table row.")
    selected = Unicode(None, allow_none=True, help="Workspace whose users are shown.")
    users = List(Dict(), help="Users of the selected workspace with their access level.")

    def __init__(
        self, client: Client | None = None, *, session: NotebookSession | None = None
    ) -> None:
        super().__init__(client, session=session)
        self.add_class("chatspace-workspaces")
        self._picking = False
        self.table = w.HTML()
        self.table.add_class("chatspace-workspaces-table")
        self.picker = w.Dropdown(description="Workspace", options=[])
        self.picker.add_class("chatspace-workspace-select")
        self.use_button = button("Use", "chatspace-use-workspace", tooltip="Make it current")
        self.delete_button = button("Delete", "chatspace-delete-workspace", style="danger")
        self.new_id = w.Text(description="New id", placeholder="team-ml")
        self.new_id.add_class("chatspace-new-workspace-id")
        self.new_name = w.Text(description="Name", placeholder="Team ML")
        self.new_name.add_class("chatspace-new-workspace-name")
        self.create_button = button("Create", "chatspace-create-workspace", style="primary")
        self.users_table = w.HTML()
        self.users_table.add_class("chatspace-users-table")
        self.user_text = w.Text(description="User", placeholder="user id")
        self.user_text.add_class("chatspace-user-id")
        self.access_picker = w.Dropdown(description="Access", options=ACCESS_LEVELS, value="writer")
        self.access_picker.add_class("chatspace-user-access")
        self.add_button = button("Add user", "chatspace-add-user")
        self.set_button = button("Update access", "chatspace-set-access")
        self.remove_button = button("Remove user", "chatspace-remove-user", style="danger")

        self.picker.observe(self._on_pick, "value")
        self.use_button.on_click(lambda _: self.use())
        self.delete_button.on_click(lambda _: self.delete())
        self.create_button.on_click(lambda _: self.create(self.new_id.value, self.new_name.value))
        self.add_button.on_click(
            lambda _: self.add_user(self.user_text.value, self.access_picker.value)
        )
        self.set_button.on_click(
            lambda _: self.update_user(self.user_text.value, self.access_picker.value)
        )
        self.remove_button.on_click(lambda _: self.remove_user(self.user_text.value))
        self.observe(lambda _: self._render_workspaces(), "workspace")

        self.children = [
            self.table,
            row(self.picker, self.use_button, self.delete_button),
            row(self.new_id, self.new_name, self.create_button),
            w.HTML("<b>Users of the selected workspace</b>"),
            self.users_table,
            row(self.user_text, self.access_picker),
            row(self.add_button, self.set_button, self.remove_button),
            self.confirm,
            self.error_line,
        ]
        self.refresh()

    # ---------------------------------------------------------------- workspaces

    @action
    def refresh(self) -> None:
        """Reload the workspaces and the users of the selected one."""
        self.workspaces = [
            {
                "id": ws.id,
                "name": ws.name,
                "creator_user_id": ws.creator_user_id,
                "created_at": ws.created_at.strftime("%Y-%m-%d %H:%M"),
            }
            for ws in self.client.workspaces.list()
        ]
        ids = [r["id"] for r in self.workspaces]
        wanted = [ws for ws in (self.selected, self.workspace) if ws in ids]
        keep = wanted[0] if wanted else None
        self._render_workspaces()
        self._picking = True
        try:
            self.picker.options = ids
            self.picker.value = keep
        finally:
            self._picking = False
        if keep is not None:
            self.select(keep)

    def _render_workspaces(self) -> None:
        rows = [{**r, "current": "✓" if r["id"] == self.workspace else ""} for r in self.workspaces]
        self.table.value = render_table(_WS_COLUMNS, rows, css="chatspace-rows")

    def _on_pick(self, change: dict[str, Any]) -> None:
        if not self._picking and change["new"]:
            self.select(change["new"])

    @action
    def select(self, workspace_id: str) -> None:
        """Show the users of a workspace."""
        users = self.client.workspaces.users(workspace=workspace_id)
        self.selected = workspace_id
        self.users = [
            {
                "user_id": u.user_id,
                "access": u.access,
                "created_at": u.created_at.strftime("%Y-%m-%d %H:%M"),
            }
            for u in users
        ]
        self.users_table.value = render_table(
            _USER_COLUMNS, self.users, css="chatspace-rows", row_id="user_id"
        )
        self._picking = True
        try:
            if workspace_id in self.picker.options:
                self.picker.value = workspace_id
        finally:
            self._picking = False

    @action
    def use(self, workspace_id: str | None = None) -> None:
        """Make a workspace the notebook's current one (every panel and magic follows)."""
        chosen = workspace_id or self.selected
        if not chosen:
            raise PanelInputError("select a workspace first")
        self.workspace = parse_workspace_id(chosen)

    @action
    def create(self, workspace_id: str, name: str) -> None:
        """Create a workspace (you become its admin) and select it."""
        ws_id = parse_workspace_id(workspace_id)
        if not name.strip():
            raise PanelInputError("give the workspace a name")
        if len(name.strip()) > 200:
            raise PanelInputError("workspace name is too long (at most 200 characters)")
        self.client.workspaces.create(ws_id, name.strip())
        self.new_id.value = self.new_name.value = ""
        self.selected = ws_id
        self.refresh()

    @action
    def delete(self, workspace_id: str | None = None, confirm: bool = False) -> bool:
        """Delete a workspace with its files and completions; asks first unless ``confirm``."""
        chosen = workspace_id or self.selected
        if not chosen:
            raise PanelInputError("select a workspace first")
        if not confirm:
            self.confirm.ask(
                f"Delete workspace {chosen} with all its files and completions?",
                lambda: self.delete(chosen, confirm=True),
            )
            return False
        self.client.workspaces.delete(chosen)
        if self.workspace == chosen:
            self.workspace = "default"
        self.selected = None
        self.refresh()
        return True

    # ---------------------------------------------------------------- users

    def _target(self, workspace_id: str | None) -> str:
        chosen = workspace_id or self.selected or self.workspace
        return parse_workspace_id(chosen)

    @action
    def add_user(self, user: str, access: str = "writer", workspace_id: str | None = None) -> None:
        """Add a user to the selected workspace with an access level."""
        target = self._target(workspace_id)
        self.client.workspaces.add_user(_user_id(user), _access(access), workspace=target)
        self.select(target)

    @action
    def update_user(self, user: str, access: str, workspace_id: str | None = None) -> None:
        """Change a member's access level (reader, writer or admin)."""
        target = self._target(workspace_id)
        self.client.workspaces.update_user(_user_id(user), _access(access), workspace=target)
        self.select(target)

    @action
    def remove_user(
        self, user: str, workspace_id: str | None = None, confirm: bool = False
    ) -> bool:
        """Remove a member; asks first unless ``confirm``."""
        target, uid = self._target(workspace_id), _user_id(user)
        if not confirm:
            self.confirm.ask(
                f"Remove {uid} from {target}?",
                lambda: self.remove_user(uid, target, confirm=True),
            )
            return False
        self.client.workspaces.remove_user(uid, workspace=target)
        self.select(target)
        return True
