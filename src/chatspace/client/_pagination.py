"""Lists that page themselves: iterate a page object to get every item of every page.

    >>> page = client.chat.list(limit=50)
    >>> page.data, page.has_more          # the first page
    >>> for completion in page: ...       # all of them, fetching pages as needed
    >>> client.files.list().to_pandas()   # all of them, as a DataFrame

The chat lists follow ``after`` = the page's ``last_id`` while ``has_more``; the file
list follows ``after`` = its last id while ``has_more`` says so or fewer than ``total``
files were seen; workspace and user lists come whole. ``to_pandas()`` reads the pages
after the first as plain JSON (no models are built for rows that go into a frame).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Generator, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Generic, Literal, Self, TypeVar

from ._call import Call

if TYPE_CHECKING:
    import pandas as pd

    from ._async import AsyncClient
    from ._sync import Client

__all__ = ["AsyncPage", "Pager", "SyncPage"]

T = TypeVar("T")
_QUESTION_CONCURRENCY = 8


def _cursor(page: Any) -> tuple[bool, str | None, int, int]:
    """``has_more``, the id to continue after, the item count and ``total`` of a page,
    whether it is a model or plain JSON."""
    if isinstance(page, dict):
        data = page.get("data") or []
        last = page.get("last_id") or (data[-1]["id"] if data else None)
        return bool(page.get("has_more")), last, len(data), int(page.get("total") or 0)
    data = page.data
    last = getattr(page, "last_id", None) or (data[-1].id if data else None)
    return bool(getattr(page, "has_more", False)), last, len(data), getattr(page, "total", 0)


@dataclass(frozen=True, slots=True)
class Pager(Generic[T]):
    """How one list endpoint pages; ``kind`` names its frame layout (see ``_frames``).

    ``cursor``: ``"chat"`` follows ``has_more`` and ``last_id``; ``"files"`` follows
    ``has_more`` or ``total``; ``"none"``: the list comes whole.
    """

    kind: str
    cursor: Literal["chat", "files", "none"]

    def next_call(self, call: Call, page: Any, seen: int) -> Call | None:
        """The request for the page after ``page``, or None; ``seen``: items so far."""
        if self.cursor == "none":
            return None
        has_more, last, count, total = _cursor(page)
        if not count or last is None:
            return None
        if not (has_more or (self.cursor == "files" and seen < total)):
            return None
        return replace(call, params={**(call.params or {}), "after": last})


class _BasePage(Generic[T]):
    _pager: Pager[T]
    _call: Call
    _page: Any = None

    @property
    def page(self) -> Any:
        """The first page as the service sent it (``ChatCompletionList``, ``FileList``, ...)."""
        if self._page is None:
            raise RuntimeError("await the page first: page = await client.chat.list()")
        return self._page

    @property
    def data(self) -> list[T]:
        """The items of the first page."""
        return list(self.page.data)

    @property
    def has_more(self) -> bool:
        """Whether pages follow the first one."""
        page = self.page
        return self._pager.next_call(self._call, page, len(page.data)) is not None

    def _following(self, page: Any, call: Call, seen: int, raw: bool) -> Call | None:
        following = self._pager.next_call(call, page, seen)
        if following is not None and raw:
            following = replace(following, parse=json.loads)
        return following

    def _first_rows(self) -> list[dict[str, Any]]:
        return [item.model_dump(mode="json") for item in self.page.data]

    def _frame(self, rows: list[dict[str, Any]], questions: dict[str, str | None]) -> pd.DataFrame:
        from ._frames import to_frame

        return to_frame(self._pager.kind, rows, questions)

    def _question_calls(self, rows: list[dict[str, Any]]) -> list[tuple[str, Call]]:
        """Completions without a ``question`` field need one more request each (``_frames``)."""
        if self._pager.kind != "completions":
            return []
        from ._frames import question_call

        return [
            (r["id"], question_call(self._call, r["id"])) for r in rows if r.get("question") is None
        ]

    def __repr__(self) -> str:
        name, kind = type(self).__name__, self._pager.kind
        if self._page is None:
            return f"<{name} of {kind} (not fetched)>"
        return f"<{name} of {kind}: {len(self._page.data)} on the first page, more={self.has_more}>"


class SyncPage(_BasePage[T]):
    """A list answer; iterating it goes through every page."""

    def __init__(self, client: Client, pager: Pager[T], call: Call, page: Any) -> None:
        self._client = client
        self._pager = pager
        self._call = call
        self._page = page

    def iter_pages(self, *, raw: bool = False) -> Iterator[Any]:
        """Each page as the service sent it, the first included (``raw``: the pages
        after the first as plain JSON)."""
        page, call, seen = self.page, self._call, len(self.page.data)
        yield page
        while (following := self._following(page, call, seen, raw)) is not None:
            call, page = following, self._client._request(following)
            seen += _cursor(page)[2]
            yield page

    def __iter__(self) -> Iterator[T]:
        for page in self.iter_pages():
            yield from page.data

    def to_pandas(self, limit: int | None = None) -> pd.DataFrame:
        """Every item of every page, or the first ``limit``, as a DataFrame (columns: see
        ``chatspace.client._frames``); only the pages needed are fetched."""
        from ._frames import question_of

        pages = self.iter_pages(raw=True)
        next(pages)
        rows = self._first_rows()
        for page in pages:
            if limit is not None and len(rows) >= limit:
                break
            rows += page["data"]
        rows = rows[:limit]
        questions = {
            id_: question_of(self._client._request(call))
            for id_, call in self._question_calls(rows)
        }
        return self._frame(rows, questions)


class AsyncPage(_BasePage[T]):
    """A list answer for ``async for``; ``await`` it to fetch the first page only."""

    def __init__(self, client: AsyncClient, pager: Pager[T], call: Call) -> None:
        self._client = client
        self._pager = pager
        self._call = call

    async def _fetch(self) -> Self:
        if self._page is None:
            self._page = await self._client._request(self._call)
        return self

    def __await__(self) -> Generator[Any, None, Self]:
        return self._fetch().__await__()

    async def iter_pages(self, *, raw: bool = False) -> AsyncIterator[Any]:
        """Each page as the service sent it, the first included (``raw``: see SyncPage)."""
        await self._fetch()
        page, call, seen = self.page, self._call, len(self.page.data)
        yield page
        while (following := self._following(page, call, seen, raw)) is not None:
            call, page = following, await self._client._request(following)
            seen += _cursor(page)[2]
            yield page

    async def __aiter__(self) -> AsyncIterator[T]:
        async for page in self.iter_pages():
            for item in page.data:
                yield item

    async def to_pandas(self, limit: int | None = None) -> pd.DataFrame:
        """Every item of every page, or the first ``limit``, as a DataFrame (see SyncPage)."""
        import anyio

        from ._frames import question_of

        rows: list[dict[str, Any]] = []
        async for page in self.iter_pages(raw=True):
            if limit is not None and len(rows) >= limit:
                break
            rows += page["data"] if isinstance(page, dict) else self._first_rows()
        rows = rows[:limit]
        questions: dict[str, str | None] = {}
        limiter = anyio.CapacityLimiter(_QUESTION_CONCURRENCY)

        async def fetch(id_: str, call: Call) -> None:
            async with limiter:
                questions[id_] = question_of(await self._client._request(call))

        async with anyio.create_task_group() as group:
            for id_, call in self._question_calls(rows):
                group.start_soon(fetch, id_, call)
        return self._frame(rows, questions)
