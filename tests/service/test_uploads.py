"""``POST /files`` (docs/interface.md#upload): multipart streamed to disk, several parts per
request, all stored or none; limits, hostile names and interrupted uploads leave nothing behind."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import socket
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from support.platform import (
    blob_files,
    blob_of,
    incoming_files,
    multipart,
    stored,
    upload,
    wait_until,
)
from support.service import Service, running_service


def _post_raw(client: httpx.Client, body: bytes, content_type: str) -> httpx.Response:
    return client.post("/files", content=body, headers={"Content-Type": content_type})


def test_several_files_in_one_request(alice: httpx.Client, service: Service, org: str) -> None:
    parts = [(f"part-{i}.txt", f"content of part {i}\n".encode() * (i + 1)) for i in range(5)]
    files = upload(alice, *parts, metadata='{"batch": 7}')
    assert [f["filename"] for f in files] == [name for name, _ in parts]
    assert [f["bytes"] for f in files] == [len(data) for _, data in parts]
    for f, (_, data) in zip(files, parts, strict=True):
        assert f["object"] == "file"
        assert (f["purpose"], f["status"], f["status_details"]) == ("user_data", "uploaded", "")
        assert f["metadata"] == {"batch": 7}
        assert f["id"].startswith("file-")
        assert len(f["id"]) == len("file-") + 24
        assert alice.get(f"/files/{f['id']}/content").content == data
    rows = {r[0]: r for r in stored(service, org)["files"]}
    for f, (_, data) in zip(files, parts, strict=True):
        assert hashlib.sha256(data).hexdigest() in rows[f["id"]]
    assert incoming_files(service) == []


HOSTILE = {
    "../../etc/passwd": "passwd",
    "..\\..\\windows\\system32\\cmd.exe": "cmd.exe",
    "C:\\Users\\me\\report.pdf": "report.pdf",
    "/absolute/path/notes.txt": "notes.txt",
    "名前 ü.txt": "名前 ü.txt",
    "tab\tand\x7fdel.txt": "tabanddel.txt",
    "  spaced.txt  ": "spaced.txt",
    # kept as sent: joiners (ZWJ emoji, Persian ZWNJ), no-break spaces, soft hyphens
    "c 👩\u200d💻 dev.md": "c 👩\u200d💻 dev.md",
    "نامه\u200cها.txt": "نامه\u200cها.txt",
    "a\u00a0b\u00adc.txt": "a\u00a0b\u00adc.txt",
    "e\u0301 decomposed.txt": "e\u0301 decomposed.txt",  # no Unicode normalization
    # bidirectional controls reorder what is shown ("Trojan Source"): dropped
    "invoice\u202etxt.exe": "invoicetxt.exe",
    "line\u2028break.txt": "linebreak.txt",
}


@pytest.mark.parametrize(("sent", "kept"), HOSTILE.items(), ids=list(HOSTILE.values()))
def test_hostile_filenames_keep_only_the_last_component(
    alice: httpx.Client, service: Service, sent: str, kept: str
) -> None:
    body = multipart([("file", sent, b"payload")])
    response = _post_raw(alice, body, "multipart/form-data; boundary=b0undary")
    assert response.status_code == 200, response.text
    (f,) = response.json()
    assert f["filename"] == kept
    assert alice.get(f"/files/{f['id']}/content").content == b"payload"
    # The name is never a path: the blob is named by the service, nothing lands outside
    # the blob store and the database.
    assert kept not in blob_of(service, f["id"])
    assert blob_of(service, f["id"]) in blob_files(service)
    database = ["chatspace.db", "chatspace.db-shm", "chatspace.db-wal"]
    # the dense index's files beside the database, once a question has been asked
    found = {p.name for p in service.data_dir.iterdir()} - {"chatspace.db-dense"}
    assert found == {
        "blobs",
        "service.json",
        *(database if service.database_url.startswith("sqlite") else []),
    }


def test_names_escaped_by_the_html_form_encoding_are_restored(alice: httpx.Client) -> None:
    """httpx and browsers send ``"`` as ``%22`` and CR/LF as ``%0D%0A`` in multipart names."""
    name = 'say "hi" <b>%41.txt'
    response = alice.post("/files", files={"file": (name, b"x")})
    assert response.status_code == 200, response.text
    assert response.json()[0]["filename"] == name
    broken = alice.post("/files", files={"file": ("two\r\nlines.txt", b"x")})
    assert broken.json()[0]["filename"] == "twolines.txt"


