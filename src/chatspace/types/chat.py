"""Chat completions on the wire (docs/interface.md#chat-completions)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, ClassVar, Literal, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    field_validator,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

from chatspace._wire import DEFAULT_MODEL

from .common import (
    Metadata,
    Relevance,
    RequestModel,
    Temperature,
    TopK,
    WireModel,
    WorkspaceId,
    relocated,
)
from .filters import FilterInput, MetadataFilter, read_filter
from .retrieval import Location
from .tools import FunctionCall, FunctionDefinition, ResponseFormat, Tool, ToolCall, ToolChoice

__all__ = [
    "COMPLETION_SEARCH_MAX_CHARS",
    "Annotation",
    "ChatCompletion",
    "ChatCompletionChoice",
    "ChatCompletionChunk",
    "ChatCompletionDeleted",
    "ChatCompletionList",
    "ChatCompletionMessage",
    "ChatCompletionMessageList",
    "ChatCompletionMessageObject",
    "ChatCompletionRequest",
    "ChatMessage",
    "ChoiceDelta",
    "ChunkChoice",
    "CompletionUsage",
    "ContentPart",
    "FileCitation",
    "FilterContentPart",
    "LogProbs",
    "Role",
    "StreamOptions",
    "TextContentPart",
    "filter_parts",
    "question_of",
]

COMPLETION_SEARCH_MAX_CHARS = 4000
"""The longest ``search`` of ``GET /chat/completions``."""

Role = Literal["system", "user", "assistant", "developer", "tool", "function"]

# ---------------------------------------------------------------- request


class TextContentPart(RequestModel):
    """A piece of a message's text."""

    type: Literal["text"] = "text"
    text: str


class FilterContentPart(RequestModel):
    """Narrows which uploaded files the completion searches (docs/interface.md#filter-parts).

    ``filter`` is a metadata filter (:mod:`.filters`: typed or shorthand), as an object or
    that object as a JSON string, kept as given; ``file_ids`` limits the search to those
    files; ``top_k`` is the number of passages (1..50, default 5).
    """

    # What _part_kind reads as a filter part, for the OpenAPI document: ``{}`` is a text part.
    model_config = ConfigDict(
        json_schema_extra={
            "anyOf": [
                {"required": [key]} for key in ("type", "filter", "top_k", "file_ids", "relevance")
            ]
        }
    )

    type: Literal["filter"] = "filter"
    filter: FilterInput = None
    top_k: TopK | None = None
    file_ids: list[str] | None = None
    relevance: Relevance | None = None
    """Share (0..1) of the question's weighted terms a passage must match to be cited;
    0 cites any match. Default: the service's ``relevance_threshold``."""

    def metadata_filter(self) -> MetadataFilter | None:
        """The typed form of ``filter`` (checked when the part was read)."""
        return None if self.filter is None else read_filter(self.filter)


def _part_kind(part: Any) -> str:
    """The tag of a content part; ``type`` may be left out, as both parts default it."""
    if isinstance(part, BaseModel):
        return str(getattr(part, "type", "text"))
    if isinstance(part, dict):
        if "type" in part:
            return str(part["type"])
        if "text" not in part and part.keys() & {"filter", "top_k", "file_ids", "relevance"}:
            return "filter"
    return "text"


ContentPart = Annotated[
    Annotated[TextContentPart, Tag("text")] | Annotated[FilterContentPart, Tag("filter")],
    Discriminator(
        _part_kind,
        custom_error_type="content_part_type",
        custom_error_message="Content part type must be 'text' or 'filter'",
    ),
]


_PART_ADAPTERS: dict[str, TypeAdapter[Any]] = {
    "text": TypeAdapter(TextContentPart),
    "filter": TypeAdapter(FilterContentPart),
}
_STOP_ADAPTER: TypeAdapter[list[str]] = TypeAdapter(Annotated[list[str], Field(max_length=4)])


