"""``FilesPanel``: upload, list, search, preview, tag, download and delete a workspace's
files.

Uploads run in the background with a progress bar (``upload()`` then ``wait()``).
Download links point at the Jupyter server extension (``<base_url>chatspace/files/<id>/
content``), which streams the file from the service, so the browser needs no token.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ipywidgets as w
from traitlets import Bool, Dict, Float, List, Unicode, link

from chatspace.notebook.grammar import file_filter, parse_mapping
from chatspace.notebook.markup import escape
from chatspace.notebook.searching import search_frame

from ._common import Panel, PanelInputError, action, button, render_table, row
from ._links import file_download_url
from ._pickers import WorkspacePicker, file_choices
from ._preview import preview_html

if TYPE_CHECKING:
    from chatspace.client import Client
    from chatspace.notebook.session import NotebookSession
    from chatspace.types import File

__all__ = ["FilesPanel"]

_COLUMNS = ("filename", "id", "bytes", "created", "metadata", "status_details", "download")
Upload = tuple[str, bytes | Path]


def _hit_cell(value: Any) -> Any:
    """A hit's value as the table shows it: scores to 3 places, nothing for NaN or NA."""
    import pandas as pd

    if isinstance(value, float) and not math.isnan(value):
        return f"{value:.3f}"
    return "" if pd.isna(value) else value


def _uploads(items: Iterable[Any]) -> list[Upload]:
    """Paths, ``(name, bytes)`` pairs and ipywidgets 8 ``FileUpload`` values, as pairs."""
    out: list[Upload] = []
    for item in items:
        if isinstance(item, Mapping):  # ipywidgets 8: {"name", "type", "size", "content", ...}
            out.append((str(item["name"]), bytes(item["content"])))
        elif isinstance(item, tuple):
            out.append((str(item[0]), bytes(item[1])))
        else:
            path = Path(item).expanduser()
            if not path.is_file():
                raise PanelInputError(f"no such file: {path}")
            out.append((path.name, path))
    if not out:
        raise PanelInputError("choose one or more files to upload first")
    return out


