"""Searching a workspace's files without asking: what ``%files search`` and the files
panel's search box both send (``client.files.search``) and the table both show.

The filter is written as everywhere in the notebook (``k=v`` and ``k>=v`` words or a JSON
object, :func:`~chatspace.notebook.grammar.file_filter`); ``everything`` lifts the relevance
cut (``relevance`` 0), so that every hit within ``top_k`` is cited.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chatspace.types.retrieval import DEFAULT_SEARCH_TOP_K, MAX_QUERY_CHARS, Location

from .grammar import InputError, file_filter

if TYPE_CHECKING:
    import pandas as pd

    from chatspace.client import Client

__all__ = ["SHOWN", "search_frame"]

SHOWN = ("rank", "filename", "quote", "score", "lexical", "dense", "cited")
"""The columns shown first; location columns follow where a hit has one, then the id."""


def search_frame(
    client: Client,
    query: str,
    *,
    workspace: str,
    filter: str | Mapping[str, Any] | None = None,
    top_k: int | None = None,
    everything: bool = False,
    field: str = "filter",
) -> pd.DataFrame:
    """The hits for ``query`` as a DataFrame of :data:`SHOWN` columns, best first;
    ``field`` names the filter in errors, in the user's words."""
    query = query.strip()
    if not query:
        raise InputError("type what to search for, like: annual fee")
    if len(query) > MAX_QUERY_CHARS:
        raise InputError(
            f"the search is too long ({len(query)} characters; at most {MAX_QUERY_CHARS})"
        )
    page = client.files.search(
        query,
        workspace=workspace,
        filter=file_filter(filter, field=field),
        top_k=top_k or DEFAULT_SEARCH_TOP_K,
        relevance=0 if everything else None,
    )
    frame = page.to_pandas()
    located = [key for key in Location.model_fields if frame[key].notna().any()]
    return frame[[*SHOWN, *located, "file_id"]]
