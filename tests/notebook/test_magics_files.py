"""``%files`` through a real IPython shell against the real reference service."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from chatspace.client import Client
from chatspace.notebook.session import NotebookSession
from support.documents import pdf_bytes
from support.magics import NOTES, render_markdown, run
from support.service import Service

PNG = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"
    b"\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\xff\xff?\x00\x05\xfe\x02\xfe\xa7\x35\x81\x84"
    b"\x00\x00\x00\x00IEND\xaeB`\x82"
)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "notes.txt").write_bytes(NOTES)
    (tmp_path / "sales.csv").write_text("city,revenue\nLyon,120\nNice,80\n")
    (tmp_path / "dot.png").write_bytes(PNG)
    return tmp_path


def test_upload_glob_with_metadata_then_list_and_filter(
    ip: Any, nb_session: NotebookSession, folder: Path
) -> None:
    uploaded = run(ip, f"%files upload {folder}/*.txt {folder}/*.csv --metadata team=data").value
    assert sorted(uploaded["filename"]) == ["notes.txt", "sales.csv"]
    assert set(uploaded["metadata.team"]) == {"data"}
    run(ip, f"%files upload {folder}/dot.png --metadata team=design")
    listed = run(ip, "%files").value
    assert sorted(listed["filename"]) == ["dot.png", "notes.txt", "sales.csv"]
    assert list(listed.columns[:3]) == ["id", "filename", "bytes"]
    design = run(ip, "%files list --filter team=design").value
    assert list(design["filename"]) == ["dot.png"]
    data = run(ip, '%files list --filter \'{"team": "data"}\' --max-items 1').value
    assert len(data) == 1


def test_list_filters_compare(ip: Any, nb_session: NotebookSession, folder: Path) -> None:
    """``--metadata year=2023`` stores the string "2023"; ``year>=2024`` compares numbers,
    and a string that reads as a number is one (docs/interface.md#metadata-filters)."""
    for year, team in ((2023, "data"), (2024, "design"), (2025, "ops")):
        (folder / f"{year}.txt").write_text(f"report {year}")
        run(ip, f"%files upload {folder}/{year}.txt --metadata year={year} --metadata team={team}")
    frame = run(ip, "%files list --filter 'year>=2024'").value
    assert sorted(frame["filename"]) == ["2024.txt", "2025.txt"]
    frame = run(ip, "%files list --filter 'year<2025 team in data,ops'").value
    assert list(frame["filename"]) == ["2023.txt"]
    frame = run(ip, "%files list --filter 'team not in data, ops'").value
    assert list(frame["filename"]) == ["2024.txt"]
    frame = run(ip, "%files list --filter 'team!=ops year=2024'").value
    assert list(frame["filename"]) == ["2024.txt"]
    typed = '{"type": "or", "filters": [{"type": "eq", "key": "team", "value": "ops"}]}'
    assert list(run(ip, f"%files list --filter '{typed}'").value["filename"]) == ["2025.txt"]


def test_upload_with_instructions_derives_metadata(
    ip: Any, nb_session: NotebookSession, folder: Path
) -> None:
    frame = run(ip, f"%files upload {folder}/sales.csv --instructions 'describe it'").value
    metadata = {k: v for k, v in frame.iloc[0].items() if k.startswith("metadata.")}
    assert metadata  # the local extractor's keys (content type, rows, ...)


def test_show_text_table_and_image(
    ip: Any, nb_session: NotebookSession, client: Client, folder: Path
) -> None:
    ids = {
        f.filename: f.id
        for f in client.files.upload(sorted(str(p) for p in folder.iterdir()), progress=False)
    }
    text = run(ip, f"%files show {ids['notes.txt']}")
    assert text.final[0].data["text/plain"] == NOTES.decode()
    assert "```\nParis is the capital of France." in text.final[0].data["text/markdown"]
    table = run(ip, f"%files show {ids['sales.csv']}").value
    assert table.to_dict("list") == {"city": ["Lyon", "Nice"], "revenue": [120, 80]}
    image = run(ip, f"%files show {ids['dot.png']}").value
    assert image.data == PNG


def test_show_a_pdf_shows_the_text_the_service_extracted(
    ip: Any, nb_session: NotebookSession, client: Client
) -> None:
    pdf = client.files.upload(pdf_bytes("Zanzibar exports cloves"), filename="d.pdf")
    shown = run(ip, f"%files show {pdf.id}").final[0].data
    assert shown["text/plain"] == "Zanzibar exports cloves"
    assert "```\nZanzibar exports cloves\n```" in shown["text/markdown"]


def test_download_and_update(
    ip: Any, nb_session: NotebookSession, client: Client, tmp_path: Path
) -> None:
    file_id = client.files.upload(NOTES, filename="notes.txt", progress=False).id
    ran = run(ip, f"%files download {file_id} {tmp_path}")
    assert (tmp_path / "notes.txt").read_bytes() == NOTES
    assert ran.value == tmp_path / "notes.txt"
    assert f"saved {file_id} to" in ran.plain()
    assert run(ip, f"%files update {file_id} year=2024 team=data").value == {
        "year": "2024",
        "team": "data",
    }
    assert run(ip, f"%files update {file_id} --unset team").value == {"year": "2024"}


def test_delete_deletes(ip: Any, nb_session: NotebookSession, client: Client) -> None:
    file_id = client.files.upload(NOTES, filename="notes.txt", progress=False).id
    ran = run(ip, f"%files delete {file_id}")
    assert f"deleted {file_id}" in ran.plain()
    assert run(ip, "%files").value.empty
    assert "404" in run(ip, f"%files delete {file_id}").error_line()


def test_html_in_a_file_name_is_escaped_everywhere(
    ip: Any, nb_session: NotebookSession, client: Client
) -> None:
    hostile = "<img src=x onerror=alert(1)>.txt"
    file_id = client.files.upload(b"<script>alert(2)</script>", filename=hostile).id
    frame = run(ip, "%files")
    html = frame.final[0].data["text/html"]
    assert "<img" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;.txt" in html
    shown = run(ip, f"%files show {file_id}").final[0].data["text/markdown"]
    assert "<script" not in render_markdown(shown)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("upload /nonexistent/*.csv", "no file matches '/nonexistent/*.csv'"),
        ("show file-doesnotexist", "404"),
        ("download file-doesnotexist", "404"),
        ("update file-doesnotexist a=b", "404"),
        ("update file-x", "give k=v pairs"),
        ("update file-x novalue", "'novalue' is not key=value"),
        ("list --filter '{oops'", "--filter is not valid JSON"),
        ("list --filter year", "--filter: 'year' is not a comparison"),
        ("list --filter 'team in'", "--filter: 'team' in needs values"),
        ('list --filter \'{"type": "gte", "key": "y"}\'', "422"),
        ("list --max-items 0", "0 is not at least 1"),
        ("frobnicate", "unrecognized arguments: frobnicate"),
    ],
)
def test_errors_are_one_line(
    ip: Any, nb_session: NotebookSession, line: str, expected: str
) -> None:
    assert expected in run(ip, f"%files {line}").error_line()


