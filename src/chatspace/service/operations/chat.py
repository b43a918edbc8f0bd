"""Chat completions: creating one (``POST /chat/completions``) and the stored ones.

Creating one:

1. In one read: authorize (``writer``), look up the ``Idempotency-Key``, find the model
   (404), check the filter parts (422) and retrieve the passages.
2. Run the engine. A plain answer is run to its end; a streamed one starts once the
   engine's first event is in, so that an upstream failing at once is a 502/504 and not a
   broken stream.
3. In one write transaction (:meth:`~chatspace.service.idempotency.Once.run`), after the
   answer is complete (streamed: before ``[DONE]``): store the completion (``store: true``)
   with its sources (the passages retrieved for it, :mod:`..retrieval.provenance`) and
   remember the answer under the key. A replay answers the remembered completion
   again, streamed again when the request streams.

Every answer (replays too) lists the request fields the engine left aside
(:attr:`Created.ignored`: ``service-l0`` cannot call tools, for one).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass

import anyio
import sqlalchemy as sa

from chatspace.service.access import Caller
from chatspace.service.engines.base import Engine, Event, Job
from chatspace.service.engines.runner import (
    CompletionBuilder,
    Identity,
    complete,
    events_of,
    sse_stream,
)
from chatspace.service.idempotency import Answer, Once
from chatspace.service.operations import reading, vectors_stored, writing
from chatspace.service.problems import Conflict, Invalid, UnknownFile
from chatspace.service.retrieval.provenance import sources_of
from chatspace.service.retrieval.search import Retrieval, retrieve
from chatspace.service.state import AppState
from chatspace.service.store import completions as store
from chatspace.service.store.completion_search import words
from chatspace.types import (
    ChatCompletion,
    ChatCompletionDeleted,
    ChatCompletionList,
    ChatCompletionMessageList,
    ChatCompletionRequest,
    SourceList,
    filter_parts,
)

__all__ = [
    "Created",
    "create_completion",
    "delete_completion",
    "get_completion",
    "list_completions",
    "list_messages",
    "list_sources_of",
    "update_metadata",
]


@dataclass(frozen=True, slots=True)
class Created:
    """What creating a completion answers: a JSON ``answer`` (plain, or a plain replay) or
    the SSE ``stream``; ``replayed`` when it is a remembered answer again, ``ignored`` the
    request fields the engine left aside."""

    answer: Answer | None
    stream: AsyncIterator[bytes] | None
    replayed: bool
    ignored: list[str]


def _prepare(
    state: AppState, once: Once, body: ChatCompletionRequest
) -> tuple[Engine, Job, Answer | None]:
    """Everything before the model runs (step 1)."""
    with reading(state, once.caller, body.workspace, "writer") as conn:
        prior = once.prior(conn)
        engine = state.models.get(body.model)
        if prior is not None:  # a replay: nothing to retrieve
            return engine, Job(body, Retrieval(question="")), prior
        try:
            found = retrieve(
                conn,
                org_id=once.caller.org_id,
                workspace_id=body.workspace,
                messages=body.messages,
                relevance=state.settings.relevance,
                index=state.index,
            )
        except UnknownFile as exc:  # where that part stands in the request
            i, j, _ = filter_parts(body.messages)[exc.part]
            raise exc.at(["body", "messages", i, "content", j]) from None
    return engine, Job(body, found), None


def _keep(
    state: AppState, once: Once, engine: Engine, job: Job, completion: ChatCompletion
) -> Answer:
    """Store and remember the completion (step 3); a concurrent winner's answer if any."""
    body = job.request
    if not body.store and once.key is None:
        return once.answer(completion)
    sources = []
    if body.store:  # worked out before the transaction opens
        sources = sources_of(job.retrieval, completion, engine.given(job.retrieval))
        completion.sources = len(sources)
    answer = once.answer(completion)

    def write(conn: sa.Connection) -> Answer:
        if body.store:
            store.insert_completion(
                conn,
                org_id=once.caller.org_id,
                workspace_id=body.workspace,
                user_id=once.caller.user_id,
                completion=completion,
                messages=body.messages,
                sources=sources,
            )
        return answer

    # a completion, its messages and sources are new rows: stores run side by side
    return once.run(state.db, write, workspace=body.workspace, looked_up=True, shared=True)


def _replay(body: ChatCompletionRequest, engine: Engine, prior: Answer) -> AsyncIterator[bytes]:
    """A remembered completion streamed again."""
    completion = ChatCompletion.model_validate(prior.payload())
    perception = completion.perception_usage.prompt_tokens if completion.perception_usage else 0
    builder = CompletionBuilder(
        identity=Identity(
            completion.id, completion.created, completion.model, completion.request_id or ""
        ),
        request=body,
        system_fingerprint=completion.system_fingerprint,
        perception_tokens=perception,
    )

    async def nothing_more(_: ChatCompletion) -> None:
        return None

    return sse_stream(builder, None, events_of(completion, engine), nothing_more)


