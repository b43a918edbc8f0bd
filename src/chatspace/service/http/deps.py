"""Request dependencies: who is calling (their verified token), and the service's state.

Routes declare what they need with the ``Annotated`` aliases below (``CallerDep``,
``StateDep``); what a caller may do is :mod:`.access`'s, which knows no FastAPI.
"""

from __future__ import annotations

import time
from typing import Annotated

import jwt
from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from chatspace.service.access import Caller
from chatspace.service.problems import Unauthenticated
from chatspace.service.state import AppState
from chatspace.types.workspaces import MAX_USER_ID, is_user_id

bearer = HTTPBearer(
    auto_error=False,
    bearerFormat="JWT",
    description=(
        "A JWT with the claims sub (user), org_id and exp; admin: true lets it change the "
        "models the service serves."
    ),
)


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
