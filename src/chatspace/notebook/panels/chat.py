"""``ChatPanel``: a conversation with the service over the workspace's files.

The panel only binds widgets to the notebook's application layer: the question is asked
by :func:`chatspace.notebook.asking.ask` (the same request, history budget, stored tags and
result as ``%%chat``) on a thread of the session's :class:`ThreadBook`, so ``%chat threads``
lists it and ``panel.resume(name)`` rebuilds it after a kernel restart. The model, top_k
and workspace start from the shared settings (``%config ChatspaceSettings.default_model``);
the model picker's first entry is the default, saying which model that is and why
(:meth:`~chatspace.notebook.session.NotebookSession.model_choice`).

The answer streams in a background thread (sync client), so the kernel stays free while
it arrives: in ipykernel, widget updates from a thread go out through the IOPub thread.
Rendering is throttled (``render_interval``). The conversation scrolls inside a box of
bounded height that keeps its bottom in view while an answer grows (unless the reader
scrolled up), so the Stop button below it stays on screen. ``send()``/``stop()``/
``new_chat()`` are the buttons' twins, Enter in the input box sends (Shift+Enter adds a
line), and ``wait()`` returns when the answer is complete.

An answer's code blocks get Copy and Insert buttons (:mod:`._answer`); Insert puts the code
into a new cell below the active one (:mod:`._cells`), and ``insert_code()`` is its twin.
"Code only" asks as ``%%chat --format code`` does: one code block, nothing else.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from typing import TYPE_CHECKING, Any

import ipywidgets as w
from traitlets import Bool, Dict, Float, Int, List, Unicode, link, observe, validate

from chatspace.notebook.asking import Question, ask
from chatspace.notebook.context import NotebookContext
from chatspace.notebook.display import fenced
from chatspace.notebook.markup import code_blocks
from chatspace.notebook.settings import top_k_or_default, wire_range, wire_value
from chatspace.types import ChatCompletionRequest
from chatspace.types.common import Temperature

from ._answer import AnswerView
from ._cells import insert_below
from ._common import Panel, PanelInputError, action, button, row
from ._conversation import render_turn, usage_line
from ._pickers import WorkspacePicker, file_choices, list_models
from ._prompt import PromptBox

if TYPE_CHECKING:
    from chatspace.client import Client
    from chatspace.notebook.display import ChatResult
    from chatspace.notebook.session import NotebookSession

__all__ = ["ChatPanel"]

_USAGE_KEYS = ("prompt_tokens", "completion_tokens", "total_tokens")
CONVERSATION_HEIGHT = "420px"
PANEL_WORDS = {
    "model": "Model",
    "workspace": "Workspace",
    "temperature": "Temperature",
    "file_ids": "Files",
    "filter": "Filter",
    "top_k": "top_k",
    "content": "the question",
    "messages": "the conversation",
}
"""The request's fields by the panel's labels, for the service's refusals."""
_TEMPERATURE = float(ChatCompletionRequest.model_fields["temperature"].default)
"""The request's default, where the slider stands until it is moved."""
MODEL_DEFAULT = "model default"
"""What shows in place of the slider's value while no temperature is sent."""
_TEMPERATURES = wire_range(Temperature)