def test_upload_over_the_limit_is_one_line_and_stores_nothing(
    ip: Any, nb_session: NotebookSession, small_limit: Service, org: str, tmp_path: Path
) -> None:
    """Refused by the client before the bytes go (tests/client/test_client_errors.py)."""
    (tmp_path / "big.bin").write_bytes(b"\0" * (2 * 1024 * 1024))
    with Client(base_url=small_limit.url, token=small_limit.token("alice", org)) as limited:
        nb_session.use_client(limited)
        line = run(ip, f"%files upload {tmp_path}/*.bin").error_line()
        assert line.endswith(
            "%files: 413 File 'big.bin' is 2 MiB, over the service's upload limit of 1 MiB;"
            " nothing was sent. Send less: split the upload, or ask the operator to raise the"
            " service's limit."
        )
        assert list(limited.files.list()) == []


def test_help_lists_subcommands_and_their_options(ip: Any, nb_session: NotebookSession) -> None:
    usage = run(ip, "%files --help").plain()
    for sub in ("upload", "delete", "download", "show", "update"):
        assert f"%files {sub}" in usage
    upload = run(ip, "%files upload --help").plain()
    assert "usage: %files upload" in upload
    assert "--instructions" in upload


def test_upload_replace_keeps_one_file_per_name(
    ip: Any, nb_session: NotebookSession, folder: Path
) -> None:
    first = run(ip, f"%files upload {folder}/notes.txt").value
    ran = run(ip, f"%files upload {folder}/notes.txt {folder}/sales.csv --replace")
    assert "replaced 1 earlier files of the same names" in ran.plain()
    listed = run(ip, "%files").value
    assert sorted(listed["filename"]) == ["notes.txt", "sales.csv"]
    assert first["id"][0] not in set(listed["id"])


def test_show_caps_long_text_and_names_binary_files(
    ip: Any, nb_session: NotebookSession, client: Client
) -> None:
    long_id = client.files.upload(b"x" * 30_000, filename="long.txt", progress=False).id
    shown = run(ip, f"%files show {long_id}").final[0].data["text/plain"]
    assert shown.startswith("x" * 20_000)
    assert shown.endswith("… 10000 more characters (%files download to read it all)")
    blob = client.files.upload(b"\x00\x01\xff" * 10, filename="blob.bin", progress=False).id
    assert "blob.bin is binary (30 bytes)" in run(ip, f"%files show {blob}").plain()


