"""``client.chat``: create (streamed or not), list, get, update, delete, messages, sources."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, Unpack, overload

from chatspace._wire import DEFAULT_MODEL
from chatspace.client._async._pagination import AsyncPage
from chatspace.client._async._streaming import AsyncChatStream
from chatspace.client._call import Call, dump, segment
from chatspace.client._chat import PATH, ChatCreateParams, Messages, create_call, stream_params
from chatspace.client._pagination import Pager
from chatspace.client._resource import Resource
from chatspace.types import (
    ChatCompletion,
    ChatCompletionDeleted,
    ChatCompletionList,
    ChatCompletionMessageList,
    ChatCompletionMessageObject,
    Source,
    SourceList,
)

if TYPE_CHECKING:
    from chatspace.client._async._client import AsyncClient

__all__ = ["AsyncChat"]

_COMPLETIONS: Pager[ChatCompletion] = Pager("completions", "chat")
_MESSAGES: Pager[ChatCompletionMessageObject] = Pager("messages", "chat")
_SOURCES: Pager[Source] = Pager("sources", "none")
_COMPLETION = ChatCompletion.model_validate_json


def _path(completion_id: str) -> str:
    return f"{PATH}/{segment(completion_id)}"


class AsyncChat(Resource):
    """Chat completions, stored per workspace."""

    __slots__ = ()
    _client: AsyncClient

    @overload
    async def create(
        self, *, stream: Literal[False] = False, **params: Unpack[ChatCreateParams]
    ) -> ChatCompletion: ...
    @overload
    async def create(
        self, *, stream: Literal[True], **params: Unpack[ChatCreateParams]
    ) -> AsyncChatStream: ...
    async def create(
        self,
        *,
        messages: Messages,
        workspace: str | None = None,
        model: str = DEFAULT_MODEL,
        temperature: float | None = None,
        top_p: float | None = None,
        n: int | None = 1,
        stream: bool | None = False,
        max_tokens: int | None = None,
        max_completion_tokens: int | None = None,
        presence_penalty: float | None = None,
        frequency_penalty: float | None = None,
        logit_bias: Mapping[str, float] | None = None,
        logprobs: bool | None = False,
        top_logprobs: int | None = None,
        stop: str | Sequence[str] | None = None,
        seed: int | None = None,
        response_format: Mapping[str, Any] | None = None,
        user: str | None = None,
        stream_options: Mapping[str, Any] | None = None,
        store: bool | None = False,
        metadata: Mapping[str, str] | None = None,
        modalities: Sequence[str] | None = None,
        service_tier: str | None = None,
        reasoning_effort: Literal["low", "medium", "high"] | None = None,
        tools: Sequence[Mapping[str, Any]] | None = None,
        tool_choice: str | Mapping[str, Any] | None = None,
        parallel_tool_calls: bool | None = None,
        functions: Sequence[Mapping[str, Any]] | None = None,
        function_call: str | Mapping[str, Any] | None = None,
    ) -> ChatCompletion | AsyncChatStream:
        """Create a chat completion; with ``stream=True``, a stream of chunks.

        ``messages`` are dicts (``{"role": "user", "content": "..."}``), models of
        :mod:`chatspace.types`, or one string for a single user message; see
        :func:`~chatspace.client.user_message` for filter parts. ``store=True`` keeps
        the completion in the workspace, for ``list``/``get`` later. ``tools`` (and the
        legacy ``functions``) are OpenAI's; the calls come back in ``message.tool_calls``.
        A sampling parameter left out (``temperature``, ``top_p``, the penalties) is not
        sent: the model's own default applies.

        >>> answer = await client.chat.create(messages="What do my notes say about Lyon?")
        >>> answer.text, answer.choices[0].message.annotations
        """
        call = create_call(locals(), self._client.workspace, stream=bool(stream))
        if not stream:
            return await self._client._request(call)
        opened = AsyncChatStream(self._client, call)
        await opened.open()
        return opened

    def stream(self, **params: Unpack[ChatCreateParams]) -> AsyncChatStream:
        """Like ``create(stream=True)``, with usage included unless told otherwise.

        The request is sent when the iteration starts.

        >>> async with client.chat.stream(messages="Hello") as stream:
        ...     async for chunk in stream:
        ...         print(chunk.choices[0].delta.content or "", end="")
        >>> stream.completion.usage
        """
        call = create_call(stream_params(params), self._client.workspace, stream=True)
        return AsyncChatStream(self._client, call)

    def list(
        self,
        *,
        workspace: str | None = None,
        after: str | None = None,
        limit: int = 20,
        order: Literal["asc", "desc"] = "asc",
        model: str | None = None,
        metadata: Mapping[str, str] | None = None,
        search: str | None = None,
    ) -> AsyncPage[ChatCompletion]:
        """Stored completions, oldest first (``order="desc"``: newest); pages itself.

        ``metadata`` keeps those whose stored metadata has all the given pairs;
        ``search`` those whose question or answer holds every word of the text (in any
        order, case and accents aside; 1..4000 characters holding a letter or digit).
        ``to_pandas()`` columns: ``id, created, model, finish_reason, prompt_tokens,
        completion_tokens, total_tokens, question, answer, sources, metadata.<key>...``
        (``sources``: how many passages the completion keeps as its sources).
        """
        params: dict[str, Any] = {"workspace": self._ws(workspace), "limit": limit, "order": order}
        if after is not None:
            params["after"] = after
        if model is not None:
            params["model"] = model
        for key, value in (metadata or {}).items():
            params[f"metadata[{key}]"] = value
        if search is not None:
            params["search"] = search
        call = Call("GET", PATH, params=params, parse=ChatCompletionList.model_validate_json)
        return self._client._page(_COMPLETIONS, call)

    async def get(self, completion_id: str, *, workspace: str | None = None) -> ChatCompletion:
        """A stored completion."""
        call = self._in_workspace("GET", _path(completion_id), workspace, _COMPLETION)
        return await self._client._request(call)

    async def update(
        self, completion_id: str, metadata: Mapping[str, str], *, workspace: str | None = None
    ) -> ChatCompletion:
        """Replace a stored completion's metadata (at most 16 string pairs)."""
        body = dump(dict(metadata))
        call = self._in_workspace(
            "POST", _path(completion_id), workspace, _COMPLETION, content=body
        )
        return await self._client._request(call)

    async def delete(
        self, completion_id: str, *, workspace: str | None = None
    ) -> ChatCompletionDeleted:
        """Delete a stored completion."""
        deleted = ChatCompletionDeleted.model_validate_json
        call = self._in_workspace("DELETE", _path(completion_id), workspace, deleted)
        return await self._client._request(call)

    def messages(
        self,
        completion_id: str,
        *,
        workspace: str | None = None,
        after: str | None = None,
        limit: int = 20,
        order: Literal["asc", "desc"] = "asc",
    ) -> AsyncPage[ChatCompletionMessageObject]:
        """The messages of a stored completion: the request's, then the answer.

        ``to_pandas()`` columns: ``id, role, content``.
        """
        params: dict[str, Any] = {"workspace": self._ws(workspace), "limit": limit, "order": order}
        if after is not None:
            params["after"] = after
        path = _path(completion_id) + "/messages"
        call = Call("GET", path, ChatCompletionMessageList.model_validate_json, params=params)
        return self._client._page(_MESSAGES, call)

    def sources(self, completion_id: str, *, workspace: str | None = None) -> AsyncPage[Source]:
        """The passages retrieved for a stored completion, best first: each with its quote,
        relevance, whether the model was given it (``sent``) and whether the answer cites
        it (``cited``); a deleted file's rows only say ``deleted``.

        ``to_pandas()`` columns: ``rank, file_id, filename, quote, score, lexical, dense,
        sent, cited, deleted, page, sheet, row, slide, cell, line`` (the location's keys).
        """
        params = {"workspace": self._ws(workspace)}
        path = _path(completion_id) + "/sources"
        return self._client._page(
            _SOURCES, Call("GET", path, SourceList.model_validate_json, params=params)
        )
