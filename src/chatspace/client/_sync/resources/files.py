# Generated from _async/resources/files.py by scripts/unasync_client.py; do not edit.
"""``client.files``: upload, list, search, get, delete, content, text, download, update."""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Literal, Unpack, overload

from chatspace._pandas import is_dataframe
from chatspace.client._bulk import (
    BULK_CONCURRENCY,
    BULK_PROGRESS_ROWS,
    MetadataRow,
    metadata_rows,
    resolve_names,
    results_frame,
)
from chatspace.client._call import Call, dump, no_content, segment
from chatspace.client._concurrency import run_in_turn
from chatspace.client._pagination import Pager
from chatspace.client._resource import Resource
from chatspace.client._sync._pagination import SyncPage
from chatspace.client._transfer import Download, Progress, ProgressSetting
from chatspace.client._uploads import PathInput, Upload, UploadOptions
from chatspace.errors import ChatspaceError, NotFoundError
from chatspace.types import File, FileDeleted, FileLimits, FileList, SearchHit, SearchResults
from chatspace.types.filters import MetadataFilter, filter_payload
from chatspace.types.retrieval import DEFAULT_SEARCH_TOP_K

if TYPE_CHECKING:
    import pandas as pd
    from pydantic import TypeAdapter

    from chatspace.client._sync._client import Client

__all__ = ["Files"]

_FILES: Pager[File] = Pager("files", "files")
_HITS: Pager[SearchHit] = Pager("hits", "none")


@functools.cache
def _file_list() -> TypeAdapter[list[File]]:
    from pydantic import TypeAdapter

    return TypeAdapter(list[File])


def _utf8(content: bytes) -> str:
    return content.decode("utf-8")


def _path(file_id: str, suffix: str = "") -> str:
    return f"/files/{segment(file_id)}{suffix}"