class ChatPanel(Panel):
    """Ask questions over your files; answers stream in with their citations.

    >>> panel = ChatPanel()
    >>> panel.send("What does the Q3 report say about churn?")
    >>> panel.wait()
    """

    turns = List(Dict(), help="The conversation, one dict per turn (role, content, citations).")
    streaming = Bool(False, help="True while an answer streams in; stop() ends it.")
    model = Unicode("", help="The model of the next question (from GET /models); '': the default.")
    temperature = Float(
        None,
        allow_none=True,
        help="Sampling temperature of the next question (the wire's bounds); None, until the "
        "slider is moved: none is sent and the model's default applies, as with %%chat.",
    )
    file_ids = List(Unicode(), help="Files the next question searches; [] means all of them.")
    metadata_filter = Unicode("", help="Retrieval filter on file metadata: JSON or k=v pairs.")
    top_k = Int(0, help="Passages to retrieve (a filter part's top_k); 0 for the service default.")
    code_only = Bool(
        False, help="Ask for code only, one block to insert (as %%chat --format code does)."
    )
    usage = Dict(help="Tokens used by the whole conversation (prompt, completion, total).")
    render_interval = Float(
        help="Seconds between renders of a streaming answer (ChatspaceSettings.stream_throttle)."
    )
    thread = Unicode(help="The session's thread this panel continues (panel-1, panel-2, ...).")
    download_base_url = Unicode(
        None, allow_none=True, help="Jupyter base URL of citation links; None finds it."
    )

    def __init__(
        self,
        client: Client | None = None,
        *,
        session: NotebookSession | None = None,
        thread: str | None = None,
    ) -> None:
        super().__init__(client, session=session)
        self.add_class("chatspace-chat")
        self._stop_requested = threading.Event()
        self._picking = False
        self._last: ChatResult | None = None
        self.thread = thread or self.session.threads.new_name("panel")
        self.session.threads.get(self.thread)  # taken: the next panel gets another name
        settings = self.session.settings
        self.model = settings.default_model
        self.top_k = settings.default_top_k
        self.render_interval = settings.stream_throttle
        self._served: list[str] = []
        self._default_model = self.session.model_choice(self._served)[0]

        self.model_picker = w.Dropdown(description="Model", options=[])
        self.model_picker.add_class("chatspace-model")
        self.workspace_picker = WorkspacePicker(self)
        self.temperature_slider = w.FloatSlider(
            value=_TEMPERATURE,
            min=_TEMPERATURES[0],
            max=_TEMPERATURES[1],
            step=0.1,
            description="Temperature",
            readout=False,
            style={"description_width": "initial"},
        )
        self.temperature_slider.add_class("chatspace-temperature")
        # the slider's readout is a number box: "no value" needs words of its own
        self.temperature_default = w.HTML(MODEL_DEFAULT, tooltip="No temperature is sent")
        self.new_button = button("New chat", "chatspace-new-chat", tooltip="Forget this chat")
        self.code_toggle = w.ToggleButton(
            description="Code only", tooltip="Ask for code only: one block, ready to insert"
        )
        self.code_toggle.add_class("chatspace-code-only")
        self.file_picker = w.SelectMultiple(
            description="Files", rows=4, options=[], layout=w.Layout(width="auto", min_width="50%")
        )
        self.file_picker.add_class("chatspace-files-picker")
        self.filter_text = w.Text(description="Filter", placeholder="team=ml year>=2024, or JSON")
        self.filter_text.add_class("chatspace-filter")
        # never shrunk to the box: it is what scrolls inside it
        self.conversation = w.VBox([], layout=w.Layout(flex="0 0 auto"))
        self.conversation.add_class("chatspace-conversation")
        # column-reverse keeps the bottom in view as the answer grows, and leaves the
        # reader where they are once they scrolled up: no script needed
        self.scroller = w.Box(
            [self.conversation],
            layout=w.Layout(
                display="flex",
                flex_flow="column-reverse",
                overflow="auto",
                max_height=CONVERSATION_HEIGHT,
            ),
        )
        self.scroller.add_class("chatspace-conversation-scroll")
        self.input = PromptBox(
            placeholder="Ask about your files… (Enter sends, Shift+Enter: new line)"
        )
        self.input.layout.width = "100%"
        self.send_button = button("Send", "chatspace-send", style="primary")
        self.stop_button = button("Stop", "chatspace-stop", style="warning")
        self.stop_button.layout.display = "none"
        # HTML, not a Label: a Label is one line cut with "…" where the panel is narrow
        # (the side area), and the conversation's total is what was cut
        self.usage_label = w.HTML(value=usage_line(None, 0, self._asked_model))
        self.usage_label.add_class("chatspace-usage")

        self.temperature_slider.observe(self._on_slider, "value")
        link((self, "metadata_filter"), (self.filter_text, "value"))
        link((self, "code_only"), (self.code_toggle, "value"))
        self.model_picker.observe(self._on_model_picked, "value")
        # A model added or removed by %chat models shows here at once, and so does a new
        # default model (%config ChatspaceSettings.default_model).
        self.session.observe(self._on_session_models, "models")
        settings.observe(self._on_session_model, "default_model")
        self.file_picker.observe(self._on_files_picked, "value")
        self.send_button.on_click(lambda _: self.send())
        self.input.on_submit(lambda _: self.send())
        self.stop_button.on_click(lambda _: self.stop())
        self.new_button.on_click(lambda _: self.new_chat())

        self.children = [
            row(self.model_picker, self.workspace_picker, self.new_button),
            row(self.temperature_slider, self.temperature_default, self.code_toggle),
            row(self.file_picker, self.filter_text),
            self.scroller,
            self.input,
            row(self.send_button, self.stop_button),
            self.usage_label,
            self.confirm,
            self.error_line,
        ]
        self.refresh()

    # ---------------------------------------------------------------- pickers

    @action
    def refresh(self) -> None:
        """Reload the models, workspaces and files the pickers offer."""
        self._offer_models(list_models(self.client))
        self.workspace_picker.reload()
        self._load_files()

    def _load_files(self) -> None:
        files = list(self.client.files.list(workspace=self.workspace))
        keep = list(self.file_ids)
        self._picking = True
        try:
            file_choices(self.file_picker, [(f.filename, f.id) for f in files])
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
        self._offer_models(list(change["new"]))

    def _offer_models(self, names: list[str]) -> None:
        """The default first ("default: smollm (the one connected model)"), then the models
        served. New options keep the panel's model (offered even when unlisted): a Dropdown
        would select its first option for a moment, and that is no choice of the user's."""
        self._served = names
        self._default_model, why = self.session.model_choice(names)
        offered = [(f"default: {self._default_model} ({why})", ""), *((n, n) for n in names)]
        if self.model and self.model not in names:
            offered.append((self.model, self.model))
        self._picking = True
        try:
            self.model_picker.options = offered
            self.model_picker.value = self.model
        finally:
            self._picking = False
        if self._last is None and hasattr(self, "usage_label"):
            self.usage_label.value = usage_line(None, 0, self._asked_model)

    def _on_session_model(self, change: dict[str, Any]) -> None:
        self.model = change["new"]

    def _on_model_picked(self, change: dict[str, Any]) -> None:
        if change["new"] is not None and not self._picking:
            self.model = change["new"]

    @observe("model")
    def _on_model(self, change: dict[str, Any]) -> None:
        if hasattr(self, "model_picker"):
            self._offer_models(self._served)

    @property
    def _asked_model(self) -> str:
        """The model the next question goes to: the one picked, else the default."""
        return self.model or self._default_model

    # ---------------------------------------------------------------- actions

    @action
    def send(self, text: str | None = None) -> bool:
        """Ask ``text`` (else the input box's text); the answer streams in the background."""
        question = (self.input.value if text is None else text).strip()
        if not question:
            raise PanelInputError("type a question first")
        if not self.wait(0):
            raise PanelInputError("an answer is still streaming; stop it or wait for it")
        asked = Question(
            text=question,
            model=self.model or None,
            workspace=self.workspace,
            temperature=self.temperature,
            file_ids=list(self.file_ids),
            filter=self.metadata_filter,
            words=PANEL_WORDS,
            format="code" if self.code_only else None,
            top_k=self.top_k,
            stream=True,
            thread=self.thread,
            make_current=False,
            interpolate=False,
        )
        self.turns = [*self.turns, {"role": "user", "content": question}]
        self.conversation.children = [*self.conversation.children, self._turn_widget(-1)]
        self.input.value = ""
        self._stop_requested.clear()
        self.streaming = True
        return self._start(lambda: self._answer(asked), name="chat")

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
        self._last = None
        self.session.threads.reset(self.thread)
        self.conversation.children = []
        self.usage_label.value = usage_line(None, 0, self._asked_model)

    @action
    def resume(self, thread: str) -> None:
        """Continue ``thread`` as stored (after a kernel restart): its turns are shown again."""
        from chatspace.notebook.session import notebook_name

        self.stop()
        self.wait()
        resumed = self.session.threads.resume(
            self.client, thread, workspace=self.workspace, notebook=notebook_name(), select=False
        )
        self.thread = resumed.name
        self.turns = [
            t
            for turn in resumed.turns
            for t in (
                {"role": "user", "content": turn.question},
                {
                    "role": "assistant",
                    "content": turn.shown_answer,
                    "id": turn.completion_id,
                    "citations": [dataclasses.asdict(c) for c in turn.citations],
                },
            )
        ]
        self.conversation.children = [self._turn_widget(i) for i in range(len(self.turns))]

    # ---------------------------------------------------------------- streaming

    def _answer(self, asked: Question) -> None:
        turn: dict[str, Any] = {"role": "assistant", "content": "", "workspace": asked.workspace}
        self.turns = [*self.turns, turn]
        widget = self._answer_view(turn)
        self.conversation.children = [*self.conversation.children, widget]
        last_render = [0.0]

        def show(text: str) -> None:
            now = time.monotonic()
            if now - last_render[0] >= self.render_interval:
                widget.value = self._render({**turn, "content": text})
                last_render[0] = now

        ctx = NotebookContext.current(self.session)
        try:
            result = ask(ctx, asked, on_text=show, stop=self._stop_requested)
        except Exception:
            # nothing arrived: take the question back, so it can be sent again
            self.turns = self.turns[:-2]
            self.conversation.children = self.conversation.children[:-2]
            self.input.value = asked.text
            self.streaming = False
            raise
        content = result.text if result.shown is None else result.shown
        if result.format == "code" and result.value:
            content = fenced(result.value)  # the code alone, as Insert will put it
        done = {
            **turn,
            "content": content,
            "id": result.id,
            "citations": [dataclasses.asdict(c) for c in result.citations],
            "stopped": result.interrupted,
        }
        if result.usage is not None:
            done["usage"] = result.usage.model_dump(include=set(_USAGE_KEYS))
            self.usage = {k: self.usage.get(k, 0) + int(done["usage"][k]) for k in _USAGE_KEYS}
        if result.error:
            self.show_error(result.error)
        self._last = result
        self.turns = [*self.turns[:-1], done]
        widget.value = self._render(done)
        widget.codes = code_blocks(content)  # complete: its code gets its buttons
        total = self.usage.get("total_tokens", 0)
        self.usage_label.value = usage_line(result, total, self._asked_model)
        self.streaming = False

    @validate("top_k")
    def _valid_top_k(self, proposal: dict[str, Any]) -> int:
        return top_k_or_default(proposal["value"])

    @validate("temperature")
    def _valid_temperature(self, proposal: dict[str, Any]) -> float | None:
        value = proposal["value"]
        return None if value is None else float(wire_value(Temperature, value, "temperature"))

    def _on_slider(self, change: dict[str, Any]) -> None:
        self.temperature = change["new"]

    @observe("temperature")
    def _on_temperature(self, change: dict[str, Any]) -> None:
        """The slider shows the temperature sent, or says that none is."""
        chosen = change["new"] is not None
        self.temperature_slider.readout = chosen
        self.temperature_default.layout.display = "none" if chosen else None
        if chosen:
            self.temperature_slider.value = change["new"]

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
            self.session.settings.unobserve(self._on_session_model, "default_model")
        super().close()

    def _turn_widget(self, index: int) -> w.DOMWidget:
        turn = self.turns[index]
        if turn["role"] == "assistant":
            return self._answer_view(turn)
        view = w.HTML(self._render(turn))
        view.add_class("chatspace-turn-" + turn["role"])
        return view

    def _answer_view(self, turn: dict[str, Any]) -> AnswerView:
        view = AnswerView(value=self._render(turn), codes=code_blocks(turn["content"]))
        view.add_class("chatspace-turn-assistant")
        view.on_insert(self._insert)
        return view

    # ---------------------------------------------------------------- code to cells

    @action
    def insert_code(self, turn: int = -1, block: int = 0) -> str:
        """What Insert on code block ``block`` of answer ``turn`` does (the last answer's
        first block by default): its code goes into a new cell below the active one."""
        answers = [v for v in self.conversation.children if isinstance(v, AnswerView)]
        if not answers:
            raise PanelInputError("no answer yet: ask a question first")
        try:
            view = answers[turn]
        except IndexError:
            raise PanelInputError(f"no answer {turn}: the chat has {len(answers)}") from None
        if not view.codes:
            raise PanelInputError("this answer has no code block")
        try:
            return view.insert(block)
        except IndexError as exc:
            raise PanelInputError(str(exc)) from None

    @action
    def _insert(self, code: str) -> None:
        insert_below(code)
