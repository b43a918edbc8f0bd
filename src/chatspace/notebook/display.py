"""What a chat shows: the answer streaming in place, then Markdown with citations and a footer.

Every output is a plain mimebundle (``text/plain`` and ``text/markdown``), so it reads the
same in JupyterLab, VS Code and a terminal, and carries its provenance (model, completion
id, usage, workspace, thread) under the ``chatspace`` key of its metadata. Everything that
came from the service goes through :mod:`chatspace.notebook.markup` first.
"""

from __future__ import annotations

import json
import re
import sys
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TextIO

from chatspace._wire import DEFAULT_MODEL, SENTENCE_PATTERN

from .markup import markdown_literal, one_line, safe_markdown

if TYPE_CHECKING:
    from chatspace.types import ChatCompletion, CompletionUsage

__all__ = [
    "ON_SCREEN",
    "ChatResult",
    "Citation",
    "LiveView",
    "Message",
    "OnScreen",
    "evidence",
    "evidence_of",
    "fenced",
    "place_of",
    "publish",
    "show_failure",
]

QUOTE_CHARS = 300
LISTED_SENTENCES = 5
"""Sentences named under a source, or under the note on those nothing supports, after an
answer printed as it arrived (:meth:`ChatResult.plain_tail`)."""
_BACKTICKS = re.compile(r"`+")
METADATA_KEY = "chatspace"


def publish(
    data: dict[str, Any],
    metadata: dict[str, Any] | None = None,
    *,
    display_id: str | None = None,
    update: bool = False,
) -> None:
    """Send one mimebundle to the notebook (or to the terminal's printer)."""
    from IPython.core.display_functions import publish_display_data

    transient = {"display_id": display_id} if display_id else None
    publish_display_data(data, metadata or {}, transient=transient, update=update)


@dataclass(frozen=True)
class Citation:
    """A source of an answer: its ``[n]`` marker, the file, the quoted passage, and where
    the quote starts in the file (the service's ``location`` as a plain dict, so that a
    panel's turns stay JSON; None where nothing says)."""

    marker: str
    file_id: str
    filename: str
    quote: str
    location: dict[str, Any] | None = None

    @property
    def place(self) -> str:
        """Where the quote is: ``p. 2`` (see :func:`place_of`)."""
        return place_of(self.location)

    @property
    def source(self) -> str:
        """The file and the place in it: ``postmortem.pdf, p. 2``."""
        return f"{self.filename}, {self.place}" if self.place else self.filename

    @classmethod
    def from_annotations(cls, annotations: Iterable[Any]) -> list[Citation]:
        """The file citations of an answer, one per marker, in order of appearance."""
        return evidence("", annotations)[1]

    def quoted_in(self, text: str) -> bool:
        """Whether ``text`` already shows the quote (``service-l0`` quotes in its answer):
        then the source is listed by its file alone, not printed twice."""
        return " ".join(self.quote.split()) in " ".join(text.split())


_NAMED_AS_IS = ("slide", "cell", "line")
"""Keys of a location said as ``key n``."""


def place_of(location: Mapping[str, Any] | None) -> str:
    """A location as a reader says it: ``p. 2``, ``sheet Targets, data row 3``, ``data
    row 3``, ``slide 3``, ``cell 5``, ``line 14``; empty where nothing says. Every output
    that lists sources (``%%chat``, the panels, ``%chat export``) says it so.

    A table's ``row`` counts data rows from 1, its header not counted (the wire's rule), so
    it is said as a *data* row: "row 3" alone reads as the spreadsheet's row 3, which is
    the header's row plus 3 (Excel's row 4 under a header in row 1)."""
    if not location:
        return ""
    sheet, row = location.get("sheet"), location.get("row")
    parts = [f"p. {location['page']}"] if location.get("page") is not None else []
    if sheet:
        parts.append(f"sheet {sheet}")
    if row is not None:
        parts.append(f"data row {row}")
    parts += [f"{key} {location[key]}" for key in _NAMED_AS_IS if location.get(key) is not None]
    return ", ".join(parts)


_MARKER = re.compile(r"\[\d{1,3}\]")
_LETTER = re.compile(r"[^\W\d_]")
_FENCE = re.compile(r"^```.*?^```", re.M | re.S)
UNSUPPORTED = "†"
"""Follows a sentence of an answer that no file supports, where other sentences are or
the model was given passages of the files."""
UNSUPPORTED_NOTE = f"{UNSUPPORTED} nothing in your files supports this sentence: check it."


