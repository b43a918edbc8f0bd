"""``POST /files/search``: what a completion would retrieve for a question, without asking.

The request is read as a completion with one user message (the query) and one filter
part (``filter``, ``file_ids``, ``top_k``, ``relevance``), and goes through the same
scope resolution and ranking (:func:`~chatspace.service.retrieval.search.retrieve`), so
that its cited hits are, in order, the passages that completion retrieves. The hits
ranked after them within ``top_k`` that miss the relevance cut follow with ``cited``
false (what almost made it); with ``relevance`` 0 there is no cut and every hit is cited.
Each quote is the one ``service-l0`` would show
(the first of :func:`~chatspace.service.engines.local.quotes_of`).
"""

from __future__ import annotations

import anyio
import sqlalchemy as sa

from chatspace.service.access import Caller
from chatspace.service.engines.local import quotes_of
from chatspace.service.operations import reading, vectors_stored
from chatspace.service.problems import UnknownFile
from chatspace.service.retrieval.index import PassageIndex
from chatspace.service.retrieval.locations import quote_location
from chatspace.service.retrieval.scope import scope_of
from chatspace.service.retrieval.search import Passage, Retrieval, retrieve
from chatspace.service.state import AppState
from chatspace.types import (
    ChatMessage,
    FileSearchRequest,
    FilterContentPart,
    SearchHit,
    SearchResults,
    SearchScores,
)

__all__ = ["search_files", "search_in"]


def _part(body: FileSearchRequest) -> FilterContentPart:
    """The filter part a completion asking ``body.query`` would carry."""
    return FilterContentPart(
        filter=body.filter,
        file_ids=body.file_ids,
        top_k=body.top_k,
        relevance=body.relevance,
    )


def _hit(passage: Passage, found: Retrieval, *, cited: bool) -> SearchHit:
    start, end, _ = quotes_of(passage, found, most=1)[0]
    return SearchHit(
        file_id=passage.file_id,
        filename=passage.filename,
        text=passage.text,
        quote=passage.text[start:end],
        score=passage.relevance,
        scores=SearchScores(lexical=passage.lexical, dense=passage.dense),
        cited=cited,
        location=quote_location(passage, start),
    )


async def search_files(
    state: AppState, *, caller: Caller, body: FileSearchRequest
) -> SearchResults:
    """The ``top_k`` best passages for ``body.query``, best first, cited ones first (once
    the vectors of files just uploaded are in: :func:`vectors_stored`)."""
    await vectors_stored(state, caller, body.workspace)
    return await anyio.to_thread.run_sync(_search_files, state, caller, body)


def _search_files(state: AppState, caller: Caller, body: FileSearchRequest) -> SearchResults:
    with reading(state, caller, body.workspace) as conn:
        return search_in(
            conn,
            org_id=caller.org_id,
            body=body,
            index=state.index,
            relevance=state.settings.relevance,
        )


def search_in(
    conn: sa.Connection,
    *,
    org_id: str,
    body: FileSearchRequest,
    index: PassageIndex,
    relevance: float,
) -> SearchResults:
    """:func:`search_files` once access is checked (``relevance``: the service's
    threshold); what ``benchmarks/bench_search.py`` times against a completion's
    retrieval step."""
    try:
        scope = scope_of(conn, org_id=org_id, workspace_id=body.workspace, parts=[_part(body)])
    except UnknownFile as exc:  # the part's fields are the body's own
        raise exc.at(["body"]) from None
    found = retrieve(
        conn,
        org_id=org_id,
        workspace_id=body.workspace,
        messages=[ChatMessage(role="user", content=body.query)],
        index=index,
        relevance=relevance,
        scope=scope,
    )
    hits = [_hit(p, found, cited=True) for p in found.passages]
    hits += [_hit(p, found, cited=False) for p in found.below]
    return SearchResults(query=body.query, data=hits)
