"""One engine run, answered plain or streamed, always as the same completion.

:class:`CompletionBuilder` folds an engine's events into the ``chat.completion`` object
and into the ``chat.completion.chunk`` events of docs/interface.md#streaming: a choice's
first chunk carries ``role``, its last content chunk carries its annotations (one content
piece is held back per choice until the next piece or the choice's end shows whether it
is the last), and its final chunk carries ``finish_reason``. Tool calls are streamed as
the OpenAI API streams them: ``delta.tool_calls[{index, id, type, function: {name,
arguments}}]`` first, then pieces of ``arguments`` under the same ``index``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import aclosing
from dataclasses import dataclass, field
from typing import Any

from chatspace.service.problems import Problem, UpstreamFailed, UpstreamTimeout
from chatspace.service.tokenizer import count_texts, count_tokens
from chatspace.types import (
    Annotation,
    ChatCompletion,
    ChatCompletionChoice,
    ChatCompletionChunk,
    ChatCompletionMessage,
    ChatCompletionRequest,
    CompletionUsage,
    LogProbs,
    question_of,
)
from chatspace.types.chat import ChoiceDelta, ChunkChoice

from .base import ChoiceDone, ContentDelta, Engine, Event, ToolCallDelta, UsageReport

__all__ = ["CompletionBuilder", "Identity", "complete", "events_of", "sse_stream"]

log = logging.getLogger("chatspace.service")
DONE = b"data: [DONE]\n\n"
_ERROR_TYPES: dict[type[Problem], str] = {
    UpstreamFailed: "upstream_error",
    UpstreamTimeout: "upstream_timeout",
}


@dataclass(frozen=True, slots=True)
class Identity:
    """What names a completion: chosen by the route before the engine runs."""

    id: str
    created: int
    model: str
    request_id: str


@dataclass
class _Choice:
    parts: list[str] = field(default_factory=list)
    pending: ContentDelta | None = None
    started: bool = False
    finish_reason: str | None = None
    annotations: tuple[Annotation, ...] = ()
    logprobs: list[dict[str, Any]] | None = None
    tool_calls: dict[int, dict[str, Any]] = field(default_factory=dict)
    function_call: dict[str, Any] | None = None

    def message(self) -> ChatCompletionMessage:
        return ChatCompletionMessage.folded(
            self.parts,
            annotations=self.annotations,
            calls=self.tool_calls,
            function_call=self.function_call,
        )


def _fold_call(choice: _Choice, event: ToolCallDelta) -> dict[str, Any]:
    """Add ``event`` to the choice's tool call (or legacy function call); return what a
    chunk's delta carries of it."""
    piece: dict[str, Any] = {"arguments": event.arguments}
    if event.name is not None:
        piece["name"] = event.name
    if event.legacy:
        function = choice.function_call = choice.function_call or {"name": "", "arguments": ""}
    else:
        empty = {"id": "", "type": "function", "function": {"name": "", "arguments": ""}}
        call = choice.tool_calls.setdefault(event.call, empty)
        call["id"] = event.id if event.id is not None else call["id"]
        function = call["function"]
    function["name"] += event.name or ""
    function["arguments"] += event.arguments
    if event.legacy:
        return {"function_call": piece}
    head = {"id": event.id, "type": "function"} if event.id is not None else {}
    return {"tool_calls": [{"index": event.call, **head, "function": piece}]}


def sse(data: ChatCompletionChunk | dict[str, Any]) -> bytes:
    """One event. A chunk carries the fields it was given (its deltas only what changed,
    as OpenAI's do), so the type defines every field and the wire stays lean."""
    if isinstance(data, ChatCompletionChunk):
        return b"data: " + data.model_dump_json(exclude_unset=True).encode() + b"\n\n"
    return b"data: " + json.dumps(data, separators=(",", ":")).encode() + b"\n\n"