def evidence(
    text: str, annotations: Iterable[Any], *, generated: bool = True, given: bool = False
) -> tuple[str, list[Citation]]:
    """The answer as the notebook shows it, and its sources, numbered as shown.

    A source is a file and its quote; each gets one ``[n]``, in order of appearance. A
    marker the model wrote shows its source's number, a sentence attributed without a
    marker gets one after it, a marker with no source (the model cited a passage that does
    not support it) is left out, and in a ``generated`` answer (a model's, not the quotes
    of ``service-l0``) where any sentence has a source, or whose model was ``given``
    passages of the files, a sentence without one is followed by :data:`UNSUPPORTED`
    (outside code blocks, and not for a heading or a list's lead-in line). An answer
    from a model given no passage (nothing in the files was relevant) is left unmarked:
    it does not claim to come from them.
    """
    sources: dict[tuple[str, str, str], Citation] = {}
    edits: list[tuple[int, int, str]] = []
    covered: list[tuple[int, int]] = []
    for a in sorted(annotations, key=lambda a: a.start_index):
        cited = a.file_citation
        if a.type != "file_citation" or cited is None:
            continue
        location = cited.location.model_dump() if cited.location is not None else None
        key = _source_key(cited.file_id, cited.quote, location)
        if key not in sources:
            marker = f"[{len(sources) + 1}]"
            citation = Citation(marker, cited.file_id, cited.filename, cited.quote, location)
            sources[key] = citation
        marker = sources[key].marker
        if _MARKER.fullmatch(a.text):
            edits.append((a.start_index, a.end_index, marker))
        else:
            edits.append((a.end_index, a.end_index, f" {marker}"))
        covered.append((a.start_index, a.end_index))
    if not text:
        return text, list(sources.values())
    taken = {(a, b) for a, b, _ in edits if a != b}
    edits += [
        (m.start() - (m.start() > 0 and text[m.start() - 1] == " "), m.end(), "")
        for m in _MARKER.finditer(text)
        if m.span() not in taken
    ]
    if generated and (sources or given):
        edits += [(b, b, UNSUPPORTED) for _, b in _unbacked(text, covered)]
    shown = text
    for a, b, new in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        shown = shown[:a] + new + shown[b:]
    return shown, list(sources.values())


def _source_key(file_id: str, quote: str, location: dict[str, Any] | None) -> tuple[str, str, str]:
    """What makes a citation one source of an answer: its file, quote and place."""
    return file_id, " ".join(quote.split()), place_of(location)


def _sentences(text: str) -> list[tuple[int, int]]:
    """Where each sentence of ``text`` is (:data:`SENTENCE_PATTERN`), blanks around it out."""
    found = []
    for m in SENTENCE_PATTERN.finditer(text):
        line = m.group().strip()
        if line:
            start = m.start() + len(m.group()) - len(m.group().lstrip())
            found.append((start, start + len(line)))
    return found


