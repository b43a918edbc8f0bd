"""Workspaces and their users on the wire (docs/interface.md#workspaces)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from .common import RequestModel, WireModel, WorkspaceId

__all__ = [
    "Access",
    "Workspace",
    "WorkspaceCreate",
    "WorkspaceList",
    "WorkspaceUser",
    "WorkspaceUserList",
    "WorkspaceUserRequest",
]

Access = Literal["reader", "writer", "admin"]
"""Access levels, each including the one before it."""

# \x85 and \ufeff spelled out: regex engines disagree on whether \s holds them
UserId = Annotated[
    str, StringConstraints(min_length=1, max_length=256, pattern=r"^[^\s\x85\ufeff]+$")
]


class WorkspaceCreate(RequestModel):
    id: WorkspaceId
    name: Annotated[str, StringConstraints(min_length=1, max_length=200)]


class Workspace(WireModel):
    id: str
    name: str
    creator_user_id: str
    org_id: str
    created_at: datetime


class WorkspaceList(WireModel):
    data: list[Workspace] = Field(default_factory=list)


class WorkspaceUserRequest(RequestModel):
    """Body of adding a user to a workspace (POST) or changing their access (PUT)."""

    user: UserId
    access: Access


class WorkspaceUser(WireModel):
    user_id: str
    access: str
    created_at: datetime


class WorkspaceUserList(WireModel):
    data: list[WorkspaceUser] = Field(default_factory=list)
