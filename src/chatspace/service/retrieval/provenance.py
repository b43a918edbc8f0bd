"""What a stored completion keeps of its retrieval: its sources (docs/interface.md#sources).

Each passage retrieved for the answer, best first, with the quote the answer cites from
it (else the one it would cite, :func:`~.quotes.best_quote`), its relevance and the two
halves of it, whether the engine gave it to the model (``given``: what
:meth:`~chatspace.service.engines.base.Engine.given` says) and whether a citation of any
choice quotes it (same file, its quote inside the passage).
"""

from __future__ import annotations

from collections.abc import Collection

from chatspace.types import ChatCompletion, FileCitation, SearchScores, Source

from .quotes import best_quote
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
        quote = cited.quote if cited else best_quote(passage, weights, retrieval.question)
        sources.append(
            Source(
                rank=rank,
                file_id=passage.file_id,
                filename=passage.filename,
                quote=quote,
                score=passage.relevance,
                scores=SearchScores(lexical=passage.lexical, dense=passage.dense),
                # where the citation's quote starts; an uncited passage's own location
                # comes here once passages know theirs (issue 21, locations)
                location=cited.location if cited else None,
                sent=passage in given,
                cited=cited is not None,
            )
        )
    return sources