@pytest.mark.parametrize("name", ["", "..", ".", "dir/", "\x01\x02"])
def test_unusable_filenames_are_422(
    alice: httpx.Client, service: Service, org: str, name: str
) -> None:
    before = stored(service, org)
    body = multipart([("file", "ok.txt", b"fine"), ("file", name, b"data")])
    response = _post_raw(alice, body, "multipart/form-data; boundary=b0undary")
    assert response.status_code == 422
    assert response.json()["detail"] == [
        {
            "loc": ["body", "file", 1],
            "msg": "The file part needs a filename.",
            "type": "value_error",
        }
    ]
    assert stored(service, org) == before


def test_a_filename_over_255_characters_is_422(alice: httpx.Client) -> None:
    response = alice.post("/files", files={"file": ("x" * 256 + ".txt", b"x")})
    assert response.status_code == 422
    assert response.json()["detail"][0]["type"] == "string_too_long"


BAD_FIELDS = {
    "metadata not JSON": ({"metadata": "not json"}, ["body", "metadata"], "json_invalid"),
    "metadata empty": ({"metadata": ""}, ["body", "metadata"], "json_invalid"),
    "metadata a list": ({"metadata": "[1, 2]"}, ["body", "metadata"], "dict_type"),
    "metadata NaN": ({"metadata": '{"a": NaN}'}, ["body", "metadata"], "json_invalid"),
    "metadata 10,000 keys": (
        {"metadata": json.dumps({f"k{i}": i for i in range(10_000)})},
        ["body", "metadata"],
        "value_error",
    ),
    "metadata key too long": (
        {"metadata": json.dumps({"k" * 129: 1})},
        ["body", "metadata"],
        "value_error",
    ),
    "purpose": ({"purpose": "fine-tune"}, ["body", "purpose"], "literal_error"),
    "workspace": ({"workspace": "Not Valid"}, ["body", "workspace"], "string_pattern_mismatch"),
    "instructions empty": ({"instructions": ""}, ["body", "instructions"], "string_too_short"),
    "unknown field": ({"colour": "red"}, ["body", "colour"], "extra_forbidden"),
}


@pytest.mark.parametrize(("fields", "loc", "kind"), BAD_FIELDS.values(), ids=BAD_FIELDS.keys())
def test_bad_form_fields_are_422_and_store_nothing(
    alice: httpx.Client, service: Service, org: str, fields: dict, loc: list, kind: str
) -> None:
    before = stored(service, org)
    response = alice.post("/files", files={"file": ("a.txt", b"a")}, data=fields)
    assert response.status_code == 422
    (item,) = response.json()["detail"]
    assert (item["loc"], item["type"], set(item)) == (loc, kind, {"loc", "msg", "type"})
    assert stored(service, org) == before


