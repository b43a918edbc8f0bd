"""Checking what users type into panel fields that only panels have (workspace ids).

Metadata and filters follow the one grammar of :mod:`chatspace.notebook.grammar`.
"""

from __future__ import annotations

import re

from chatspace.types import WORKSPACE_ID_PATTERN

from ._common import PanelInputError

__all__ = ["parse_workspace_id"]

_WORKSPACE_ID = re.compile(WORKSPACE_ID_PATTERN)


def parse_workspace_id(text: str) -> str:
    """A workspace id checked against the service's pattern before anything is sent."""
    value = text.strip()
    if not value:
        raise PanelInputError("workspace id is empty; use lowercase letters, digits, - and _")
    if len(value) > 64 or not _WORKSPACE_ID.match(value):
        raise PanelInputError(
            f"workspace id {value[:40]!r} is invalid; use lowercase letters and digits "
            "with single - or _ between them (at most 64 characters)"
        )
    return value