class FilesPanel(Panel):
    """The files of the current workspace, with upload, preview, metadata and downloads."""

    files = List(Dict(), help="The files of the workspace, one dict per table row.")
    selected = Unicode(None, allow_none=True, help="Id of the file shown; None for none.")
    progress = Float(0.0, help="Progress of the running upload, from 0 to 1.")
    upload_metadata = Unicode("", help="Metadata given to uploads: JSON or k=v pairs.")
    upload_instructions = Unicode("", help="Instructions the service runs on uploads.")
    metadata_filter = Unicode(
        "", help="List only files whose metadata match (year>=2024 team=ml, or JSON)."
    )
    last_uploaded = List(Unicode(), help="Ids of the files of the last upload.")
    search_query = Unicode("", help="What the search box looks for (what a question retrieves).")
    search_all = Bool(False, help="Search without the relevance cut (every hit cited).")
    hits = List(Dict(), help="The hits of the last search, best first, one dict per row.")
    download_base_url = Unicode(
        None, allow_none=True, help="Jupyter base URL of download links; None finds it."
    )

    def __init__(
        self, client: Client | None = None, *, session: NotebookSession | None = None
    ) -> None:
        super().__init__(client, session=session)
        self.add_class("chatspace-files")
        self._picking = False
        self.uploader = w.FileUpload(multiple=True, description="Choose files")
        self.uploader.add_class("chatspace-upload")
        self.meta_text = w.Text(description="Metadata", placeholder='team=ml or {"team": "ml"}')
        self.meta_text.add_class("chatspace-upload-metadata")
        self.instructions_text = w.Text(description="Instructions")
        self.instructions_text.add_class("chatspace-upload-instructions")
        self.upload_button = button("Upload", "chatspace-upload-send", style="primary")
        # not "Upload": that is the button's name, and the bar is what it has sent so far
        self.progress_bar = w.FloatProgress(min=0.0, max=1.0, description="Sent")
        self.progress_bar.add_class("chatspace-progress")
        self.workspace_picker = WorkspacePicker(self)
        self.filter_text = w.Text(description="Filter", placeholder="team=ml year>=2024")
        self.filter_text.add_class("chatspace-files-filter")
        self.refresh_button = button("Refresh", "chatspace-refresh")
        self.search_text = w.Text(
            description="Search", placeholder="annual fee (Enter searches)", continuous_update=False
        )
        self.search_text.add_class("chatspace-files-search")
        self.search_all_box = w.Checkbox(description="no relevance cut", indent=False)
        self.search_all_box.add_class("chatspace-files-search-all")
        self.search_button = button("Search", "chatspace-files-search-send")
        self.hits_table = w.HTML()
        self.hits_table.add_class("chatspace-files-hits")
        self.table = w.HTML()
        self.table.add_class("chatspace-files-table")
        self.picker = w.Dropdown(
            description="File", options=[], layout=w.Layout(width="auto", min_width="50%")
        )
        self.picker.add_class("chatspace-file-select")
        self.preview_box = w.HTML()
        self.preview_box.add_class("chatspace-preview")
        self.metadata_editor = w.Textarea(description="Metadata", rows=3)
        self.metadata_editor.add_class("chatspace-file-metadata")
        self.save_button = button("Update metadata", "chatspace-save-file-metadata")
        self.derive_text = w.Text(description="Derive", placeholder="instructions for metadata")
        self.derive_text.add_class("chatspace-metadata-instructions")
        self.derive_button = button("Apply", "chatspace-apply-instructions")
        self.delete_button = button("Delete", "chatspace-delete-file", style="danger")

        for trait, widget in (
            ("upload_metadata", self.meta_text),
            ("upload_instructions", self.instructions_text),
            ("metadata_filter", self.filter_text),
            ("search_query", self.search_text),
            ("search_all", self.search_all_box),
        ):
            link((self, trait), (widget, "value"))
        self.observe(lambda c: setattr(self.progress_bar, "value", c["new"]), "progress")
        self.upload_button.on_click(lambda _: self.upload(self.uploader.value))
        self.refresh_button.on_click(lambda _: self.refresh())
        self.search_button.on_click(lambda _: self.search())
        self._searched = ""
        self.observe(self._on_search_query, "search_query")
        self.picker.observe(self._on_pick, "value")
        self.save_button.on_click(lambda _: self.update_metadata())
        self.derive_button.on_click(lambda _: self.derive_metadata(self.derive_text.value))
        self.delete_button.on_click(lambda _: self.delete())
        self.observe(lambda _: self.refresh(), "workspace")

        self.children = [
            row(self.uploader, self.meta_text, self.instructions_text, self.upload_button),
            self.progress_bar,
            row(self.workspace_picker, self.filter_text, self.refresh_button),
            self.table,
            row(self.search_text, self.search_all_box, self.search_button),
            self.hits_table,
            self.picker,
            self.preview_box,
            row(self.metadata_editor, self.save_button),
            row(self.derive_text, self.derive_button, self.delete_button),
            self.confirm,
            self.error_line,
        ]
        self.refresh()

    # ---------------------------------------------------------------- listing

    def download_url(self, file_id: str) -> str:
        """The browser's link to a file, through the Jupyter server extension."""
        return file_download_url(file_id, self.workspace, base_url=self.download_base_url)

    def _row(self, f: File) -> dict[str, Any]:
        link = escape(self.download_url(f.id))
        return {
            "id": f.id,
            "filename": f.filename,
            "bytes": f.bytes,
            "created": datetime.fromtimestamp(f.created_at, UTC).strftime("%Y-%m-%d %H:%M"),
            "metadata": f.metadata,
            "status_details": f.status_details,
            "download": f'<a class="chatspace-download-link" href="{link}" '
            f'download="{escape(f.filename)}">download</a>',
        }

    @action
    def refresh(self) -> None:
        """Reload the workspace's files (with the metadata filter)."""
        flt = file_filter(self.metadata_filter, field="Filter")
        self.workspace_picker.reload()
        query: dict[str, Any] = {"workspace": self.workspace}
        if flt:
            query["metadata"] = flt
        self._show([self._row(f) for f in self.client.files.list(**query)])

    def _show(self, rows: list[dict[str, Any]]) -> None:
        self.files = rows
        empty = f"No files in workspace {self.workspace}" + (
            " match the filter." if self.metadata_filter.strip() else " yet."
        )
        self.table.value = render_table(
            _COLUMNS, rows, css="chatspace-rows", raw=("download",), empty=empty
        )
        keep = self.selected if any(r["id"] == self.selected for r in rows) else None
        self._picking = True
        try:
            file_choices(self.picker, [(r["filename"], r["id"]) for r in rows])
            self.picker.value = keep
        finally:
            self._picking = False
        if keep is None:
            self.selected = None
            self.preview_box.value = ""
            self.metadata_editor.value = ""

    # ---------------------------------------------------------------- search

    def _on_search_query(self, change: dict[str, Any]) -> None:
        """Enter in the search box searches (the box sends its text on Enter), unless
        :meth:`search` set that text itself."""
        if change["new"].strip() and change["new"] != self._searched:
            self.search()

    @action
    def search(self, query: str | None = None) -> None:
        """Show the passages a question would retrieve from the files the filter keeps,
        best first, with their quotes and scores (:mod:`chatspace.notebook.searching`)."""
        self._searched = self.search_query if query is None else query
        if query is not None:
            self.search_query = query
        frame = search_frame(
            self.client,
            self.search_query,
            workspace=self.workspace,
            filter=self.metadata_filter,
            everything=self.search_all,
            field="Filter",
        )
        columns = [c for c in frame.columns if c != "file_id"]
        rows = [{c: _hit_cell(v) for c, v in record.items()} for record in frame.to_dict("records")]
        self.hits = rows
        self.hits_table.value = render_table(
            columns,
            rows,
            css="chatspace-hits",
            row_id="file_id",
            empty="No passage of these files matches the search.",
        )

    # ---------------------------------------------------------------- upload

    @action
    def upload(
        self,
        files: Iterable[Any],
        metadata: str | dict[str, Any] | None = None,
        instructions: str | None = None,
    ) -> bool:
        """Upload paths, ``(name, bytes)`` pairs or a ``FileUpload`` value, in the background."""
        items = _uploads(files)
        meta = parse_mapping(
            self.upload_metadata if metadata is None else metadata, field="Upload metadata"
        )
        text = (self.upload_instructions if instructions is None else instructions).strip()
        workspace = self.workspace
        return self._start(lambda: self._upload(items, meta, text, workspace), name="upload")

    def _upload(self, items: list[Upload], meta: dict[str, Any], text: str, ws: str) -> None:
        sizes = [p.stat().st_size if isinstance(p, Path) else len(p) for _, p in items]
        total, done = max(sum(sizes), 1), 0
        self.progress = 0.0
        ids = []
        for number, ((name, content), size) in enumerate(zip(items, sizes, strict=True), 1):
            self.progress_bar.description = f"Sent {number}/{len(items)}"

            def sent(n: int, _total: int | None, before: int = done) -> None:
                fraction = min((before + n) / total, 1.0)
                if fraction - self.progress >= 0.01:  # a comm message per 1%, not per chunk
                    self.progress = fraction

            uploaded = self.client.files.upload(
                content,
                filename=name,
                metadata=meta or None,
                instructions=text or None,
                workspace=ws,
                progress=sent,
            )
            ids.append(uploaded.id)
            done += size
            self.progress = done / total
        self.last_uploaded = ids
        self.uploader.value = ()
        self.refresh()

    # ---------------------------------------------------------------- one file

    def _on_pick(self, change: dict[str, Any]) -> None:
        if not self._picking and change["new"]:
            self.select(change["new"])

    @action
    def select(self, file_id: str) -> None:
        """Show a file: its preview and its metadata in the editor."""
        f = self.client.files.get(file_id, workspace=self.workspace)
        self.selected = f.id
        self.metadata_editor.value = json.dumps(f.metadata, indent=1)
        self.preview_box.value = preview_html(self.client, f, workspace=self.workspace)
        self._picking = True
        try:
            if f.id in {v for _, v in self.picker.options}:
                self.picker.value = f.id
        finally:
            self._picking = False

    def _require_selected(self, file_id: str | None) -> str:
        chosen = file_id or self.selected
        if not chosen:
            raise PanelInputError("select a file first")
        return chosen

    @action
    def update_metadata(
        self, metadata: str | dict[str, Any] | None = None, file_id: str | None = None
    ) -> None:
        """Make the file's metadata exactly the editor's (keys left out are removed)."""
        chosen = self._require_selected(file_id)
        new = parse_mapping(
            self.metadata_editor.value if metadata is None else metadata, field="Metadata"
        )
        if "instructions" in new:
            raise PanelInputError("'instructions' is reserved; use Derive to run instructions")
        current = self.client.files.get(chosen, workspace=self.workspace).metadata
        body: dict[str, Any] = {k: None for k in current if k not in new}
        body.update(new)
        if body:
            self.client.files.update(chosen, body, workspace=self.workspace)
        self.refresh()
        self.select(chosen)

    @action
    def derive_metadata(self, instructions: str, file_id: str | None = None) -> None:
        """Let the service derive metadata from the file's content by ``instructions``."""
        chosen = self._require_selected(file_id)
        if not instructions.strip():
            raise PanelInputError("type instructions first, like 'title and line count'")
        self.client.files.update(
            chosen, instructions=instructions.strip(), workspace=self.workspace
        )
        self.refresh()
        self.select(chosen)

    @action
    def delete(self, file_id: str | None = None, confirm: bool = False) -> bool:
        """Delete a file; without ``confirm=True`` the panel asks first."""
        chosen = self._require_selected(file_id)
        if not confirm:
            name = next((r["filename"] for r in self.files if r["id"] == chosen), chosen)
            self.confirm.ask(
                f"Delete {name}? This cannot be undone.", lambda: self.delete(chosen, confirm=True)
            )
            return False
        self.client.files.delete(chosen, workspace=self.workspace)
        self.refresh()
        return True