@pytest.mark.parametrize(
    ("parts", "loc", "kind"),
    [
        ([("purpose", None, b"user_data")], ["body", "file"], "missing"),
        ([("file", None, b"just text")], ["body", "file"], "value_error"),
        (
            [("file", "a.txt", b"a"), ("purpose", None, b"user_data")] * 2,
            ["body", "purpose"],
            "value_error",
        ),
        (
            [("file", "a.txt", b"a"), ("document", "b.txt", b"b")],
            ["body", "document"],
            "extra_forbidden",
        ),
        (
            [("file", "a.txt", b"a"), ("metadata", None, b"\xff\xfe")],
            ["body", "metadata"],
            "string_unicode",
        ),
    ],
    ids=["no file", "file as text", "purpose twice", "stray file field", "not UTF-8"],
)
def test_bad_form_shapes_are_422(
    alice: httpx.Client, service: Service, org: str, parts: list, loc: list, kind: str
) -> None:
    before = stored(service, org)
    response = _post_raw(alice, multipart(parts), "multipart/form-data; boundary=b0undary")
    assert response.status_code == 422
    assert (response.json()["detail"][0]["loc"], response.json()["detail"][0]["type"]) == (
        loc,
        kind,
    )
    assert stored(service, org) == before


@pytest.mark.parametrize(
    ("body", "content_type", "kind"),
    [
        (b'{"file": "a"}', "application/json", "multipart_type"),
        (b"file=a&purpose=user_data", "application/x-www-form-urlencoded", "multipart_type"),
        (b"--x\r\n", "multipart/form-data", "multipart_type"),
        (
            multipart([("file", "a.txt", b"a")])[:-20],
            "multipart/form-data; boundary=b0undary",
            "multipart_invalid",
        ),
        (
            b"garbage without any boundary",
            "multipart/form-data; boundary=b0undary",
            "multipart_invalid",
        ),
    ],
    ids=["json", "urlencoded", "no boundary", "truncated", "garbage"],
)
def test_bodies_that_are_not_multipart_are_422(
    alice: httpx.Client, service: Service, org: str, body: bytes, content_type: str, kind: str
) -> None:
    before = stored(service, org)
    response = _post_raw(alice, body, content_type)
    assert response.status_code == 422
    (item,) = response.json()["detail"]
    assert (item["loc"], item["type"]) == (["body"], kind)
    assert stored(service, org) == before


def test_instructions_derive_metadata_and_given_metadata_wins(alice: httpx.Client) -> None:
    (f,) = upload(
        alice,
        ("minutes.md", b"# Board minutes\n\nWe agreed to open an office in Lyon.\n"),
        metadata='{"title": "Given title", "team": "board"}',
        instructions="Extract the title and count the lines",
    )
    assert f["status_details"]
    assert f["metadata"]["title"] == "Given title"
    assert f["metadata"]["team"] == "board"
    assert len(f["metadata"]) > 2


def test_uploads_to_a_workspace_the_caller_cannot_write(
    client_of, service: Service, org: str
) -> None:
    ann, rita = client_of("ann"), client_of("rita")
    ann.post("/workspaces", json={"id": "ro", "name": "Read only"})
    ann.post("/workspaces/ro/user", json={"user": "rita", "access": "reader"})
    before = stored(service, org)
    assert (
        rita.post("/files", files={"file": ("a", b"a")}, data={"workspace": "ro"}).status_code
        == 403
    )
    assert (
        rita.post("/files", files={"file": ("a", b"a")}, data={"workspace": "nope"}).status_code
        == 404
    )
    assert stored(service, org) == before


def test_the_size_limit_is_413_as_bytes_arrive(small_limit: Service, org: str) -> None:
    mib = 1024 * 1024
    with httpx.Client(
        base_url=small_limit.url, headers=small_limit.headers("alice", org)
    ) as client:
        exactly = upload(client, ("limit.bin", b"\x00" * mib))
        assert exactly[0]["bytes"] == mib
        before = stored(small_limit, org)
        over = client.post(
            "/files",
            files=[("file", ("ok.bin", b"1" * 1000)), ("file", ("big.bin", b"2" * (mib + 1)))],
        )
        assert over.status_code == 413
        assert over.json()["detail"] == "File 'big.bin' is over the upload limit of 1 MiB."
        field = client.post(
            "/files", files={"file": ("a", b"a")}, data={"instructions": "x" * (mib + 1)}
        )
        assert field.status_code == 413
        assert "instructions" in field.json()["detail"]
        assert stored(small_limit, org) == before
        assert incoming_files(small_limit) == []
        assert client.get("/files").json()["total"] == 1


