"""Metadata filters on the wire (docs/interface.md#metadata-filters), checked here once.

A filter is OpenAI's attribute-filter shape: a comparison ``{"type": "gte", "key":
"year", "value": 2024}`` or a compound ``{"type": "and"|"or", "filters": [...]}``; or the
shorthand ``{"year": 2024, "team": ["ml", "bi"]}``, read as an ``and`` of ``eq`` (``in``
where the value is a list). :func:`read_filter` takes any of them, as an object or as
that object in a JSON string, and answers the typed form; every fault is a pydantic
error whose ``loc`` names its place inside the filter, so that a route, a request
model and retrieval never check a filter themselves.

>>> read_filter('{"year": 2024}')
CompoundFilter(type='and', filters=[ComparisonFilter(type='eq', key='year', value=2024)])
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, Field, ValidationError, ValidatorFunctionWrapHandler, WrapValidator
from pydantic_core import InitErrorDetails, PydanticCustomError

from .common import RequestModel, relocated
from .files import FILE_METADATA_MAX_KEY_LENGTH

__all__ = [
    "COMPARISONS",
    "COMPOUNDS",
    "FILTER_STRING",
    "MAX_FILTER_COMPARISONS",
    "MAX_FILTER_DEPTH",
    "MAX_FILTER_VALUES",
    "ComparisonFilter",
    "CompoundFilter",
    "FilterInput",
    "MetadataFilter",
    "filter_payload",
    "read_filter",
]

MAX_FILTER_DEPTH = 8
"""``and``/``or`` nest at most this deep (a comparison inside 8 compounds is fine)."""
MAX_FILTER_COMPARISONS = 64
"""Comparisons in one filter (each key of the shorthand is one)."""
MAX_FILTER_VALUES = 100
"""Values of one ``in``/``nin`` list."""

Comparison = Literal["eq", "ne", "gt", "gte", "lt", "lte", "in", "nin"]
Compound = Literal["and", "or"]
COMPARISONS: tuple[str, ...] = get_args(Comparison)
COMPOUNDS: tuple[str, ...] = get_args(Compound)
_ORDERING = {"gt", "gte", "lt", "lte"}
_LISTS = {"in", "nin"}
_TYPED_FIELDS = {"type", "key", "value", "filters"}
Scalar = str | int | float | bool

Loc = tuple[str | int, ...]


class ComparisonFilter(RequestModel):
    """``key``'s value compared with ``value`` (a list for ``in``/``nin``)."""

    type: Comparison
    key: Annotated[str, Field(min_length=1, max_length=FILE_METADATA_MAX_KEY_LENGTH)]
    value: Scalar | Annotated[list[Scalar], Field(min_length=1, max_length=MAX_FILTER_VALUES)]


class CompoundFilter(RequestModel):
    """Every filter (``and``) or any of them (``or``)."""

    type: Compound
    filters: Annotated[
        list[ComparisonFilter | CompoundFilter],
        Field(min_length=1, max_length=MAX_FILTER_COMPARISONS),
    ]


MetadataFilter = ComparisonFilter | CompoundFilter

FILTER_STRING: dict[str, Any] = {
    "format": "metadata-filter",
    "contentMediaType": "application/json",
    "contentSchema": {"type": "object"},
    "description": 'A metadata filter as a JSON object string: {"team": "ml"} or '
    '{"type": "gte", "key": "year", "value": 2024} (docs/interface.md#metadata-filters).',
}
"""The JSON schema words of a filter given as a string: ``contentSchema`` says it to
readers, the ``metadata-filter`` format to tools that generate values."""


