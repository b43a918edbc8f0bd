"""Keys of model connections, sealed before the database holds them.

A key sent to ``POST /models`` must be usable by every replica and readable by nobody who
reads the database. It is sealed with Fernet (``cryptography``, the library PyJWT's RS256
already brings: AES-128-CBC with an HMAC-SHA256 tag, a timestamp and a version byte, so a
tampered or foreign blob is refused, never half-decrypted). The Fernet key is derived with
HKDF-SHA256 from ``CHATSPACE_CONNECTIONS_SECRET`` when set, else from the secret that signs
the service's tokens (HS256), which every replica of a deployment already shares. A
service that verifies tokens with a public key and has no connections secret cannot seal:
it refuses connections with a key, and says what to set.
"""

from __future__ import annotations

import base64

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

__all__ = ["CONNECTIONS_SECRET_ENV", "Sealer", "Unsealable"]

CONNECTIONS_SECRET_ENV = "CHATSPACE_CONNECTIONS_SECRET"  # noqa: S105 (a name)
_PURPOSE = b"chatspace model connection keys v1"


class Unsealable(ValueError):
    """A sealed key this service cannot open (another secret, or altered bytes)."""


class Sealer:
    """Seals and opens keys with a Fernet key derived from ``secret``."""

    def __init__(self, secret: str) -> None:
        derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_PURPOSE).derive(
            secret.encode()
        )
        self._fernet = Fernet(base64.urlsafe_b64encode(derived))

    def __repr__(self) -> str:
        return "Sealer(<secret>)"

    def seal(self, key: str) -> bytes:
        return self._fernet.encrypt(key.encode())

    def open(self, sealed: bytes) -> str:
        try:
            return self._fernet.decrypt(sealed).decode()
        except InvalidToken:
            raise Unsealable(
                f"a model key was sealed with another secret: give every replica the same "
                f"{CONNECTIONS_SECRET_ENV} (or token secret)"
            ) from None
