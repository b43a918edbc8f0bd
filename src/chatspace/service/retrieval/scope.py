"""Which files a completion may search: the filter parts of its messages (contract 3).

Every filter part of every message narrows the search, and several combine with AND:
``file_ids`` keeps those files, ``filter`` keeps files whose metadata matches a JSON
object, ``top_k`` sets how many passages are given to the model (the smallest given
wins, default :data:`DEFAULT_TOP_K`), and ``relevance`` the share of the question a
passage must match to be cited (the highest given wins; default: the service's). A bad
part is a 422 whose ``loc`` names it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from chatspace.service.problems import Invalid
from chatspace.service.store import schema
from chatspace.types import ChatMessage, FilterContentPart

__all__ = ["DEFAULT_TOP_K", "Scope", "metadata_matches", "parse_metadata_filter", "resolve_scope"]

DEFAULT_TOP_K = 5
# One JSON array parameter, not one parameter per id: a list of any length stays one query.
_KNOWN = sa.text(
    "SELECT id FROM files WHERE org_id = :o AND workspace_id = :w "
    "AND id IN (SELECT value FROM json_each(:ids))"
)


@dataclass(frozen=True, slots=True)
class Scope:
    """The files a search may look at (``None``: every file of the workspace)."""

    file_ids: frozenset[str] | None
    top_k: int = DEFAULT_TOP_K
    relevance: float | None = None


def _same(a: Any, b: Any) -> bool:
    """JSON equality: ``true`` is not ``1``, though Python says ``True == 1``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a is b
    return bool(a == b)


def metadata_matches(metadata: Mapping[str, Any], criteria: Mapping[str, Any]) -> bool:
    """Each key of ``criteria`` is in ``metadata`` and equals its value, or one of its
    values when the value is a list.

    >>> metadata_matches({"lang": "de", "year": 2024}, {"lang": ["de", "fr"], "year": 2024})
    True
    """
    for key, wanted in criteria.items():
        if key not in metadata:
            return False
        have = metadata[key]
        if _same(have, wanted):
            continue
        if isinstance(wanted, list) and any(_same(have, w) for w in wanted):
            continue
        return False
    return True


def parse_metadata_filter(text: str, *, loc: Sequence[str | int]) -> dict[str, Any]:
    """A metadata filter given as a JSON string; anything but a JSON object is a 422."""
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    if not isinstance(value, dict):
        raise Invalid(loc, 'filter must be a JSON object as a string, like \'{"lang": "de"}\'')
    return value


def _parts(messages: Sequence[ChatMessage]) -> list[tuple[tuple[int, int], FilterContentPart]]:
    found = []
    for i, message in enumerate(messages):
        if not isinstance(message.content, list):  # text, or null (a tool-calling answer)
            continue
        for j, part in enumerate(message.content):
            if isinstance(part, FilterContentPart):
                found.append(((i, j), part))
    return found


def resolve_scope(
    conn: sa.Connection, *, org_id: str, workspace_id: str, messages: Sequence[ChatMessage]
) -> Scope:
    """The search scope the request's filter parts ask for, checked against the workspace."""
    parts = _parts(messages)
    if not parts:
        return Scope(file_ids=None)
    files = schema.files
    allowed: set[str] | None = None
    top_k: int | None = None
    relevance: float | None = None
    for (i, j), part in parts:
        loc: list[str | int] = ["body", "messages", i, "content", j]
        if part.top_k is not None:
            top_k = part.top_k if top_k is None else min(top_k, part.top_k)
        if part.relevance is not None:
            relevance = part.relevance if relevance is None else max(relevance, part.relevance)
        if part.file_ids is not None:
            wanted = json.dumps(list(dict.fromkeys(part.file_ids)))
            known = set(conn.scalars(_KNOWN, {"o": org_id, "w": workspace_id, "ids": wanted}))
            for k, file_id in enumerate(part.file_ids):
                if file_id not in known:
                    raise Invalid(
                        [*loc, "file_ids", k],
                        f"file '{file_id[:80]}' is not a file of workspace '{workspace_id}'",
                    )
            allowed = known if allowed is None else allowed & known
        if part.filter is not None:
            criteria = parse_metadata_filter(part.filter, loc=[*loc, "filter"])
            rows = conn.execute(
                sa.select(files.c.id, files.c.metadata).where(
                    files.c.org_id == org_id, files.c.workspace_id == workspace_id
                )
            )
            matching = {fid for fid, meta in rows if metadata_matches(meta or {}, criteria)}
            allowed = matching if allowed is None else allowed & matching
    return Scope(
        file_ids=None if allowed is None else frozenset(allowed),
        top_k=top_k if top_k is not None else DEFAULT_TOP_K,
        relevance=relevance,
    )