class _Reader:
    """One filter read depth first, its faults collected with their places."""

    def __init__(self) -> None:
        self.errors: list[InitErrorDetails] = []
        self.comparisons = 0

    def fail(self, loc: Loc, kind: str, msg: str, value: Any) -> None:
        self.errors.append(
            InitErrorDetails(type=PydanticCustomError(kind, msg), loc=loc, input=value)
        )

    def text(self, value: Any, loc: Loc) -> bool:
        """Whether ``value`` is a string a database can compare: valid Unicode, and no NUL
        (PostgreSQL's text cannot hold it)."""
        try:
            value.encode()
        except UnicodeEncodeError:
            self.fail(loc, "string_unicode", "Text must be valid Unicode.", value)
            return False
        if "\x00" in value:
            self.fail(loc, "string_nul", "Text in a filter cannot hold NUL (\\u0000).", value)
            return False
        return True

    def key(self, value: Any, loc: Loc) -> str | None:
        if not isinstance(value, str):
            self.fail(loc, "string_type", "A key must be a string.", value)
            return None
        if not 1 <= len(value) <= FILE_METADATA_MAX_KEY_LENGTH:
            msg = f"A key must have 1 to {FILE_METADATA_MAX_KEY_LENGTH} characters."
            self.fail(loc, "key_length", msg, value)
            return None
        return value if self.text(value, loc) else None

    def scalar(self, value: Any, loc: Loc, *, ordering: bool = False) -> bool:
        if isinstance(value, str):
            return self.text(value, loc)
        if isinstance(value, bool) and ordering:
            msg = "gt, gte, lt and lte compare a number or a string, not a boolean."
            self.fail(loc, "filter_value", msg, value)
            return False
        if isinstance(value, float) and not math.isfinite(value):
            self.fail(loc, "finite_number", "Numbers must be finite.", value)
            return False
        if isinstance(value, bool | int | float):
            return True
        msg = "A value must be a string, a number or a boolean."
        self.fail(loc, "filter_value", msg, value)
        return False

    def values(self, value: Any, loc: Loc) -> bool:
        if not isinstance(value, list):
            msg = "in and nin take a list of strings, numbers or booleans."
            self.fail(loc, "list_type", msg, value)
            return False
        if not 1 <= len(value) <= MAX_FILTER_VALUES:
            msg = f"A list of values must have 1 to {MAX_FILTER_VALUES} items."
            self.fail(loc, "filter_values", msg, value)
            return False
        checked = [self.scalar(v, (*loc, i)) for i, v in enumerate(value)]  # every fault
        return all(checked)

    def counted(self, loc: Loc, value: Any) -> bool:
        self.comparisons += 1
        if self.comparisons > MAX_FILTER_COMPARISONS:
            msg = f"A filter has at most {MAX_FILTER_COMPARISONS} comparisons."
            self.fail(loc, "filter_too_long", msg, value)
            return False
        return True

    def exact_keys(self, value: dict[str, Any], wanted: tuple[str, ...], loc: Loc) -> bool:
        ok = True
        for name in wanted:
            if name not in value:
                self.fail((*loc, name), "missing", "Field required", value)
                ok = False
        for name in value:
            if name not in wanted:
                self.fail((*loc, name), "extra_forbidden", "Extra inputs are not permitted", value)
                ok = False
        return ok

    def typed(self, value: Any, loc: Loc, depth: int) -> MetadataFilter | None:
        """A comparison or a compound (the items of a compound are never shorthand)."""
        if not isinstance(value, dict):
            msg = "A filter must be an object: a comparison or an and/or of filters."
            self.fail(loc, "dict_type", msg, value)
            return None
        kind = value.get("type")
        if kind in COMPOUNDS:
            return self.compound(value, loc, depth)
        if kind in COMPARISONS:
            return self.comparison(value, loc)
        names = ", ".join([*COMPARISONS, *COMPOUNDS])
        if "type" not in value:
            self.fail((*loc, "type"), "missing", f"Field required (one of {names})", value)
        else:
            self.fail((*loc, "type"), "filter_type", f"type must be one of {names}.", kind)
        return None

    def compound(self, value: dict[str, Any], loc: Loc, depth: int) -> CompoundFilter | None:
        if depth > MAX_FILTER_DEPTH:
            msg = f"and/or filters nest at most {MAX_FILTER_DEPTH} levels deep."
            self.fail(loc, "filter_too_deep", msg, value)
            return None
        if not self.exact_keys(value, ("type", "filters"), loc):
            return None
        items = value["filters"]
        if not isinstance(items, list) or not items:
            msg = "filters must be a list of at least one filter."
            self.fail((*loc, "filters"), "filters_type", msg, items)
            return None
        read = [self.typed(f, (*loc, "filters", i), depth + 1) for i, f in enumerate(items)]
        kept = [f for f in read if f is not None]
        if len(kept) < len(read):
            return None
        return CompoundFilter.model_construct(type=value["type"], filters=kept)

    def comparison(self, value: dict[str, Any], loc: Loc) -> ComparisonFilter | None:
        if not self.exact_keys(value, ("type", "key", "value"), loc):
            return None
        kind, given = value["type"], value["value"]
        key = self.key(value["key"], (*loc, "key"))
        if kind in _LISTS:
            ok = self.values(given, (*loc, "value"))
        elif isinstance(given, list):
            msg = f"{kind} compares one value; in and nin take a list."
            self.fail((*loc, "value"), "filter_value", msg, given)
            ok = False
        else:
            ok = self.scalar(given, (*loc, "value"), ordering=kind in _ORDERING)
        if key is None or not ok or not self.counted(loc, value):
            return None
        return ComparisonFilter.model_construct(type=kind, key=key, value=given)

    def shorthand(self, value: dict[str, Any], loc: Loc) -> CompoundFilter | None:
        """``{"k": v, ...}``: each key equals its value, or is one of a list's values."""
        read: list[MetadataFilter] = []
        ok_all = True
        for name, given in value.items():
            place = (*loc, name)
            key = self.key(name, place)
            listed = isinstance(given, list)
            ok = self.values(given, place) if listed else self.scalar(given, place)
            if key is None or not ok or not self.counted(place, given):
                ok_all = False
                continue
            kind: Comparison = "in" if listed else "eq"
            read.append(ComparisonFilter.model_construct(type=kind, key=key, value=given))
        return CompoundFilter.model_construct(type="and", filters=read) if ok_all else None


