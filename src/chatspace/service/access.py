"""Who is calling and what they may do in a workspace: the service's access rules, below
HTTP (the routes' dependencies verify the token into a :class:`Caller`; operations check
levels with :func:`require_access`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import sqlalchemy as sa

from .problems import Forbidden, NotFound, quoted
from .store import workspaces as workspace_store

__all__ = ["Caller", "Level", "require_access"]

Level = Literal["reader", "writer", "admin"]
_RANK: dict[str, int] = {"reader": 1, "writer": 2, "admin": 3}


@dataclass(frozen=True, slots=True)
class Caller:
    """The verified identity of a request."""

    user_id: str
    org_id: str
    admin: bool = False
    """Whether the token may change the service's model connections (its ``admin`` claim
    is ``true``): the service's operator's, not a workspace's admins'."""


def require_access(conn: sa.Connection, caller: Caller, workspace_id: str, level: Level) -> str:
    """The caller's access level in the workspace, if it is at least ``level``.

    A workspace the caller is not a member of is a 404, so that its existence does not
    leak; a member below ``level`` gets a 403.
    """
    access = workspace_store.access_level(
        conn, org_id=caller.org_id, workspace_id=workspace_id, user_id=caller.user_id
    )
    if access is None:
        raise NotFound(f"Workspace {quoted(workspace_id)} not found.")
    if _RANK[access] < _RANK[level]:
        raise Forbidden(
            f"This needs {level} access to workspace '{workspace_id}'; you have {access}."
        )
    return access
