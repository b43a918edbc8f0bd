"""Asking a question: the request from options, the answer streamed, the result assembled.

``%%chat`` fills a :class:`Question` from its options, the chat panel from its widgets;
:func:`ask` does the rest for both: interpolation, the retrieval part, the thread's
history within its token budget, the tags of the stored turn, streaming (stopped by
Ctrl-C or by ``stop``), and a :class:`~chatspace.notebook.display.ChatResult` built from
the client's ``stream.completion`` with its citations, usage and provenance.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .conversations import estimate_tokens
from .display import ChatResult, evidence_of
from .failures import told
from .filerefs import file_ids as find_ids
from .formats import FORMAT_HINTS, value_of
from .grammar import InputError, parse_filter
from .interpolate import interpolate
from .table_rows import labelled_citations

if TYPE_CHECKING:
    from chatspace.client import Client
    from chatspace.errors import APIStatusError
    from chatspace.types import ChatCompletion, CompletionUsage

    from .context import NotebookContext
    from .conversations import Thread

__all__ = ["OPTION_WORDS", "Question", "Request", "ask", "build", "in_words", "request_fields"]

OPTION_WORDS = {
    "model": "-m/--model",
    "workspace": "-w/--workspace",
    "temperature": "-t/--temperature",
    "max_tokens": "--max-tokens",
    "file_ids": "--files",
    "filter": "--filter",
    "top_k": "--top-k",
    "content": "the question",
    "messages": "the thread's history",
}
"""The request's fields as ``%%chat`` names them (the panel passes its labels)."""

# Fields with options of their own, or set here: not for --param.
_OWN_FIELDS = {"messages", "workspace", "model", "stream", "stream_options", "store"}


@dataclass
class Question:
    """A question and how to ask it; ``None`` takes the session's setting."""

    text: str
    model: str | None = None
    workspace: str | None = None
    system: str | None = None
    temperature: float | None = None
    max_tokens: int | None = None
    params: dict[str, Any] = field(default_factory=dict)
    file_ids: list[str] = field(default_factory=list)
    """Files to search: ids, or names unique in the workspace (:mod:`.filerefs`)."""
    filter: str | Mapping[str, Any] | None = None
    """Typed by the user: a JSON object or ``k=v`` words (:mod:`.grammar`)."""
    top_k: int | None = None
    words: Mapping[str, str] = field(default_factory=lambda: OPTION_WORDS)
    """Request fields by their names on the asking surface, for the service's refusals."""
    df: str | None = None
    format: str | None = None
    store: bool | None = None
    stream: bool | None = None
    thread: str | None = None
    make_current: bool = True
    """Whether ``thread`` becomes the one later calls without a thread continue."""
    new: bool = False
    interpolate: bool = True


@dataclass
class Request:
    """What one call sends, and what the result needs to know about it."""

    kwargs: dict[str, Any]
    question: str
    thread: Thread
    turn: int
    format: str
    history_sent: int
    history_left_out: int
    token_budget: int
    interpolated: list[str] = field(default_factory=list)


def request_fields() -> list[str]:
    """The request fields ``--param`` may set (all but those with options of their own)."""
    from chatspace.types import ChatCompletionRequest

    return sorted(set(ChatCompletionRequest.model_fields) - _OWN_FIELDS)


