"""A stored completion's sources as the notebook shows them: ``%completions show``, the
completions browser and ``%chat export`` read them from the service (they are stored
with the completion, so they survive a kernel restart) and lay them out the same way."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from chatspace.errors import NotFoundError

from .display import place_of
from .markup import one_line
from .table_rows import labelled_sources

if TYPE_CHECKING:
    from chatspace.client import Client
    from chatspace.types import Source

__all__ = ["SOURCE_COLUMNS", "source_rows", "stored_sources"]

SOURCE_COLUMNS = ("rank", "file", "quote", "score", "sent", "cited", "location")
"""The columns of a sources table, wherever the notebook shows one."""
QUOTE_CHARS = 200


def stored_sources(client: Client, completion_id: str, workspace: str) -> list[Source]:
    """The sources the service keeps for a completion, table rows with their column names
    (:mod:`.table_rows`); none for one it did not store."""
    try:
        found = list(client.chat.sources(completion_id, workspace=workspace))
    except NotFoundError:
        return []
    return labelled_sources(client, found, workspace)


def source_rows(sources: Sequence[Source]) -> list[dict[str, Any]]:
    """One row per source with :data:`SOURCE_COLUMNS`, as plain text (escape to show)."""
    return [
        {
            "rank": s.rank,
            "file": f"(deleted file {s.file_id})" if s.deleted else (s.filename or s.file_id),
            "quote": one_line(s.quote or "", QUOTE_CHARS),
            "score": "" if s.score is None else f"{s.score:.2f}",
            "sent": "yes" if s.sent else "no",
            "cited": "yes" if s.cited else "no",
            "location": place_of(None if s.location is None else s.location.model_dump()),
        }
        for s in sources
    ]
