"""Workspaces and their users on the wire (docs/interface.md#workspaces)."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Literal, TypeGuard

from pydantic import Field, StringConstraints

from .common import RequestModel, WireModel, WorkspaceId

__all__ = [
    "MAX_USER_ID",
    "USER_ID_PATTERN",
    "Access",
    "Workspace",
    "WorkspaceCreate",
    "WorkspaceList",
    "WorkspaceUser",
    "WorkspaceUserList",
    "WorkspaceUserRequest",
    "is_user_id",
]

Access = Literal["reader", "writer", "admin"]
"""Access levels, each including the one before it."""

MAX_USER_ID = 256
USER_ID_PATTERN = (
    r"^[^\s\x00-\x1f\x7f-\x9f\xad\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]+$"
)
"""What can name a user (or an org) in rows, logs and answers: no spaces, no control
characters, no invisible formatting (zero-width, bidirectional overrides, the byte order
mark, spelled out as regex engines disagree on whether a space class holds it). Lone
surrogates, which the schema's regex engines cannot name, are refused where JSON is read."""
_USER_ID = re.compile(USER_ID_PATTERN)
_SURROGATE = re.compile("[\ud800-\udfff]")


def is_user_id(value: object) -> TypeGuard[str]:
    """Whether ``value`` can name a user or an org (:data:`USER_ID_PATTERN`, at most
    :data:`MAX_USER_ID` characters). A token's ``sub`` and ``org_id`` must, so a workspace
    user must too: another could never sign in."""
    return (
        isinstance(value, str)
        and len(value) <= MAX_USER_ID
        and bool(_USER_ID.fullmatch(value))
        and not _SURROGATE.search(value)
    )


UserId = Annotated[
    str, StringConstraints(min_length=1, max_length=MAX_USER_ID, pattern=USER_ID_PATTERN)
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
