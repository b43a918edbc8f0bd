"""What every engine is: something that turns a request and its passages into events.

An engine's :meth:`Engine.generate` yields :data:`Event` values: pieces of a choice's
content as they are written (with their token log probabilities, where the model gave
them), pieces of the tool calls it makes, the end of each choice (its ``finish_reason``
and citations), and optionally the usage its model reported. The same events make a plain
answer (folded by :class:`~.runner.CompletionBuilder`) and a streamed one (sent as chunks),
so both are the same completion.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, Protocol

from chatspace.service.retrieval.search import Passage, Retrieval
from chatspace.types import Annotation, ChatCompletionRequest, CompletionUsage

__all__ = [
    "ChoiceDone",
    "ContentDelta",
    "Engine",
    "Event",
    "Job",
    "ToolCallDelta",
    "UsageReport",
    "word_chunks",
]

WORDS_PER_CHUNK = 4
_CHUNK = re.compile(rf"\s*\S+(?:\s+\S+){{0,{WORDS_PER_CHUNK - 1}}}")


@dataclass(frozen=True, slots=True)
class ContentDelta:
    """The next piece of choice ``index``'s content, and the log probabilities of its
    tokens (``None`` where the model gave none)."""

    index: int
    text: str
    logprobs: tuple[dict[str, Any], ...] | None = None


@dataclass(frozen=True, slots=True)
class ToolCallDelta:
    """The next piece of tool call ``call`` of choice ``index``: its first piece names the
    call (``id``) and the function (``name``), every piece adds to ``arguments``. A
    ``legacy`` call is the single ``function_call`` of the older functions API."""

    index: int
    call: int
    arguments: str = ""
    id: str | None = None
    name: str | None = None
    legacy: bool = False


@dataclass(frozen=True, slots=True)
class ChoiceDone:
    """Choice ``index`` is complete; ``annotations`` index into its whole content."""

    index: int
    finish_reason: str
    annotations: tuple[Annotation, ...] = ()


@dataclass(frozen=True, slots=True)
class UsageReport:
    """Token counts as the model reports them (upstream models); ``None`` parts unknown."""

    usage: CompletionUsage
    system_fingerprint: str | None = None


Event = ContentDelta | ToolCallDelta | ChoiceDone | UsageReport


@dataclass(frozen=True, slots=True)
class Job:
    """One generation: the request as validated, and what retrieval found for it."""

    request: ChatCompletionRequest
    retrieval: Retrieval


class Engine(Protocol):
    """A model the service serves under ``name``."""

    name: str
    owned_by: str
    system_fingerprint: str | None

    def ignored(self, request: ChatCompletionRequest) -> list[str]:
        """The fields of ``request`` the engine cannot honour and leaves aside, sorted."""
        ...

    def generate(self, job: Job) -> AsyncIterator[Event]:
        """The events of the answer to ``job``; raise a ``Problem`` before the first one
        for what the caller should see as an HTTP error (502, 504, ...)."""
        ...

    def given(self, retrieval: Retrieval) -> tuple[Passage, ...]:
        """The passages of ``retrieval`` the model is given to answer from: what a stored
        completion's sources mark ``sent``."""
        ...

    def chunks(self, content: str) -> list[str]:
        """``content`` cut into the pieces a stream sends, joining back to it exactly: how
        a finished completion is streamed again (an idempotent replay)."""
        ...

    async def derive_metadata(
        self, *, text: str | None, filename: str, content_type: str, instructions: str
    ) -> tuple[dict[str, Any], str]:
        """File metadata derived from a file's text by ``instructions``, and the
        ``status_details`` sentence saying so; raise a ``Problem`` (502, ...) on failure."""
        ...


def word_chunks(content: str) -> list[str]:
    """``content`` in pieces of a few words that join back to it exactly.

    >>> word_chunks("one two three four five ")
    ['one two three four', ' five', ' ']
    """
    pieces = _CHUNK.findall(content)
    rest = content[sum(map(len, pieces)) :]
    if rest:  # trailing whitespace
        pieces.append(rest)
    return pieces
