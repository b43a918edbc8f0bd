"""Lists that page themselves: iterate a page object to get every item of every page.

    >>> page = client.chat.list(limit=50)
    >>> page.data, page.has_more          # the first page
    >>> for completion in page: ...       # all of them, fetching pages as needed
    >>> client.files.list().to_pandas()   # all of them, as a DataFrame

The chat lists follow ``after`` = the page's ``last_id`` while ``has_more``; the file
list follows ``after`` = its last id while ``has_more`` says so or fewer than ``total``
files were seen; workspace and user lists come whole. ``to_pandas()`` reads the pages
after the first as plain JSON (no models are built for rows that go into a frame).

The page classes (``AsyncPage``, and ``SyncPage`` generated from it) are in ``_async/``
and ``_sync/``; what they share without I/O is here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

from ._call import Call

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["QUESTION_CONCURRENCY", "BasePage", "Pager", "page_cursor"]

T = TypeVar("T")
QUESTION_CONCURRENCY = 8
"""How many completions' questions an async page asks for at once (see ``_frames``)."""


def page_cursor(page: Any) -> tuple[bool, str | None, int, int]:
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

    def next_call(self, call: Call[Any], page: Any, seen: int) -> Call[Any] | None:
        """The request for the page after ``page``, or None; ``seen``: items so far."""
        if self.cursor == "none":
            return None
        has_more, last, count, total = page_cursor(page)
        if not count or last is None:
            return None
        if not (has_more or (self.cursor == "files" and seen < total)):
            return None
        return replace(call, params={**(call.params or {}), "after": last})


class BasePage(Generic[T]):
    """The first page and how to get the next ones; the I/O is the subclasses'."""

    _pager: Pager[T]
    _call: Call[Any]
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

    def _following(self, page: Any, call: Call[Any], seen: int, raw: bool) -> Call[Any] | None:
        following = self._pager.next_call(call, page, seen)
        if following is not None and raw:
            following = replace(following, parse=json.loads)
        return following

    def _first_rows(self) -> list[dict[str, Any]]:
        return [item.model_dump(mode="json") for item in self.page.data]

    def _frame(self, rows: list[dict[str, Any]], questions: dict[str, str | None]) -> pd.DataFrame:
        from ._frames import to_frame

        return to_frame(self._pager.kind, rows, questions)

    def _question_calls(self, rows: list[dict[str, Any]]) -> list[tuple[str, Call[Any]]]:
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
