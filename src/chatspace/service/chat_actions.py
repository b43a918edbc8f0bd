"""Creating a chat completion: the steps behind ``POST /chat/completions``.

1. In one read: authorize (``writer``), look up the ``Idempotency-Key``, find the model
   (404), check the filter parts (422) and retrieve the passages.
2. Run the engine. A plain answer is run to its end; a streamed one starts once the
   engine's first event is in, so that an upstream failing at once is a 502/504 and not a
   broken stream.
3. In one write transaction, after the answer is complete (streamed: before ``[DONE]``):
   store the completion (``store: true``) and remember the answer under the key. A replay
   answers the remembered completion again, streamed again when the request streams.

Every answer (replays too) lists the request fields the engine left aside in
``X-Chatspace-Ignored`` (``service-l0`` cannot call tools, for one).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import AsyncIterator

from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool
from starlette.responses import Response

from chatspace.types import ChatCompletion, ChatCompletionRequest

from .deps import Caller, require_access
from .engines.base import Engine, Event, Job
from .engines.runner import CompletionBuilder, Identity, complete, events_of, sse_stream
from .idempotency import REPLAY_HEADER, Answer, fingerprint, lookup, remember
from .problems import Conflict
from .retrieval.search import Retrieval, retrieve
from .state import AppState
from .store import completions as store
from .store.transactions import write_transaction

__all__ = ["create_completion"]

SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
IGNORED_HEADER = "X-Chatspace-Ignored"


def _prepare(
    state: AppState, caller: Caller, body: ChatCompletionRequest, key: str | None, fp: str
) -> tuple[Engine, Job, Answer | None]:
    """Everything before the model runs (step 1)."""
    with state.db.connect() as conn:
        require_access(conn, caller, body.workspace, "writer")
        prior = lookup(conn, caller=caller, key=key, fingerprint=fp)
        engine = state.models.get(body.model)
        if prior is not None:  # a replay: nothing to retrieve
            return engine, Job(body, Retrieval(question="")), prior
        found = retrieve(
            conn,
            org_id=caller.org_id,
            workspace_id=body.workspace,
            messages=body.messages,
            relevance=state.settings.relevance_threshold,
            dense=state.dense,
        )
    return engine, Job(body, found), None


def _keep(
    state: AppState,
    caller: Caller,
    body: ChatCompletionRequest,
    completion: ChatCompletion,
    key: str | None,
    fp: str,
) -> Answer:
    """Store and remember the completion (step 3); a concurrent winner's answer if any."""
    answer = Answer.from_payload(completion, fingerprint=fp)
    if not body.store and key is None:
        return answer
    with write_transaction(state.db) as conn:
        prior = lookup(conn, caller=caller, key=key, fingerprint=fp)
        if prior is not None:  # a concurrent request under the same key finished first
            return prior
        if body.store:
            store.insert_completion(
                conn,
                org_id=caller.org_id,
                workspace_id=body.workspace,
                user_id=caller.user_id,
                completion=completion,
                messages=body.messages,
            )
        remember(conn, caller=caller, key=key, answer=answer)
    return answer


def _streamed(body: AsyncIterator[bytes], *, replayed: bool = False) -> StreamingResponse:
    headers = {**SSE_HEADERS, REPLAY_HEADER: "true"} if replayed else SSE_HEADERS
    return StreamingResponse(body, media_type="text/event-stream", headers=headers)


def _replay(body: ChatCompletionRequest, prior: Answer) -> Response:
    """A remembered answer again; a streamed one streamed again."""
    if not body.stream:
        return prior.response()
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

    return _streamed(sse_stream(builder, None, events_of(completion), nothing_more), replayed=True)


async def _first(events: AsyncIterator[Event]) -> Event | None:
    try:
        return await anext(events)
    except StopAsyncIteration:
        return None


async def create_completion(
    state: AppState,
    caller: Caller,
    body: ChatCompletionRequest,
    key: str | None,
    *,
    request_id: str,
) -> Response:
    """The answer to ``POST /chat/completions``: JSON, or an SSE stream."""
    fp = fingerprint("POST /chat/completions", body.model_dump(mode="json"))
    engine, job, prior = await run_in_threadpool(_prepare, state, caller, body, key, fp)
    response = await _answer(state, caller, body, key, fp, engine, job, prior, request_id)
    if ignored := engine.ignored(body):
        response.headers[IGNORED_HEADER] = ", ".join(ignored)
    return response


async def _answer(
    state: AppState,
    caller: Caller,
    body: ChatCompletionRequest,
    key: str | None,
    fp: str,
    engine: Engine,
    job: Job,
    prior: Answer | None,
    request_id: str,
) -> Response:
    """The replay, or the engine run plain or streamed (step 2)."""
    if prior is not None:
        return _replay(body, prior)
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
        answer = await run_in_threadpool(_keep, state, caller, body, completion, key, fp)
        return answer.response()

    async def on_complete(completion: ChatCompletion) -> None:
        kept = await run_in_threadpool(_keep, state, caller, body, completion, key, fp)
        if kept.replayed:
            raise Conflict("A request with this Idempotency-Key finished first; retry to see it.")

    first = await _first(events)
    return _streamed(sse_stream(builder, first, events, on_complete))
