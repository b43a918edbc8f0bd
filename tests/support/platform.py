"""Helpers of the service-platform tests (workspaces, files, auth, CLI, persistence).

``stored(service, org)`` reads what the service has persisted for one org straight from
its SQLite file (read-only) and its blob directory, so that a test can prove that a
rejected request changed nothing.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from contextlib import closing
from typing import Any

import httpx

from support.service import Service

__all__ = ["blob_files", "incoming_files", "multipart", "stored", "upload", "wait_until"]

_ORG_TABLES = ("workspaces", "workspace_users", "files", "passages", "completions")


def stored(service: Service, org: str) -> dict[str, Any]:
    """Every row of ``org`` in the service's tables, its idempotency keys, and every blob."""
    db = service.data_dir / "chatspace.db"
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        state: dict[str, Any] = {
            table: sorted(
                conn.execute(f"SELECT * FROM {table} WHERE org_id = ?", (org,)).fetchall()
            )
            for table in _ORG_TABLES
        }
        state["idempotency_keys"] = sorted(
            conn.execute(
                "SELECT org_id, user_id, key, fingerprint FROM idempotency_keys WHERE org_id = ?",
                (org,),
            ).fetchall()
        )
    state["blobs"] = blob_files(service)
    state["incoming"] = incoming_files(service)
    return state


def blob_files(service: Service) -> list[str]:
    root = service.data_dir / "blobs"
    return sorted(
        str(p.relative_to(root))
        for p in root.rglob("*")
        if p.is_file() and ".incoming" not in p.parts
    )


def incoming_files(service: Service) -> list[str]:
    return sorted(p.name for p in (service.data_dir / "blobs" / ".incoming").iterdir())


def upload(
    client: httpx.Client,
    *files: tuple[str, bytes],
    expect: int = 200,
    **fields: str,
) -> Any:
    """``POST /files`` with these ``(filename, bytes)`` parts and text fields; the JSON answer."""
    response = client.post(
        "/files", files=[("file", (name, data)) for name, data in files], data=fields
    )
    assert response.status_code == expect, response.text
    return response.json()


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
