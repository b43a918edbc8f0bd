"""The S3 blob store (``--blob-store s3://bucket/prefix``) against a real S3 server,
SeaweedFS: the file endpoints behave as with the data dir (the same tests run here against
a service on S3), and the store's own promises: deletes remove the object, a failed or cut
upload leaves no object, no open multipart upload and no row, memory stays flat whatever
the size, the sweep removes debris, and credentials never show."""

from __future__ import annotations

import hashlib
import os
import socket
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

# The file tests of the data dir, run here against the service on S3 (the module's own
# ``service`` fixture below replaces the session's for them).
from test_files import (  # noqa: F401
    five,
    test_bad_list_queries_are_422,
    test_content_headers,
    test_cursor_pagination,
    test_filters,
    test_get_and_list,
    test_patch_metadata_merges_and_removes,
    test_patch_with_instructions_derives_metadata,
    test_ranges,
    test_readers_read_but_do_not_write,
    test_unknown_cursor_is_404,
    test_workspace_scoping,
)
from test_uploads import (  # noqa: F401
    test_an_interrupted_upload_leaves_nothing,
    test_bad_form_fields_are_422_and_store_nothing,
    test_instructions_derive_metadata_and_given_metadata_wins,
    test_names_escaped_by_the_html_form_encoding_are_restored,
    test_several_files_in_one_request,
    test_unusable_filenames_are_422,
    test_uploads_to_a_workspace_the_caller_cannot_write,
)

from support.platform import incoming_files, multipart, rows, stored, upload, wait_until
from support.s3_server import ACCESS_KEY, SECRET_KEY, S3Server, running_seaweedfs
from support.service import Service, running_service, start_service

pytestmark = pytest.mark.s3

MIB = 1024 * 1024
LIMIT_MB = 8
"""The module's service takes files up to 8 MiB: enough for the tests above, and a file
one part over it shows a failed multipart upload."""


@pytest.fixture(scope="session")
def seaweedfs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[S3Server]:
    with running_seaweedfs(tmp_path_factory.mktemp("seaweedfs")) as server:
        yield server


@pytest.fixture(scope="module")
def bucket(seaweedfs: S3Server) -> str:
    return seaweedfs.new_bucket()


@pytest.fixture(scope="module")
def service(
    tmp_path_factory: pytest.TempPathFactory, seaweedfs: S3Server, bucket: str
) -> Iterator[Service]:
    """The service of this module: file bytes in ``s3://<bucket>/files/``."""
    with running_service(
        tmp_path_factory.mktemp("s3-service"),
        "--blob-store",
        f"s3://{bucket}/files",
        "--max-upload-mb",
        str(LIMIT_MB),
        env=seaweedfs.env,
    ) as svc:
        yield svc


def _objects(server: S3Server, bucket: str) -> dict[str, int]:
    listed = server.client().list_objects_v2(Bucket=bucket)
    return {o["Key"]: o["Size"] for o in listed.get("Contents", [])}


def _open_uploads(server: S3Server, bucket: str) -> list[str]:
    return [
        u["Key"] for u in server.client().list_multipart_uploads(Bucket=bucket).get("Uploads", [])
    ]


def _blob_of(service: Service, org: str, file_id: str) -> str:
    query = "SELECT blob FROM files WHERE org_id = :o AND id = :f"
    ((blob,),) = rows(service, query, o=org, f=file_id)
    return str(blob)


def test_bytes_live_in_the_bucket_and_deleting_removes_them(
    alice: httpx.Client, service: Service, seaweedfs: S3Server, bucket: str, org: str
) -> None:
    data = b"Once upon a time there was a fox. " * 50
    (doc,) = upload(alice, ("story.txt", data))
    key = "files/" + _blob_of(service, org, doc["id"])
    assert "story" not in key  # named from random bytes, never from the upload's name
    assert _objects(seaweedfs, bucket)[key] == len(data)
    assert incoming_files(service) == []
    assert "fox" in alice.get(f"/files/{doc['id']}/text").text
    assert alice.delete(f"/files/{doc['id']}").status_code == 200
    assert key not in _objects(seaweedfs, bucket)
    assert alice.get(f"/files/{doc['id']}/content").status_code == 404


def test_deleting_a_workspace_removes_its_objects(
    alice: httpx.Client, service: Service, seaweedfs: S3Server, bucket: str, org: str
) -> None:
    assert alice.post("/workspaces", json={"id": "gone", "name": "Gone"}).status_code == 200
    kept = upload(alice, ("kept.txt", b"kept"))
    files = upload(alice, *[(f"f{i}.txt", b"x" * i) for i in range(3)], workspace="gone")
    keys = {"files/" + _blob_of(service, org, f["id"]) for f in files + kept}
    assert keys <= set(_objects(seaweedfs, bucket))
    assert alice.delete("/workspaces/gone").status_code == 200
    left = keys & set(_objects(seaweedfs, bucket))
    assert left == {"files/" + _blob_of(service, org, kept[0]["id"])}


