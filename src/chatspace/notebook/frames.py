"""DataFrames of lists cut short, with the same columns as the client's ``to_pandas()``.

``page.to_pandas()`` converts every page of a list; ``%completions --limit N`` and
``%files ls --limit N`` want the first N items only, and ``%files upload`` the files it
just made. This is the one place that reaches into the client's frame layout
(``chatspace.client._frames``), so that the columns stay exactly the documented ones.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

    from chatspace.client import Client, SyncPage

__all__ = ["first_items", "items_frame"]


def items_frame(kind: str, items: Sequence[Any]) -> pd.DataFrame:
    """``items`` (wire models, not completions) as the client's DataFrame of ``kind``."""
    from chatspace.client._frames import to_frame

    return to_frame(kind, [item.model_dump(mode="json") for item in items])


def first_items(
    page: SyncPage[Any], kind: str, limit: int, *, client: Client, workspace: str
) -> pd.DataFrame:
    """The first ``limit`` items of a list (fetching only the pages needed) as a frame."""
    from chatspace.client._frames import question_of, to_frame

    items = list(itertools.islice(page, limit))
    rows = [item.model_dump(mode="json") for item in items]
    questions: dict[str, str | None] = {}
    if kind == "completions":
        for row in rows:
            if "question" not in row:
                messages = client.chat.messages(
                    row["id"], workspace=workspace, order="desc", limit=100
                )
                questions[row["id"]] = question_of(messages)
    return to_frame(kind, rows, questions)
