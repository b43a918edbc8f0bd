"""File bytes in an S3-compatible bucket (``--blob-store s3://bucket/prefix``).

Endpoint, credentials and region come from the environment, as for every AWS tool
(``AWS_ENDPOINT_URL``, ``AWS_ACCESS_KEY_ID``, ``AWS_SECRET_ACCESS_KEY``, ``AWS_REGION``):
they never appear on a command line, in a log line or in an answer.

Why boto3 (not obstore): the store needs the S3 multipart API itself, not a managed
transfer: an upload is sent part by part while the form is parsed and aborted when it
fails, and the start-up sweep lists the multipart uploads a crash left open
(``ListMultipartUploads``) to abort them. boto3 exposes every call, is maintained by AWS,
resolves the standard environment (``AWS_ENDPOINT_URL`` included) itself, and its calls
are blocking, as the store's contract is (the service runs them in worker threads).
obstore (Rust ``object_store``) has a smaller footprint but hides the parts behind its
writer and cannot list or abort another process's uploads, which would leave a crash's
debris to a bucket lifecycle rule.

Layout under the prefix::

    <xx>/<blob-id>    stored blobs; ``files.blob`` holds ``<xx>/<blob-id>``

A blob is named when its upload starts (before its file has an id: the first part is
on its way while the form is still being read), from random bytes, never from the
uploaded filename. Bytes arrive in :class:`S3TempBlob`, which sends every 5 MiB as a
part of a multipart upload (so memory stays flat whatever the size) and keeps a local
spool copy in ``<data-dir>/blobs/.incoming`` for text extraction, removed with the request.
An upload of less than one part is sent with one ``PutObject`` when it is placed.
Nothing is visible in the bucket before :meth:`S3BlobStore.place` completes the upload,
inside the write transaction of the file's row; a failed or cut upload is aborted.
"""

from __future__ import annotations

import logging
import os
import re
import secrets
import time
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from . import StoreUnavailable
from .blobs import BlobStat, LocalBlobStore, LocalTempBlob, TempBlob

__all__ = ["PART_SIZE", "BlobStoreUnavailable", "S3BlobStore", "S3TempBlob", "parse_url"]

log = logging.getLogger("chatspace.service.blobs")

PART_SIZE = 5 * 1024 * 1024
"""The smallest part S3 accepts (but the last): what one upload holds in memory."""
ORPHAN_GRACE_SECONDS = 3600.0
"""An object without a row is only swept once this old (another replica may be between
completing its upload and committing its row)."""
STALE_UPLOAD_SECONDS = 24 * 3600.0
"""A multipart upload open this long is debris of a crash: the sweep aborts it."""
_READ_CHUNK = 64 * 1024
_DELETE_BATCH = 1000
"""The most keys one DeleteObjects call takes."""
_BUCKET = re.compile(r"^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$")


class BlobStoreUnavailable(StoreUnavailable):
    """The bucket cannot be used (unreachable, missing, or the credentials refused)."""


def parse_url(url: str) -> tuple[str, str]:
    """``s3://bucket/some/prefix`` -> ``("bucket", "some/prefix/")``; ValueError if not one."""
    if not url.startswith("s3://"):
        raise ValueError("the blob store must be an s3://bucket/prefix URL")
    bucket, _, prefix = url[len("s3://") :].partition("/")
    if not _BUCKET.match(bucket):
        raise ValueError(f"{bucket!r} is not a valid S3 bucket name")
    prefix = prefix.strip("/")
    return bucket, f"{prefix}/" if prefix else ""


def _missing(exc: ClientError) -> bool:
    return exc.response.get("Error", {}).get("Code") in {"404", "NoSuchKey", "NotFound"}


def _body_chunks(body: Any) -> Iterator[bytes]:
    """A GET's body in chunks, closed when done or abandoned."""
    try:
        yield from body.iter_chunks(_READ_CHUNK)
    finally:
        body.close()