class CompletionBuilder:
    """Folds events into chunks (to stream) and finally the completion."""

    def __init__(
        self,
        *,
        identity: Identity,
        request: ChatCompletionRequest,
        system_fingerprint: str | None,
        perception_tokens: int,
    ) -> None:
        self.identity = identity
        self.request = request
        self.system_fingerprint = system_fingerprint
        self.perception_tokens = perception_tokens
        self.usage: CompletionUsage | None = None
        self._choices: dict[int, _Choice] = {}

    def _chunk(self, choices: list[ChunkChoice], **usage: dict[str, Any]) -> ChatCompletionChunk:
        return ChatCompletionChunk(
            id=self.identity.id,
            object="chat.completion.chunk",
            created=self.identity.created,
            model=self.identity.model,
            system_fingerprint=self.system_fingerprint,
            choices=choices,
            **usage,
        )

    def _delta(
        self,
        index: int,
        choice: _Choice,
        delta: dict[str, Any],
        logprobs: tuple[dict[str, Any], ...] | None = None,
    ) -> ChatCompletionChunk:
        if not choice.started:
            delta = {"role": "assistant", **delta}
            choice.started = True
        reported = None if logprobs is None else LogProbs(content=list(logprobs), refusal=None)
        piece = ChunkChoice(
            index=index, delta=ChoiceDelta(**delta), finish_reason=None, logprobs=reported
        )
        return self._chunk([piece])

    def _content(self, index: int, choice: _Choice, *, last: bool) -> ChatCompletionChunk:
        """The chunk of the held-back piece; the last one carries the annotations."""
        pending, choice.pending = choice.pending, None
        delta: dict[str, Any] = {"content": pending.text if pending else ""}
        if last and choice.annotations:
            # dumped whole: a chunk keeps only the fields it was given, defaults included
            delta["annotations"] = [a.model_dump() for a in choice.annotations]
        return self._delta(index, choice, delta, pending.logprobs if pending else None)

    def add(self, event: Event) -> list[ChatCompletionChunk]:
        """Take one event; return the chunks that can be sent now."""
        if isinstance(event, UsageReport):
            self.usage = event.usage
            self.system_fingerprint = event.system_fingerprint or self.system_fingerprint
            return []
        choice = self._choices.setdefault(event.index, _Choice())
        if choice.finish_reason is not None:
            return []  # an engine's late pieces for a finished choice are dropped
        if isinstance(event, ChoiceDone):
            return self._finish(event.index, choice, event.finish_reason, event.annotations)
        if isinstance(event, ContentDelta) and not event.text:
            return []
        out = [self._content(event.index, choice, last=False)] if choice.pending else []
        if isinstance(event, ContentDelta):
            choice.parts.append(event.text)
            choice.pending = event
            if event.logprobs is not None:
                choice.logprobs = [*(choice.logprobs or []), *event.logprobs]
        else:
            out.append(self._delta(event.index, choice, _fold_call(choice, event)))
        return out

    def _finish(
        self, index: int, choice: _Choice, reason: str, annotations: tuple[Annotation, ...]
    ) -> list[ChatCompletionChunk]:
        choice.finish_reason, choice.annotations = reason, annotations
        out = []
        if choice.pending is not None or not choice.started or annotations:
            out.append(self._content(index, choice, last=True))
        end = ChunkChoice(index=index, delta=ChoiceDelta(), finish_reason=reason, logprobs=None)
        out.append(self._chunk([end]))
        return out

    def finish(self) -> tuple[list[ChatCompletionChunk], ChatCompletion]:
        """The last chunks (open choices closed, the usage chunk) and the completion."""
        out: list[ChatCompletionChunk] = []
        if not self._choices:
            self._choices[0] = _Choice()
        for index in sorted(self._choices):
            choice = self._choices[index]
            if choice.finish_reason is None:
                out += self._finish(index, choice, "stop", ())
        completion = self.completion()
        options = self.request.stream_options
        if options is not None and options.include_usage:
            usage = {"usage": completion.usage.model_dump()}
            if completion.perception_usage is not None:
                usage["perception_usage"] = completion.perception_usage.model_dump()
            out.append(self._chunk([], **usage))
        return out, completion

    def completion(self) -> ChatCompletion:
        r, ident = self.request, self.identity
        choices = [
            ChatCompletionChoice(
                index=i,
                message=c.message(),
                finish_reason=c.finish_reason,
                logprobs=None if c.logprobs is None else LogProbs(content=c.logprobs),
            )
            for i, c in sorted(self._choices.items())
        ]
        usage = self.usage or _counted_usage(r, [ch.message.content or "" for ch in choices])
        perception = None
        if self.perception_tokens:
            perception = CompletionUsage(
                prompt_tokens=self.perception_tokens,
                completion_tokens=0,
                total_tokens=self.perception_tokens,
            )
        return ChatCompletion(
            id=ident.id,
            created=ident.created,
            model=ident.model,
            system_fingerprint=self.system_fingerprint,
            choices=choices,
            usage=usage,
            perception_usage=perception,
            service_tier=r.service_tier,
            request_id=ident.request_id,
            seed=r.seed,
            top_p=r.top_p,
            temperature=r.temperature,
            presence_penalty=r.presence_penalty,
            frequency_penalty=r.frequency_penalty,
            input_user=r.user,
            tools=r.given("tools"),
            metadata=r.metadata,
            response_format=r.given("response_format"),
            question=question_of(r.messages),
        )


