"""Structured output of ``service-l0``: its answer as the JSON that ``response_format`` asks.

``json_object`` gets ``{"answer": <text>, "sources": [{"file": ..., "quote": ...}]}``.
``json_schema`` gets an object valid against the schema, filled by these rules (a schema
it cannot fill is a 400 that says why):

- The root is an object. Properties are strings, numbers, integers, booleans, nulls,
  objects of those, or arrays of any of them; ``$ref`` into ``$defs``, ``anyOf`` /
  ``oneOf`` (the first branch that can be filled, null last), ``const`` and ``enum``
  (the first value) are understood. Every property is filled, required or not.
- Of an object's string properties, the first whose name says answer (``answer``,
  ``response``, ``text``, ``content``, ...) gets the answer text; without one, the first
  string property; other strings are ``""``, numbers their ``minimum`` or 0, booleans
  whether anything was cited.
- An array whose name says sources (``sources``, ``citations``, ``references``,
  ``quotes``, ``files``, ...) holds one item per citation: in it, an ``id``-like string is
  the file id, a file-like one (``file``, ``filename``, ``source``, ``document``, ...) the
  file name, any other string the quote; an integer is the citation's number. Other arrays
  are empty; ``maxItems`` is respected.

The answer text is the engine's usual answer, after ``stop`` and the token limits; the
citations are those it kept. A structured answer has no annotations: its JSON carries them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from chatspace.service.problems import BadRequest
from chatspace.types import ChatCompletionRequest, FileCitation

if TYPE_CHECKING:
    from .local import Choice

__all__ = ["JSON_OBJECT_SCHEMA", "CannotFill", "fill", "shaped"]

JSON_OBJECT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "answer": {"type": "string"},
        "sources": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"file": {"type": "string"}, "quote": {"type": "string"}},
            },
        },
    },
}
"""What ``json_object`` answers: the answer text and its sources."""

_ANSWER = ("answer", "response", "reply", "text", "content", "result", "output", "message")
_SOURCES = ("source", "citation", "reference", "quote", "evidence", "passage", "file", "document")
_FILE = ("file", "source", "document", "name", "title", "path")
_MAX_DEPTH = 16
_PROBE = FileCitation(file_id="", filename="", quote="")


class CannotFill(ValueError):
    """The schema asks for something ``service-l0`` cannot produce; the message says what."""


@dataclass(frozen=True, slots=True)
class _Answer:
    text: str
    citations: Sequence[FileCitation]


def _says(name: str, words: Sequence[str]) -> bool:
    return any(word in name.lower() for word in words)


def _at(where: str) -> str:
    """How an error names the place ``where`` (a dotted path, '' for the root)."""
    return f"property '{where}'" if where else "the schema"


def _child(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


class _Filler:
    """One schema filled with one answer; ``defs`` resolve ``$ref``."""

    def __init__(self, root: dict[str, Any], answer: _Answer) -> None:
        self.defs = {**root.get("definitions", {}), **root.get("$defs", {})}
        self.answer = answer

    def resolve(self, schema: Any, where: str, depth: int) -> dict[str, Any]:
        """``schema`` with ``$ref`` and single-item ``allOf`` followed."""
        if depth > _MAX_DEPTH:
            raise CannotFill(f"{_at(where)} is nested too deeply (a recursive $ref?)")
        if not isinstance(schema, dict):
            raise CannotFill(f"{_at(where)} is not a schema object")
        if "$ref" in schema:
            ref = schema["$ref"]
            name = ref.rsplit("/", 1)[-1] if isinstance(ref, str) else ""
            if not isinstance(ref, str) or not ref.startswith(("#/$defs/", "#/definitions/")):
                raise CannotFill(
                    f"{_at(where)} refers to {ref!r}, not to a definition of the schema"
                )
            if name not in self.defs:
                raise CannotFill(
                    f"{_at(where)} refers to {ref!r}, which the schema does not define"
                )
            return self.resolve(self.defs[name], where, depth + 1)
        if "allOf" in schema:
            parts = schema["allOf"]
            if not isinstance(parts, list) or len(parts) != 1:
                raise CannotFill(f"{_at(where)} combines schemas with allOf")
            return self.resolve(parts[0], where, depth + 1)
        return schema

    def value(
        self,
        schema: Any,
        name: str,
        where: str,
        depth: int,
        *,
        citation: FileCitation | None = None,
        number: int = 0,
        answer: bool = False,
    ) -> Any:
        """The value of property ``name`` (``where`` names it in errors)."""
        s = self.resolve(schema, where, depth)
        if "const" in s:
            return s["const"]
        if isinstance(s.get("enum"), list) and s["enum"]:
            return s["enum"][0]
        branches = s.get("anyOf", s.get("oneOf"))
        if isinstance(branches, list) and branches:
            kw = {"citation": citation, "number": number, "answer": answer}
            return self._first_branch(branches, name, where, depth, kw)
        kind = s.get("type", "object" if "properties" in s else None)
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), "null")
        if kind == "string":
            if citation is not None:
                if name.lower().endswith("id"):
                    return citation.file_id
                return citation.filename if _says(name, _FILE) else citation.quote
            return self.answer.text if answer else ""
        if kind in ("integer", "number"):
            if citation is not None and kind == "integer":
                return number
            low = s.get("minimum", s.get("exclusiveMinimum", 0))
            return int(low) + (1 if "exclusiveMinimum" in s else 0) if kind == "integer" else low
        if kind == "boolean":
            return bool(self.answer.citations)
        if kind == "null":
            return None
        if kind == "array":
            return self.array(s, name, where, depth)
        if kind == "object":
            return self.object(s, where, depth, citation=citation, number=number)
        raise CannotFill(f"{_at(where)} has {'no type' if kind is None else f'type {kind!r}'}")

    def _first_branch(
        self, branches: list[Any], name: str, where: str, depth: int, kw: dict[str, Any]
    ) -> Any:
        """The first branch that can be filled; a ``null`` branch only when none can."""
        ordered = sorted(branches, key=lambda b: isinstance(b, dict) and b.get("type") == "null")
        errors = []
        for branch in ordered:
            try:
                return self.value(branch, name, where, depth + 1, **kw)
            except CannotFill as exc:
                errors.append(exc)
        raise errors[0]

    def is_string(self, schema: Any, where: str, depth: int) -> bool:
        """Whether ``schema`` is a string, or a union whose first fillable kind is one."""
        s = self.resolve(schema, where, depth)
        kind = s.get("type")
        branches = s.get("anyOf", s.get("oneOf"))
        if isinstance(branches, list):
            return any(self.is_string(b, where, depth + 1) for b in branches)
        return kind == "string" or (isinstance(kind, list) and "string" in kind)

    def array(self, s: dict[str, Any], name: str, where: str, depth: int) -> list[Any]:
        items = s.get("items")
        if items is None:
            raise CannotFill(f"{_at(where)} is an array without 'items'")
        item_where = f"{where}[]"  # the root is an object, so ``where`` is never ''

        # An item is filled even when none is answered, so that a bad schema always fails.
        self.value(items, name, item_where, depth + 1, citation=_PROBE)
        if not _says(name, _SOURCES):
            return []
        found = [
            self.value(items, name, item_where, depth + 1, citation=c, number=i)
            for i, c in enumerate(self.answer.citations, 1)
        ]
        limit = s.get("maxItems")
        return found[:limit] if isinstance(limit, int) else found

    def object(
        self,
        s: dict[str, Any],
        where: str,
        depth: int,
        *,
        citation: FileCitation | None = None,
        number: int = 0,
    ) -> dict[str, Any]:
        props = s.get("properties", {})
        if not isinstance(props, dict):
            raise CannotFill(f"{_at(where)} has 'properties' that are not an object")
        strings = [k for k, v in props.items() if self.is_string(v, _child(where, k), depth + 1)]
        answer_key = next(
            (k for k in strings if _says(k, _ANSWER)), strings[0] if strings else None
        )
        return {
            key: self.value(
                sub,
                key,
                _child(where, key),
                depth + 1,
                citation=citation,
                number=number,
                answer=citation is None and key == answer_key,
            )
            for key, sub in props.items()
        }


def fill(schema: dict[str, Any], text: str, citations: Sequence[FileCitation]) -> dict[str, Any]:
    """An object valid against ``schema`` that holds ``text`` and ``citations``."""
    filler = _Filler(schema, _Answer(text, citations))
    root = filler.resolve(schema, "", 0)
    if root.get("type", "object" if "properties" in root else None) != "object":
        raise CannotFill("its root is not an object")
    return filler.object(root, "", 0)


def _schema_of(request: ChatCompletionRequest) -> dict[str, Any] | None:
    """The schema the answer must follow, ``None`` for plain text."""
    given = request.given("response_format")
    if given is None or given["type"] == "text":
        return None
    if given["type"] == "json_schema":
        return given["json_schema"].get("schema") or JSON_OBJECT_SCHEMA
    return JSON_OBJECT_SCHEMA


def shaped(request: ChatCompletionRequest, choices: list[Choice]) -> list[Choice]:
    """``choices`` as ``response_format`` asks; a schema that cannot be filled is a 400."""
    schema = _schema_of(request)
    if schema is None:
        return choices
    out = []
    for choice in choices:
        cited = [a.file_citation for a in choice.annotations if a.file_citation is not None]
        try:
            data = fill(schema, choice.content, cited)
        except CannotFill as exc:
            raise BadRequest(f"service-l0 cannot fill this JSON schema: {exc}.") from None
        out.append(replace(choice, content=json.dumps(data, ensure_ascii=False), annotations=()))
    return out