def build(ctx: NotebookContext, q: Question) -> Request:
    """The request of one question; everything is checked before the thread changes."""
    session = ctx.session
    question = q.text.strip()
    if not question:
        raise InputError("the question is empty: write it first (see --help)")
    used: list[str] = []
    if q.interpolate:
        done = interpolate(
            question, ctx.names, max_chars=ctx.session.settings.max_interpolated_chars
        )
        question, used = done.text, done.names
    workspace = q.workspace or session.settings.default_workspace
    content = _content(ctx, q, question, workspace)
    fmt = q.format or session.settings.default_format
    model = q.model or session.model_choice()[0]

    book = session.threads
    name = q.thread or book.current
    if q.make_current:
        book.select(name)
    thread = book.reset(name) if q.new else book.get(name)
    if q.system is not None:
        thread.system = q.system
    budget = session.settings.thread_token_budget
    history, sent, left_out = thread.history(budget)
    system = "\n\n".join(p for p in (thread.system, FORMAT_HINTS.get(fmt)) if p)
    messages: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
    messages += [*history, {"role": "user", "content": content}]

    kwargs: dict[str, Any] = dict(q.params)
    kwargs.update(messages=messages, model=model, workspace=workspace)
    if q.temperature is not None:
        kwargs["temperature"] = q.temperature
    if q.max_tokens is not None:
        kwargs["max_tokens"] = q.max_tokens
    if fmt == "json":
        kwargs.setdefault("response_format", {"type": "json_object"})
    turn = len(thread.turns) + 1
    kwargs["store"] = session.settings.store if q.store is None else q.store
    if kwargs["store"]:
        kwargs["metadata"] = {**thread.tags(turn, ctx.notebook), **(kwargs.get("metadata") or {})}
    return Request(kwargs, question, thread, turn, fmt, sent, left_out, budget, used)


def _content(
    ctx: NotebookContext, q: Question, question: str, workspace: str
) -> str | list[dict[str, Any]]:
    """The user message: plain text, or text and a filter part when retrieval is narrowed."""
    words = q.words.get("file_ids", "file_ids")
    file_ids = find_ids(ctx.session.client, workspace, q.file_ids, field=words)
    if q.df:
        file_ids.append(ctx.upload_frame(q.df, workspace))
    filter_json = parse_filter(q.filter, field=q.words.get("filter", "filter"))
    top_k = q.top_k if q.top_k is not None else ctx.session.settings.default_top_k
    if not (file_ids or filter_json or top_k):
        return question
    part: dict[str, Any] = {"type": "filter"}
    if file_ids:
        part["file_ids"] = file_ids
    if filter_json:
        part["filter"] = filter_json
    if top_k:
        part["top_k"] = top_k
    return [{"type": "text", "text": question}, part]


def ask(
    ctx: NotebookContext,
    q: Question,
    *,
    on_text: Callable[[str], None] | None = None,
    stop: threading.Event | None = None,
) -> ChatResult:
    """Ask ``q``; ``on_text`` sees the text so far as it streams, ``stop`` ends it early.

    A finished answer becomes a turn of its thread; a stopped or interrupted one does not
    (a partial answer would mislead the next turns).
    """
    from chatspace.errors import APIStatusError, ServerError, UnprocessableEntityError

    request = build(ctx, q)
    client = ctx.session.client
    streaming = ctx.session.settings.stream if q.stream is None else q.stream
    started = time.perf_counter()
    try:
        if streaming:
            arrived = _streamed(client, request, on_text, stop)
        else:
            completion = client.chat.create(**request.kwargs)
            arrived = _Arrived(completion, completion.text)
    except UnprocessableEntityError as exc:
        raise InputError(in_words(exc, q)) from None
    except ServerError as exc:
        if exc.status_code != 502 or not isinstance(exc.detail, str):
            raise
        # The service's 502 names the model, what its server said and what to check:
        # the generic "retry later" and the service's address would only mislead.
        raise APIStatusError(exc.detail, status_code=502, request_id=exc.request_id) from None
    result = _result(client, arrived, request, elapsed=time.perf_counter() - started)
    if not result.interrupted:
        request.thread.add(request.question, result)
    if result.stored and result.id:
        ctx.session.last_stored = {"id": result.id, "workspace": result.workspace}
    return result