class Files(Resource):
    """Files of a workspace: what completions search and cite."""

    __slots__ = ()
    _client: Client

    @overload
    def upload(
        self, file: bytes | bytearray | BinaryIO, **options: Unpack[UploadOptions]
    ) -> File: ...
    @overload
    def upload(self, file: PathInput, **options: Unpack[UploadOptions]) -> File | list[File]: ...
    @overload
    def upload(
        self, file: list[PathInput] | tuple[PathInput, ...], **options: Unpack[UploadOptions]
    ) -> list[File]: ...
    @overload
    def upload(self, file: pd.DataFrame, **options: Unpack[UploadOptions]) -> File: ...
    def upload(
        self,
        file: Any,
        *,
        filename: str | None = None,
        purpose: str = "user_data",
        metadata: Mapping[str, Any] | None = None,
        instructions: str | None = None,
        workspace: str | None = None,
        format: Literal["csv", "parquet"] = "csv",
        progress: ProgressSetting = None,
    ) -> File | list[File]:
        """Upload files, streamed from disk; one ``File`` for one input, a list for several.

        ``file``: a path; a glob (``"reports/*.pdf"``) or a list of paths, sent in one
        request; bytes or a binary file object (name it with ``filename=``); or a pandas
        DataFrame, sent as CSV (``format="parquet"``: Parquet), without its index.
        ``metadata`` is stored with each file; ``instructions`` derive more metadata
        from the content. ``progress``: see :mod:`chatspace.client._transfer`.

        >>> client.files.upload("sales.csv", metadata={"year": 2024})
        >>> client.files.upload(df, filename="sales.parquet", format="parquet")
        """
        fields: dict[str, Any] = {"purpose": purpose, "workspace": self._ws(workspace)}
        if metadata is not None:
            fields["metadata"] = dict(metadata)
        if instructions is not None:
            fields["instructions"] = instructions
        upload = Upload.build(
            file, filename=filename, format=format, fields=fields, progress=progress
        )
        try:
            limit = self._max_file_bytes()
            if limit is not None and upload.largest > limit:  # raised since it was asked?
                limit = self._max_file_bytes(ask=True)
            upload.refuse_over(limit)
        except BaseException:
            upload.close()
            raise
        single = upload.single

        def parse(content: bytes) -> File | list[File]:
            files = _file_list().validate_json(content)
            return files[0] if single else files

        call = Call("POST", "/files", upload=upload, parse=parse, create=True)
        return self._client._request(call)

    def limits(self) -> FileLimits:
        """The service's upload limits; :meth:`upload` refuses a file over them before
        sending it (raising :class:`~chatspace.RequestTooLargeError`, as a 413 would)."""
        call = Call("GET", "/files/limits", parse=FileLimits.model_validate_json)
        return self._client._request(call)

    def _max_file_bytes(self, *, ask: bool = False) -> int | None:
        """The largest file the service takes, asked once per client (and again with
        ``ask``); ``None`` from a service without ``GET /files/limits``, which says so with a
        413 after the bytes."""
        learned = self._client._learned
        if ask or "max_file_bytes" not in learned:
            try:
                learned["max_file_bytes"] = (self.limits()).max_file_bytes
            except NotFoundError:
                learned["max_file_bytes"] = None
        limit: int | None = learned["max_file_bytes"]
        return limit

    def list(
        self,
        *,
        workspace: str | None = None,
        after: str | None = None,
        limit: int = 10000,
        order: Literal["asc", "desc"] = "desc",
        purpose: str | None = None,
        metadata: Mapping[str, Any] | MetadataFilter | None = None,
    ) -> SyncPage[File]:
        """Files of the workspace, newest first; pages itself (``limit`` per page).

        ``metadata`` keeps the files it matches (docs/interface.md#metadata-filters): a
        typed filter, ``ComparisonFilter(type="gte", key="year", value=2024)`` or its dict,
        or the shorthand ``{"team": "ml"}`` (each key equal to the value, or to one of
        the values of a list).
        ``to_pandas()`` columns: ``id, filename, bytes, created_at, expires_at, purpose,
        status, workspace_id, user_id, metadata.<key>...``.
        """
        params: dict[str, Any] = {"workspace": self._ws(workspace), "limit": limit, "order": order}
        if after is not None:
            params["after"] = after
        if purpose is not None:
            params["purpose"] = purpose
        if metadata is not None:
            params["metadata"] = dump(filter_payload(metadata)).decode()
        call = Call("GET", "/files", params=params, parse=FileList.model_validate_json)
        return self._client._page(_FILES, call)

    def search(
        self,
        query: str,
        *,
        workspace: str | None = None,
        filter: Mapping[str, Any] | MetadataFilter | str | None = None,
        file_ids: Sequence[str] | None = None,
        top_k: int = DEFAULT_SEARCH_TOP_K,
        relevance: float | None = None,
    ) -> SyncPage[SearchHit]:
        """The passages a completion asking ``query`` would retrieve, best first, without
        asking: each with its quote, scores and whether it passes the relevance cut.

        ``filter`` (a metadata filter as ``list()`` takes it, or its JSON string),
        ``file_ids``, ``top_k`` (1..50) and ``relevance`` are those of a filter part;
        ``relevance=None`` uses the service's threshold and ``0`` cuts nothing. Hits below
        the cut follow the cited ones with ``cited`` false. The answer is one page of at
        most ``top_k`` hits (``has_more`` is false): iterate it or call ``to_pandas()``,
        whose columns are ``rank, file_id, filename, quote, score, lexical, dense, cited,
        page, sheet, row, slide, cell, line, text`` (a location column is empty where it
        does not apply).

        >>> (client.files.search("annual fee", top_k=3).to_pandas())[["filename", "quote"]]
        """
        body: dict[str, Any] = {"query": query, "workspace": self._ws(workspace), "top_k": top_k}
        if filter is not None:
            body["filter"] = filter if isinstance(filter, str) else filter_payload(filter)
        if file_ids is not None:
            body["file_ids"] = list(file_ids)
        if relevance is not None:
            body["relevance"] = relevance
        call = Call(
            "POST", "/files/search", content=dump(body), parse=SearchResults.model_validate_json
        )
        return self._client._page(_HITS, call)

    def get(self, file_id: str, *, workspace: str | None = None) -> File:
        """A file's description."""
        call = self._in_workspace("GET", _path(file_id), workspace, File.model_validate_json)
        return self._client._request(call)

    def delete(self, file_id: str, *, workspace: str | None = None) -> FileDeleted:
        """Delete a file and its content."""
        deleted = FileDeleted.model_validate_json
        call = self._in_workspace("DELETE", _path(file_id), workspace, deleted)
        return self._client._request(call)

    def content(self, file_id: str, *, workspace: str | None = None) -> bytes:
        """A file's bytes, in memory; for large files prefer :meth:`download`."""
        call = self._in_workspace("GET", _path(file_id, "/content"), workspace, bytes)
        return self._client._request(call)

    def text(self, file_id: str, *, workspace: str | None = None) -> str:
        """The file's text as the service extracted it: what retrieval searches and quotes
        (a PDF's or a DOCX's words, a table in header-led blocks). A file without text
        raises :class:`~chatspace.UnprocessableEntityError` (422, type ``no_text``).

        >>> text = client.files.text(pdf.id)
        >>> print(text[:500])
        """
        call = self._in_workspace("GET", _path(file_id, "/text"), workspace, _utf8)
        return self._client._request(call)

    def download(
        self,
        file_id: str,
        path: str | os.PathLike[str] = ".",
        *,
        workspace: str | None = None,
        progress: ProgressSetting = None,
    ) -> Path:
        """Stream a file to ``path`` (a directory: the file keeps its name); return the path.

        The bytes go to a temporary file next to the target, renamed when complete, so
        an interrupted download never leaves a partial file.
        """
        source = _path(file_id, "/content")
        call = self._in_workspace("GET", source, workspace, no_content, stream=True)
        return self._client._download(call, Download(path, progress, name=file_id))

    @overload
    def update(
        self,
        file_id: str,
        metadata: Mapping[str, Any] | None = None,
        *,
        instructions: str | None = None,
        workspace: str | None = None,
    ) -> File: ...
    @overload
    def update(
        self,
        file_id: pd.DataFrame,
        *,
        workspace: str | None = None,
        progress: ProgressSetting = None,
    ) -> pd.DataFrame: ...
    def update(
        self,
        file_id: Any,
        metadata: Mapping[str, Any] | None = None,
        *,
        instructions: str | None = None,
        workspace: str | None = None,
        progress: ProgressSetting = None,
    ) -> File | pd.DataFrame:
        """Merge ``metadata`` into the file's (a key set to None is removed), or derive
        metadata from the content by ``instructions``; the file as it is now.

        Given a DataFrame instead of an id, update many files, one per row: a column
        ``id``, ``file_id`` or ``filename`` names the file, each other column is a key
        (NaN leaves it as it is; see :mod:`chatspace.client._bulk`). A name matching no
        file or several raises ``ValueError`` before anything is sent; a row that fails
        does not stop the others. Returns a DataFrame indexed as ``frame``: ``file_id``,
        ``status`` (``updated``, ``unchanged`` or ``failed``), ``error``. ``progress``:
        a bar (by default from 10 rows), ``False``, or ``progress(done_rows, rows)``.

        >>> client.files.update(f.id, {"year": 2024, "draft": None})
        >>> client.files.update(f.id, instructions="Extract the title")
        >>> client.files.update(pd.DataFrame({"filename": ["a.pdf"], "year": [2024]}))
        """
        if is_dataframe(file_id):
            return self._update_frame(file_id, self._ws(workspace), progress)
        body: dict[str, Any] = dict(metadata or {})
        if instructions is not None:
            body["instructions"] = instructions
        if not body:
            raise ValueError("give metadata, instructions, or both")
        call = self._in_workspace(
            "PATCH",
            _path(file_id, "/metadata"),
            workspace,
            File.model_validate_json,
            content=dump(body),
        )
        return self._client._request(call)

    def _update_frame(
        self, frame: pd.DataFrame, workspace: str, progress: ProgressSetting
    ) -> pd.DataFrame:
        """``update(frame)``: names resolved first, then one request per row."""
        rows = metadata_rows(frame)
        if any(row.file_id is None for row in rows):
            listed: list[File] = []
            for found in self.list(workspace=workspace):
                listed.append(found)
            resolve_names(rows, listed, workspace)
        bar = Progress(progress, len(rows), "metadata", unit="file", threshold=BULK_PROGRESS_ROWS)

        def apply(row: MetadataRow) -> None:
            assert row.file_id is not None
            try:
                if row.metadata:
                    self.update(row.file_id, row.metadata, workspace=workspace)
                row.status = "updated" if row.metadata else "unchanged"
            except ChatspaceError as exc:
                row.status, row.error = "failed", str(exc)
            bar.update(1)

        try:
            run_in_turn([functools.partial(apply, row) for row in rows], BULK_CONCURRENCY)
        finally:
            bar.close()
        return results_frame(rows)
