"""``client.files.update(frame)``: metadata of many files from a DataFrame, with both
clients against the real service (docs/interface.md#metadata-and-instructions)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from chatspace.types import File
from support.clients import AnyClient, collect, run

pytestmark = pytest.mark.anyio


async def _upload(client: AnyClient, name: str, **metadata: object) -> File:
    uploaded = await run(client.files.upload(name.encode(), filename=name, metadata=metadata))
    assert isinstance(uploaded, File)
    return uploaded


async def _metadata(client: AnyClient) -> dict[str, dict[str, object]]:
    return {f.filename: f.metadata for f in await collect(client.files.list())}


async def test_rows_by_id_merge_and_nan_leaves_a_key(client: AnyClient) -> None:
    a = await _upload(client, "a.txt", team="ml", draft=True)
    b = await _upload(client, "b.txt", team="bi")
    frame = pd.DataFrame(
        {"id": [a.id, b.id], "year": [2024, math.nan], "team": [None, "ops"]},
        index=["first", "second"],
    )
    seen: list[tuple[int, int | None]] = []
    result = await run(client.files.update(frame, progress=lambda d, t: seen.append((d, t))))
    assert result.index.tolist() == ["first", "second"]
    assert result["file_id"].tolist() == [a.id, b.id]
    assert result["status"].tolist() == ["updated", "updated"]
    assert result["error"].isna().all()
    # merged as update(ID, {...}) merges; NaN and None leave the key as it was; 2024.0 of a
    # float column (floats only because of its gap) is the year 2024
    assert await _metadata(client) == {
        "a.txt": {"team": "ml", "draft": True, "year": 2024},
        "b.txt": {"team": "ops"},
    }
    assert sorted(seen) == [(1, 2), (2, 2)]


async def test_rows_by_name_and_a_frame_from_the_list(client: AnyClient) -> None:
    await _upload(client, "report.pdf")
    await _upload(client, "notes.md", owner="ana")
    by_name = pd.DataFrame({"filename": ["report.pdf", "notes.md"], "owner": ["li", "bo"]})
    result = await run(client.files.update(by_name))
    assert result["status"].tolist() == ["updated", "updated"]
    assert (await _metadata(client))["report.pdf"] == {"owner": "li"}
    # the list's own frame: its metadata.<key> columns are the keys, the rest is ignored
    listed = await run(client.files.list().to_pandas())
    listed["metadata.reviewed"] = "yes"
    listed.loc[listed["filename"] == "notes.md", "metadata.owner"] = "cy"
    assert set((await run(client.files.update(listed)))["status"]) == {"updated"}
    assert await _metadata(client) == {
        "report.pdf": {"owner": "li", "reviewed": "yes"},
        "notes.md": {"owner": "cy", "reviewed": "yes"},
    }


async def test_unknown_or_shared_names_change_nothing(client: AnyClient) -> None:
    await _upload(client, "same.txt")
    await _upload(client, "same.txt")
    await _upload(client, "fine.txt")
    frame = pd.DataFrame(
        {"filename": ["fine.txt", "same.txt", "missing.txt"], "k": ["v", "v", "v"]},
        index=[10, 11, 12],
    )
    with pytest.raises(ValueError, match="nothing was updated") as raised:
        await run(client.files.update(frame))
    message = str(raised.value)
    assert "nothing was updated" in message
    assert "row 11: 2 files are named 'same.txt'" in message
    assert "row 12: no file named 'missing.txt'" in message
    assert "fine.txt" not in message
    assert all(m == {} for m in (await _metadata(client)).values())


async def test_a_failing_row_is_reported_and_the_others_applied(client: AnyClient) -> None:
    ok = await _upload(client, "ok.txt", keep="me")
    big = await _upload(client, "big.txt", keep="me")
    frame = pd.DataFrame(
        {
            "id": [ok.id, big.id, "file-doesnotexist", ok.id],
            "note": ["short", "x" * 70_000, "n", None],
            "year": [2024, 2025, 2026, None],
        }
    )
    result = await run(client.files.update(frame, progress=False))
    assert result["status"].tolist() == ["updated", "failed", "failed", "unchanged"]
    assert "65536" in result.loc[1, "error"]  # metadata over 64 KiB: that file unchanged
    assert "not found" in result.loc[2, "error"].lower()
    assert "http" not in result.loc[1, "error"]  # the user's words, not the request
    metadata = await _metadata(client)
    assert metadata["ok.txt"] == {"keep": "me", "note": "short", "year": 2024}
    assert metadata["big.txt"] == {"keep": "me"}  # all or nothing for that file


async def test_a_frame_without_a_file_column_is_refused(client: AnyClient) -> None:
    with pytest.raises(ValueError, match="'id' or 'file_id'"):
        await run(client.files.update(pd.DataFrame({"year": [2024]})))
    with pytest.raises(ValueError, match="no metadata column"):
        await run(client.files.update(pd.DataFrame({"id": ["file-x"]})))