def _counted_usage(request: ChatCompletionRequest, contents: list[str]) -> CompletionUsage:
    """Usage from the service's tokenizer: the messages' text in, every choice's text out."""
    prompt = count_texts(m.text() for m in request.messages)
    completion = sum(count_tokens(c) for c in contents)
    return CompletionUsage(
        prompt_tokens=prompt, completion_tokens=completion, total_tokens=prompt + completion
    )


async def complete(builder: CompletionBuilder, events: AsyncIterator[Event]) -> ChatCompletion:
    """Run the engine to its end: the completion of a plain (not streamed) request."""
    async with aclosing(events):  # type: ignore[type-var]
        async for event in events:
            builder.add(event)
    return builder.finish()[1]


async def events_of(completion: ChatCompletion, engine: Engine) -> AsyncIterator[Event]:
    """A finished completion as events again, cut by its ``engine``, to stream it anew
    (idempotent replays)."""
    for choice in completion.choices:
        message, logprobs = choice.message, choice.logprobs
        for i, piece in enumerate(engine.chunks(message.content or "")):
            given = logprobs.content if logprobs is not None and i == 0 else None
            yield ContentDelta(choice.index, piece, None if given is None else tuple(given))
        for k, call in enumerate(message.tool_calls or []):
            function = call.function
            name, arguments = (function.name, function.arguments) if function else (None, "")
            yield ToolCallDelta(choice.index, k, arguments, id=call.id, name=name)
        if message.function_call is not None:
            call_ = message.function_call
            yield ToolCallDelta(choice.index, 0, call_.arguments, name=call_.name, legacy=True)
        reason = choice.finish_reason or "stop"
        yield ChoiceDone(choice.index, reason, tuple(choice.message.annotations))
    yield UsageReport(completion.usage, completion.system_fingerprint)


async def sse_stream(
    builder: CompletionBuilder,
    first: Event | None,
    events: AsyncIterator[Event],
    on_complete: Callable[[ChatCompletion], Awaitable[None]],
) -> AsyncIterator[bytes]:
    """The SSE body of a streamed completion; ``on_complete`` runs before ``[DONE]``.

    ``first`` was taken from ``events`` before the response started, so that an engine
    failing at once is an HTTP error; a failure later is an error event, then ``[DONE]``.
    """
    async with aclosing(events):  # type: ignore[type-var]
        try:
            if first is not None:
                for chunk in builder.add(first):
                    yield sse(chunk)
            async for event in events:
                for chunk in builder.add(event):
                    yield sse(chunk)
            last, completion = builder.finish()
            for chunk in last:
                yield sse(chunk)
            await on_complete(completion)
        except Problem as exc:
            kind = _ERROR_TYPES.get(type(exc), "server_error")
            yield sse({"error": {"message": exc.detail, "type": kind}})
        except Exception:
            log.exception("streamed completion %s failed", builder.identity.id)
            message = "Internal error in the chatspace service; see its log."
            yield sse({"error": {"message": message, "type": "server_error"}})
    yield DONE
