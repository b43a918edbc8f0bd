"""``ChatPanel``: a conversation with the service over the workspace's files.

The answer streams in a background thread (sync client), so the kernel stays free while
it arrives: in ipykernel, widget updates from a thread go out through the IOPub thread,
and in a plain Python process the same code simply runs. Rendering is throttled
(``render_interval``), so long answers stay cheap. ``send()``/``stop()``/``new_chat()`` are
the buttons' twins, and ``wait()`` returns when the answer is complete.
"""

from __future__ import annotations

import threading
import time
import uuid
from typing import TYPE_CHECKING, Any

import ipywidgets as w
from traitlets import Bool, Dict, Float, Int, List, Unicode, link, observe

from ._common import Panel, PanelInputError, action, button
from ._conversation import history, render_turn, usage_line
from ._inputs import parse_filter
from ._pickers import WorkspacePicker, list_models

if TYPE_CHECKING:
    from chatspace.client import Client
    from chatspace.notebook.session import NotebookSession

__all__ = ["ChatPanel"]

_USAGE_KEYS = ("prompt_tokens", "completion_tokens", "total_tokens")


class ChatPanel(Panel):
    """Ask questions over your files; answers stream in with their citations.

    >>> panel = ChatPanel()
    >>> panel.send("What does the Q3 report say about churn?")
    >>> panel.wait()
    """

    turns = List(Dict(), help="The conversation, one dict per turn (role, content, annotations).")
    streaming = Bool(False, help="True while an answer streams in; stop() ends it.")
    model = Unicode("service-l0", help="The model of the next question (from GET /models).")
    temperature = Float(1.0, min=0.0, max=2.0, help="Sampling temperature of the next question.")
    file_ids = List(Unicode(), help="Files the next question searches; [] means all of them.")
    metadata_filter = Unicode("", help="Retrieval filter on file metadata: JSON or k=v pairs.")
    top_k = Int(0, min=0, max=50, help="Passages to retrieve (1..50); 0 for the service default.")
    usage = Dict(help="Tokens used by the whole conversation (prompt, completion, total).")
    history_chars = Int(24_000, help="Budget of earlier turns sent again, in characters.")
    render_interval = Float(0.1, help="Seconds between renders of a streaming answer.")
    thread_id = Unicode(help="Names this conversation in the stored completions' metadata.")
    download_base_url = Unicode(
        None, allow_none=True, help="Jupyter base URL of citation links; None finds it."
    )

    def __init__(
        self, client: Client | None = None, *, session: NotebookSession | None = None
    ) -> None:
        super().__init__(client, session=session)
        self.add_class("chatspace-chat")
        self._stop_requested = threading.Event()
        self._picking = False
        self.thread_id = uuid.uuid4().hex[:12]
        self.model = self.session.model

        self.model_picker = w.Dropdown(description="Model", options=[self.model])
        self.model_picker.add_class("chatspace-model")
        self.workspace_picker = WorkspacePicker(self)
        self.temperature_slider = w.FloatSlider(
            value=self.temperature,
            min=0,
            max=2,
            step=0.1,
            description="Temperature",
            style={"description_width": "initial"},
        )
        self.temperature_slider.add_class("chatspace-temperature")
        self.new_button = button("New chat", "chatspace-new-chat", tooltip="Forget this chat")
        self.file_picker = w.SelectMultiple(description="Files", rows=4, options=[])
        self.file_picker.add_class("chatspace-files-picker")
        self.filter_text = w.Text(description="Filter", placeholder='team=ml or {"team": "ml"}')
        self.filter_text.add_class("chatspace-filter")
        self.conversation = w.VBox([])
        self.conversation.add_class("chatspace-conversation")
        self.input = w.Textarea(placeholder="Ask about your files…", rows=3)
        self.input.layout.width = "100%"
        self.input.add_class("chatspace-chat-input")
        self.send_button = button("Send", "chatspace-send", style="primary")
        self.stop_button = button("Stop", "chatspace-stop", style="warning")
        self.stop_button.layout.display = "none"
        self.usage_label = w.Label(value=usage_line(None, {}, self.model))
        self.usage_label.add_class("chatspace-usage")

        link((self, "temperature"), (self.temperature_slider, "value"))
        link((self, "metadata_filter"), (self.filter_text, "value"))
        self.model_picker.observe(self._on_model_picked, "value")
        # A model added or removed by %chat models shows here at once.
        self.session.observe(self._on_session_models, "models")
        self.file_picker.observe(self._on_files_picked, "value")
        self.send_button.on_click(lambda _: self.send())
        self.stop_button.on_click(lambda _: self.stop())
        self.new_button.on_click(lambda _: self.new_chat())

        self.children = [
            w.HBox([self.model_picker, self.workspace_picker, self.new_button]),
            w.HBox([self.temperature_slider]),
            w.HBox([self.file_picker, self.filter_text]),
            self.conversation,
            self.input,
            w.HBox([self.send_button, self.stop_button]),
            self.usage_label,
            self.confirm,
            self.error_line,
        ]
        self.refresh()

    # ---------------------------------------------------------------- pickers

    @action
    def refresh(self) -> None:
        """Reload the models, workspaces and files the pickers offer."""
        models = list_models(self.client) or [self.model]
        if self.model not in models:
            models.append(self.model)
        self.model_picker.options = models
        self.model_picker.value = self.model
        self.workspace_picker.reload()
        self._load_files()

    def _load_files(self) -> None:
        files = list(self.client.files.list(workspace=self.workspace))
        keep = list(self.file_ids)
        self._picking = True
        try:
            self.file_picker.options = [(f"{f.filename} ({f.id})", f.id) for f in files]
        finally:
            self._picking = False
        self.file_ids = [i for i in keep if i in {f.id for f in files}]

    @observe("workspace")
    def _on_workspace(self, change: dict[str, Any]) -> None:
        if change["old"] != change["new"] and hasattr(self, "file_picker"):
            self.file_ids = []
            self._reload_files()

    @action
    def _reload_files(self) -> None:
        self._load_files()

    @observe("file_ids")
    def _on_file_ids(self, change: dict[str, Any]) -> None:
        valid = {value for _, value in self.file_picker.options}
        self.file_picker.value = tuple(i for i in change["new"] if i in valid)

    def _on_files_picked(self, change: dict[str, Any]) -> None:
        if not self._picking and list(change["new"]) != self.file_ids:
            self.file_ids = list(change["new"])

    def _on_session_models(self, change: dict[str, Any]) -> None:
        names = list(change["new"])
        if self.model not in names:  # the panel's choice stays offered
            names.append(self.model)
        self.model_picker.options = names
        self.model_picker.value = self.model

    def _on_model_picked(self, change: dict[str, Any]) -> None:
        if change["new"]:
            self.model = change["new"]

    @observe("model")
    def _on_model(self, change: dict[str, Any]) -> None:
        picker = getattr(self, "model_picker", None)
        if picker is not None and change["new"] not in picker.options:
            picker.options = [*picker.options, change["new"]]
        if picker is not None:
            picker.value = change["new"]

    # ---------------------------------------------------------------- actions

    @action
    def send(self, text: str | None = None) -> bool:
        """Ask ``text`` (else the input box's text); the answer streams in the background."""
        question = (self.input.value if text is None else text).strip()
        if not question:
            raise PanelInputError("type a question first")
        if not self.wait(0):
            raise PanelInputError("an answer is still streaming; stop it or wait for it")
        request = self._request(question)
        self.turns = [*self.turns, {"role": "user", "content": question}]
        self.conversation.children = [*self.conversation.children, self._turn_widget(-1)]
        self.input.value = ""
        self._stop_requested.clear()
        self.streaming = True
        return self._start(lambda: self._stream(request, question), name="chat")

    def stop(self) -> None:
        """Stop the answer at its next chunk; the text so far is kept."""
        if self.streaming:
            self._stop_requested.set()

    @action
    def new_chat(self) -> None:
        """Forget the conversation (stopping an answer that is still streaming)."""
        self.stop()
        self.wait()
        self.turns = []
        self.usage = {}
        self.thread_id = uuid.uuid4().hex[:12]
        self.conversation.children = []
        self.usage_label.value = usage_line(None, {}, self.model)

    # ---------------------------------------------------------------- streaming

    def _request(self, question: str) -> dict[str, Any]:
        parts: list[dict[str, Any]] = [{"type": "text", "text": question}]
        retrieval: dict[str, Any] = {}
        flt = parse_filter(self.metadata_filter)
        if flt:
            retrieval["filter"] = flt
        if self.file_ids:
            retrieval["file_ids"] = list(self.file_ids)
        if self.top_k:
            retrieval["top_k"] = self.top_k
        if retrieval:
            parts.append({"type": "filter", **retrieval})
        messages: list[dict[str, Any]] = history(self.turns, self.history_chars)
        messages.append({"role": "user", "content": parts if len(parts) > 1 else question})
        return {
            "messages": messages,
            "model": self.model,
            "workspace": self.workspace,
            "temperature": self.temperature,
            "store": self.session.store,
            "metadata": {"source": "chat-panel", "thread": self.thread_id},
            "stream_options": {"include_usage": True},
        }

    def _stream(self, request: dict[str, Any], question: str) -> None:
        turn: dict[str, Any] = {"role": "assistant", "content": "", "annotations": []}
        turn["workspace"] = request["workspace"]
        self.turns = [*self.turns, turn]
        widget = self._turn_widget(-1)
        self.conversation.children = [*self.conversation.children, widget]
        pieces: list[str] = []
        failed = True
        try:
            self._read_stream(request, turn, pieces, widget)
            failed = False
        finally:
            if failed and not pieces:
                # nothing arrived: take the question back, so it can be sent again
                self.turns = self.turns[:-2]
                self.conversation.children = self.conversation.children[:-2]
                self.input.value = question
            else:
                turn["content"] = "".join(pieces)
                turn["annotations"] = [
                    a.model_dump() if hasattr(a, "model_dump") else dict(a)
                    for a in turn["annotations"]
                ]
                self.turns = [*self.turns[:-1], dict(turn)]
                widget.value = self._render(turn)
                self._count_usage(turn.get("usage"))
            self.streaming = False

    def _read_stream(
        self, request: dict[str, Any], turn: dict[str, Any], pieces: list[str], widget: w.HTML
    ) -> None:
        last_render = 0.0
        stream = self.client.chat.stream(**request)
        try:
            for chunk in stream:
                turn["id"] = chunk.id
                for choice in chunk.choices:
                    if choice.index == 0 and choice.delta.content:
                        pieces.append(choice.delta.content)
                    if choice.index == 0 and choice.delta.annotations:
                        turn["annotations"].extend(choice.delta.annotations)
                if chunk.usage is not None:
                    turn["usage"] = chunk.usage.model_dump(include=set(_USAGE_KEYS))
                now = time.monotonic()
                if pieces and now - last_render >= self.render_interval:
                    turn["content"] = "".join(pieces)
                    widget.value = self._render(turn)
                    last_render = now
                if self._stop_requested.is_set():
                    turn["stopped"] = True
                    break
        finally:
            close = getattr(stream, "close", None)
            if callable(close):
                close()

    def _count_usage(self, last: dict[str, int] | None) -> None:
        if last:
            self.usage = {k: self.usage.get(k, 0) + int(last.get(k, 0)) for k in _USAGE_KEYS}
        self.usage_label.value = usage_line(last, self.usage, self.model)

    @observe("streaming")
    def _on_streaming(self, change: dict[str, Any]) -> None:
        self.stop_button.layout.display = None if change["new"] else "none"
        self.send_button.disabled = change["new"]

    def _render(self, turn: dict[str, Any]) -> str:
        workspace = turn.get("workspace") or self.workspace
        return render_turn(turn, workspace=workspace, base_url=self.download_base_url)

    def close(self) -> None:
        """Stop a streaming answer, then close the widget."""
        self.stop()
        if self._link is not None:  # not closed before
            self.session.unobserve(self._on_session_models, "models")
        super().close()

    def _turn_widget(self, index: int) -> w.HTML:
        html = w.HTML(self._render(self.turns[index]))
        html.add_class("chatspace-turn-" + self.turns[index]["role"])
        return html
