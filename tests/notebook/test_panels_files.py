"""FilesPanel driven from Python against the real reference service."""

from __future__ import annotations

import base64
import io
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import chatspace
from chatspace.notebook.panels import FilesPanel, _preview
from chatspace.notebook.session import NotebookSession
from support.documents import pdf_bytes
from support.service import HOSTILE, Service

# no double quote: multipart encodes it as %22 in the file name (see the report)
HOSTILE_NAME = "<img src=x onerror=alert(1)>.txt"


@pytest.fixture
def panel(client: chatspace.Client, session: NotebookSession) -> Iterator[FilesPanel]:
    p = FilesPanel(client, session=session)
    p.download_base_url = "/user/ann/"
    yield p
    assert p.wait(30)
    p.close()


def picked(name: str, content: bytes, mime: str = "text/plain") -> dict[str, Any]:
    """A file as ipywidgets 8's FileUpload holds it in ``value``."""
    return {
        "name": name,
        "type": mime,
        "size": len(content),
        "content": memoryview(content),
        "last_modified": datetime.now(UTC),
    }


def upload(panel: FilesPanel, files: list[Any], **kw: Any) -> None:
    assert panel.upload(files, **kw) is True, panel.error
    assert panel.wait(60)
    assert panel.error == ""


def test_upload_through_the_widget_with_metadata_and_instructions(
    panel: FilesPanel, client: chatspace.Client
) -> None:
    panel.uploader.value = (picked("a.txt", b"alpha\nbeta\n"), picked("b.csv", b"x,y\n1,2\n"))
    panel.meta_text.value = "team=ml year=2024"
    panel.instructions_text.value = "line count"
    panel.upload_button.click()
    assert panel.wait(60)
    assert panel.error == ""
    assert panel.progress == 1.0
    assert panel.progress_bar.value == 1.0
    assert panel.uploader.value == ()
    stored = {f.filename: f for f in client.files.list()}
    assert set(stored) == {"a.txt", "b.csv"}
    assert sorted(panel.last_uploaded) == sorted(f.id for f in stored.values())
    for f in stored.values():
        assert {"team": "ml", "year": "2024"}.items() <= f.metadata.items()
        assert "derived" in f.status_details  # the instructions ran
    assert [r["filename"] for r in panel.files] == [f.filename for f in client.files.list()]
    assert "a.txt" in panel.table.value
    assert "b.csv" in panel.table.value


def test_upload_paths_and_json_metadata(
    panel: FilesPanel, client: chatspace.Client, tmp_path: Path
) -> None:
    paths = []
    for i in range(3):
        path = tmp_path / f"doc{i}.md"
        path.write_text(f"# Doc {i}\n")
        paths.append(path)
    upload(panel, paths, metadata='{"kind": "doc", "tags": ["a", "b"]}')
    assert len(panel.files) == 3
    assert all(f.metadata == {"kind": "doc", "tags": ["a", "b"]} for f in client.files.list())


def test_progress_moves_within_a_large_file(panel: FilesPanel, tmp_path: Path) -> None:
    big = tmp_path / "big.bin"
    big.write_bytes(b"z" * (4 * 1024 * 1024))
    seen: list[float] = []
    panel.observe(lambda c: seen.append(c["new"]), "progress")
    upload(panel, [big, ("small.txt", b"s")])
    assert seen[-1] == 1.0
    assert seen == sorted(seen)
    assert len([v for v in seen if 0 < v < 1]) >= 5  # steps inside the big file
    assert panel.progress_bar.description == "Sent 2/2"


@pytest.mark.parametrize(
    ("files", "metadata", "message"),
    [
        ([], None, "choose one or more files"),
        ([("a.txt", b"x")], '{"team": ', "metadata is not valid JSON"),
        ([("a.txt", b"x")], "team", "is not key=value"),
        ([("a.txt", b"x")], '["a"]', "must be a JSON object"),
        (["/no/such/file.txt"], None, "no such file"),
    ],
)
def test_bad_uploads_are_one_line_and_upload_nothing(
    panel: FilesPanel, client: chatspace.Client, files: list[Any], metadata: str, message: str
) -> None:
    assert panel.upload(files, metadata=metadata) is None
    assert message in panel.error
    assert list(client.files.list()) == []


