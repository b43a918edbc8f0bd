"""``client.chat``: create (streamed or not), list, get, update, delete, messages."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, NotRequired, Required, TypedDict, Unpack, overload

from chatspace.client._call import Call
from chatspace.client._pagination import Pager
from chatspace.types import (
    ChatCompletion,
    ChatCompletionDeleted,
    ChatCompletionList,
    ChatCompletionMessageList,
    ChatCompletionMessageObject,
)

from ._resource import Resource, dump, segment

if TYPE_CHECKING:
    from chatspace.client._pagination import SyncPage
    from chatspace.client._streaming import ChatStream

__all__ = ["Chat", "ChatCreateParams"]

_PATH = "/chat/completions"
# The seed's defaults (2.1): a parameter left at its default is not sent.
_DEFAULTS: dict[str, Any] = {
    "temperature": 1,
    "top_p": 1,
    "n": 1,
    "stream": False,
    "max_tokens": None,
    "max_completion_tokens": None,
    "presence_penalty": 0,
    "frequency_penalty": 0,
    "logit_bias": None,
    "logprobs": False,
    "top_logprobs": None,
    "stop": None,
    "seed": None,
    "response_format": None,
    "user": None,
    "stream_options": None,
    "store": False,
    "metadata": None,
    "modalities": None,
    "service_tier": None,
    "reasoning_effort": None,
}
_COMPLETIONS: Pager[ChatCompletion] = Pager("completions", "chat")
_MESSAGES: Pager[ChatCompletionMessageObject] = Pager("messages", "chat")
Messages = str | Sequence[Mapping[str, Any] | Any]


class ChatCreateParams(TypedDict, total=False):
    """The parameters of :meth:`Chat.create` but ``stream`` (for typing only)."""

    messages: Required[Messages]
    workspace: str | None
    model: str
    temperature: float | None
    top_p: float | None
    n: int | None
    max_tokens: int | None
    max_completion_tokens: int | None
    presence_penalty: float | None
    frequency_penalty: float | None
    logit_bias: Mapping[str, float] | None
    logprobs: bool | None
    top_logprobs: int | None
    stop: str | Sequence[str] | None
    seed: int | None
    response_format: Mapping[str, Any] | None
    user: str | None
    stream_options: Mapping[str, Any] | None
    store: bool | None
    metadata: Mapping[str, str] | None
    modalities: Sequence[str] | None
    service_tier: str | None
    reasoning_effort: NotRequired[Literal["low", "medium", "high"] | None]


class Chat(Resource):
    """Chat completions, stored per workspace."""

    __slots__ = ()

    @overload
    def create(
        self, *, stream: Literal[False] = False, **params: Unpack[ChatCreateParams]
    ) -> ChatCompletion: ...
    @overload
    def create(
        self, *, stream: Literal[True], **params: Unpack[ChatCreateParams]
    ) -> ChatStream: ...
    def create(
        self,
        *,
        messages: Messages,
        workspace: str | None = None,
        model: str = "service-l0",
        temperature: float | None = 1,
        top_p: float | None = 1,
        n: int | None = 1,
        stream: bool | None = False,
        max_tokens: int | None = None,
        max_completion_tokens: int | None = None,
        presence_penalty: float | None = 0,
        frequency_penalty: float | None = 0,
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
    ) -> ChatCompletion | ChatStream:
        """Create a chat completion; with ``stream=True``, a stream of chunks.

        ``messages`` are dicts (``{"role": "user", "content": "..."}``), models of
        :mod:`chatspace.types`, or one string for a single user message; see
        :func:`~chatspace.client.user_message` for filter parts. ``store=True`` keeps
        the completion in the workspace, for ``list``/``get`` later.

        >>> answer = client.chat.create(messages="What do my notes say about Lyon?")
        >>> answer.text, answer.choices[0].message.annotations
        """
        given = locals()
        call = self._create_call(given, stream=bool(stream))
        if stream:
            return self._client._open_stream(call)
        return self._client._request(call)

    def stream(self, **params: Unpack[ChatCreateParams]) -> ChatStream:
        """Like ``create(stream=True)``, with usage included unless told otherwise.

        The request is sent when the iteration starts (or on ``with`` / ``await``).

        >>> with client.chat.stream(messages="Hello") as stream:
        ...     for chunk in stream:
        ...         print(chunk.choices[0].delta.content or "", end="")
        >>> stream.completion.usage
        """
        if "messages" not in params:
            raise TypeError("chat.stream() needs messages=")
        given: dict[str, Any] = {**_DEFAULTS, "workspace": None, "model": "service-l0", **params}
        return self._client._stream(self._create_call(given, stream=True))

    def _create_call(self, given: dict[str, Any], *, stream: bool) -> Call:
        messages = given["messages"]
        if isinstance(messages, str):
            messages = [{"role": "user", "content": messages}]
        body: dict[str, Any] = {
            "messages": messages,
            "model": given["model"],
            "workspace": given["workspace"] or self._client._workspace,
        }
        for name, default in _DEFAULTS.items():
            value = given[name]
            if value is not default and value != default:
                body[name] = value
        if stream:
            body["stream"] = True
            body.setdefault("stream_options", {"include_usage": True})
        return Call(
            "POST",
            _PATH,
            content=dump(body, exclude_none=True),
            parse=ChatCompletion.model_validate_json,
            # Only a stored completion is created on the service: it gets an
            # Idempotency-Key, so that a retry never stores it twice. Without ``store``
            # nothing is kept, a retry just asks again, and the service is spared the
            # key's bookkeeping (a database write) on the hot path.
            create=bool(body.get("store")),
            stream=stream,
        )

    def list(
        self,
        *,
        workspace: str | None = None,
        after: str | None = None,
        limit: int = 20,
        order: Literal["asc", "desc"] = "asc",
        model: str | None = None,
        metadata: Mapping[str, str] | None = None,
    ) -> SyncPage[ChatCompletion]:
        """Stored completions, oldest first (``order="desc"``: newest); pages itself.

        ``metadata`` keeps those whose stored metadata has all the given pairs.
        ``to_pandas()`` columns: ``id, created, model, finish_reason, prompt_tokens,
        completion_tokens, total_tokens, question, answer, metadata.<key>...``.
        """
        params: dict[str, Any] = {"workspace": self._ws(workspace), "limit": limit, "order": order}
        if after is not None:
            params["after"] = after
        if model is not None:
            params["model"] = model
        for key, value in (metadata or {}).items():
            params[f"metadata[{key}]"] = value
        call = Call("GET", _PATH, params=params, parse=ChatCompletionList.model_validate_json)
        return self._client._page(_COMPLETIONS, call)

    def get(self, completion_id: str, *, workspace: str | None = None) -> ChatCompletion:
        """A stored completion."""
        return self._client._request(
            Call(
                "GET",
                f"{_PATH}/{segment(completion_id)}",
                params={"workspace": self._ws(workspace)},
                parse=ChatCompletion.model_validate_json,
            )
        )

    def update(
        self, completion_id: str, metadata: Mapping[str, str], *, workspace: str | None = None
    ) -> ChatCompletion:
        """Replace a stored completion's metadata (at most 16 string pairs)."""
        return self._client._request(
            Call(
                "POST",
                f"{_PATH}/{segment(completion_id)}",
                params={"workspace": self._ws(workspace)},
                content=dump(dict(metadata)),
                parse=ChatCompletion.model_validate_json,
            )
        )

    def delete(self, completion_id: str, *, workspace: str | None = None) -> ChatCompletionDeleted:
        """Delete a stored completion."""
        return self._client._request(
            Call(
                "DELETE",
                f"{_PATH}/{segment(completion_id)}",
                params={"workspace": self._ws(workspace)},
                parse=ChatCompletionDeleted.model_validate_json,
            )
        )

    def messages(
        self,
        completion_id: str,
        *,
        workspace: str | None = None,
        after: str | None = None,
        limit: int = 20,
        order: Literal["asc", "desc"] = "asc",
    ) -> SyncPage[ChatCompletionMessageObject]:
        """The messages of a stored completion: the request's, then the answer.

        ``to_pandas()`` columns: ``id, role, content``.
        """
        params: dict[str, Any] = {"workspace": self._ws(workspace), "limit": limit, "order": order}
        if after is not None:
            params["after"] = after
        call = Call(
            "GET",
            f"{_PATH}/{segment(completion_id)}/messages",
            params=params,
            parse=ChatCompletionMessageList.model_validate_json,
        )
        return self._client._page(_MESSAGES, call)
