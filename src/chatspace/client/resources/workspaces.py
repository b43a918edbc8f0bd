"""``client.workspaces``: workspaces of the organization and the users of each."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chatspace.client._call import Call
from chatspace.client._pagination import Pager
from chatspace.types import Access, Workspace, WorkspaceList, WorkspaceUser, WorkspaceUserList

from ._resource import Resource, dump, segment

if TYPE_CHECKING:
    from chatspace.client._pagination import SyncPage

__all__ = ["Workspaces"]

_WORKSPACES: Pager[Workspace] = Pager("workspaces", "none")
_USERS: Pager[WorkspaceUser] = Pager("users", "none")


class Workspaces(Resource):
    """Workspaces (``default`` always exists) and who may use them.

    Methods that name a workspace default to the client's (``client.workspace``),
    except ``create`` and ``delete``, which must be told which one.
    """

    __slots__ = ()

    def create(self, id: str, name: str | None = None) -> Workspace:
        """Create a workspace (you become its admin) and return it.

        ``id``: lowercase letters and digits, with single ``-`` or ``_`` between;
        ``name`` defaults to the id.
        """
        path = f"/workspaces/{segment(id)}"
        call = Call(
            "POST",
            "/workspaces",
            content=dump({"id": id, "name": name or id}),
            create=True,
            then=lambda _: Call("GET", path, parse=Workspace.model_validate_json),
        )
        return self._client._request(call)

    def list(self) -> SyncPage[Workspace]:
        """Your workspaces, ``default`` first.

        ``to_pandas()`` columns: ``id, name, creator_user_id, org_id, created_at``.
        """
        call = Call("GET", "/workspaces", parse=WorkspaceList.model_validate_json)
        return self._client._page(_WORKSPACES, call)

    def get(self, workspace_id: str | None = None) -> Workspace:
        """A workspace (by default the client's)."""
        path = f"/workspaces/{segment(self._ws(workspace_id))}"
        return self._client._request(Call("GET", path, parse=Workspace.model_validate_json))

    def delete(self, workspace_id: str) -> None:
        """Delete a workspace with its users, stored completions and files."""
        return self._client_call("DELETE", f"/workspaces/{segment(workspace_id)}")

    def users(self, workspace_id: str | None = None) -> SyncPage[WorkspaceUser]:
        """The users of a workspace and their access.

        ``to_pandas()`` columns: ``user_id, access, created_at``.
        """
        path = f"/workspaces/{segment(self._ws(workspace_id))}/users"
        call = Call("GET", path, parse=WorkspaceUserList.model_validate_json)
        return self._client._page(_USERS, call)

    def add_user(
        self, user: str, access: Access = "writer", *, workspace: str | None = None
    ) -> None:
        """Give ``user`` access to the workspace (``reader``, ``writer`` or ``admin``)."""
        return self._user_call("POST", user, access, workspace, create=True)

    def update_user(self, user: str, access: Access, *, workspace: str | None = None) -> None:
        """Change the access of a member of the workspace."""
        return self._user_call("PUT", user, access, workspace, create=False)

    def remove_user(self, user: str, *, workspace: str | None = None) -> None:
        """Take a user out of the workspace."""
        path = f"/workspaces/{segment(self._ws(workspace))}/user/{segment(user)}"
        return self._client_call("DELETE", path)

    def _user_call(
        self, method: str, user: str, access: str, workspace: str | None, *, create: bool
    ) -> Any:
        path = f"/workspaces/{segment(self._ws(workspace))}/user"
        body = dump({"user": user, "access": access})
        return self._client._request(Call(method, path, content=body, create=create))

    def _client_call(self, method: str, path: str) -> Any:
        return self._client._request(Call(method, path))
