"""Local JWTs: the signing secret kept in the data dir, and minting tokens with it.

The reference service verifies what this module mints; the CLI (``chatspace token``),
the embedded service's launcher and the tests all mint through :func:`mint_token`.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import tempfile
import time
from pathlib import Path

import jwt

__all__ = [
    "SECRET_ENV",
    "load_or_create_secret",
    "mint_token",
    "parse_ttl",
]

SECRET_ENV = "CHATSPACE_JWT_SECRET"  # noqa: S105 - a variable name
_SECRET_FILE = "jwt-secret"  # noqa: S105 - a file name
_TTL = re.compile(r"^(\d+)\s*([smhdw]?)$")
_UNIT_SECONDS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


def load_or_create_secret(directory: Path) -> str:
    """``CHATSPACE_JWT_SECRET`` when set, else the secret kept in ``directory`` (mode 0600).

    Written to a private temporary file first and then hard-linked into place: the link
    either appears whole or fails because another process won, so two processes starting
    at once agree on one secret and neither ever reads a half-written one.
    """
    env = os.environ.get(SECRET_ENV)
    if env:
        return env
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / _SECRET_FILE
    if not path.exists():
        fd, draft = tempfile.mkstemp(dir=directory, prefix=f".{_SECRET_FILE}.")  # mode 0600
        try:
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_urlsafe(48))
            with contextlib.suppress(FileExistsError):
                os.link(draft, path)
        finally:
            os.unlink(draft)
    return path.read_text().strip()


def parse_ttl(text: str) -> int:
    """Seconds in a duration like ``90``, ``30m``, ``1h``, ``7d``."""
    match = _TTL.match(text.strip().lower())
    if not match or int(match.group(1)) <= 0:
        raise ValueError(f"invalid duration {text!r}: use a positive number with s, m, h, d or w")
    return int(match.group(1)) * _UNIT_SECONDS[match.group(2)]


def mint_token(
    *, user: str, org: str, secret: str, ttl_seconds: int = 3600, admin: bool = False
) -> str:
    """An HS256 JWT with the claims the service requires: ``sub``, ``org_id``, ``exp``;
    ``admin`` adds the claim that lets it change the models the service serves."""
    now = int(time.time())
    claims: dict[str, object] = {"sub": user, "org_id": org, "iat": now, "exp": now + ttl_seconds}
    if admin:
        claims["admin"] = True
    return jwt.encode(claims, secret, algorithm="HS256")
