"""Which files a completion may search: its messages' filter parts (docs/interface.md#filter-parts).

Every filter part of every message narrows the search, and several combine with AND:
``file_ids`` keeps those files, ``filter`` the files whose metadata it keeps (checked
by the part's type, :mod:`chatspace.types.filters`; evaluated by the database,
:mod:`chatspace.service.store.filters`), ``top_k`` sets how many passages are given to
the model (the smallest given wins, default :data:`DEFAULT_TOP_K`), and ``relevance``
the share of the question a passage must match to be cited (the highest given wins;
default: the service's). A part is checked by its type when the request is read; a
file id the workspace does not hold is :class:`~chatspace.service.problems.UnknownFile`,
naming the part by its index (the operation that read the request says where it stood).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa

from chatspace.service.problems import UnknownFile
from chatspace.service.store import files as file_store
from chatspace.types import ChatMessage, FilterContentPart, filter_parts

__all__ = ["DEFAULT_TOP_K", "Scope", "resolve_scope", "scope_of"]

DEFAULT_TOP_K = 5
"""Passages retrieved, given to a model and cited by default (contract: 5). On the dev
split of PostgreSQL's manual (``benchmarks/bench_evidence.py``) 8 would hold the answer
phrase for 0.80 of the questions against 0.71 for 5: a filter part's ``top_k`` asks for
more."""


@dataclass(frozen=True, slots=True)
class Scope:
    """The files a search may look at (``None``: every file of the workspace)."""

    file_ids: frozenset[str] | None
    top_k: int = DEFAULT_TOP_K
    relevance: float | None = None


def resolve_scope(
    conn: sa.Connection, *, org_id: str, workspace_id: str, messages: Sequence[ChatMessage]
) -> Scope:
    """The search scope the filter parts of ``messages`` ask for (:func:`filter_parts`'s
    order), checked against the workspace."""
    parts = [part for _, _, part in filter_parts(messages)]
    return scope_of(conn, org_id=org_id, workspace_id=workspace_id, parts=parts)


def scope_of(
    conn: sa.Connection,
    *,
    org_id: str,
    workspace_id: str,
    parts: Sequence[FilterContentPart],
) -> Scope:
    """The search scope of filter parts, checked against the workspace: a completion's, or
    the one part of ``POST /files/search``. Raises :class:`UnknownFile` for the first id
    of a part that is not a file of the workspace."""
    if not parts:
        return Scope(file_ids=None)
    allowed: set[str] | None = None
    top_k: int | None = None
    relevance: float | None = None
    for index, part in enumerate(parts):
        if part.top_k is not None:
            top_k = part.top_k if top_k is None else min(top_k, part.top_k)
        if part.relevance is not None:
            relevance = part.relevance if relevance is None else max(relevance, part.relevance)
        if part.file_ids is not None:
            known = file_store.known_file_ids(
                conn, org_id=org_id, workspace_id=workspace_id, file_ids=part.file_ids
            )
            for k, file_id in enumerate(part.file_ids):
                if file_id not in known:
                    raise UnknownFile(file_id, workspace_id, part=index, position=k)
            allowed = known if allowed is None else allowed & known
        if (criteria := part.metadata_filter()) is not None:
            matching = file_store.file_ids_matching(
                conn, org_id=org_id, workspace_id=workspace_id, criteria=criteria
            )
            allowed = matching if allowed is None else allowed & matching
    return Scope(
        file_ids=None if allowed is None else frozenset(allowed),
        top_k=top_k if top_k is not None else DEFAULT_TOP_K,
        relevance=relevance,
    )