class S3TempBlob:
    """An upload in progress: spooled locally, and sent to the bucket 5 MiB at a time."""

    def __init__(self, store: S3BlobStore, spool: LocalTempBlob) -> None:
        self.store = store
        self.spool = spool
        self.path = spool.path
        token = secrets.token_hex(16)
        self.name = f"{token[:2]}/{token}"
        self._buffer = bytearray()
        self._upload_id: str | None = None
        self._parts: list[dict[str, Any]] = []
        self._placed = False

    @property
    def size(self) -> int:
        return self.spool.size

    @property
    def sha256(self) -> str:
        return self.spool.sha256

    def write(self, data: bytes) -> None:
        self.spool.write(data)
        self._buffer += data
        if len(self._buffer) >= PART_SIZE:
            self._send_part()

    def _send_part(self) -> None:
        s3, key = self.store.client, self.store.key(self.name)
        if self._upload_id is None:
            created = s3.create_multipart_upload(Bucket=self.store.bucket, Key=key)
            self._upload_id = created["UploadId"]
        number = len(self._parts) + 1
        sent = s3.upload_part(
            Bucket=self.store.bucket,
            Key=key,
            UploadId=self._upload_id,
            PartNumber=number,
            Body=bytes(self._buffer),
        )
        self._parts.append({"PartNumber": number, "ETag": sent["ETag"]})
        self._buffer.clear()

    def close(self) -> None:
        """The upload is whole: send its last part (a multipart upload's last may be small)."""
        self.spool.close()
        if self._upload_id is not None and self._buffer:
            self._send_part()

    def complete(self) -> None:
        """Make the object visible under its name (called by :meth:`S3BlobStore.place`)."""
        self.close()
        s3, key = self.store.client, self.store.key(self.name)
        if self._upload_id is None:
            s3.put_object(Bucket=self.store.bucket, Key=key, Body=bytes(self._buffer))
            self._buffer.clear()
        else:
            s3.complete_multipart_upload(
                Bucket=self.store.bucket,
                Key=key,
                UploadId=self._upload_id,
                MultipartUpload={"Parts": self._parts},
            )
        self._placed = True

    def discard(self) -> None:
        """Remove the spool copy; abort the multipart upload unless it was placed."""
        self.spool.discard()
        self._buffer.clear()
        if self._upload_id is not None and not self._placed:
            upload_id, self._upload_id = self._upload_id, None
            try:
                self.store.client.abort_multipart_upload(
                    Bucket=self.store.bucket, Key=self.store.key(self.name), UploadId=upload_id
                )
            except (BotoCoreError, ClientError) as exc:  # the sweep aborts it later
                log.warning("aborting an upload failed (%s); the sweep will", type(exc).__name__)