def test_a_multipart_upload_round_trips_with_ranges(alice: httpx.Client) -> None:
    data = os.urandom(7 * MIB + 123)  # two parts: 5 MiB and the rest
    (f,) = upload(alice, ("big.bin", data))
    url = f"/files/{f['id']}/content"
    whole = alice.get(url)
    assert (whole.status_code, whole.content) == (200, data)
    assert whole.headers["accept-ranges"] == "bytes"
    across = alice.get(url, headers={"Range": f"bytes={5 * MIB - 10}-{5 * MIB + 9}"})
    assert across.status_code == 206
    assert across.content == data[5 * MIB - 10 : 5 * MIB + 10]
    assert across.headers["content-range"] == f"bytes {5 * MIB - 10}-{5 * MIB + 9}/{len(data)}"
    stale = alice.get(url, headers={"Range": "bytes=0-9", "If-Range": '"another-version"'})
    assert (stale.status_code, stale.content) == (200, data)
    fresh = alice.get(url, headers={"Range": "bytes=0-9", "If-Range": whole.headers["etag"]})
    assert (fresh.status_code, fresh.content) == (206, data[:10])


def test_a_failed_upload_leaves_no_object_and_no_row(
    alice: httpx.Client, service: Service, seaweedfs: S3Server, bucket: str, org: str
) -> None:
    before = (_objects(seaweedfs, bucket), stored(service, org))
    over = alice.post(
        "/files",
        files=[("file", ("ok.txt", b"fine")), ("file", ("big.bin", b"x" * (LIMIT_MB * MIB + 1)))],
    )
    assert over.status_code == 413
    assert (_objects(seaweedfs, bucket), stored(service, org)) == before
    assert _open_uploads(seaweedfs, bucket) == []
    assert incoming_files(service) == []