def in_words(error: APIStatusError, q: Question) -> str:
    """A 422 told with the asking surface's names (``--files 'file-x': ...``), not the
    request body's path (``body.messages.14.content.1.file_ids.0``)."""
    if not isinstance(error.detail, list):
        return told(error)
    items = []
    for item in error.detail:
        loc = [str(p) for p in item.get("loc", ())] if isinstance(item, dict) else []
        msg = str(item.get("msg", "")) if isinstance(item, dict) else str(item)
        named = [i for i, part in enumerate(loc) if part in q.words]
        if not named:
            items.append(msg)
            continue
        at = named[-1]
        word = q.words[loc[at]]
        index = loc[at + 1] if at + 1 < len(loc) else None
        if loc[at] == "file_ids" and index is not None and index.isdigit():
            chosen = q.file_ids[int(index)] if int(index) < len(q.file_ids) else None
            word += f" {chosen!r}" if chosen else ""
        items.append(f"{word}: {msg}")
    return f"the service refused {'; '.join(items)} ({error.status_code})"


@dataclass(frozen=True)
class _Arrived:
    """What the service sent: the completion (None when a stream stopped before it
    could be folded), the text so far, and whether and why it was cut short."""

    completion: ChatCompletion | None
    text: str
    interrupted: bool = False
    error: str | None = None


def _streamed(
    client: Client,
    request: Request,
    on_text: Callable[[str], None] | None,
    stop: threading.Event | None,
) -> _Arrived:
    """Stream the answer; Ctrl-C or ``stop`` ends it and keeps what arrived."""
    from chatspace.errors import APIStreamError

    stream = client.chat.stream(**request.kwargs)
    error: str | None = None
    interrupted = False
    try:
        for _chunk in stream:
            if on_text is not None and stream.text:
                on_text(stream.text)
            if stop is not None and stop.is_set():
                interrupted = True
                break
    except KeyboardInterrupt:
        interrupted = True
    except APIStreamError as exc:
        if not stream.text:
            raise
        interrupted, error = True, str(exc)
    finally:
        stream.close()
    completion = stream.completion
    if completion is None and not interrupted:
        raise APIStreamError("The answer stream ended before any text arrived; ask again.")
    text = completion.text if completion is not None else stream.text
    return _Arrived(completion, text, interrupted, error)


def _result(client: Client, arrived: _Arrived, request: Request, *, elapsed: float) -> ChatResult:
    """The one place a :class:`ChatResult` is made: what arrived, told with the request."""
    completion, interrupted = arrived.completion, arrived.interrupted
    choice = completion.choices[0] if completion is not None and completion.choices else None
    shown, citations = evidence_of(completion) if completion is not None else (None, [])
    citations = labelled_citations(client, citations, request.kwargs["workspace"])
    value, not_json = value_of(arrived.text, request.format)
    usage: CompletionUsage | None = completion.usage if completion is not None else None
    if interrupted:  # the service sent no usage: count as its tokenizer would
        usage = _estimated_usage(request.kwargs["messages"], arrived.text)
    return ChatResult(
        text=arrived.text,
        model=completion.model if completion is not None else request.kwargs["model"],
        id=completion.id if completion is not None else None,
        completion=None if interrupted else completion,
        citations=citations,
        shown=shown,
        usage=usage,
        usage_estimated=interrupted,
        workspace=request.kwargs["workspace"],
        thread=request.thread.name,
        turn=request.turn,
        elapsed=elapsed,
        stored=bool(request.kwargs.get("store")) and not interrupted,
        finish_reason=choice.finish_reason if choice else None,
        interrupted=interrupted,
        error=arrived.error if interrupted else not_json,
        format=request.format,
        value=value,
        history_sent=request.history_sent,
        history_left_out=request.history_left_out,
        token_budget=request.token_budget,
        interpolated=request.interpolated,
    )


def _estimated_usage(messages: list[dict[str, Any]], answer: str) -> CompletionUsage:
    from chatspace.types import CompletionUsage

    prompt = 0
    for message in messages:
        content = message["content"]
        parts = content if isinstance(content, list) else [{"text": content}]
        prompt += sum(estimate_tokens(str(p.get("text") or "")) for p in parts)
    completion = estimate_tokens(answer)
    return CompletionUsage(
        prompt_tokens=prompt, completion_tokens=completion, total_tokens=prompt + completion
    )