def _unbacked(text: str, covered: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """The sentences of ``text`` that no ``covered`` span touches and that say something:
    not in a code block, not a heading, a list's lead-in line or a few words."""
    fenced = [m.span() for m in _FENCE.finditer(text)]
    spans = list(covered)
    found = []
    for a, b in _sentences(text):
        line = text[a:b]
        inside = any(x <= a < y for x, y in fenced)
        backed = any(x < b and a < y for x, y in spans)
        lead = line.startswith("#") or line.endswith(":") or len(line.split()) < 4
        lead = lead or not _LETTER.search(line)
        if not (inside or backed or lead):
            found.append((a, b))
    return found


def evidence_of(completion: ChatCompletion) -> tuple[str, list[Citation]]:
    """:func:`evidence` of a completion's first choice (a generated answer unless the
    built-in ``service-l0``, which quotes, wrote it; its model was given passages when
    ``perception_usage`` counts their tokens)."""
    choice = completion.choices[0] if completion.choices else None
    annotations = choice.message.annotations if choice else []
    perceived = completion.perception_usage
    given = perceived is not None and perceived.prompt_tokens > 0
    return evidence(completion.text, annotations, generated=_generated(completion), given=given)


def _generated(completion: ChatCompletion) -> bool:
    """Whether a model wrote the answer: ``service-l0``'s bullets are the quotes they cite."""
    return completion.model != DEFAULT_MODEL


@dataclass(frozen=True, eq=False)
class ChatResult:
    """The answer of one ``%%chat``/``%chat`` call; the last one is also ``_chat``.

    ``text`` is the answer, ``value`` what ``--format`` made of it (the parsed object for
    ``json``, the code for ``code``, else the text), ``completion`` the service's object
    (None when the answer was interrupted), ``citations`` its sources. Made once, by
    :func:`chatspace.notebook.asking.ask`, and never changed.
    """

    text: str
    model: str
    id: str | None = None
    completion: ChatCompletion | None = None
    citations: list[Citation] = field(default_factory=list)
    shown: str | None = None
    """The answer as displayed (:func:`evidence`): markers numbered as the sources are."""
    usage: CompletionUsage | None = None
    usage_estimated: bool = False
    """True when ``usage`` is counted here (a stopped answer gets no count from the service)."""
    workspace: str = "default"
    thread: str | None = None
    turn: int | None = None
    elapsed: float = 0.0
    stored: bool = False
    finish_reason: str | None = None
    interrupted: bool = False
    error: str | None = None
    format: str = "markdown"
    value: Any = None
    history_sent: int = 0
    history_left_out: int = 0
    token_budget: int | None = None
    interpolated: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        tokens = f" {self.usage.total_tokens} tokens" if self.usage else ""
        text = one_line(self.text, 60)
        return f"<ChatResult {self.id or 'not stored'} {self.model}{tokens}: {text!r}>"

    # ---------------------------------------------------------------- display

    def metadata(self) -> dict[str, Any]:
        """Provenance, as put into the output's metadata."""
        usage = self.usage.model_dump() if self.usage is not None else None
        return {
            METADATA_KEY: {
                "completion_id": self.id,
                "model": self.model,
                "usage": usage,
                "usage_estimated": self.usage_estimated,
                "workspace": self.workspace,
                "thread": self.thread,
                "turn": self.turn,
                "stored": self.stored,
                "finish_reason": self.finish_reason,
                "interrupted": self.interrupted,
                "elapsed_seconds": round(self.elapsed, 3),
                "citations": [c.file_id for c in self.citations],
                "interpolated": list(self.interpolated),
            }
        }

    def _repr_mimebundle_(
        self, include: Any = None, exclude: Any = None
    ) -> tuple[dict[str, str], dict[str, Any]]:
        data = {"text/plain": self.plain()}
        if self.format != "text":
            data["text/markdown"] = self.markdown()
        return data, self.metadata()

    def _ipython_display_(self) -> None:
        if ON_SCREEN.take(self):
            return
        data, metadata = self._repr_mimebundle_()
        publish(data, metadata)

    @property
    def marked(self) -> bool:
        """Whether a sentence of the answer as shown carries :data:`UNSUPPORTED`."""
        return UNSUPPORTED in (self.shown or "")

    def _source_items(self, item: Callable[[Citation, str | None], str], note: str) -> list[str]:
        """An item per source, with its quote unless the answer shows it already, then
        ``note`` (what :data:`UNSUPPORTED` means) where a sentence carries the mark."""
        items = [
            item(c, None if c.quoted_in(self.text) else _quote(c.quote)) for c in self.citations
        ]
        return [*items, note] if self.marked else items

    def plain(self) -> str:
        """The answer, its sources and its footer as plain text."""
        shown = self.text if self.shown is None else self.shown
        return "\n\n".join([shown.rstrip() or "(empty answer)", self.plain_tail()])

    def plain_tail(self, *, printed: bool = False) -> str:
        """The sources and the footer as plain text. After an answer ``printed`` as it
        arrived, which a terminal cannot mark afterwards, each source says the sentences
        it backs, and the note the sentences nothing backs."""
        backs, unbacked = self._backing() if printed else ({}, [])
        parts = []
        lines = self._source_items(
            lambda c, quote: (
                f"  {c.marker} {one_line(c.source, 120)}"
                + (f": {quote}" if quote else "")
                + _listed(backs.get(c.marker, []), "for ")
            ),
            f"  {UNSUPPORTED_NOTE}" + _listed(unbacked),
        )
        if lines:
            parts.append("Sources:\n" + "\n".join(lines))
        parts.append("— " + " · ".join(self.footer_items()))
        return "\n\n".join(parts)

    def _backing(self) -> tuple[dict[str, list[str]], list[str]]:
        """The sentences of the answer each source's marker backs, and those the notebook
        marks :data:`UNSUPPORTED` (:func:`evidence`), in order; none of ``service-l0``'s,
        whose bullets are the quotes they cite."""
        completion = self.completion
        if completion is None or not completion.choices or not _generated(completion):
            return {}, []
        choice = completion.choices[0]
        text, sentences = self.text, _sentences(self.text)
        markers = {_source_key(c.file_id, c.quote, c.location): c.marker for c in self.citations}
        backs: dict[str, list[str]] = {}
        covered = []
        for a in choice.message.annotations:
            cited = a.file_citation
            if a.type != "file_citation" or cited is None:
                continue
            location = cited.location.model_dump() if cited.location is not None else None
            marker = markers.get(_source_key(cited.file_id, cited.quote, location))
            if marker is None:
                continue
            covered.append((a.start_index, a.end_index))
            for x, y in sentences:
                if x < a.end_index and a.start_index < y and text[x:y] not in backs.get(marker, []):
                    backs.setdefault(marker, []).append(text[x:y])
        unbacked = [text[x:y] for x, y in _unbacked(text, covered)] if self.marked else []
        return backs, unbacked

    def markdown(self) -> str:
        """The answer as safe Markdown, with its sources and footer."""
        parts = [self._markdown_body()]
        items = self._source_items(
            lambda c, quote: (
                f"- {markdown_literal(c.marker)} **{markdown_literal(c.source)}**"
                + (f": {markdown_literal(quote)}" if quote else "")
            ),
            f"- {markdown_literal(UNSUPPORTED_NOTE)}",
        )
        if items:
            parts.append("**Sources**\n\n" + "\n".join(items))
        parts.append("*" + " · ".join(markdown_literal(i) for i in self.footer_items()) + "*")
        return "\n\n".join(parts)

    def _markdown_body(self) -> str:
        if self.format == "json" and self.value is not None:
            shown = json.dumps(self.value, indent=2, ensure_ascii=False, default=str)
            return safe_markdown(f"```json\n{shown}\n```")
        if self.format == "code" and self.value is not None:
            return safe_markdown(fenced(self.value))
        shown = self.text if self.shown is None else self.shown
        return safe_markdown(shown.rstrip()) or "*(empty answer)*"

    def footer_items(self) -> list[str]:
        """Model, tokens, time, then whatever the reader should know about this answer."""
        items = [self.model]
        if self.usage is not None:
            about = "~" if self.usage_estimated else ""
            items.append(f"{about}{self.usage.total_tokens} tokens")
        items.append(f"{self.elapsed:.2f} s")
        if self.thread is not None:
            items.append(
                f"thread {self.thread} #{self.turn}" if self.turn else f"thread {self.thread}"
            )
        if self.history_left_out:
            items.append(
                f"{self.history_left_out} older turns left out (token budget {self.token_budget})"
            )
        if self.finish_reason == "length":
            items.append("cut short: the token limit, or the model looped")
        if self.interrupted:
            items.append("interrupted: partial answer" + (f" ({self.error})" if self.error else ""))
        elif self.error:
            items.append(self.error)
        if not self.stored and not self.interrupted:
            items.append("not stored")
        return items


class OnScreen:
    """The results a magic has already published in the running cell: the cell's Out
    would show them again. The magics add them and forget them when the cell ends
    (``r = %chat ...`` then ``r`` in a later cell shows it)."""

    def __init__(self) -> None:
        self._results: set[ChatResult] = set()

    def add(self, result: ChatResult) -> None:
        self._results.add(result)

    def take(self, result: ChatResult) -> bool:
        """Whether ``result`` is on screen already (once: a second display shows it)."""
        if result in self._results:
            self._results.remove(result)
            return True
        return False

    def clear(self) -> None:
        self._results.clear()


ON_SCREEN = OnScreen()


def _listed(sentences: list[str], lead: str = "") -> str:
    """Sentences of an answer under an item of its sources, one a line, at most
    :data:`LISTED_SENTENCES`."""
    shown = [f"\n      {lead}“{one_line(t, 80)}”" for t in sentences[:LISTED_SENTENCES]]
    more = len(sentences) - LISTED_SENTENCES
    return "".join(shown) + (f"\n      and {more} more" if more > 0 else "")


def _quote(text: str) -> str:
    return "“" + one_line(text, QUOTE_CHARS) + "”"


def fenced(code: str, language: str = "") -> str:
    """``code`` in a fence longer than any backtick run inside it."""
    longest = max((len(run) for run in _BACKTICKS.findall(code)), default=0)
    ticks = "`" * max(3, longest + 1)
    return f"{ticks}{language}\n{code.rstrip()}\n{ticks}"


@dataclass
class Message:
    """A short line of output (a confirmation, or an error): text and Markdown, escaped."""

    text: str
    error: bool = False

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        line = one_line(self.text, 500)
        if self.error:
            return {"text/plain": f"✗ {line}", "text/markdown": f"**✗** {markdown_literal(line)}"}
        return {"text/plain": line, "text/markdown": markdown_literal(line)}

    def show(self) -> None:
        publish(self._repr_mimebundle_())

    def __repr__(self) -> str:
        return self._repr_mimebundle_()["text/plain"]


class LiveView:
    """One output updated in place while an answer streams in, at most every ``throttle`` s.

    In a notebook the output starts empty and is updated with the text so far; when the
    answer is complete it is emptied again and the final answer is published after it
    (so that a notebook saved with outputs compares the same whatever the timing). In a
    terminal, where outputs cannot change, the text is printed as it arrives.
    """

    def __init__(
        self,
        *,
        live: bool,
        throttle: float,
        clock: Callable[[], float] = time.monotonic,
        stream: TextIO | None = None,
    ) -> None:
        self.live = live
        self.throttle = throttle
        self.updates = 0
        self._clock = clock
        self._stream = stream
        self._display_id: str | None = None
        self._last = 0.0
        self._pending = False
        self._printed = 0

    @property
    def started(self) -> bool:
        return self._display_id is not None or self._printed > 0

    def feed(self, text: str) -> None:
        """The whole text received so far; shown now or at the next throttle tick."""
        if not text:
            return
        if not self.live:
            out = self._stream or sys.stdout
            out.write(text[self._printed :])
            out.flush()
            self._printed = len(text)
            return
        if self._display_id is None:
            self._display_id = f"chatspace-{uuid.uuid4().hex}"
            publish({"text/plain": ""}, display_id=self._display_id)
            self._last = -float("inf")
        now = self._clock()
        if now - self._last >= self.throttle:
            self._show(text)
            self._last = now
            self._pending = False
        else:
            self._pending = True

    def _show(self, text: str) -> None:
        assert self._display_id is not None
        bundle = {"text/plain": text, "text/markdown": safe_markdown(text) + " ▍"}
        publish(bundle, display_id=self._display_id, update=True)
        self.updates += 1

    def close(self) -> None:
        """End the live output: empty it (notebook) or end the printed line (terminal)."""
        if self._display_id is not None:
            publish({"text/plain": ""}, display_id=self._display_id, update=True)
        elif self._printed:
            out = self._stream or sys.stdout
            out.write("\n")
            out.flush()


def show_failure(magic: str, exc: BaseException) -> None:
    """One line for what went wrong in ``magic`` (or its usage, for ``--help``)."""
    from .grammar import InputError
    from .options import HelpRequested

    if isinstance(exc, HelpRequested):
        publish({"text/plain": exc.text})
        return
    if isinstance(exc, KeyboardInterrupt):
        text = f"{magic}: interrupted"
    elif isinstance(exc, InputError) or _is_chatspace_error(exc):
        said = _in_words(exc)
        text = said if said.startswith(magic) else f"{magic}: {said}"
    elif isinstance(exc, OSError) and exc.strerror:
        where = f": {exc.filename}" if exc.filename else ""
        text = f"{magic}: {exc.strerror}{where}"
    else:
        text = f"{magic}: {type(exc).__name__}: {exc}"
    Message(text, error=True).show()


def _is_chatspace_error(exc: BaseException) -> bool:
    from chatspace.errors import ChatspaceError

    return isinstance(exc, ChatspaceError)


def _in_words(exc: BaseException) -> str:
    """A client error without its request (:mod:`.failures`); typed input as it is."""
    from chatspace.errors import ChatspaceError

    from .failures import told

    return told(exc) if isinstance(exc, ChatspaceError) else str(exc)
