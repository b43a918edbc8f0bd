"""What a stored completion keeps of its retrieval: its sources (docs/interface.md#sources).

Each passage retrieved for the answer, best first, with the quote the answer cites from
it (else the one it would cite, :func:`~.quotes.best_span`) and where that quote starts
in the file, its relevance and the two
halves of it, whether the engine gave it to the model (``given``: what
:meth:`~chatspace.service.engines.base.Engine.given` says) and whether a citation of any
choice quotes it (same file, its quote inside the passage).
"""

from __future__ import annotations

from collections.abc import Collection

from chatspace.types import ChatCompletion, FileCitation, SearchScores, Source

from .locations import quote_location
from .quotes import best_span
from .search import Passage, Retrieval

__all__ = ["sources_of"]


def _citing(passage: Passage, citations: list[FileCitation]) -> FileCitation | None:
    for citation in citations:
        if citation.file_id == passage.file_id and citation.quote in passage.text:
            return citation
    return None


def sources_of(
    retrieval: Retrieval, completion: ChatCompletion, given: Collection[Passage]
) -> list[Source]:
    """The sources of ``completion``: the passages of ``retrieval`` in rank order."""
    citations = [
        a.file_citation
        for choice in completion.choices
        for a in choice.message.annotations
        if a.file_citation is not None and a.file_citation.quote
    ]
    weights = retrieval.term_weights
    sources = []
    for rank, passage in enumerate(retrieval.passages, 1):
        cited = _citing(passage, citations)
        if cited is not None:
            quote, location = cited.quote, cited.location
        else:
            start, end = best_span(passage, weights, retrieval.question)
            quote, location = passage.text[start:end], quote_location(passage, start)
        sources.append(
            Source(
                rank=rank,
                file_id=passage.file_id,
                filename=passage.filename,
                quote=quote,
                score=passage.relevance,
                scores=SearchScores(lexical=passage.lexical, dense=passage.dense),
                location=location,
                sent=passage in given,
                cited=cited is not None,
            )
        )
    return sources
