"""``service-l0``: the built-in engine that answers by quoting the files it was given.

It has no weights and no randomness of its own: the same request over the same files
gives the same answer. An answer is a lead line and a bullet per quote of each retrieved
passage (one, or two when a second part of it holds more of the question):

    Here is what I found in your files:

    - "Paris is the capital of France." (notes.md) [1]

Each quote is the passage's span that answers (:func:`~chatspace.service.retrieval.
quotes.quote_spans`: whole sentences, the run whose words of the question weigh most, and
a second run that holds others of them and weighs at least half as much: a bullet each), or
for a table the rows that answer, shown with their column names, or a value computed over
its rows ("highest", "total", "how many") with a marker per row it came from
(:mod:`.table_rows`); each ``[n]`` marker is a ``file_citation`` annotation whose quote is
the exact text of the file.
Without relevant passages the answer is :data:`NO_MATCH` (for the request's workspace).

``n`` choices differ in their lead line; ``seed`` picks where the leads start, so that
different seeds give different (but repeatable) wording. ``stop`` ends the text before the
first stop sequence (``finish_reason: stop``); ``max_tokens`` / ``max_completion_tokens``
cut it after that many tokens of :mod:`.tokenizer` (``finish_reason: length``). The
answer is streamed a few words per chunk.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from chatspace._version import __version__
from chatspace._wire import DEFAULT_MODEL
from chatspace.service.retrieval.quotes import label_at, quote_spans
from chatspace.service.retrieval.search import Passage, Retrieval
from chatspace.service.retrieval.tables import asks_computation
from chatspace.service.tokenizer import truncate
from chatspace.types import Annotation, ChatCompletionRequest

from .base import ChoiceDone, ContentDelta, Event, Job, word_chunks
from .extractor import derive_locally
from .structured import shaped
from .table_rows import Cite, answer_tables, answering_row, computes, header_end

__all__ = ["LEADS", "NO_MATCH", "LocalEngine", "answer", "quotes_of"]

NAME = DEFAULT_MODEL
NEAREST = "These passages of your files are the nearest to your question:"
"""The lead of an answer whose question asks for what no file says, after the sentence
that names those words (:attr:`~.search.Retrieval.unknown_said`)."""
LEADS = (
    "Here is what I found in your files:",
    "Your files say this:",
    "These passages of your files match your question:",
    "From the files of this workspace:",
)
NO_MATCH = (
    "Nothing in the files of workspace '{workspace}' answers this question, and service-l0 "
    "answers only from them; ask a generative model to answer beyond them."
)
"""True whether or not the service serves a generative model (service-l0 may be asked by
name, or be the default of several)."""


@dataclass(frozen=True, slots=True)
class Choice:
    content: str
    finish_reason: str
    annotations: tuple[Annotation, ...]


def quotes_of(
    passage: Passage, retrieval: Retrieval, *, most: int = 2
) -> list[tuple[int, int, str]]:
    """Where the quotes of ``passage`` are in its text (start, end) and how the answer
    shows them: a table's answering row with its column names (:mod:`.table_rows`), else
    the sentences of :func:`quote_spans` (one run, or up to ``most``)."""
    row = answering_row(passage, retrieval.question, retrieval.terms)
    if row is not None:
        return [(row.start, row.end, row.shown)]
    spans = quote_spans(passage, retrieval.term_weights, retrieval.question, most=most)
    return [(start, end, " ".join(passage.text[start:end].split())) for start, end in spans]


def _compose(lead: str, retrieval: Retrieval) -> tuple[str, tuple[Annotation, ...]] | None:
    """The lead, then a bullet per quote; a table's bullets (rows, or a value computed
    over them, with a marker per row cited) come from :func:`.table_rows.answer_tables`.
    None without a bullet: a table block's header alone, quoted, says nothing, nor does a
    heading alone after another bullet."""
    # what it asks for, no file says: the passages are the nearest, not its answer
    unsaid = retrieval.unknown_said
    content = head = (f"{unsaid} {NEAREST}" if unsaid and retrieval.passages else lead) + "\n"
    annotations: list[Annotation] = []
    seen: list[str] = []  # a quote within one shown, or around it, says it again
    passages = retrieval.passages
    every = (*passages, *retrieval.tables)  # a table's rows are all computed over
    tables = answer_tables(every, retrieval.question, retrieval.terms)
    order = list(range(len(passages)))
    if asks_computation(retrieval.question):
        # the value computed leads: "How many cases of Frozen did Breda ship?" is answered
        # by the total, not by the sheet's note on what a case is, ranked above it
        order = sorted(order, key=lambda i: not computes(tables.get(i, ())))
    for index in order:
        passage = passages[index]
        bullets = tables.get(index)
        if bullets is None:
            bullets = []
            header = header_end(passage)
            for start, end, shown in quotes_of(passage, retrieval):
                if header is not None and end <= header:
                    continue
                # a heading alone ("CacheDefaultExpire Directive ¶") says nothing once a
                # bullet says something
                quoted = passage.text[start:end]
                if seen and label_at(passage.text, start, end):
                    continue
                if shown and not any(shown in other or other in shown for other in seen):
                    seen.append(shown)
                    cite = Cite(index, quoted, start)
                    bullets.append((f'"{shown}" ({passage.filename}) ', cite))
        for bullet in bullets:
            content += "\n- "
            for part in bullet:
                if isinstance(part, str):
                    content += part
                    continue
                marker = f"[{len(annotations) + 1}]"
                annotations.append(
                    Annotation(
                        type="file_citation",
                        text=marker,
                        start_index=len(content),
                        end_index=len(content) + len(marker),
                        file_citation=part.citation(every),
                    )
                )
                content += marker
    return (content, tuple(annotations)) if content != head else None


def _limit(content: str, request: ChatCompletionRequest) -> tuple[str, str]:
    """Apply ``stop`` then the token limit: the text kept and the finish reason."""
    finish = "stop"
    cuts = [content.find(s) for s in request.stop_sequences() if s]
    cuts = [c for c in cuts if c != -1]
    if cuts:
        content = content[: min(cuts)]
    limit = request.token_limit()
    if limit is not None:
        content, cut = truncate(content, limit)
        finish = "length" if cut else finish
    return content, finish


def _no_match(request: ChatCompletionRequest, retrieval: Retrieval) -> str:
    """:data:`NO_MATCH`, then the names of the question no file says."""
    said = retrieval.unknown_said
    return NO_MATCH.format(workspace=request.workspace) + (f" {said}" if said else "")


def answer(request: ChatCompletionRequest, retrieval: Retrieval) -> list[Choice]:
    """The ``n`` choices of the local engine's answer."""
    n = request.n or 1
    offset = 0 if request.seed is None else random.Random(request.seed).randrange(len(LEADS))
    choices = []
    for i in range(n):
        composed = _compose(LEADS[(offset + i) % len(LEADS)], retrieval)
        # no passage, or none with a quote that says something
        full, annotations = composed or (_no_match(request, retrieval), ())
        content, finish = _limit(full, request)
        kept = tuple(a for a in annotations if a.end_index <= len(content))
        choices.append(Choice(content, finish, kept))
    return choices


