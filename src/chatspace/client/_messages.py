"""Helpers that build messages and content parts as plain dicts (what is sent as-is).

>>> client.chat.create(messages=[user_message("Summarise Q3", filter={"year": 2024})])
>>> user_message("Since 2024?", filter={"type": "gte", "key": "year", "value": 2024})
>>> user_message("Which file mentions Lyon?", file_ids=["file-abc"], top_k=3)
{'role': 'user', 'content': [{'type': 'text', 'text': 'Which file mentions Lyon?'},
 {'type': 'filter', 'file_ids': ['file-abc'], 'top_k': 3}]}
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from chatspace.types.filters import MetadataFilter, filter_payload

__all__ = ["filter_part", "text_part", "user_message"]


def text_part(text: str) -> dict[str, Any]:
    """A text content part."""
    return {"type": "text", "text": text}


def filter_part(
    filter: Mapping[str, Any] | MetadataFilter | str | None = None,
    *,
    file_ids: Sequence[str] | None = None,
    top_k: int | None = None,
) -> dict[str, Any]:
    """A filter part: which files the answer may search (docs/interface.md#filter-parts).

    ``filter`` matches file metadata (docs/interface.md#metadata-filters): a typed filter
    (``ComparisonFilter``, ``CompoundFilter`` or their dicts, ``{"type": "gte", "key":
    "year", "value": 2024}``) or the shorthand ``{"team": "ml"}`` (each key equal to the
    value, or to one of the values of a list). It is sent as a JSON string, which every
    version of the service reads.
    """
    part: dict[str, Any] = {"type": "filter"}
    if filter is not None:
        part["filter"] = filter if isinstance(filter, str) else json.dumps(filter_payload(filter))
    if file_ids is not None:
        part["file_ids"] = list(file_ids)
    if top_k is not None:
        part["top_k"] = top_k
    return part


def user_message(
    text: str,
    *,
    filter: Mapping[str, Any] | MetadataFilter | str | None = None,
    file_ids: Sequence[str] | None = None,
    top_k: int | None = None,
    role: str = "user",
) -> dict[str, Any]:
    """A message of ``text``, with a filter part when any of the filter arguments is given."""
    if filter is None and file_ids is None and top_k is None:
        return {"role": role, "content": text}
    return {
        "role": role,
        "content": [text_part(text), filter_part(filter, file_ids=file_ids, top_k=top_k)],
    }
