"""``CompletionsBrowser``: the stored completions of a workspace, to read, tag and export.

Pages load on demand (``refresh()`` then ``load_more()``), following the service's
cursor, and show in a stable order (created, then id). The table scrolls inside a box of
bounded height, so the detail, export and chart controls stay where they are below it
however many rows are loaded. A filter applies as soon as it is chosen (the model picker,
the order) or typed (the metadata filter, on Enter), and a completion stored by a magic
or panel of the same session (its ``last_stored``) shows without a Refresh. Exports and
the chart cover every completion that matches the filters, not just the loaded pages,
because that is what an analysis wants.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ipywidgets as w
from traitlets import Bool, Dict, Enum, Int, List, Unicode, link

from chatspace.notebook.conversations import stored_question
from chatspace.notebook.display import Citation
from chatspace.notebook.grammar import parse_mapping
from chatspace.notebook.markup import escape, markdown_to_html
from chatspace.notebook.sources import SOURCE_COLUMNS, source_rows, stored_sources
from chatspace.notebook.table_rows import labelled_citations

from ._common import Panel, PanelInputError, action, button, render_table, row
from ._conversation import render_citations
from ._export import MIME, export_bytes, export_format, usage_chart_png
from ._links import data_link
from ._pickers import WorkspacePicker, list_models, set_options

if TYPE_CHECKING:
    import pandas as pd

    from chatspace.client import Client
    from chatspace.notebook.session import NotebookSession
    from chatspace.types import ChatCompletion

__all__ = ["CompletionsBrowser"]

_COLUMNS = ("id", "created", "model", "question", "answer", "tokens", "metadata")
_ALL_MODELS = ("(all models)", "")
TABLE_HEIGHT = "360px"


def _short(text: str | None, limit: int = 80) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _row(c: ChatCompletion, question: str) -> dict[str, Any]:
    return {
        "id": c.id,
        "_created": c.created,
        "created": datetime.fromtimestamp(c.created, UTC).strftime("%Y-%m-%d %H:%M:%S"),
        "model": c.model,
        "question": _short(question),
        "answer": _short(c.text),
        "tokens": c.usage.total_tokens,
        "metadata": c.metadata or {},
    }


class CompletionsBrowser(Panel):
    """Browse, filter, tag, delete and export stored completions; chart their token usage."""

    model_filter = Unicode("", help="Only completions of this model; '' for all.")
    metadata_filter = Unicode("", help="Only completions whose metadata match (k=v or JSON).")
    order = Enum(["desc", "asc"], "desc", help="Newest first (desc) or oldest first (asc).")
    page_size = Int(20, min=1, max=100, help="Completions per page (1..100).")
    rows = List(Dict(), help="The loaded completions, one dict per table row.")
    has_more = Bool(False, help="True when load_more() would load another page.")
    selected = Unicode(None, allow_none=True, help="Id of the completion shown; None for none.")

    def __init__(
        self, client: Client | None = None, *, session: NotebookSession | None = None
    ) -> None:
        super().__init__(client, session=session)
        self.add_class("chatspace-completions")
        self._picking = False
        self.workspace_picker = WorkspacePicker(self)
        self.model_picker = w.Dropdown(description="Model", options=[_ALL_MODELS])
        self.model_picker.add_class("chatspace-model-filter")
        self.filter_text = w.Text(
            description="Metadata",
            placeholder="thread=main turn=1 (Enter applies)",
            continuous_update=False,
        )
        self.filter_text.add_class("chatspace-metadata-filter")
        self.order_buttons = w.ToggleButtons(options=[("newest", "desc"), ("oldest", "asc")])
        self.order_buttons.add_class("chatspace-order")
        self.refresh_button = button("Refresh", "chatspace-refresh")
        self.table = w.HTML()
        self.table.add_class("chatspace-completions-table")
        self.table_box = w.Box(
            [self.table], layout=w.Layout(overflow="auto", max_height=TABLE_HEIGHT)
        )
        self.table_box.add_class("chatspace-completions-scroll")
        self.more_button = button("Load more", "chatspace-load-more")
        self.count_label = w.Label()
        self.picker = w.Dropdown(description="Completion", options=[])
        self.picker.add_class("chatspace-completions-select")
        self.messages = w.HTML()
        self.messages.add_class("chatspace-messages")
        self.metadata_editor = w.Textarea(description="Metadata", rows=3)
        self.metadata_editor.add_class("chatspace-metadata-editor")
        self.save_button = button("Update metadata", "chatspace-save-metadata")
        self.delete_button = button("Delete", "chatspace-delete", style="danger")
        self.export_path = w.Text(description="Export to", value="completions.csv")
        self.export_path.add_class("chatspace-export-path")
        self.export_button = button("Export", "chatspace-export")
        self.download = w.HTML()
        self.download.add_class("chatspace-download")
        self.chart_button = button("Usage chart", "chatspace-chart-button")
        self.chart_image = w.Image(format="png", width=700)
        self.chart_image.add_class("chatspace-chart")
        self.chart_image.layout.display = "none"

        self.model_picker.observe(self._on_model_pick, "value")
        link((self, "metadata_filter"), (self.filter_text, "value"))
        link((self, "order"), (self.order_buttons, "value"))
        self.observe(self._on_model_filter, "model_filter")
        self.picker.observe(self._on_pick, "value")
        self.refresh_button.on_click(lambda _: self.refresh())
        self.more_button.on_click(lambda _: self.load_more())
        self.save_button.on_click(lambda _: self.update_metadata())
        self.delete_button.on_click(lambda _: self.delete())
        self.export_button.on_click(lambda _: self.export())
        self.chart_button.on_click(lambda _: self.chart())
        self.observe(
            lambda _: self.refresh(), ["workspace", "metadata_filter", "order", "model_filter"]
        )
        # A chat stored by the chat panel next to it, or by %%chat, shows without a Refresh.
        self.session.observe(self._on_stored, "last_stored")

        self.children = [
            row(self.workspace_picker, self.model_picker, self.refresh_button),
            row(self.filter_text, self.order_buttons),
            self.table_box,
            row(self.more_button, self.count_label),
            self.picker,
            self.messages,
            row(self.metadata_editor, self.save_button, self.delete_button),
            self.confirm,
            row(self.export_path, self.export_button, self.download),
            self.chart_button,
            self.chart_image,
            self.error_line,
        ]
        self.refresh()

    # ---------------------------------------------------------------- loading

    def _query(self) -> dict[str, Any]:
        metadata = {
            str(k): str(v)
            for k, v in parse_mapping(self.metadata_filter, field="Metadata filter").items()
        }
        query: dict[str, Any] = {"workspace": self.workspace, "order": self.order}
        if self.model_filter:
            query["model"] = self.model_filter
        if metadata:
            query["metadata"] = metadata
        return query

    @action
    def refresh(self) -> None:
        """Reload the first page with the current filters (and the pickers' options)."""
        query = self._query()
        self.workspace_picker.reload()
        models = [_ALL_MODELS, *((m, m) for m in list_models(self.client))]
        self._picking = True
        try:
            set_options(self.model_picker, models, self.model_filter)
        finally:
            self._picking = False
        page = self.client.chat.list(limit=self.page_size, **query)
        self._show_page(list(page.data), bool(page.has_more), replace=True)

    def _on_stored(self, change: dict[str, Any]) -> None:
        if change["new"].get("workspace") == self.workspace:
            self.refresh()

    @action
    def load_more(self) -> None:
        """Load the next page after the last loaded completion."""
        if not self.rows or not self.has_more:
            raise PanelInputError("no more completions to load")
        page = self.client.chat.list(
            limit=self.page_size, after=self.rows[-1]["id"], **self._query()
        )
        self._show_page(list(page.data), bool(page.has_more), replace=False)

    def _show_page(self, items: list[ChatCompletion], more: bool, *, replace: bool) -> None:
        new = [_row(c, stored_question(self.client, c, self.workspace)) for c in items]
        rows = new if replace else [*self.rows, *new]
        # the service orders by time only: rows of the same second keep one order here
        rows.sort(key=lambda r: (r["_created"], r["id"]), reverse=self.order == "desc")
        self.rows = rows
        self.has_more = more
        self._render_rows()
        self.more_button.disabled = not self.has_more
        self.count_label.value = f"{len(self.rows)} loaded" + (", more available" if more else "")
        options = [
            (f"{r['created']} {(r['question'] or r['answer'])[:50]}", r["id"]) for r in self.rows
        ]
        keep = self.selected if any(r["id"] == self.selected for r in self.rows) else None
        self._picking = True
        try:
            self.picker.options = options
            self.picker.value = keep
        finally:
            self._picking = False
        if keep is None:
            self._clear_selection()

    def _render_rows(self) -> None:
        self.table.value = render_table(
            _COLUMNS,
            self.rows,
            css="chatspace-rows",
            empty=f"No stored completions in workspace {self.workspace} match these filters.",
        )

    # ---------------------------------------------------------------- one completion

    def _on_model_filter(self, change: dict[str, Any]) -> None:
        self._picking = True
        try:
            set_options(self.model_picker, self.model_picker.options, change["new"])
        finally:
            self._picking = False

    def _on_model_pick(self, change: dict[str, Any]) -> None:
        if not self._picking:
            self.model_filter = change["new"] or ""

    def _on_pick(self, change: dict[str, Any]) -> None:
        if not self._picking and change["new"]:
            self.select(change["new"])

    @action
    def select(self, completion_id: str) -> None:
        """Show a completion's messages, citations, sources and metadata."""
        completion = self.client.chat.get(completion_id, workspace=self.workspace)
        messages = list(self.client.chat.messages(completion_id, workspace=self.workspace))
        parts = []
        for m in messages:
            text = m.content or ""
            body = markdown_to_html(text) if m.role == "assistant" else escape(text)
            style = "" if m.role == "assistant" else ' style="white-space: pre-wrap"'
            parts.append(
                f'<div class="chatspace-message chatspace-{escape(m.role)}">'
                f"<b>{escape(m.role)}</b><div{style}>{body}</div></div>"
            )
        if completion.choices:
            cited = Citation.from_annotations(completion.choices[0].message.annotations)
            cited = labelled_citations(self.client, cited, self.workspace)
            parts.append(render_citations(cited, workspace=self.workspace))
        sources = source_rows(stored_sources(self.client, completion_id, self.workspace))
        if sources:
            parts.append(f"<b>Sources</b> ({len(sources)}: the passages retrieved)")
            parts.append(
                render_table(SOURCE_COLUMNS, sources, css="chatspace-sources", row_id="rank")
            )
        self.messages.value = "".join(parts)
        self.metadata_editor.value = json.dumps(completion.metadata or {}, indent=1)
        self.selected = completion_id
        self._picking = True
        try:
            if completion_id in {v for _, v in self.picker.options}:
                self.picker.value = completion_id
        finally:
            self._picking = False

    def _clear_selection(self) -> None:
        self.selected = None
        self.messages.value = ""
        self.metadata_editor.value = ""

    def _require_selected(self, completion_id: str | None) -> str:
        chosen = completion_id or self.selected
        if not chosen:
            raise PanelInputError("select a completion first")
        return chosen

    @action
    def update_metadata(
        self, metadata: str | dict[str, Any] | None = None, completion_id: str | None = None
    ) -> None:
        """Replace a completion's metadata (the editor's text unless ``metadata`` is given)."""
        chosen = self._require_selected(completion_id)
        text = self.metadata_editor.value if metadata is None else metadata
        new = parse_mapping(text, field="Metadata")
        updated = self.client.chat.update(chosen, new, workspace=self.workspace)
        self.rows = [_row(updated, r["question"]) if r["id"] == chosen else r for r in self.rows]
        self._render_rows()
        self.select(chosen)

    @action
    def delete(self, completion_id: str | None = None, confirm: bool = False) -> bool:
        """Delete a completion; without ``confirm=True`` the panel asks first."""
        chosen = self._require_selected(completion_id)
        if not confirm:
            self.confirm.ask(
                f"Delete completion {chosen}? This cannot be undone.",
                lambda: self.delete(chosen, confirm=True),
            )
            return False
        self.client.chat.delete(chosen, workspace=self.workspace)
        remaining = [r for r in self.rows if r["id"] != chosen]
        if self.selected == chosen:
            self._clear_selection()
        self.rows = remaining
        self._show_page([], self.has_more, replace=False)
        return True

    # ---------------------------------------------------------------- export and chart

    def frame(self) -> pd.DataFrame:
        """Every completion matching the filters, as the client's documented DataFrame."""
        return self.client.chat.list(limit=100, **self._query()).to_pandas()

    @action
    def export(self, path: str | Path | None = None, format: str | None = None) -> Path:
        """Write the matching completions to CSV or Parquet and offer them as a download."""
        target = Path(path if path is not None else self.export_path.value).expanduser()
        if not target.name:
            raise PanelInputError("give the export a file name, like completions.csv")
        kind = export_format(target, format)
        data = export_bytes(self.frame(), kind)
        target.write_bytes(data)
        self.download.value = data_link(
            data, target.name, MIME[kind], css="chatspace-download-link", text=f"⬇ {target.name}"
        )
        return target

    def close(self) -> None:
        """Stop following the session's stored completions, then close the widget."""
        if self._link is not None:  # not closed before
            self.session.unobserve(self._on_stored, "last_stored")
        super().close()

    @action
    def chart(self) -> bytes:
        """Draw the token usage per day and model of the matching completions."""
        png = usage_chart_png(self.frame())
        self.chart_image.value = png
        self.chart_image.layout.display = None
        return png
