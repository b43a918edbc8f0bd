"""Deprecated: this module is now :mod:`chatspace.local_auth`; the alias goes in 0.3.

It held the data dir and the local JWT secret, never LLM tokens, so it was renamed.
"""

from __future__ import annotations

import warnings

from chatspace.local_auth import (
    DATA_DIR_ENV,
    SECRET_ENV,
    data_dir,
    load_or_create_secret,
    mint_token,
    parse_ttl,
)

__all__ = [
    "DATA_DIR_ENV",
    "SECRET_ENV",
    "data_dir",
    "load_or_create_secret",
    "mint_token",
    "parse_ttl",
]

warnings.warn(
    "chatspace.tokens is renamed chatspace.local_auth; import from there",
    DeprecationWarning,
    stacklevel=2,
)