def _is_typed(value: dict[str, Any]) -> bool:
    """The typed form: ``type`` names an operator, or comes with ``key`` or ``filters``
    and nothing else; any other object is the shorthand (so ``{"type": "report"}`` matches
    files whose ``type`` is ``report``)."""
    if "type" not in value:
        return False
    if value["type"] in COMPARISONS or value["type"] in COMPOUNDS:
        return True
    return bool(value.keys() & {"key", "filters"}) and value.keys() <= _TYPED_FIELDS


def _refuse_constant(constant: str) -> None:
    raise ValueError(f"{constant} is not valid JSON")


def _parsed(text: str, reader: _Reader) -> Any:
    """``text`` as JSON; None, with the fault noted, when it is not."""
    kind, why = "json_invalid", ""
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:
        kind, why = "json_too_deep", "it nests too deep"
    except json.JSONDecodeError as exc:
        why = f"it is not JSON ({exc.msg})"
    except ValueError as exc:  # NaN, or an integer of over 4300 digits
        why = str(exc)
    reader.fail((), kind, f'filter must be a JSON object, like {{"lang": "de"}}: {why}', text)
    return None


def read_filter(value: object) -> MetadataFilter:
    """The typed filter ``value`` stands for: a filter model, an object (typed or
    shorthand) or that object as a JSON string; a :class:`ValidationError` whose errors'
    ``loc`` are places inside the filter otherwise."""
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json")
    reader = _Reader()
    if isinstance(value, str):
        value = _parsed(value, reader)
        if reader.errors:
            raise ValidationError.from_exception_data("filter", reader.errors)
    found: MetadataFilter | None = None
    if not isinstance(value, dict):
        msg = 'filter must be a JSON object, like {"lang": "de"} or {"type": "gte", ...}'
        reader.fail((), "dict_type", msg, value)
    elif _is_typed(value):
        found = reader.typed(value, (), 1)
    else:
        found = reader.shorthand(value, ())
    if found is None or reader.errors:
        raise ValidationError.from_exception_data("filter", reader.errors)
    return found


def _checked(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    """A filter read by :func:`read_filter` (its faults keep their places inside the
    filter), then kept as given: a model as its dict."""
    if value is None:
        return None
    if isinstance(value, ComparisonFilter | CompoundFilter):
        value = filter_payload(value)
    if not isinstance(value, str | dict):
        msg = 'filter must be a JSON object, or that object as a string, like {"lang": "de"}'
        raise PydanticCustomError("dict_type", msg)
    try:
        read_filter(value)
    except ValidationError as exc:
        raise ValidationError.from_exception_data("filter", relocated((), exc)) from None
    return value


FilterInput = Annotated[
    Annotated[str, Field(json_schema_extra=FILTER_STRING)]
    | ComparisonFilter
    | CompoundFilter
    | dict[str, Any]
    | None,
    WrapValidator(_checked),
]
"""A request field that takes a filter (a filter part's ``filter``, ``POST /files/search``'s):
checked here, kept as the caller wrote it; :func:`read_filter` gives its typed form."""


def filter_payload(value: MetadataFilter | Mapping[str, Any]) -> dict[str, Any]:
    """A filter model or mapping as the JSON object sent on the wire."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    return dict(value)