def _content(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    """A string, a list of parts validated part by part, or null (checked by the message).

    Validating each part by its own model keeps pydantic's union labels out of error
    locations: a text part without text is ``[..., "content", 1, "text"]``, not
    ``[..., "content", "list[tagged-union[...]]", 1, "text", "text"]``.
    """
    if value is None or isinstance(value, str):
        return value
    if not isinstance(value, list):
        raise PydanticCustomError(
            "content_type", "Content must be a string or a list of content parts"
        )
    parts: list[Any] = []
    errors: list[InitErrorDetails] = []
    for j, item in enumerate(value):
        adapter = _PART_ADAPTERS.get(_part_kind(item))
        if adapter is None:
            kind = PydanticCustomError(
                "content_part_type", "Content part type must be 'text' or 'filter'"
            )
            errors.append(InitErrorDetails(type=kind, loc=(j,), input=item))
            continue
        try:
            parts.append(adapter.validate_python(item))
        except ValidationError as exc:
            errors += relocated((j,), exc)
    if errors:
        raise ValidationError.from_exception_data("content", errors)
    return parts


def _stop(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    """``stop`` as given; a list is checked without pydantic's union labels in ``loc``."""
    if value is None or isinstance(value, str):
        return value
    if not isinstance(value, list):
        raise PydanticCustomError("stop_type", "stop must be a string or a list of strings")
    try:
        return _STOP_ADAPTER.validate_python(value)
    except ValidationError as exc:
        raise ValidationError.from_exception_data("stop", relocated((), exc)) from None


def _needs_for_role(role: str, field: str, schema: dict[str, Any]) -> dict[str, Any]:
    """JSON schema: a message of ``role`` needs ``field`` (as ``schema``); others do not.

    Spelled with ``anyOf`` rather than ``if``/``then``, which schemathesis misreads.
    """
    others = [r for r in get_args(Role) if r != role]
    return {
        "anyOf": [
            {"properties": {"role": {"enum": others}}},
            {"required": [field], "properties": {field: schema}},
        ]
    }


def _missing(field: str, message: str) -> ValidationError:
    """A ``missing`` error at ``field`` of the message being validated."""
    kind = PydanticCustomError("missing", message)
    details = [InitErrorDetails(type=kind, loc=(field,), input=None)]
    return ValidationError.from_exception_data("ChatMessage", details)


class ChatMessage(BaseModel):
    """One message of a request. Fields the service does not use (``annotations``, ...)
    are ignored, so that messages taken from an earlier answer can be sent back as they are.

    ``content`` may be null or left out only by an assistant message that calls tools
    (``tool_calls``, or the legacy ``function_call``); a ``tool`` message names the call it
    answers (``tool_call_id``), a legacy ``function`` message the function (``name``).
    """

    model_config = ConfigDict(
        extra="ignore",
        strict=True,
        # The rules of _by_role, for the OpenAPI document (what a client may send).
        json_schema_extra={
            "anyOf": [
                {"required": ["content"], "properties": {"content": {"not": {"type": "null"}}}},
                {
                    "required": ["role", "tool_calls"],
                    "properties": {
                        "role": {"const": "assistant"},
                        "tool_calls": {"type": "array", "minItems": 1},
                    },
                },
                {
                    "required": ["role", "function_call"],
                    "properties": {
                        "role": {"const": "assistant"},
                        "function_call": {"type": "object"},
                    },
                },
            ],
            "allOf": [
                _needs_for_role("tool", "tool_call_id", {"type": "string"}),
                _needs_for_role("function", "name", {"type": "string", "minLength": 1}),
            ],
        },
    )

    role: Role = "user"
    content: Annotated[str | list[ContentPart] | None, WrapValidator(_content)] = None
    name: str | None = None
    tool_calls: list[ToolCall] | None = None
    tool_call_id: Annotated[str, Field(min_length=1)] | None = None
    function_call: FunctionCall | None = None

    @model_validator(mode="after")
    def _by_role(self) -> ChatMessage:
        calls = self.role == "assistant" and (self.tool_calls or self.function_call)
        if self.content is None and not calls:
            raise _missing("content", "Field required")
        if self.role == "tool" and self.tool_call_id is None:
            raise _missing("tool_call_id", "A tool message needs the tool_call_id it answers")
        if self.role == "function" and not self.name:
            raise _missing("name", "A function message needs the function's name")
        return self

    def text(self) -> str:
        """The message's text parts joined with a newline (docs/interface.md#stored-completions)."""
        if self.content is None or isinstance(self.content, str):
            return self.content or ""
        return "\n".join(p.text for p in self.content if isinstance(p, TextContentPart))

    def filters(self) -> list[FilterContentPart]:
        if self.content is None or isinstance(self.content, str):
            return []
        return [p for p in self.content if isinstance(p, FilterContentPart)]


class StreamOptions(RequestModel):
    include_usage: bool | None = None
    include_obfuscation: bool | None = None


class FunctionCallChoice(RequestModel):
    """The legacy ``function_call: {"name": ...}`` that forces one function."""

    name: str


class ChatCompletionRequest(RequestModel):
    """The body of ``POST /chat/completions`` (docs/interface.md#chat-request)."""

    model_config = ConfigDict(
        # _top_logprobs_needs_logprobs, for the OpenAPI document
        json_schema_extra={
            "if": {
                "required": ["top_logprobs"],
                "properties": {"top_logprobs": {"type": "integer"}},
            },
            "then": {"required": ["logprobs"], "properties": {"logprobs": {"const": True}}},
        }
    )

    messages: Annotated[list[ChatMessage], Field(min_length=1, max_length=4096)]
    workspace: WorkspaceId = "default"
    model: Annotated[str, Field(min_length=1, max_length=256)] = DEFAULT_MODEL
    temperature: Temperature | None = 1
    top_p: Annotated[float, Field(ge=0, le=1)] | None = 1
    n: Annotated[int, Field(ge=1, le=8)] | None = 1
    stream: bool | None = False
    max_tokens: Annotated[int, Field(ge=1)] | None = None
    max_completion_tokens: Annotated[int, Field(ge=1)] | None = None
    presence_penalty: Annotated[float, Field(ge=-2, le=2)] | None = 0
    frequency_penalty: Annotated[float, Field(ge=-2, le=2)] | None = 0
    logit_bias: dict[str, Annotated[float, Field(ge=-100, le=100)]] | None = None
    logprobs: bool | None = False
    top_logprobs: Annotated[int, Field(ge=0, le=20)] | None = None
    stop: Annotated[
        str | Annotated[list[str], Field(max_length=4)] | None, WrapValidator(_stop)
    ] = None
    seed: int | None = None
    response_format: ResponseFormat | None = None
    user: Annotated[str, Field(max_length=256)] | None = None
    stream_options: StreamOptions | None = None
    store: bool | None = False
    metadata: Metadata | None = None
    modalities: list[Literal["text", "audio"]] | None = None
    service_tier: str | None = None
    reasoning_effort: Literal["none", "minimal", "low", "medium", "high", "xhigh", "max"] | None = (
        None
    )
    tools: Annotated[list[Tool], Field(max_length=128)] | None = None
    tool_choice: ToolChoice | None = None
    parallel_tool_calls: bool | None = None
    functions: Annotated[list[FunctionDefinition], Field(min_length=1, max_length=128)] | None = (
        None
    )
    function_call: Literal["none", "auto"] | FunctionCallChoice | None = None
    audio: dict[str, Any] | None = None
    prediction: dict[str, Any] | None = None
    moderation: dict[str, Any] | None = None
    prompt_cache_key: str | None = None
    prompt_cache_options: dict[str, Any] | None = None
    prompt_cache_retention: str | None = None
    safety_identifier: Annotated[str, Field(max_length=256)] | None = None
    verbosity: str | None = None
    web_search_options: dict[str, Any] | None = None

    SERVICE_FIELDS: ClassVar[frozenset[str]] = frozenset(
        {"messages", "workspace", "model", "stream", "stream_options", "store", "metadata"}
    )
    """What belongs to this service, never forwarded to an upstream model as it stands."""

    @field_validator("top_logprobs")
    @classmethod
    def _top_logprobs_needs_logprobs(cls, value: int | None, info: ValidationInfo) -> int | None:
        if value is not None and not info.data.get("logprobs"):
            raise ValueError("top_logprobs is only allowed with logprobs: true")
        return value

    def given(self, name: str) -> Any:
        """Field ``name`` as the caller sent it, as JSON (what they left out stays out)."""
        dumped = self.model_dump(mode="json", include={name}, exclude_unset=True, by_alias=True)
        return dumped.get(name)

    def stop_sequences(self) -> list[str]:
        if self.stop is None:
            return []
        return [self.stop] if isinstance(self.stop, str) else list(self.stop)

    def token_limit(self) -> int | None:
        """The tighter of ``max_tokens`` and ``max_completion_tokens``."""
        limits = [v for v in (self.max_tokens, self.max_completion_tokens) if v is not None]
        return min(limits) if limits else None


# ---------------------------------------------------------------- answer


class FileCitation(WireModel):
    """The file a citation points at, the span of it that supports the sentence, and where
    that span starts in the file (null where the file's kind has no locations)."""

    file_id: str
    filename: str
    quote: str
    location: Location | None = None


class Annotation(WireModel):
    """A citation in an answer: ``content[start_index:end_index] == text``."""

    type: str
    text: str
    start_index: int
    end_index: int
    file_citation: FileCitation | None = None
    file_path: dict[str, Any] | None = None


class ChatCompletionMessage(WireModel):
    role: Role
    content: str | None = None
    reasoning_content: str | None = None
    refusal: Any = None
    annotations: list[Annotation] = Field(default_factory=list)
    tool_calls: list[ToolCall] | None = None
    function_call: FunctionCall | None = None

    @classmethod
    def folded(
        cls,
        parts: list[str],
        *,
        annotations: list[Annotation] | tuple[Annotation, ...] = (),
        calls: dict[int, dict[str, Any]] | None = None,
        function_call: dict[str, Any] | None = None,
        role: Role = "assistant",
    ) -> ChatCompletionMessage:
        """The message of a streamed choice from its pieces (the service's fold of an
        engine's events and the client's fold of chunks); its content is null when it
        only calls tools, as in a plain answer."""
        tools = [ToolCall.model_validate(c) for _, c in sorted((calls or {}).items())]
        legacy = FunctionCall.model_validate(function_call) if function_call else None
        text_only = not tools and legacy is None
        return cls(
            role=role,
            content="".join(parts) if parts or text_only else None,
            annotations=list(annotations),
            tool_calls=tools or None,
            function_call=legacy,
        )


class LogProbs(WireModel):
    """Token log probabilities as the model reported them (upstream models only)."""

    content: list[dict[str, Any]] | None = None
    refusal: list[dict[str, Any]] | None = None


class ChatCompletionChoice(WireModel):
    index: int
    message: ChatCompletionMessage
    finish_reason: str | None = None
    logprobs: LogProbs | None = None
    metadata: dict[str, Any] | None = None


class CompletionUsage(WireModel):
    prompt_tokens: int
    completion_tokens: int
    total_tokens: int


class ChatCompletion(WireModel):
    """A chat completion, as created and as stored."""

    id: str
    object: str = "chat.completion"
    created: int
    model: str
    system_fingerprint: str | None = None
    choices: list[ChatCompletionChoice]
    usage: CompletionUsage
    perception_usage: CompletionUsage | None = None
    service_tier: str | None = None
    request_id: str | None = None
    seed: int | None = None
    top_p: float | None = None
    temperature: float | None = None
    presence_penalty: float | None = None
    frequency_penalty: float | None = None
    input_user: str | None = None
    tools: list[dict[str, Any]] | None = None
    metadata: dict[str, Any] | None = None
    response_format: dict[str, Any] | None = None
    responses: dict[str, Any] | None = None
    question: str | None = None
    """A chatspace addition: the text of the request's last user message, so that a list
    of completions can show what was asked without one more request per completion."""
    sources: int | None = None
    """A chatspace addition: how many passages a stored completion keeps as its sources
    (``GET /chat/completions/{id}/sources``); null when it is not stored, or was stored
    before sources were kept."""

    @property
    def text(self) -> str:
        """The content of the first choice ('' when it has none)."""
        return (self.choices[0].message.content or "") if self.choices else ""


class ChoiceDelta(WireModel):
    """A piece of a streamed choice; ``tool_calls`` pieces carry their call's ``index``,
    its ``id`` and ``function.name`` first, then pieces of ``function.arguments``."""

    role: Role | None = None
    content: str | None = None
    annotations: list[Annotation] | None = None
    tool_calls: list[dict[str, Any]] | None = None
    function_call: dict[str, Any] | None = None


class ChunkChoice(WireModel):
    index: int
    delta: ChoiceDelta
    finish_reason: str | None = None
    logprobs: LogProbs | None = None


class ChatCompletionChunk(WireModel):
    """One event of a streamed completion (docs/interface.md#streaming)."""

    id: str
    object: str = "chat.completion.chunk"
    created: int
    model: str
    system_fingerprint: str | None = None
    choices: list[ChunkChoice] = Field(default_factory=list)
    usage: CompletionUsage | None = None
    perception_usage: CompletionUsage | None = None
    """With ``usage``, on the last chunk: the tokens of the passages the model was given."""


class ChatCompletionList(WireModel):
    object: str = "list"
    data: list[ChatCompletion]
    first_id: str | None = None
    last_id: str | None = None
    has_more: bool = False


class ChatCompletionMessageObject(WireModel):
    """A message of a stored completion; ``id`` is ``<completion_id>-<i>``. An assistant
    message lists the tools it called (``tool_calls``), a tool result names the call
    (``tool_call_id``)."""

    id: str
    role: Role
    content: str | None = None
    name: str | None = None
    content_parts: list[dict[str, Any]] | None = None
    tool_calls: list[ToolCall] | None = None
    tool_call_id: str | None = None
    function_call: FunctionCall | None = None

    def text(self) -> str:
        """The message's text: ``content`` (chatspace stores the text parts joined with a
        newline), else the text of ``content_parts`` (another service may send only those)."""
        if self.content is not None:
            return self.content
        parts = self.content_parts or ()
        return "\n".join(str(p.get("text") or "") for p in parts if p.get("type") == "text")


def filter_parts(messages: Sequence[ChatMessage]) -> list[tuple[int, int, FilterContentPart]]:
    """Every filter part of ``messages``, in order, with the index of its message and its
    index in that message's content: what a completion's search scope is made of, and
    where a fault the service finds in one is answered (``messages.<i>.content.<j>``)."""
    return [
        (i, j, part)
        for i, message in enumerate(messages)
        if isinstance(message.content, list)  # not text, nor null (a tool-calling answer)
        for j, part in enumerate(message.content)
        if isinstance(part, FilterContentPart)
    ]


def question_of(messages: Sequence[ChatMessage | ChatCompletionMessageObject]) -> str | None:
    """The question of a conversation (``messages`` oldest first): the text parts of its
    last user message that has text; None when no user message has any.

    The service stores it as a completion's ``question``; the client and the notebook
    apply it to a stored completion's messages when a service does not send ``question``.
    Filter parts (and any other part that is not text) are not the question.
    """
    for message in reversed(messages):
        if message.role == "user" and message.text().strip():
            return message.text()
    return None


class ChatCompletionMessageList(WireModel):
    object: str = "list"
    data: list[ChatCompletionMessageObject]
    first_id: str | None = None
    last_id: str | None = None
    has_more: bool = False


class ChatCompletionDeleted(WireModel):
    id: str
    object: str = "chat.completion.deleted"
    deleted: bool = True
