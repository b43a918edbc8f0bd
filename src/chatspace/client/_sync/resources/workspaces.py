# Generated from _async/resources/workspaces.py by scripts/unasync_client.py; do not edit.
"""``client.workspaces``: workspaces of the organization and the users of each."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chatspace.client._call import Call, dump, no_content, segment
from chatspace.client._pagination import Pager
from chatspace.client._resource import Resource
from chatspace.client._sync._pagination import SyncPage
from chatspace.types import Access, Workspace, WorkspaceList, WorkspaceUser, WorkspaceUserList

if TYPE_CHECKING:
    from chatspace.client._sync._client import Client

__all__ = ["Workspaces"]

_WORKSPACES: Pager[Workspace] = Pager("workspaces", "none")
_USERS: Pager[WorkspaceUser] = Pager("users", "none")


class Workspaces(Resource):
    """Workspaces (``default`` always exists) and who may use them.

    Methods that name a workspace default to the client's (``client.workspace``),
    except ``create`` and ``delete``, which must be told which one. The workspace a
    method acts on (``get``, ``delete``) is its first argument; the workspace a user
    belongs to is ``workspace=``, keyword-only, as in the chat and file methods.
    """

    __slots__ = ()
    _client: Client

    def create(self, id: str, name: str | None = None) -> Workspace:
        """Create a workspace (you become its admin) and return it.

        ``id``: lowercase letters and digits, with single ``-`` or ``_`` between;
        ``name`` defaults to the id.
        """
        path = f"/workspaces/{segment(id)}"
        body = dump({"id": id, "name": name or id})
        self._client._request(
            Call("POST", "/workspaces", content=body, parse=no_content, create=True)
        )
        return self._client._request(Call("GET", path, parse=Workspace.model_validate_json))

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
        path = f"/workspaces/{segment(workspace_id)}"
        self._client._request(Call("DELETE", path, parse=no_content))

    def users(self, *, workspace: str | None = None) -> SyncPage[WorkspaceUser]:
        """The users of a workspace (by default the client's) and their access.

        ``workspace=`` is keyword-only, as in ``add_user``/``update_user``/``remove_user``
        and every chat and file method.
        ``to_pandas()`` columns: ``user_id, access, created_at``.
        """
        path = f"/workspaces/{segment(self._ws(workspace))}/users"
        call = Call("GET", path, parse=WorkspaceUserList.model_validate_json)
        return self._client._page(_USERS, call)

    def add_user(
        self, user: str, access: Access = "writer", *, workspace: str | None = None
    ) -> None:
        """Give ``user`` access to the workspace (``reader``, ``writer`` or ``admin``)."""
        self._client._request(self._user_call("POST", user, access, workspace, create=True))

    def update_user(self, user: str, access: Access, *, workspace: str | None = None) -> None:
        """Change the access of a member of the workspace."""
        self._client._request(self._user_call("PUT", user, access, workspace, create=False))

    def remove_user(self, user: str, *, workspace: str | None = None) -> None:
        """Take a user out of the workspace."""
        path = f"/workspaces/{segment(self._ws(workspace))}/user/{segment(user)}"
        self._client._request(Call("DELETE", path, parse=no_content))

    def _user_call(
        self, method: str, user: str, access: Access, workspace: str | None, *, create: bool
    ) -> Call[None]:
        path = f"/workspaces/{segment(self._ws(workspace))}/user"
        body = dump({"user": user, "access": access})
        return Call(method, path, content=body, parse=no_content, create=create)
