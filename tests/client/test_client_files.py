"""client.files against the real service, with both clients."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pandas as pd
import pytest

from chatspace.errors import NotFoundError, UnprocessableEntityError
from chatspace.types import ComparisonFilter, CompoundFilter, File, FileDeleted
from support.clients import AnyClient, collect, run

pytestmark = pytest.mark.anyio


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "a.md").write_text("# Alpha\n\nThe alpha report.\n")
    (tmp_path / "b.md").write_text("# Beta\n\nThe beta report.\n")
    (tmp_path / "c.txt").write_text("not matched by the glob\n")
    return tmp_path


async def test_upload_a_path_returns_one_file(client: AnyClient, folder: Path) -> None:
    uploaded = await run(client.files.upload(folder / "a.md", metadata={"year": 2024}))
    assert isinstance(uploaded, File)
    assert uploaded.filename == "a.md"
    assert uploaded.bytes == (folder / "a.md").stat().st_size
    assert uploaded.metadata == {"year": 2024}
    assert uploaded.workspace_id == "default"
    assert uploaded.status == "uploaded"
    assert await run(client.files.content(uploaded.id)) == (folder / "a.md").read_bytes()


async def test_upload_several_paths_or_a_glob_returns_a_list(
    client: AnyClient, folder: Path
) -> None:
    several = await run(client.files.upload([folder / "a.md", str(folder / "c.txt")]))
    assert [f.filename for f in several] == ["a.md", "c.txt"]
    globbed = await run(client.files.upload(str(folder / "*.md")))
    assert [f.filename for f in globbed] == ["a.md", "b.md"]
    with pytest.raises(FileNotFoundError):
        await run(client.files.upload(str(folder / "*.pdf")))
    with pytest.raises(FileNotFoundError):
        await run(client.files.upload(folder / "missing.md"))


async def test_upload_bytes_and_file_objects(client: AnyClient, folder: Path) -> None:
    from_bytes = await run(client.files.upload(b"raw bytes", filename="raw.txt"))
    assert (from_bytes.filename, from_bytes.bytes) == ("raw.txt", 9)
    unnamed = await run(client.files.upload(b"x"))
    assert unnamed.filename == "upload.bin"
    with (folder / "b.md").open("rb") as handle:
        from_handle = await run(client.files.upload(handle))
        assert not handle.closed  # the caller's file stays the caller's
    assert from_handle.filename == "b.md"
    buffer = io.BytesIO(b"0123456789")
    buffer.seek(4)  # a file object is sent from where it stands
    partial = await run(client.files.upload(buffer, filename="tail.txt"))
    assert await run(client.files.content(partial.id)) == b"456789"
    with pytest.raises(TypeError, match="binary mode"), (folder / "a.md").open() as text:
        await run(client.files.upload(text))


async def test_upload_dataframes_as_csv_and_parquet(client: AnyClient) -> None:
    frame = pd.DataFrame({"city": ["Lyon", "Porto"], "year": [2031, 2032]})
    as_csv = await run(client.files.upload(frame, filename="fairs.csv"))
    content = await run(client.files.content(as_csv.id))
    assert content.decode().splitlines() == ["city,year", "Lyon,2031", "Porto,2032"]
    as_parquet = await run(client.files.upload(frame, format="parquet"))
    assert as_parquet.filename == "dataframe.parquet"
    back = pd.read_parquet(io.BytesIO(await run(client.files.content(as_parquet.id))))
    assert back.to_dict("list") == frame.to_dict("list")


async def test_upload_with_instructions_derives_metadata(client: AnyClient) -> None:
    uploaded = await run(
        client.files.upload(b"# Title here\n\nSome text.\n", filename="t.md", instructions="title")
    )
    assert "derived title" in uploaded.status_details  # the instructions ran
    assert uploaded.metadata


async def test_get_update_and_delete(client: AnyClient) -> None:
    uploaded = await run(client.files.upload(b"hello", filename="h.txt", metadata={"a": 1}))
    assert (await run(client.files.get(uploaded.id))).id == uploaded.id

    merged = await run(client.files.update(uploaded.id, {"b": "x"}))
    assert merged.metadata == {"a": 1, "b": "x"}
    removed = await run(client.files.update(uploaded.id, {"a": None}))
    assert removed.metadata == {"b": "x"}
    derived = await run(client.files.update(uploaded.id, instructions="line count"))
    assert derived.metadata["b"] == "x"
    assert len(derived.metadata) > 1
    with pytest.raises(ValueError, match="metadata, instructions"):
        await run(client.files.update(uploaded.id))

    deleted = await run(client.files.delete(uploaded.id))
    assert deleted == FileDeleted(id=uploaded.id, deleted=True)
    with pytest.raises(NotFoundError):
        await run(client.files.get(uploaded.id))


async def test_list_pages_filters_and_frames(client: AnyClient) -> None:
    made = []
    for i in range(5):
        made.append(
            await run(
                client.files.upload(f"file {i}".encode(), filename=f"f{i}.txt", metadata={"i": i})
            )
        )
    expected = [f.id for f in sorted(made, key=lambda f: (f.created_at, f.id), reverse=True)]

    page = await run(client.files.list(limit=2))
    assert len(page.data) == 2
    assert page.page.total == 5
    assert page.has_more
    assert [f.id for f in await collect(client.files.list(limit=2))] == expected
    ascending = await collect(client.files.list(limit=3, order="asc"))
    assert [f.id for f in ascending] == expected[::-1]
    odd = await collect(client.files.list(metadata={"i": [1, 3]}))
    assert sorted(f.filename for f in odd) == ["f1.txt", "f3.txt"]
    typed = ComparisonFilter(type="gte", key="i", value=3)
    assert sorted(f.filename for f in await collect(client.files.list(metadata=typed))) == [
        "f3.txt",
        "f4.txt",
    ]
    either = {"type": "or", "filters": [{"type": "lt", "key": "i", "value": 1}, typed]}
    assert (
        len(await collect(client.files.list(metadata=CompoundFilter.model_validate(either)))) == 3
    )
    assert len(await collect(client.files.list(metadata=either))) == 3
    assert await collect(client.files.list(purpose="other")) == []

    frame = await run(client.files.list(limit=2).to_pandas())
    assert list(frame.columns) == [
        "id",
        "filename",
        "bytes",
        "created_at",
        "expires_at",
        "purpose",
        "status",
        "workspace_id",
        "user_id",
        "metadata.i",
    ]
    assert frame["id"].tolist() == expected
    assert str(frame["bytes"].dtype) == "int64"
    assert str(frame["created_at"].dtype) == "datetime64[ns, UTC]"
    assert frame["expires_at"].isna().all()
    by_id = {f.id: f.metadata["i"] for f in made}
    assert frame["metadata.i"].tolist() == [by_id[i] for i in expected]


async def test_download_streams_to_a_path_or_a_directory(client: AnyClient, tmp_path: Path) -> None:
    uploaded = await run(client.files.upload(b"payload \xe2\x9c\x93", filename="r\xe9sum\xe9.txt"))
    target = await run(client.files.download(uploaded.id, tmp_path / "out" / "copy.txt"))
    assert target == tmp_path / "out" / "copy.txt"
    assert target.read_bytes() == b"payload \xe2\x9c\x93"
    into_dir = await run(client.files.download(uploaded.id, tmp_path))
    assert into_dir == tmp_path / "r\xe9sum\xe9.txt"
    assert into_dir.read_bytes() == b"payload \xe2\x9c\x93"
    assert not list(tmp_path.rglob("*.part"))


async def test_a_failed_download_leaves_no_file(client: AnyClient, tmp_path: Path) -> None:
    with pytest.raises(NotFoundError):
        await run(client.files.download("file-missing", tmp_path / "x.bin"))
    assert list(tmp_path.iterdir()) == []


async def test_metadata_filter_must_be_json_object(client: AnyClient) -> None:
    uploaded = await run(client.files.upload(b"a", filename="a.txt", metadata={"k": "v"}))
    found = await collect(client.files.list(metadata={"k": "v"}))
    assert [f.id for f in found] == [uploaded.id]
    assert json.loads(json.dumps(uploaded.metadata)) == {"k": "v"}


async def test_text_is_what_the_service_extracted(client: AnyClient) -> None:
    from support.documents import pdf_bytes

    pdf = await run(client.files.upload(pdf_bytes("Zanzibar exports cloves"), filename="d.pdf"))
    assert await run(client.files.text(pdf.id)) == "Zanzibar exports cloves"
    blob = await run(client.files.upload(b"\x00\x01binary", filename="b.bin"))
    with pytest.raises(UnprocessableEntityError) as raised:
        await run(client.files.text(blob.id))
    assert "no text that can be extracted" in str(raised.value)
