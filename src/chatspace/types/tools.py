"""Tools, tool calls and structured output on the wire, in the OpenAI API's shapes.

Definitions keep the fields they do not name (``extra="allow"``), so that what a caller
sends reaches an upstream model exactly as given; what chatspace relies on (a tool's
``type`` and ``function.name``, a tool call's ``id``) is required.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    TypeAdapter,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
)
from pydantic_core import PydanticCustomError

from .common import relocated

__all__ = [
    "CustomToolDefinition",
    "FunctionCall",
    "FunctionDefinition",
    "JSONObjectFormat",
    "JSONSchemaFormat",
    "JSONSchemaResponseFormat",
    "NamedToolChoice",
    "ResponseFormat",
    "TextFormat",
    "Tool",
    "ToolCall",
    "ToolChoice",
]

FunctionName = Annotated[str, StringConstraints(pattern=r"^[a-zA-Z0-9_.-]{1,64}$")]
"""A function or schema name as the OpenAI API accepts it."""


class _Given(BaseModel):
    """A request object kept as given: unknown fields stay, to be forwarded; the known ones
    have the JSON type the OpenAPI document says (strict, as every request model)."""

    model_config = ConfigDict(extra="allow", strict=True)


class FunctionDefinition(_Given):
    name: FunctionName
    description: str | None = None
    parameters: dict[str, Any] | None = None
    strict: bool | None = None


class CustomToolDefinition(_Given):
    name: FunctionName
    description: str | None = None
    format: dict[str, Any] | None = None


class FunctionTool(_Given):
    type: Literal["function"]
    function: FunctionDefinition


class CustomTool(_Given):
    type: Literal["custom"]
    custom: CustomToolDefinition


def _by_type(
    name: str, kinds: dict[str, type[BaseModel]]
) -> Callable[[Any, ValidatorFunctionWrapHandler], Any]:
    """A validator that picks the model by ``type``: its errors' ``loc`` carry no union
    label (``["tools", 0, "function", "name"]``, not ``[..., "function", "function", ...]``).
    """
    adapters = {kind: TypeAdapter(model) for kind, model in kinds.items()}
    allowed = " or ".join(repr(k) for k in kinds)

    def validate(value: Any, _: ValidatorFunctionWrapHandler) -> Any:
        if isinstance(value, BaseModel):
            value = value.model_dump(by_alias=True, exclude_unset=True)
        if not isinstance(value, dict):
            raise PydanticCustomError(f"{name}_type", f"{name} must be an object")
        kind = value.get("type")
        adapter = adapters.get(kind) if isinstance(kind, str) else None  # a list is unhashable
        if adapter is None:
            raise PydanticCustomError(f"{name}_type", f"{name} type must be {allowed}")
        try:
            return adapter.validate_python(value)
        except ValidationError as exc:
            raise ValidationError.from_exception_data(name, relocated((), exc)) from None

    return validate


Tool = Annotated[
    FunctionTool | CustomTool,
    WrapValidator(_by_type("tool", {"function": FunctionTool, "custom": CustomTool})),
]


class _Name(_Given):
    name: FunctionName


class NamedToolChoice(_Given):
    """``{"type": "function", "function": {"name": ...}}`` (or ``custom``) forces one tool."""

    type: Literal["function", "custom", "allowed_tools"]
    function: _Name | None = None
    custom: _Name | None = None
    allowed_tools: dict[str, Any] | None = None


_CHOICE_ADAPTER = TypeAdapter(NamedToolChoice)


def _tool_choice(value: Any, _: ValidatorFunctionWrapHandler) -> Any:
    """``"none"``, ``"auto"``, ``"required"`` or a named choice, errors without labels."""
    if isinstance(value, str):
        if value not in ("none", "auto", "required"):
            raise PydanticCustomError(
                "tool_choice", "tool_choice must be 'none', 'auto', 'required' or an object"
            )
        return value
    try:
        return _CHOICE_ADAPTER.validate_python(value)
    except ValidationError as exc:
        raise ValidationError.from_exception_data("tool_choice", relocated((), exc)) from None


ToolChoice = Annotated[
    Literal["none", "auto", "required"] | NamedToolChoice, WrapValidator(_tool_choice)
]


class FunctionCall(_Given):
    """A call of a function: its name and its arguments as a JSON string."""

    name: str
    arguments: str = ""


class ToolCall(_Given):
    """A tool call of an assistant message (``id`` names it in the ``tool`` answer); a
    ``custom`` tool's call keeps its ``custom`` object as an extra field."""

    id: Annotated[str, Field(min_length=1)]
    type: Literal["function", "custom"] = "function"
    function: FunctionCall | None = None


class JSONSchemaFormat(_Given):
    name: FunctionName
    description: str | None = None
    schema_: Annotated[dict[str, Any] | None, Field(alias="schema")] = None
    strict: bool | None = None

    model_config = ConfigDict(extra="allow", populate_by_name=True, serialize_by_alias=True)


class TextFormat(_Given):
    type: Literal["text"]


class JSONObjectFormat(_Given):
    type: Literal["json_object"]


class JSONSchemaResponseFormat(_Given):
    type: Literal["json_schema"]
    json_schema: JSONSchemaFormat


ResponseFormat = Annotated[
    TextFormat | JSONObjectFormat | JSONSchemaResponseFormat,
    WrapValidator(
        _by_type(
            "response_format",
            {
                "text": TextFormat,
                "json_object": JSONObjectFormat,
                "json_schema": JSONSchemaResponseFormat,
            },
        )
    ),
]
