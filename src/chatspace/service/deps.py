"""Request dependencies: who is calling, and may they do this here.

Routes declare what they need with the ``Annotated`` aliases below (``CallerDep``,
``StateDep``) and check access levels with :func:`require_access`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Annotated, Literal

import jwt
import sqlalchemy as sa
from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from chatspace.types.workspaces import MAX_USER_ID, is_user_id

from .problems import Forbidden, NotFound, Unauthenticated, quoted
from .state import AppState
from .store import workspaces as workspace_store

Level = Literal["reader", "writer", "admin"]
_RANK: dict[str, int] = {"reader": 1, "writer": 2, "admin": 3}

bearer = HTTPBearer(
    auto_error=False,
    bearerFormat="JWT",
    description=(
        "A JWT with the claims sub (user), org_id and exp; admin: true lets it change the "
        "models the service serves."
    ),
)


@dataclass(frozen=True, slots=True)
class Caller:
    """The verified identity of a request."""

    user_id: str
    org_id: str
    admin: bool = False
    """Whether the token may change the service's model connections (its ``admin`` claim
    is ``true``): the service's operator's, not a workspace's admins'."""


def get_state(request: Request) -> AppState:
    state: AppState = request.app.state.chatspace
    return state


StateDep = Annotated[AppState, Depends(get_state)]


def current_caller(
    state: StateDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> Caller:
    if credentials is None or credentials.scheme.lower() != "bearer":
        raise Unauthenticated("Missing bearer token: send 'Authorization: Bearer <JWT>'.")
    try:
        claims = jwt.decode(
            credentials.credentials,
            state.verification_key,
            algorithms=[state.jwt_algorithm],
            options={"require": ["sub", "org_id", "exp"]},
        )
    except jwt.ExpiredSignatureError:
        raise Unauthenticated("The token has expired; get a new one.") from None
    except jwt.InvalidTokenError:
        raise Unauthenticated("The token is not valid for this service.") from None
    max_days = state.settings.max_token_days
    if claims["exp"] - time.time() > max_days * 86400:
        raise Unauthenticated(
            f"The token is valid for longer than this service allows ({max_days:g} days); "
            "get one that expires sooner."
        )
    user, org = claims.get("sub"), claims.get("org_id")
    if not (is_user_id(user) and is_user_id(org)):
        raise Unauthenticated(
            f"The token's sub and org_id claims must be printable identifiers: 1 to "
            f"{MAX_USER_ID} characters, no spaces, control or formatting characters."
        )
    state.rate_limiter.check(org, user)
    return Caller(user_id=user, org_id=org, admin=claims.get("admin") is True)


CallerDep = Annotated[Caller, Depends(current_caller)]


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
