"""Forwarding generation to an OpenAI-compatible server (llama.cpp, vLLM, Ollama, hosted).

The retrieved passages go first, as a system message that numbers them ``[1]``, ``[2]``,
... and asks the model to cite them by those markers (or says that none was found), then
what their tables answer computed with pandas over all their rows (a model given five
blocks of a CSV cannot average its 344 rows; :func:`.table_rows.computed_for`); the
answer's citations are then made by :mod:`.attribution`, from what each sentence says and
the markers the model wrote. ``developer`` messages are sent as
``system`` (not every server knows the newer role), filter parts are dropped, and every
request field the caller set is forwarded as given (tools, ``response_format``,
``logprobs``, ...), except those that belong to this service
(:attr:`~chatspace.types.ChatCompletionRequest.SERVICE_FIELDS`) and the two token limits,
sent as one ``max_tokens``. Tool calls and log probabilities come back as the upstream
sent them. Every answer is asked for as a stream (:meth:`UpstreamEngine.generate` says
why); usage is the upstream's own where its stream reports it, else counted
(:meth:`UpstreamEngine.counted`).

Failures: an unreachable server or an HTTP error status is a 502 that quotes the
upstream's own error message (one line, cut, with the connection's key and address
scrubbed; a 401 or 403 says that the key was refused), no answer within the upstream's
``timeout`` a 504 (:mod:`..problems`). A failure that is the connection's (unreachable,
key refused, 404) ends with the engine's ``advice``: where the connection comes from and
how to check it, as the registry words it for each source.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx
from httpx_sse import EventSource

from chatspace.service.config import Upstream
from chatspace.service.problems import UpstreamFailed, UpstreamTimeout
from chatspace.service.retrieval.search import Passage, Retrieval
from chatspace.service.tokenizer import count_texts
from chatspace.types import ChatCompletionRequest, ChatMessage, CompletionUsage

from .attribution import attribute
from .base import ChoiceDone, ContentDelta, Event, Job, ToolCallDelta, UsageReport, word_chunks
from .instructions import derive_with_model
from .repetition import ENDS_SEGMENT, looping
from .table_rows import Computed, computed_for

__all__ = ["NO_CONTEXT", "UpstreamEngine", "context_message", "new_client"]

log = logging.getLogger("chatspace.service")
_NOT_FORWARDED = ChatCompletionRequest.SERVICE_FIELDS | {"max_tokens", "max_completion_tokens"}
_MESSAGE_FIELDS = {"name", "tool_calls", "tool_call_id", "function_call"}
_MAX_REASON = 300
CONTEXT_PREAMBLE = (
    "Answer using the numbered passages below, taken from the user's files, where they are "
    "relevant. Cite a passage by its marker, like [1], right after what it supports."
)


def new_client(upstream: Upstream) -> httpx.AsyncClient:
    """The HTTP client of one upstream server: its base URL, key and timeout."""
    headers = {}
    if upstream.key is not None:
        headers["Authorization"] = f"Bearer {upstream.key.get_secret_value()}"
    return httpx.AsyncClient(
        base_url=upstream.url.rstrip("/") + "/", headers=headers, timeout=upstream.timeout
    )


NEAREST = (
    "The passages below are only the nearest to the question: if they do not answer it, "
    "say that the files do not cover it."
)
NO_CONTEXT = (
    "No passage of the user's files is relevant to this question: if the answer depends on "
    "their files, say that they do not cover it, and cite no passage."
)


def context_message(
    passages: Sequence[Passage], computed: Sequence[Computed] = (), unknown: str = ""
) -> dict[str, str]:
    """The system message that gives the model the retrieved passages, then what their
    tables answer computed over all their rows (:func:`.table_rows.computed_for`),
    numbered after them, or says that none of the files searched is relevant
    (:data:`NO_CONTEXT`, then ``unknown``: the names no file says,
    :attr:`~.search.Retrieval.unknown_said`), so that a model never cites passages it
    was not sent; with passages, ``unknown`` (words of what the question asks for that no
    file says) leads them, with :data:`NEAREST`."""
    if not passages:
        return {"role": "system", "content": " ".join(filter(None, [NO_CONTEXT, unknown]))}
    # what the question asks for, no file says: the passages are the nearest
    preamble = f"{CONTEXT_PREAMBLE}\n\n{unknown} {NEAREST}" if unknown else CONTEXT_PREAMBLE
    blocks = [f"[{i}] {p.filename}\n{p.text}" for i, p in enumerate(passages, 1)]
    blocks += [
        f"[{i}] {c.filename}, computed over all its rows\n{c.text}"
        for i, c in enumerate(computed, len(passages) + 1)
    ]
    return {"role": "system", "content": "\n\n".join([preamble, *blocks])}


def _message(m: ChatMessage) -> dict[str, Any]:
    """A request message as the upstream gets it: its text, and its tool call fields."""
    message = {
        "role": "system" if m.role == "developer" else m.role,
        "content": None if m.content is None else m.text(),
    }
    message |= m.model_dump(mode="json", include=_MESSAGE_FIELDS, exclude_none=True)
    return message


def _logprobs(choice: dict[str, Any]) -> tuple[dict[str, Any], ...] | None:
    found = (choice.get("logprobs") or {}).get("content")
    return tuple(found) if isinstance(found, list) else None


def _call_events(index: int, message: dict[str, Any]) -> list[Event]:
    """The tool calls (or legacy function call) of a message or a delta, as events."""
    events: list[Event] = []
    for k, call in enumerate(message.get("tool_calls") or []):
        function = call.get("function") or {}
        events.append(
            ToolCallDelta(
                index,
                int(call.get("index", k)),
                str(function.get("arguments") or ""),
                id=call.get("id"),
                name=function.get("name"),
            )
        )
    legacy = message.get("function_call")
    if legacy:
        arguments = str(legacy.get("arguments") or "")
        events.append(ToolCallDelta(index, 0, arguments, name=legacy.get("name"), legacy=True))
    return events


def _reason(data: Any) -> str:
    """The error message of an upstream's error body (OpenAI's ``error.message``, or a
    ``detail``), on one line; '' when it has none."""
    found: Any = None
    if isinstance(data, dict):
        error = data.get("error")
        found = error.get("message") if isinstance(error, dict) else error
        if not found:
            found = data.get("detail")
        if isinstance(found, list) and found and isinstance(found[0], dict):
            found = found[0].get("msg")
    return " ".join(found.split()) if isinstance(found, str) else ""


def _usage(data: Any) -> CompletionUsage | None:
    try:
        p, c = int(data["prompt_tokens"]), int(data["completion_tokens"])
        total = int(data.get("total_tokens", p + c))
    except (KeyError, TypeError, ValueError):
        return None
    return CompletionUsage(prompt_tokens=p, completion_tokens=c, total_tokens=total)


class UpstreamEngine:
    """A model name of this service served by a model of an upstream server."""

    system_fingerprint: str | None = None

    def __init__(
        self,
        *,
        name: str,
        remote: str,
        client: httpx.AsyncClient,
        owned_by: str = "upstream",
        advice: str = "",
    ) -> None:
        self.name, self.remote, self.client, self.owned_by = name, remote, client, owned_by
        self.advice = advice
        """A sentence saying where the connection comes from and how to check it."""

    def ignored(self, request: ChatCompletionRequest) -> list[str]:
        """Nothing: every field is forwarded, for the upstream to honour or refuse."""
        return []

    def given(self, retrieval: Retrieval) -> tuple[Passage, ...]:
        """The passages of the context message (:func:`context_message`): every retrieved
        one, when the workspace had files to search."""
        return retrieval.passages if retrieval.searched else ()

    def chunks(self, content: str) -> list[str]:
        return word_chunks(content)

    async def derive_metadata(
        self, *, text: str | None, filename: str, content_type: str, instructions: str
    ) -> tuple[dict[str, Any], str]:
        """The upstream model asked for the metadata (:mod:`.instructions`)."""
        return await derive_with_model(
            self, text=text, filename=filename, content_type=content_type, instructions=instructions
        )

    def computed(self, job: Job) -> tuple[Computed, ...]:
        """What the tables among the passages given answer (:func:`.table_rows.computed_for`),
        computed once per answer: the context shows it, and attribution cites its rows."""
        return computed_for(job.retrieval) if job.retrieval.searched else ()

    def body(self, job: Job, *, stream: bool, computed: Sequence[Computed] = ()) -> dict[str, Any]:
        """The upstream request for ``job`` (``computed``: :meth:`computed`)."""
        r = job.request
        found = job.retrieval
        context = context_message(self.given(found), computed, found.unknown_said)
        messages = [context] if found.searched else []
        messages += [_message(m) for m in r.messages]
        body: dict[str, Any] = {"model": self.remote, "messages": messages, "stream": stream}
        for key in sorted(r.model_fields_set - _NOT_FORWARDED):
            if (value := r.given(key)) is not None:
                body[key] = value
        if r.token_limit() is not None:
            body["max_tokens"] = r.token_limit()
        if stream:
            body["stream_options"] = {"include_usage": True}
        return body

    def counted(
        self, job: Job, contents: Sequence[str], computed: Sequence[Computed] = ()
    ) -> CompletionUsage:
        """The usage of a server that reports none (llama.cpp's server streams none, as it
        ignores ``stream_options``), by the service's tokenizer: the prompt is what the
        model read, the passages' system message included, as in a count the model gives."""
        found = job.retrieval
        context = context_message(self.given(found), computed, found.unknown_said)["content"]
        given = [context] if found.searched else []
        prompt = count_texts([*given, *(m.text() for m in job.request.messages)])
        completion = count_texts(contents)
        return CompletionUsage(
            prompt_tokens=prompt, completion_tokens=completion, total_tokens=prompt + completion
        )

    def _failed(self, why: str, reason: str = "", *, advise: bool = False) -> UpstreamFailed:
        said = f": {self._scrubbed(reason)}" if reason else ""
        return self._problem(f"failed: {why}{said}", advise=advise)

    def _problem(self, what: str, *, advise: bool) -> UpstreamFailed:
        """``The upstream model 'x' <what>.``, then the advice when the connection is at fault."""
        advice = f" {self.advice}." if advise and self.advice else ""
        return UpstreamFailed(f"The upstream model '{self.name}' {what}.{advice}")

    def _scrubbed(self, reason: str) -> str:
        """``reason`` cut to :data:`_MAX_REASON` characters, without the connection's key
        or address, and without a final full stop (the sentence adds its own)."""
        key = self.client.headers.get("authorization", "").removeprefix("Bearer ").strip()
        url = self.client.base_url
        for secret in (key, str(url).rstrip("/"), url.netloc.decode(), url.host):
            if len(secret) >= 4:
                reason = reason.replace(secret, "[redacted]")
        if len(reason) > _MAX_REASON:
            reason = reason[: _MAX_REASON - 3] + "..."
        return reason.rstrip(".")

    async def _refused(self, response: httpx.Response) -> UpstreamFailed:
        """The 502 for an HTTP error status, with what the upstream said."""
        status = response.status_code
        log.warning("upstream %s answered %s", self.name, status)
        await response.aread()
        try:
            reason = _reason(response.json())
        except ValueError:
            reason = ""
        said = f": {self._scrubbed(reason)}" if reason else ""
        if status in (401, 403):
            return self._problem(f"refused the connection's key (HTTP {status}){said}", advise=True)
        if status == 404:
            return self._problem(
                f"was not found (HTTP 404{said}): the connection's URL or its model name "
                f"'{self.remote}' is wrong",
                advise=True,
            )
        return self._failed(f"it answered HTTP {status}", reason)

    def _timeout(self) -> UpstreamTimeout:
        return UpstreamTimeout(f"The upstream model '{self.name}' did not answer in time.")

    async def generate(self, job: Job) -> AsyncIterator[Event]:
        """The upstream's answer as events. A whole (not streamed) answer is asked for as a
        stream too, and must arrive within the connection's timeout: when it does not, the
        stream is closed, which stops the model's generation (llama.cpp's server stops on
        a closed stream but finishes a plain request whoever waits for it). A small local
        model that repeats itself until its context is full would otherwise keep the
        server busy for minutes after the 504, and every question asked meanwhile would
        wait behind it."""
        if job.request.stream:
            async for event in self._stream(job):
                yield event
            return
        try:
            async with asyncio.timeout(self.client.timeout.read):
                events = [event async for event in self._stream(job)]
        except TimeoutError:
            raise self._timeout() from None
        for event in events:
            yield event

    def _answer_events(
        self, data: dict[str, Any], job: Job, computed: Sequence[Computed]
    ) -> list[Event]:
        """The events of a whole (not streamed) chat completion."""
        events: list[Event] = []
        contents: list[str] = []
        retrieval = job.retrieval
        try:
            for i, choice in enumerate(data["choices"]):
                index = int(choice.get("index", i))
                message = choice.get("message") or {}
                content = message.get("content") or ""
                if not isinstance(content, str):
                    raise TypeError("content is not a string")
                contents.append(content)
                events.append(ContentDelta(index, content, _logprobs(choice)))
                events += _call_events(index, message)
                notes = attribute(content, retrieval, computed)
                events.append(ChoiceDone(index, choice.get("finish_reason") or "stop", notes))
        except (KeyError, TypeError, ValueError, AttributeError):
            raise self._failed("its answer is not a chat completion") from None
        usage = _usage(data.get("usage")) or self.counted(job, contents, computed)
        events.append(UsageReport(usage, data.get("system_fingerprint")))
        return events

    def _json(self, response: httpx.Response) -> dict[str, Any]:
        try:
            data = response.json()
        except ValueError:
            data = None
        if not isinstance(data, dict):
            raise self._failed("its answer is not JSON")
        return data

    async def _stream(self, job: Job) -> AsyncIterator[Event]:
        """The upstream's stream as events; a server that ignores ``stream`` and answers
        one JSON completion is taken as it is."""
        said = _Said()
        usage: CompletionUsage | None = None
        fingerprint: str | None = None
        chunks = 0
        computed = self.computed(job)
        body = self.body(job, stream=True, computed=computed)
        try:
            async with self.client.stream("POST", "chat/completions", json=body) as response:
                if response.status_code >= 400:
                    raise await self._refused(response)
                kind = response.headers.get("content-type", "")
                if kind.startswith("application/json"):
                    await response.aread()
                    for event in self._answer_events(self._json(response), job, computed):
                        yield event
                    return
                if not kind.startswith("text/event-stream"):
                    raise self._failed("its answer is not an event stream")
                async for data in _sse_data(response):
                    if data == "[DONE]":
                        break
                    chunk = self._chunk(data)
                    chunks += 1
                    usage = _usage(chunk.get("usage")) or usage
                    fingerprint = chunk.get("system_fingerprint") or fingerprint
                    for event in self._chunk_events(chunk, said, job.retrieval, computed):
                        yield event
                    if said.cut and said.ended.keys() >= said.contents.keys():
                        log.info("upstream %s looped: its answer was cut", self.name)
                        break  # closing the stream stops the model
        except httpx.TimeoutException:
            raise self._timeout() from None
        except httpx.HTTPError:
            raise self._failed("its server could not be reached", advise=True) from None
        if not chunks:
            raise self._failed("it streamed no answer")
        if usage is None:
            usage = self.counted(job, [said.text(i) for i in said.contents], computed)
        yield UsageReport(usage, fingerprint)

    def _chunk(self, data: str) -> dict[str, Any]:
        try:
            chunk = json.loads(data)
        except ValueError:
            chunk = None
        if not isinstance(chunk, dict):
            raise self._failed("it streamed an event that is not JSON")
        if "error" in chunk:
            log.warning("upstream %s streamed an error: %.300s", self.name, chunk["error"])
            raise self._failed("it reported an error while streaming", _reason(chunk))
        return chunk

    def _chunk_events(
        self, chunk: dict[str, Any], said: _Said, retrieval: Retrieval, computed: Sequence[Computed]
    ) -> list[Event]:
        """The events of one chunk, noted in ``said``. A choice whose text became a loop
        (:mod:`.repetition`) ends there, ``length`` (cut short, as by ``max_tokens``), and
        what the upstream sends of it after is dropped."""
        events: list[Event] = []
        try:
            for choice in chunk.get("choices") or []:
                index = int(choice.get("index", 0))
                if index in said.ended:
                    continue
                delta = choice.get("delta") or {}
                text = delta.get("content") or ""
                if not isinstance(text, str):
                    raise TypeError("content is not a string")
                if text:
                    said.contents.setdefault(index, []).append(text)
                    events.append(ContentDelta(index, text, _logprobs(choice)))
                events += _call_events(index, delta)
                reason = choice.get("finish_reason")
                if not reason and ENDS_SEGMENT.search(text) and looping(said.text(index)):
                    reason = "length"
                    said.cut.add(index)
                if reason:
                    said.ended[index] = str(reason)
                    notes = attribute(said.text(index), retrieval, computed)
                    events.append(ChoiceDone(index, str(reason), notes))
        except (TypeError, ValueError, AttributeError):
            raise self._failed("it streamed a chunk that is not a chat completion chunk") from None
        return events


@dataclass
class _Said:
    """What an upstream's stream said so far: each choice's text in pieces, the finish
    reason of each choice that ended, and the choices cut because they looped."""

    contents: dict[int, list[str]] = field(default_factory=dict)
    ended: dict[int, str] = field(default_factory=dict)
    cut: set[int] = field(default_factory=set)

    def text(self, index: int) -> str:
        return "".join(self.contents.get(index, []))


async def _sse_data(response: httpx.Response) -> AsyncIterator[str]:
    """The ``data`` of each server-sent event, read by ``httpx-sse`` as the client reads its
    streams (multi-line data joined with newlines; comments, ``event``, ``id`` and ``retry``
    fields as the SSE standard says). An event without data (a named ``ping``, a
    ``retry``) carries no chunk and is passed over."""
    async for event in EventSource(response).aiter_sse():
        if event.data:
            yield event.data
