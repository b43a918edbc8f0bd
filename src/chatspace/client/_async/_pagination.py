"""Pages of a list answer that fetch the pages after the first as they are iterated."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Generator
from typing import TYPE_CHECKING, Any, Self, TypeVar

from chatspace.client._call import Call
from chatspace.client._concurrency import run_concurrently
from chatspace.client._pagination import QUESTION_CONCURRENCY, BasePage, Pager, page_cursor

if TYPE_CHECKING:
    import pandas as pd

    from ._client import AsyncClient

__all__ = ["AsyncPage"]

T = TypeVar("T")


class AsyncPage(BasePage[T]):
    """A list answer; iterating it goes through every page, fetching them as needed."""

    def __init__(self, client: AsyncClient, pager: Pager[T], call: Call[Any]) -> None:
        self._client = client
        self._pager = pager
        self._call = call

    async def _fetch(self) -> Self:
        if self._page is None:
            self._page = await self._client._request(self._call)
        return self

    def __await__(self) -> Generator[Any, None, Self]:  # unasync: remove
        """Fetch the first page only: ``page = await client.chat.list()``."""  # unasync: remove
        return self._fetch().__await__()  # unasync: remove

    async def iter_pages(self, *, raw: bool = False) -> AsyncIterator[Any]:
        """Each page as the service sent it, the first included (``raw``: the pages
        after the first as plain JSON)."""
        await self._fetch()
        page, call, seen = self.page, self._call, len(self.page.data)
        yield page
        while (following := self._following(page, call, seen, raw)) is not None:
            call, page = following, await self._client._request(following)
            seen += page_cursor(page)[2]
            yield page

    async def __aiter__(self) -> AsyncIterator[T]:
        async for page in self.iter_pages():
            for item in page.data:
                yield item

    async def to_pandas(self, max_items: int | None = None) -> pd.DataFrame:
        """Every item of every page, or the first ``max_items``, as a DataFrame (columns:
        see ``chatspace.client._frames``); only the pages needed are fetched."""
        from chatspace.client._frames import question_in

        limit = max_items

        rows: list[dict[str, Any]] = []
        async for page in self.iter_pages(raw=True):
            rows += page["data"] if isinstance(page, dict) else self._first_rows()
            if limit is not None and len(rows) >= limit:
                break  # before the next page is asked for
        rows = rows[:limit]
        questions: dict[str, str | None] = {}

        async def ask(id_: str, call: Call[Any]) -> None:
            questions[id_] = question_in(await self._client._request(call))

        tasks = [functools.partial(ask, id_, call) for id_, call in self._question_calls(rows)]
        await run_concurrently(tasks, QUESTION_CONCURRENCY)
        return self._frame(rows, questions)