def test_files_are_addressed_by_name_where_the_name_is_unique(
    ip: Any, nb_session: NotebookSession, client: Client, tmp_path: Any
) -> None:
    memo = client.files.upload(b"Travel: 300 EUR.", filename="budget-memo.txt")
    assert "Travel: 300 EUR." in run(ip, "%files show budget-memo.txt").plain()
    assert run(ip, "%files update budget-memo.txt team=finance").value == {"team": "finance"}
    run(ip, f"%files download budget-memo.txt {tmp_path}")
    assert (tmp_path / "budget-memo.txt").read_bytes() == b"Travel: 300 EUR."
    again = client.files.upload(b"Travel: 310 EUR.", filename="budget-memo.txt")
    line = run(ip, "%files show budget-memo.txt").error_line()
    assert "2 files are named 'budget-memo.txt' in workspace 'default'" in line
    assert memo.id in line
    assert again.id in line
    assert "no file named 'nope.txt' in workspace 'default'" in (
        run(ip, "%files delete nope.txt").error_line()
    )
    run(ip, f"%files delete {memo.id}")
    assert (
        run(ip, "%files delete budget-memo.txt").plain() == f"deleted {again.id} (budget-memo.txt)"
    )
    assert list(client.files.list()) == []


def test_an_existing_path_is_a_path_even_with_glob_characters(
    ip: Any, nb_session: NotebookSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "weird").mkdir()
    (tmp_path / "weird" / "a [v2].md").write_text("Version two.")
    (tmp_path / "weird" / "a2.md").write_text("Matched by the glob a[v2].md, not named so.")
    monkeypatch.chdir(tmp_path)
    uploaded = run(ip, '%files upload "weird/a [v2].md"').value
    assert list(uploaded["filename"]) == ["a [v2].md"]
    globbed = run(ip, "%files upload weird/a[v2].md").value  # no such path: a glob
    assert list(globbed["filename"]) == ["a2.md"]
    line = run(ip, '%files upload "weird/b [v3].md"').error_line()
    assert "no file matches 'weird/b [v3].md'" in line
    line = run(ip, "%files upload weird").error_line()
    assert "'weird' is a folder; upload its files with 'weird/*'" in line


def test_names_are_kept_as_typed_and_found_as_typed(
    ip: Any, nb_session: NotebookSession, client: Client, tmp_path: Path
) -> None:
    name = "c 👩\u200d💻 dev.md"  # a zero-width joiner makes one emoji of two
    (tmp_path / name).write_text("Pair programming on Fridays.")
    uploaded = run(ip, f'%files upload "{tmp_path / name}"').value
    assert list(uploaded["filename"]) == [name]
    assert [f.filename for f in client.files.list()] == [name]
    assert "Pair programming on Fridays." in run(ip, f'%files show "{name}"').plain()
    # macOS writes names decomposed (e + U+0301); the name typed is composed (é)
    decomposed = client.files.upload(b"Summer notes.", filename="e\u0301te\u0301.md")
    assert decomposed.filename == "e\u0301te\u0301.md"  # stored as sent
    assert "Summer notes." in run(ip, "%files show \u00e9t\u00e9.md").plain()


@pytest.mark.parametrize("name", ["empty.txt", "empty.csv", "empty.png"])
def test_show_of_an_empty_file_says_so(
    ip: Any, nb_session: NotebookSession, client: Client, name: str
) -> None:
    client.files.upload(b"", filename=name)
    assert run(ip, f"%files show {name}").plain() == f"{name} is empty (0 bytes)"


def test_show_of_a_file_without_text_says_so(
    ip: Any, nb_session: NotebookSession, client: Client
) -> None:
    client.files.upload(b" \n\n \n", filename="blank.md")
    assert run(ip, "%files show blank.md").plain() == "blank.md has no text (5 bytes)"


def test_update_from_a_dataframe(ip: Any, nb_session: NotebookSession, client: Client) -> None:
    """``%files update --from NAME``: a row per file, by name; the result per row."""
    client.files.upload(b"a", filename="a.txt", metadata={"team": "ml"})
    client.files.upload(b"b", filename="b.txt")
    ip.user_ns["df"] = pd.DataFrame({"filename": ["a.txt", "b.txt"], "year": [2024, None]})
    result = run(ip, "%files update --from df").value
    assert result["status"].tolist() == ["updated", "unchanged"]
    by_name = {f.filename: f.metadata for f in client.files.list()}
    assert by_name == {"a.txt": {"team": "ml", "year": 2024}, "b.txt": {}}


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("--from nope", "'nope' is not a DataFrame in the notebook"),
        ("--from text", "'text' is not a DataFrame"),
        ("--from df a.txt", "--from takes no ID"),
        ("--from unknown", "no file named 'z.txt'"),
        ("--from twice", "2 files are named 'a.txt'"),
        ("--from nocolumn", "'id' or 'file_id'"),
    ],
)
def test_update_from_errors_are_one_line_and_change_nothing(
    ip: Any, nb_session: NotebookSession, client: Client, line: str, expected: str
) -> None:
    client.files.upload(b"a", filename="a.txt")
    client.files.upload(b"a", filename="a.txt")
    ip.user_ns.update(
        text="not a frame",
        df=pd.DataFrame({"filename": ["a.txt"], "k": ["v"]}),
        unknown=pd.DataFrame({"filename": ["z.txt"], "k": ["v"]}),
        twice=pd.DataFrame({"filename": ["a.txt"], "k": ["v"]}),
        nocolumn=pd.DataFrame({"k": ["v"]}),
    )
    assert expected in run(ip, f"%files update {line}").error_line()
    assert all(f.metadata == {} for f in client.files.list())