async def _first(events: AsyncIterator[Event]) -> Event | None:
    try:
        return await anext(events)
    except StopAsyncIteration:
        return None


async def create_completion(
    state: AppState,
    *,
    caller: Caller,
    body: ChatCompletionRequest,
    key: str | None,
    request_id: str,
) -> Created:
    """The answer to ``POST /chat/completions``: JSON, or an SSE stream."""
    once = Once.of(caller, key, "POST /chat/completions", body.model_dump(mode="json"))
    await vectors_stored(state, caller, body.workspace)
    engine, job, prior = await anyio.to_thread.run_sync(_prepare, state, once, body)
    ignored = engine.ignored(body)
    if prior is not None:
        if body.stream:
            return Created(None, _replay(body, engine, prior), True, ignored)
        return Created(prior, None, True, ignored)
    builder = CompletionBuilder(
        identity=Identity(
            id="chatcmpl-" + secrets.token_urlsafe(18),
            created=int(time.time()),
            model=body.model,
            request_id=request_id,
        ),
        request=body,
        system_fingerprint=engine.system_fingerprint,
        perception_tokens=job.retrieval.passage_tokens,
    )
    events = engine.generate(job)
    if not body.stream:
        completion = await complete(builder, events)
        answer = await anyio.to_thread.run_sync(_keep, state, once, engine, job, completion)
        return Created(answer, None, answer.replayed, ignored)

    async def on_complete(completion: ChatCompletion) -> None:
        kept = await anyio.to_thread.run_sync(_keep, state, once, engine, job, completion)
        if kept.replayed:
            raise Conflict("A request with this Idempotency-Key finished first; retry to see it.")

    first = await _first(events)
    return Created(None, sse_stream(builder, first, events, on_complete), False, ignored)


# ---------------------------------------------------------------- stored completions


def list_completions(
    state: AppState,
    *,
    caller: Caller,
    workspace: str,
    after: str | None,
    limit: int,
    order: store.Order,
    model: str | None,
    metadata: dict[str, str],
    search: str | None = None,
) -> ChatCompletionList:
    """Stored completions of the workspace, filtered by model, exact metadata values and
    the words of ``search`` (a 422 if it holds none)."""
    if search is not None and not words(search):
        raise Invalid(("query", "search"), "search holds no word to find (letters or digits).")
    with reading(state, caller, workspace) as conn:
        return store.list_completions(
            conn,
            org_id=caller.org_id,
            workspace_id=workspace,
            limit=limit,
            order=order,
            after=after,
            model=model,
            metadata=metadata,
            search=search,
        )


def get_completion(
    state: AppState, *, caller: Caller, workspace: str, completion_id: str
) -> ChatCompletion:
    with reading(state, caller, workspace) as conn:
        return store.get_completion(
            conn, org_id=caller.org_id, workspace_id=workspace, completion_id=completion_id
        )


def update_metadata(
    state: AppState,
    *,
    caller: Caller,
    workspace: str,
    completion_id: str,
    metadata: dict[str, str],
) -> ChatCompletion:
    """Replace a stored completion's metadata."""
    with writing(state, caller, workspace) as conn:
        return store.update_metadata(
            conn,
            org_id=caller.org_id,
            workspace_id=workspace,
            completion_id=completion_id,
            metadata=metadata,
        )


def delete_completion(
    state: AppState, *, caller: Caller, workspace: str, completion_id: str
) -> ChatCompletionDeleted:
    with writing(state, caller, workspace) as conn:
        return store.delete_completion(
            conn, org_id=caller.org_id, workspace_id=workspace, completion_id=completion_id
        )


def list_sources_of(
    state: AppState, *, caller: Caller, workspace: str, completion_id: str
) -> SourceList:
    """The passages retrieved for a stored completion, in rank order."""
    with reading(state, caller, workspace) as conn:
        return store.get_sources(
            conn, org_id=caller.org_id, workspace_id=workspace, completion_id=completion_id
        )


def list_messages(
    state: AppState,
    *,
    caller: Caller,
    workspace: str,
    completion_id: str,
    after: str | None,
    limit: int,
    order: store.Order,
) -> ChatCompletionMessageList:
    """The request's messages, then the answer of choice 0."""
    with reading(state, caller, workspace) as conn:
        return store.list_messages(
            conn,
            org_id=caller.org_id,
            workspace_id=workspace,
            completion_id=completion_id,
            limit=limit,
            order=order,
            after=after,
        )