def test_upload_refused_by_the_service_shows_its_error(
    panel: FilesPanel, client: chatspace.Client
) -> None:
    too_many = {f"k{i}": "v" for i in range(300)}  # beyond the service's 256 keys
    assert panel.upload([("a.txt", b"x")], metadata=too_many) is True
    assert panel.wait(30)
    assert panel.error.startswith("422")
    assert list(client.files.list()) == []


def test_upload_over_the_limit_is_refused_before_sending(
    small_limit: Service, org: str, tmp_path: Path
) -> None:
    """One line, no progress, nothing stored (the client refuses it: test_client_errors.py)."""
    big = tmp_path / "big.bin"
    big.write_bytes(b"\0" * (2 * 1024 * 1024))
    with chatspace.Client(small_limit.url, token=small_limit.token("alice", org)) as limited:
        panel = FilesPanel(limited, session=NotebookSession(client=limited))
        moved: list[float] = []
        panel.observe(lambda c: moved.append(c["new"]), "progress")
        assert panel.upload([big]) is True
        assert panel.wait(30)
        assert panel.error == (
            "413 File 'big.bin' is 2 MiB, over the service's upload limit of 1 MiB; nothing was"
            " sent. Send less: split the upload, or ask the operator to raise the service's limit."
        )
        assert [m for m in moved if m > 0] == []
        assert list(limited.files.list()) == []
        panel.close()


def test_hostile_names_and_metadata_are_escaped(
    panel: FilesPanel, client: chatspace.Client
) -> None:
    upload(panel, [(HOSTILE_NAME, HOSTILE.encode())], metadata={"note": HOSTILE})
    (f,) = client.files.list()
    assert f.filename == HOSTILE_NAME
    for html in (panel.table.value,):
        assert "<script" not in html
        assert "<img" not in html
        assert "&lt;img src=x" in html
    assert 'download="&lt;img src=x onerror=alert(1)&gt;.txt"' in panel.table.value
    panel.select(f.id)
    assert "<script" not in panel.preview_box.value
    assert "<img" not in panel.preview_box.value
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in panel.preview_box.value


def test_download_link_goes_through_the_server_extension(
    panel: FilesPanel, client: chatspace.Client
) -> None:
    upload(panel, [("r.txt", b"report")])
    (f,) = client.files.list()
    url = f"/user/ann/chatspace/files/{f.id}/content?workspace=default"
    assert panel.download_url(f.id) == url
    assert f'class="chatspace-download-link" href="{url}"' in panel.table.value


def test_preview_text_csv_image_and_large(
    panel: FilesPanel, client: chatspace.Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PIL import Image

    png = io.BytesIO()
    Image.new("RGB", (4, 4), "red").save(png, format="PNG")
    csv = f"name,{HOSTILE}\nann,1\n".encode()
    upload(
        panel,
        [("t.txt", b"hello text"), ("d.csv", csv), ("p.png", png.getvalue()), ("z.bin", b"\0\1")],
    )
    by_name = {f.filename: f.id for f in client.files.list()}
    panel.picker.value = by_name["t.txt"]  # the picker's path
    assert "hello text" in panel.preview_box.value
    panel.select(by_name["d.csv"])
    assert "chatspace-preview-table" in panel.preview_box.value
    assert "<td>ann</td>" in panel.preview_box.value
    assert "<script" not in panel.preview_box.value
    panel.select(by_name["p.png"])
    assert base64.b64encode(png.getvalue()).decode() in panel.preview_box.value
    panel.select(by_name["z.bin"])
    assert "Binary file" in panel.preview_box.value
    monkeypatch.setattr(_preview, "PREVIEW_BYTES", 4)
    panel.select(by_name["t.txt"])
    assert "Too large to preview" in panel.preview_box.value


def test_metadata_editor_replaces_and_derives(panel: FilesPanel, client: chatspace.Client) -> None:
    upload(panel, [("m.txt", b"one\ntwo\nthree\n")], metadata="a=1 b=2")
    (f,) = client.files.list()
    panel.select(f.id)
    assert json.loads(panel.metadata_editor.value) == {"a": "1", "b": "2"}
    panel.metadata_editor.value = '{"a": "10", "c": 3}'
    panel.save_button.click()
    assert panel.error == ""
    assert client.files.get(f.id).metadata == {"a": "10", "c": 3}  # b removed
    panel.derive_text.value = "line count"
    panel.derive_button.click()
    assert panel.error == ""
    derived = client.files.get(f.id).metadata
    assert {"a": "10", "c": 3}.items() <= derived.items()
    assert len(derived) > 2
    assert json.loads(panel.metadata_editor.value) == derived


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"a": ', "not valid JSON"),
        ('{"instructions": "x"}', "'instructions' is reserved"),
        ("nokey", "is not key=value"),
        (json.dumps({f"k{i}": 1 for i in range(300)}), "422"),
    ],
)
def test_bad_metadata_edit_leaves_the_file(
    panel: FilesPanel, client: chatspace.Client, text: str, message: str
) -> None:
    upload(panel, [("m.txt", b"x")], metadata="a=1")
    (f,) = client.files.list()
    panel.select(f.id)
    panel.update_metadata(text)
    assert message in panel.error
    assert client.files.get(f.id).metadata == {"a": "1"}


