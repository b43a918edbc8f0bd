"""Helpers of the service-platform tests (workspaces, files, auth, CLI, persistence).

``stored(service, org)`` reads what the service has persisted for one org straight from
its database (SQLite or PostgreSQL) and its blob store (the data dir or a bucket), so that
a test can prove that a rejected request changed nothing.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable, Iterable
from typing import Any

import boto3
import httpx
import sqlalchemy as sa

from chatspace.client import Client
from chatspace.types.files import VECTORS_PENDING
from support.service import Service

__all__ = [
    "blob_files",
    "blob_of",
    "client_vectors_stored",
    "delete_blob",
    "incoming_files",
    "multipart",
    "rows",
    "stored",
    "upload",
    "wait_until",
    "with_vectors",
    "write",
]

_ORG_TABLES = ("workspaces", "workspace_users", "files", "passages", "completions")


@functools.cache
def _engine(url: str) -> sa.Engine:
    return sa.create_engine(url, poolclass=sa.NullPool)


def rows(service: Service, query: str, **params: Any) -> list[tuple[Any, ...]]:
    """The rows of a SQL query on the service's database (``:name`` parameters), with
    JSON values as their text (sorted keys), so that rows compare on every engine."""
    with _engine(service.database_url).connect() as conn:
        found = conn.execute(sa.text(query), params).all()
    return [
        tuple(json.dumps(v, sort_keys=True) if isinstance(v, dict | list) else v for v in row)
        for row in found
    ]


def write(service: Service, statement: str, **params: Any) -> None:
    """Change the service's database behind its back (a test's way to damage or age a row)."""
    with _engine(service.database_url).begin() as conn:
        conn.execute(sa.text(statement), params)


def stored(service: Service, org: str) -> dict[str, Any]:
    """Every row of ``org`` in the service's tables, its idempotency keys, and every blob."""
    state: dict[str, Any] = {
        table: sorted(rows(service, f"SELECT * FROM {table} WHERE org_id = :o", o=org))
        for table in _ORG_TABLES
    }
    state["idempotency_keys"] = sorted(
        rows(
            service,
            "SELECT org_id, user_id, key, fingerprint FROM idempotency_keys WHERE org_id = :o",
            o=org,
        )
    )
    state["blobs"] = blob_files(service)
    state["incoming"] = incoming_files(service)
    return state


def blob_files(service: Service) -> list[str]:
    """The names of the blobs the service keeps (and, in a bucket, of the uploads it has
    left open), relative to its blob store."""
    if service.blob_store is not None:
        return _bucket_blobs(service, service.blob_store)
    root = service.data_dir / "blobs"
    return sorted(
        str(p.relative_to(root))
        for p in root.rglob("*")
        if p.is_file() and ".incoming" not in p.parts
    )


def blob_of(service: Service, file_id: str) -> str:
    """The name of a file's blob, as :func:`blob_files` lists it."""
    ((blob,),) = rows(service, "SELECT blob FROM files WHERE id = :id", id=file_id)
    return str(blob)


def delete_blob(service: Service, name: str) -> None:
    """Remove a blob behind the service's back (what a racing delete leaves)."""
    if service.blob_store is None:
        (service.data_dir / "blobs" / name).unlink()
        return
    s3, bucket, prefix = _bucket(service, service.blob_store)
    s3.delete_object(Bucket=bucket, Key=prefix + name)


def _bucket(service: Service, url: str) -> tuple[Any, str, str]:
    """A client of the service's bucket, the bucket and the prefix of its blobs."""
    bucket, _, prefix = url.removeprefix("s3://").partition("/")
    env = service.s3_env
    s3 = boto3.session.Session().client(
        "s3",
        endpoint_url=env["AWS_ENDPOINT_URL"],
        aws_access_key_id=env["AWS_ACCESS_KEY_ID"],
        aws_secret_access_key=env["AWS_SECRET_ACCESS_KEY"],
        region_name=env.get("AWS_REGION", "us-east-1"),
    )
    return s3, bucket, prefix.strip("/") + "/" if prefix.strip("/") else ""


def _bucket_blobs(service: Service, url: str) -> list[str]:
    s3, bucket, prefix = _bucket(service, url)
    names = [
        o["Key"].removeprefix(prefix)
        for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix)
        for o in page.get("Contents", [])
    ]
    uploads = s3.list_multipart_uploads(Bucket=bucket, Prefix=prefix).get("Uploads", [])
    names += [f"(open upload) {u['Key'].removeprefix(prefix)}" for u in uploads]
    return sorted(names)


def incoming_files(service: Service) -> list[str]:
    return sorted(p.name for p in (service.data_dir / "blobs" / ".incoming").iterdir())


def upload(
    client: httpx.Client,
    *files: tuple[str, bytes],
    expect: int = 200,
    **fields: str,
) -> Any:
    """``POST /files`` with these ``(filename, bytes)`` parts and text fields; the JSON
    answer (the files once their vectors are stored, when it is a 200)."""
    response = client.post(
        "/files", files=[("file", (name, data)) for name, data in files], data=fields
    )
    assert response.status_code == expect, response.text
    return with_vectors(client, response.json()) if expect == 200 else response.json()


def with_vectors(client: httpx.Client, files: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The files again, once their ``status_details`` no longer say their passages wait
    for vectors (the background embedder's work: docs/interface.md#upload)."""

    def settled(file: dict[str, Any]) -> dict[str, Any] | None:
        url = f"/files/{file['id']}"
        now = client.get(url, params={"workspace": file["workspace_id"]}).json()
        return None if VECTORS_PENDING in now["status_details"] else now

    return [wait_until(lambda f=f: settled(f)) for f in files]


def client_vectors_stored(client: Client, workspace: str | None = None) -> None:
    """Wait, through the Python client, until no file of the workspace says its passages
    wait for vectors (a test comparing two searches needs the same passages scored)."""
    wait_until(
        lambda: (
            not any(
                VECTORS_PENDING in f.status_details for f in client.files.list(workspace=workspace)
            )
        )
    )


def multipart(parts: list[tuple[str, str | None, bytes]], boundary: str = "b0undary") -> bytes:
    """A hand-made multipart body: ``(name, filename or None, data)`` per part."""
    out = b""
    for name, filename, data in parts:
        disposition = f'form-data; name="{name}"'
        if filename is not None:
            disposition += f'; filename="{filename}"'
        out += f"--{boundary}\r\nContent-Disposition: {disposition}\r\n\r\n".encode() + data
        out += b"\r\n"
    return out + f"--{boundary}--\r\n".encode()


def wait_until(condition: Callable[[], Any], timeout: float = 15.0) -> Any:
    """Wait for something only observable from outside (a file on disk, a log line)."""
    deadline = time.monotonic() + timeout
    while not (result := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met within {timeout} s")
        time.sleep(0.02)
    return result