class S3BlobStore:
    """Blobs in ``bucket`` under ``prefix``; every method is blocking."""

    def __init__(self, client: Any, bucket: str, prefix: str, *, spool: LocalBlobStore) -> None:
        self.client = client
        self.bucket = bucket
        self.prefix = prefix
        self.spool = spool

    @classmethod
    def from_url(cls, url: str, *, spool: LocalBlobStore) -> S3BlobStore:
        """The store of ``s3://bucket/prefix``, its client configured by the environment.

        Raises :class:`BlobStoreUnavailable` when the bucket cannot be reached.
        """
        bucket, prefix = parse_url(url)
        endpoint = os.environ.get("AWS_ENDPOINT_URL_S3") or os.environ.get("AWS_ENDPOINT_URL")
        config = Config(
            region_name=os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION"),
            # Third-party S3 servers (SeaweedFS, MinIO, Ceph...) do not all accept the
            # default CRC32 trailers of botocore >= 1.36: checksums only where required.
            request_checksum_calculation="when_required",
            response_checksum_validation="when_required",
            retries={"mode": "standard", "max_attempts": 4},
            max_pool_connections=32,
            # An endpoint of its own (an IP address, a port) rarely resolves bucket subdomains.
            s3={"addressing_style": "path" if endpoint else "auto"},
        )
        client = boto3.session.Session().client("s3", config=config)
        where = f"s3://{bucket}/{prefix}" + (f" at {endpoint}" if endpoint else "")
        try:
            client.head_bucket(Bucket=bucket)
        except ClientError as exc:
            code = exc.response.get("Error", {}).get("Code", "?")
            raise BlobStoreUnavailable(
                f"The blob store {where} cannot be used (S3 error {code}): check the bucket "
                "exists and that AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY may use it."
            ) from None
        except BotoCoreError as exc:
            raise BlobStoreUnavailable(
                f"The blob store {where} cannot be reached ({type(exc).__name__}): check "
                "AWS_ENDPOINT_URL and AWS_REGION, and that credentials are set."
            ) from None
        return cls(client, bucket, prefix, spool=spool)

    def key(self, name: str) -> str:
        return self.prefix + name

    def new_temp(self) -> S3TempBlob:
        return S3TempBlob(self, self.spool.new_temp())

    def place(self, temp: TempBlob, file_id: str) -> str:
        assert isinstance(temp, S3TempBlob), "a temp blob of another store"
        temp.complete()
        return temp.name

    def delete(self, name: str) -> None:
        self.client.delete_object(Bucket=self.bucket, Key=self.key(name))

    def delete_many(self, names: Iterable[str]) -> None:
        keys = [{"Key": self.key(name)} for name in names]
        for start in range(0, len(keys), _DELETE_BATCH):
            batch = keys[start : start + _DELETE_BATCH]
            done = self.client.delete_objects(
                Bucket=self.bucket, Delete={"Objects": batch, "Quiet": True}
            )
            if failed := done.get("Errors"):  # left for the sweep: no row names them now
                log.warning("%d object(s) could not be deleted; the sweep will", len(failed))

    def local_copy(self, name: str) -> AbstractContextManager[Path]:
        return self._downloaded(name)

    @contextmanager
    def _downloaded(self, name: str) -> Iterator[Path]:
        temp = self.spool.new_temp()
        try:
            try:
                got = self.client.get_object(Bucket=self.bucket, Key=self.key(name))
            except ClientError as exc:
                if not _missing(exc):
                    raise
                temp.discard()  # a path that does not exist, as for a local blob
            else:
                body = got["Body"]
                try:
                    for chunk in body.iter_chunks(_READ_CHUNK):
                        temp.write(chunk)
                finally:
                    body.close()
                temp.close()
            yield temp.path
        finally:
            temp.discard()

    def stat(self, name: str) -> BlobStat:
        try:
            head = self.client.head_object(Bucket=self.bucket, Key=self.key(name))
        except ClientError as exc:
            if _missing(exc):
                raise FileNotFoundError(name) from None
            raise
        return BlobStat(head["ContentLength"], head["ETag"], head["LastModified"].timestamp())

    def read(self, name: str, start: int, end: int) -> Iterator[bytes]:
        if end <= start:
            return iter(())
        try:
            got = self.client.get_object(
                Bucket=self.bucket, Key=self.key(name), Range=f"bytes={start}-{end - 1}"
            )
        except ClientError as exc:
            if _missing(exc):
                raise FileNotFoundError(name) from None
            raise
        return _body_chunks(got["Body"])

    def stored_names(self) -> list[tuple[str, float]]:
        """Every object under the prefix: its name and when it was written."""
        found: list[tuple[str, float]] = []
        pages = self.client.get_paginator("list_objects_v2")
        for page in pages.paginate(Bucket=self.bucket, Prefix=self.prefix):
            for item in page.get("Contents", []):
                name = item["Key"][len(self.prefix) :]
                found.append((name, item["LastModified"].timestamp()))
        return found

    def open_uploads(self) -> list[tuple[str, str, float]]:
        """Multipart uploads in progress under the prefix: name, upload id, start time."""
        found: list[tuple[str, str, float]] = []
        pages = self.client.get_paginator("list_multipart_uploads")
        for page in pages.paginate(Bucket=self.bucket, Prefix=self.prefix):
            for item in page.get("Uploads", []):
                name = item["Key"][len(self.prefix) :]
                found.append((name, item["UploadId"], item["Initiated"].timestamp()))
        return found

    def sweep(self, *, referenced: set[str], now: float | None = None) -> list[str]:
        """Remove what a crash left: spool files of dead processes, objects no row names
        (once an hour old), multipart uploads open for a day; returns what was removed."""
        now = time.time() if now is None else now
        # Only the spool's uploads in progress: blobs of an earlier local store stay.
        removed = self.spool.sweep(referenced=set(self.spool.stored_names()), now=now)
        swept = len(removed)
        for name, written in self.stored_names():
            if name not in referenced and now - written >= ORPHAN_GRACE_SECONDS:
                removed.append(name)
        self.delete_many(removed[swept:])
        for name, upload_id, started in self.open_uploads():
            if now - started >= STALE_UPLOAD_SECONDS:
                self.client.abort_multipart_upload(
                    Bucket=self.bucket, Key=self.key(name), UploadId=upload_id
                )
                removed.append(f"{name} (unfinished upload)")
        return removed
