"""Parsing what users type into panel fields, with one clear message when it is wrong.

Metadata fields accept a JSON object or ``key=value`` pairs (``title="Q3 report" team=ml``),
because a data scientist types the second and pastes the first.
"""

from __future__ import annotations

import json
import re
import shlex
from typing import Any

from chatspace.types import WORKSPACE_ID_PATTERN

from ._common import PanelInputError

__all__ = ["parse_filter", "parse_metadata", "parse_workspace_id"]

_WORKSPACE_ID = re.compile(WORKSPACE_ID_PATTERN)
MAX_FIELD_CHARS = 65_536


def parse_metadata(text: str | dict[str, Any] | None, *, field: str = "metadata") -> dict[str, Any]:
    """A dict from a JSON object or ``k=v`` pairs; ``{}`` for empty text.

    >>> parse_metadata('team=ml title="Q3 report"')
    {'team': 'ml', 'title': 'Q3 report'}
    """
    if text is None:
        return {}
    if isinstance(text, dict):
        return dict(text)
    text = text.strip()
    if not text:
        return {}
    if len(text) > MAX_FIELD_CHARS:
        raise PanelInputError(f"{field} is too long ({len(text)} characters; at most 65536)")
    if text.startswith(("{", "[", '"')):
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise PanelInputError(
                f"{field} is not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
            ) from None
        if not isinstance(value, dict):
            raise PanelInputError(f'{field} must be a JSON object, like {{"team": "ml"}}')
        return value
    try:
        tokens = shlex.split(text)
    except ValueError as exc:
        raise PanelInputError(f"{field}: {exc}; use key=value pairs or a JSON object") from None
    pairs: dict[str, Any] = {}
    for token in tokens:
        token = token.rstrip(",")
        if not token:
            continue
        key, sep, value = token.partition("=")
        if not sep or not key.strip():
            raise PanelInputError(
                f"{field}: {token[:40]!r} is not key=value; use key=value pairs or a JSON object"
            )
        pairs[key.strip()] = value
    return pairs


def parse_filter(text: str | dict[str, Any] | None) -> str | None:
    """The ``filter`` of a filter part (a JSON object string), or None for no filter."""
    pairs = parse_metadata(text, field="filter")
    return json.dumps(pairs) if pairs else None


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