class LocalEngine:
    """The built-in, weight-free, deterministic model ``service-l0``."""

    name = NAME
    owned_by = "chatspace"
    system_fingerprint: str | None = f"chatspace-{__version__}-l0"
    honoured = ChatCompletionRequest.SERVICE_FIELDS | {
        "n",
        "stop",
        "max_tokens",
        "max_completion_tokens",
        "seed",
        "user",
        "service_tier",
        "response_format",
    }
    """The request fields it acts on (``user`` and ``service_tier`` are echoed)."""

    def ignored(self, request: ChatCompletionRequest) -> list[str]:
        """The fields the caller set, to neither null nor their default, that it leaves
        aside (listed in ``X-Chatspace-Ignored``)."""
        defaults = type(request).model_fields
        return sorted(
            k
            for k in request.model_fields_set - self.honoured
            if request.given(k) not in (None, defaults[k].default)
        )

    def given(self, retrieval: Retrieval) -> tuple[Passage, ...]:
        """Every retrieved passage: the answer is composed from all of them."""
        return retrieval.passages

    def chunks(self, content: str) -> list[str]:
        return word_chunks(content)

    async def derive_metadata(
        self, *, text: str | None, filename: str, content_type: str, instructions: str
    ) -> tuple[dict[str, Any], str]:
        """The deterministic extractor of :mod:`.extractor`."""
        return derive_locally(
            text=text, filename=filename, content_type=content_type, instructions=instructions
        )

    async def generate(self, job: Job) -> AsyncIterator[Event]:
        for index, choice in enumerate(shaped(job.request, answer(job.request, job.retrieval))):
            for piece in self.chunks(choice.content):
                yield ContentDelta(index, piece)
            yield ChoiceDone(index, choice.finish_reason, choice.annotations)