def test_a_cut_upload_leaves_no_object_and_no_row(
    alice: httpx.Client, service: Service, seaweedfs: S3Server, bucket: str, org: str
) -> None:
    before = (_objects(seaweedfs, bucket), stored(service, org))
    body = multipart([("file", "cut.bin", os.urandom(7 * MIB))])
    url = urlsplit(service.url)
    head = (
        f"POST /files HTTP/1.1\r\nHost: {url.netloc}\r\n"
        f"Authorization: Bearer {service.token('alice', org)}\r\n"
        "Content-Type: multipart/form-data; boundary=b0undary\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    with socket.create_connection((url.hostname, url.port)) as sock:
        sock.sendall(head.encode() + body[: 6 * MIB])
        wait_until(lambda: _open_uploads(seaweedfs, bucket))  # its first part is in the bucket
    service.wait_for_log(f"upload by alice of {org} interrupted")
    wait_until(lambda: _open_uploads(seaweedfs, bucket) == [])
    assert (_objects(seaweedfs, bucket), stored(service, org)) == before
    assert incoming_files(service) == []
    assert alice.get("/files").json()["total"] == 0


def _peak_rss_mib(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    line = next(line for line in status.splitlines() if line.startswith("VmHWM:"))
    return int(line.split()[1]) / 1024


def _stream_upload(client: httpx.Client, size: int) -> dict[str, Any]:
    """Upload ``size`` bytes made on the fly (the test never holds them either)."""
    boundary, chunk = "s1ze", MIB
    digest = hashlib.sha256()

    def body() -> Iterator[bytes]:
        yield (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
            'filename="big.bin"\r\n\r\n'
        ).encode()
        for i in range(size // chunk):
            block = i.to_bytes(8, "big") * (chunk // 8)
            digest.update(block)
            yield block
        yield f"\r\n--{boundary}--\r\n".encode()

    response = client.post(
        "/files",
        content=body(),
        headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
    )
    assert response.status_code == 200, response.text
    (f,) = response.json()
    assert f["bytes"] == size
    return {"file": f, "sha256": digest.hexdigest()}


LARGE = 160 * MIB


def test_memory_stays_flat_for_a_large_upload(
    tmp_path: Path, seaweedfs: S3Server, org: str
) -> None:
    bucket = seaweedfs.new_bucket()
    with (
        running_service(
            tmp_path / "data", "--blob-store", f"s3://{bucket}", env=seaweedfs.env
        ) as svc,
        httpx.Client(base_url=svc.url, headers=svc.headers("alice", org), timeout=300) as client,
    ):
        # The small upload already takes the multipart path (two parts): what grows with
        # the size of a file is measured, not the first use of the S3 client.
        _stream_upload(client, 6 * MIB)
        small = _peak_rss_mib(svc.process.pid)
        started = time.monotonic()
        sent = _stream_upload(client, LARGE)
        seconds = time.monotonic() - started
        large = _peak_rss_mib(svc.process.pid)
        key = _blob_of(svc, org, sent["file"]["id"])
        obj = seaweedfs.client().head_object(Bucket=bucket, Key=key)
        assert obj["ContentLength"] == LARGE
        assert sent["sha256"] in str(stored(svc, org)["files"])
    ratio = large / small
    print(
        f"peak RSS {small:.0f} MiB after 6 MiB, {large:.0f} MiB after {LARGE // MIB} MiB "
        f"(ratio {ratio:.3f}); the large upload took {seconds:.1f} s"
    )
    assert large - small < 32, f"the service grew by {large - small:.0f} MiB for {LARGE} bytes"
    assert ratio < 1.2


@pytest.mark.parametrize("kind", ["local", "s3"])
def test_both_stores_keep_one_contract(
    kind: str, tmp_path: Path, seaweedfs: S3Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    from chatspace.service.store.blobs import open_blob_store

    for name, value in seaweedfs.env.items():
        monkeypatch.setenv(name, value)
    url = f"s3://{seaweedfs.new_bucket()}/c" if kind == "s3" else None
    store = open_blob_store(url, data_dir=tmp_path)
    data = os.urandom(6 * MIB)
    temp = store.new_temp()
    for start in range(0, len(data), 100_000):
        temp.write(data[start : start + 100_000])
    temp.close()
    assert (temp.size, temp.sha256) == (len(data), hashlib.sha256(data).hexdigest())
    assert temp.path.read_bytes() == data  # what text extraction reads
    name = store.place(temp, "file-abcdefghijklmnopqrstuvwx")
    temp.discard()
    assert store.stat(name).size == len(data)
    assert b"".join(store.read(name, 5, 5 * MIB + 5)) == data[5 : 5 * MIB + 5]
    assert b"".join(store.read(name, 0, 0)) == b""
    with store.local_copy(name) as path:
        assert path.read_bytes() == data
    store.delete(name)
    with pytest.raises(FileNotFoundError):
        store.stat(name)
    with store.local_copy(name) as path:
        assert not path.exists()
    dropped = store.new_temp()
    dropped.write(data)
    dropped.discard()
    assert not dropped.path.exists()
    assert store.sweep(referenced=set()) == []
    if kind == "s3":
        assert _open_uploads(seaweedfs, url.split("/")[2]) == []


def test_the_sweep_removes_stray_objects_and_stale_uploads(
    tmp_path: Path, seaweedfs: S3Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    from chatspace.service.store.blobs import LocalBlobStore
    from chatspace.service.store.blobs_s3 import S3BlobStore

    for name, value in seaweedfs.env.items():
        monkeypatch.setenv(name, value)
    bucket = seaweedfs.new_bucket()
    store = S3BlobStore.from_url(f"s3://{bucket}/p", spool=LocalBlobStore(tmp_path / "blobs"))
    s3 = seaweedfs.client()
    for name in ("aa/kept", "bb/stray"):
        s3.put_object(Bucket=bucket, Key=f"p/{name}", Body=b"x")
    s3.put_object(Bucket=bucket, Key="elsewhere/stray", Body=b"x")  # not under the prefix
    s3.create_multipart_upload(Bucket=bucket, Key="p/cc/crashed")
    dead = tmp_path / "blobs" / ".incoming" / "999999999-abc.part"
    dead.write_bytes(b"partial")
    # Young debris may be another replica's upload between its object and its row.
    assert store.sweep(referenced={"aa/kept"}) == [".incoming/999999999-abc.part"]
    assert sorted(_objects(seaweedfs, bucket)) == ["elsewhere/stray", "p/aa/kept", "p/bb/stray"]
    later = time.time() + 2 * 86400
    removed = store.sweep(referenced={"aa/kept"}, now=later)
    assert sorted(removed) == ["bb/stray", "cc/crashed (unfinished upload)"]
    assert sorted(_objects(seaweedfs, bucket)) == ["elsewhere/stray", "p/aa/kept"]
    assert _open_uploads(seaweedfs, bucket) == []


def test_credentials_never_show(
    service: Service, alice: httpx.Client, seaweedfs: S3Server, tmp_path: Path
) -> None:
    upload(alice, ("a.txt", b"some text"))
    alice.get("/files/file-doesnotexist/content")
    secrets = (ACCESS_KEY, SECRET_KEY)
    processes = subprocess.run(["ps", "-eww", "-o", "args"], capture_output=True, text=True).stdout
    assert "--blob-store" in processes
    assert not any(s in processes for s in secrets)
    cmdline = Path(f"/proc/{service.process.pid}/cmdline").read_bytes().decode()
    assert not any(s in cmdline for s in secrets)
    assert not any(s in "".join(service.log) for s in secrets)
    # A store that cannot be used stops the service at start, saying why, without them.
    for url, env, why in [
        ("s3://no-such-bucket-here/x", seaweedfs.env, "S3 error"),
        ("s3://anything/x", {**seaweedfs.env, "AWS_ENDPOINT_URL": "http://127.0.0.1:9"}, "reached"),
    ]:
        with pytest.raises(Exception) as failed:  # noqa: PT011 - start_service's own error
            start_service(tmp_path / uuid.uuid4().hex, "--blob-store", url, env=env)
        output = str(failed.value)
        assert why in output
        assert url.split("/x")[0] in output
        assert not any(s in output for s in secrets)