def test_files_limits_states_the_upload_limit(small_limit: Service, org: str) -> None:
    """What a client reads to refuse a larger file before sending it (docs/interface.md#upload)."""
    headers = small_limit.headers("alice", org)
    limits = httpx.get(small_limit.url + "/files/limits", headers=headers)
    assert limits.json() == {"object": "files.limits", "max_file_bytes": 1024 * 1024}
    assert httpx.get(small_limit.url + "/files/limits").status_code == 401


def _raw_upload_start(service: Service, org: str, size: int) -> tuple[socket.socket, bytes]:
    """A socket that has sent the headers of an upload of ``size`` bytes, and the body."""
    body = multipart([("file", "big.bin", os.urandom(size))])
    url = urlsplit(service.url)
    head = (
        f"POST /files HTTP/1.1\r\nHost: {url.netloc}\r\n"
        f"Authorization: Bearer {service.token('alice', org)}\r\n"
        "Content-Type: multipart/form-data; boundary=b0undary\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    sock = socket.create_connection((url.hostname, url.port))
    sock.sendall(head.encode())
    return sock, body


def test_an_interrupted_upload_leaves_nothing(
    service: Service, org: str, alice: httpx.Client
) -> None:
    before = stored(service, org)
    sock, body = _raw_upload_start(service, org, 4 * 1024 * 1024)
    with sock:
        sock.sendall(body[: len(body) // 2])
    service.wait_for_log(f"upload by alice of {org} interrupted")
    assert incoming_files(service) == []
    assert stored(service, org) == before
    assert alice.get("/files").json()["total"] == 0


def test_a_crash_mid_upload_is_swept_on_restart(tmp_path: Path, org: str) -> None:
    data = tmp_path / "data"
    with running_service(data) as svc:
        sock, body = _raw_upload_start(svc, org, 8 * 1024 * 1024)
        with sock:
            sock.sendall(body[: len(body) // 2])
            partial = wait_until(
                lambda: [p for p in (data / "blobs" / ".incoming").iterdir() if p.stat().st_size]
            )
            svc.process.send_signal(signal.SIGKILL)
            svc.process.wait()
        assert partial[0].exists()
    with running_service(data) as svc:
        svc.wait_for_log("stray blob(s) removed")
        assert incoming_files(svc) == []
        assert blob_files(svc) == []
        with httpx.Client(base_url=svc.url, headers=svc.headers("alice", org)) as client:
            assert client.get("/files").json()["total"] == 0
        assert json.loads((data / "service.json").read_text())["url"] == svc.url


def _peak_rss_kib(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith("VmHWM:")).split()[1])


@pytest.mark.slow
def test_a_large_upload_streams_without_holding_the_body(tmp_path: Path, org: str) -> None:
    size, chunk = 256 * 1024 * 1024, 1024 * 1024
    boundary = "s1ze"
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n'
    )
    digest = hashlib.sha256()

    def body() -> Iterator[bytes]:
        yield head.encode()
        block = bytes(range(256)) * (chunk // 256)
        for _ in range(size // chunk):
            digest.update(block)
            yield block
        yield f"\r\n--{boundary}--\r\n".encode()

    with running_service(tmp_path / "data") as svc:
        baseline = _peak_rss_kib(svc.process.pid)
        with httpx.Client(
            base_url=svc.url, headers=svc.headers("alice", org), timeout=300
        ) as client:
            response = client.post(
                "/files",
                content=body(),
                headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
            )
            assert response.status_code == 200, response.text
            (f,) = response.json()
            assert f["bytes"] == size
            rows = stored(svc, org)["files"]
            assert digest.hexdigest() in rows[0]
        growth_mib = (_peak_rss_kib(svc.process.pid) - baseline) / 1024
        assert growth_mib < 64, f"the service grew by {growth_mib:.0f} MiB for a 256 MiB upload"
