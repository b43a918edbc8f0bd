"""DataFrames keep their columns and types, even when a list is empty."""

from __future__ import annotations

import pytest
from client_support import AnyClient, run

from chatspace.client._frames import COLUMNS

pytestmark = pytest.mark.anyio


async def test_empty_lists_give_empty_frames_with_the_same_columns(client: AnyClient) -> None:
    frames = {
        "completions": await run(client.chat.list().to_pandas()),
        "files": await run(client.files.list().to_pandas()),
    }
    for kind, frame in frames.items():
        assert frame.empty
        assert list(frame.columns) == list(COLUMNS[kind])
        for column, dtype in COLUMNS[kind].items():
            if dtype is not None:
                assert str(frame[column].dtype) == dtype, (kind, column)


async def test_frames_of_full_and_empty_lists_have_equal_dtypes(client: AnyClient) -> None:
    empty = await run(client.chat.list().to_pandas())
    await run(client.chat.create(messages="Hi", store=True))
    full = await run(client.chat.list().to_pandas())
    assert full.dtypes.to_dict() == empty.dtypes.to_dict()
    empty_files = await run(client.files.list().to_pandas())
    await run(client.files.upload(b"a", filename="a.txt"))
    files = await run(client.files.list().to_pandas())
    assert files.dtypes.to_dict() == empty_files.dtypes.to_dict()