def test_delete_asks_first(panel: FilesPanel, client: chatspace.Client) -> None:
    upload(panel, [("keep.txt", b"k"), ("gone.txt", b"g")])
    gone = next(f.id for f in client.files.list() if f.filename == "gone.txt")
    panel.select(gone)
    panel.delete_button.click()
    assert "gone.txt" in panel.confirm.question
    panel.confirm._no.click()
    assert len(list(client.files.list())) == 2
    panel.delete_button.click()
    panel.confirm._yes.click()
    assert [f.filename for f in client.files.list()] == ["keep.txt"]
    assert [r["filename"] for r in panel.files] == ["keep.txt"]
    assert panel.selected is None
    assert panel.delete("file-doesnotexist", confirm=True) is None
    assert panel.error.startswith("404")


def test_filter_and_workspace_switch(panel: FilesPanel, client: chatspace.Client) -> None:
    upload(panel, [("ml.txt", b"m")], metadata="team=ml")
    upload(panel, [("ops.txt", b"o")], metadata="team=ops")
    upload(panel, [("new.txt", b"n")], metadata="team=ops year=2024")
    panel.filter_text.value = "team=ml"
    panel.refresh_button.click()
    assert [r["filename"] for r in panel.files] == ["ml.txt"]
    panel.filter_text.value = "{bad"
    panel.refresh()
    assert "Filter is not valid JSON" in panel.error
    assert [r["filename"] for r in panel.files] == ["ml.txt"]
    panel.filter_text.value = "year>=2024"
    panel.refresh()
    assert [r["filename"] for r in panel.files] == ["new.txt"]
    panel.filter_text.value = "team in ml,ops year!=2024"
    panel.refresh()
    assert sorted(r["filename"] for r in panel.files) == ["ml.txt", "ops.txt"]
    panel.filter_text.value = ""
    client.workspaces.create("other", "Other")
    panel.session.settings.default_workspace = "other"
    assert panel.files == []
    upload(panel, [("there.txt", b"t")])
    assert [f.filename for f in client.files.list(workspace="other")] == ["there.txt"]
    assert "workspace=other" in panel.table.value


def test_preview_of_a_pdf_shows_its_text(panel: FilesPanel, client: chatspace.Client) -> None:
    upload(panel, [("d.pdf", pdf_bytes("Zanzibar exports <cloves>"))])
    (pdf,) = client.files.list()
    panel.select(pdf.id)
    assert "Zanzibar exports &lt;cloves&gt;" in panel.preview_box.value
    assert "Binary file" not in panel.preview_box.value


def test_progress_bar_reads_apart_from_the_upload_button(panel: FilesPanel) -> None:
    assert panel.progress_bar.description == "Sent"
    assert panel.progress_bar.description != panel.upload_button.description
    upload(panel, [("a.txt", b"a")])
    assert panel.progress_bar.description == "Sent 1/1"


def test_empty_list_and_picker_name_the_workspace_and_whole_names(
    panel: FilesPanel, client: chatspace.Client
) -> None:
    assert "No files in workspace default yet." in panel.table.value
    panel.filter_text.value = "team=none"
    panel.refresh()
    assert "No files in workspace default match the filter." in panel.table.value
    panel.filter_text.value = ""
    long_name = "board-minutes-" + "y" * 70 + ".txt"
    f = client.files.upload(b"m", filename=long_name, progress=False)
    panel.refresh()
    assert panel.picker.options == ((long_name, f.id),)
    assert long_name in panel.picker.tooltip
