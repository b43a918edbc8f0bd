"""What both clients' ``chat.create`` and ``chat.stream`` share: parameters and the request."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, NotRequired, Required, TypedDict

from chatspace._wire import DEFAULT_MODEL
from chatspace.types import ChatCompletion

from ._call import Call, dump

__all__ = ["CHAT_DEFAULTS", "PATH", "ChatCreateParams", "Messages", "create_call", "stream_params"]

PATH = "/chat/completions"
# The defaults of docs/interface.md#chat-request: a parameter left at its default is not sent.
# The sampling parameters default to None, "not given": the service forwards only what a
# request gives, so a model's own default applies (llama.cpp's temperature is 0.8) and an
# explicit ``temperature=1`` or ``presence_penalty=0`` reaches it.
CHAT_DEFAULTS: dict[str, Any] = {
    "temperature": None,
    "top_p": None,
    "n": 1,
    "stream": False,
    "max_tokens": None,
    "max_completion_tokens": None,
    "presence_penalty": None,
    "frequency_penalty": None,
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
    "tools": None,
    "tool_choice": None,
    "parallel_tool_calls": None,
    "functions": None,
    "function_call": None,
}
Messages = str | Sequence[Mapping[str, Any] | Any]


class ChatCreateParams(TypedDict, total=False):
    """The parameters of ``chat.create`` but ``stream`` (for typing only)."""

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
    tools: Sequence[Mapping[str, Any]] | None
    tool_choice: str | Mapping[str, Any] | None
    parallel_tool_calls: bool | None
    functions: Sequence[Mapping[str, Any]] | None
    function_call: str | Mapping[str, Any] | None


def stream_params(params: ChatCreateParams) -> dict[str, Any]:
    """``chat.stream()``'s keywords with the defaults of ``chat.create`` filled in."""
    if "messages" not in params:
        raise TypeError("chat.stream() needs messages=")
    unknown = sorted(set(params) - set(CHAT_DEFAULTS) - {"messages", "workspace", "model"})
    if unknown:
        raise TypeError(f"chat.stream() got unexpected keyword arguments: {', '.join(unknown)}")
    return {**CHAT_DEFAULTS, "workspace": None, "model": DEFAULT_MODEL, **params}


def create_call(given: dict[str, Any], workspace: str, *, stream: bool) -> Call[ChatCompletion]:
    """The request of ``chat.create``: ``given`` holds every parameter, by name."""
    messages = given["messages"]
    if isinstance(messages, str):
        messages = [{"role": "user", "content": messages}]
    body: dict[str, Any] = {
        "messages": messages,
        "model": given["model"],
        "workspace": given["workspace"] or workspace,
    }
    for name, default in CHAT_DEFAULTS.items():
        value = given[name]
        if value is not default and value != default:
            body[name] = value
    if stream:
        body["stream"] = True
        body.setdefault("stream_options", {"include_usage": True})
    return Call(
        "POST",
        PATH,
        content=dump(body, exclude_none=True),
        parse=ChatCompletion.model_validate_json,
        # Only a stored completion is created on the service: it gets an
        # Idempotency-Key, so that a retry never stores it twice. Without ``store``
        # nothing is kept, a retry just asks again, and the service is spared the
        # key's bookkeeping (a database write) on the hot path.
        create=bool(body.get("store")),
        stream=stream,
    )
