"""What retrieval found, on the wire: search hits, a completion's sources and where a
passage stands in its file (docs/interface.md#seeing-retrieval)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, SerializerFunctionWrapHandler, model_serializer

from .common import Relevance, RequestModel, TopK, WireModel, WorkspaceId
from .filters import FilterInput

__all__ = [
    "DEFAULT_SEARCH_TOP_K",
    "MAX_QUERY_CHARS",
    "FileSearchRequest",
    "Location",
    "SearchHit",
    "SearchResults",
    "SearchScores",
    "Source",
    "SourceList",
]


class Location(WireModel):
    """Where a passage or a quote starts in its file; each key only where it applies to
    that file's kind (a PDF has pages, a spreadsheet sheets and rows, ...). Numbers count
    from 1; ``row`` is a table's data row, its header not counted."""

    page: int | None = None
    sheet: str | None = None
    row: int | None = None
    slide: int | None = None
    cell: int | None = None
    line: int | None = None

    @model_serializer(mode="wrap")
    def _present(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        """Only the keys that apply: ``{"page": 2}``, not five nulls beside it."""
        return {k: v for k, v in handler(self).items() if v is not None}


MAX_QUERY_CHARS = 4000
DEFAULT_SEARCH_TOP_K = 10


class FileSearchRequest(RequestModel):
    """The body of ``POST /files/search``: a question and the filter part a completion
    would carry (``filter``, ``file_ids``, ``top_k``, ``relevance``)."""

    query: Annotated[str, Field(min_length=1, max_length=MAX_QUERY_CHARS)]
    workspace: WorkspaceId = "default"
    filter: FilterInput = None
    """A metadata filter, as a filter part takes it: a JSON object, or that object as a
    string (docs/interface.md#metadata-filters)."""
    file_ids: list[str] | None = None
    top_k: TopK = DEFAULT_SEARCH_TOP_K
    relevance: Relevance | None = None
    """The relevance a passage needs to be cited: null, the service's threshold; 0, no
    cut (every hit is cited)."""


class SearchScores(WireModel):
    """The two halves of a passage's relevance: null where that half did not score it."""

    lexical: float | None = None
    dense: float | None = None


class SearchHit(WireModel):
    """A passage ``POST /files/search`` found, with the quote an answer would show."""

    file_id: str
    filename: str
    text: str
    quote: str
    score: float
    """The relevance (0..1) the service's cut compares with its threshold."""
    scores: SearchScores = Field(default_factory=SearchScores)
    cited: bool
    """Whether the passage passes the cut, so that an answer would cite it."""
    location: Location | None = None


class SearchResults(WireModel):
    """The answer of ``POST /files/search``: hits best first."""

    object: Literal["list"] = "list"
    query: str
    data: list[SearchHit]


class Source(WireModel):
    """A passage retrieved for a stored completion, in rank order. A deleted file's row
    keeps its id with ``deleted`` true and no filename, quote or location."""

    rank: int
    """Its place in the retrieval, from 1."""
    file_id: str
    filename: str | None = None
    quote: str | None = None
    score: float | None = None
    scores: SearchScores = Field(default_factory=SearchScores)
    location: Location | None = None
    sent: bool = False
    """Whether the passage was given to the model."""
    cited: bool = False
    """Whether the answer cites it."""
    deleted: bool = False


class SourceList(WireModel):
    """The answer of ``GET /chat/completions/{id}/sources``."""

    object: Literal["list"] = "list"
    data: list[Source]
