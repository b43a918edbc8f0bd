"""What makes a JSON value acceptable, wherever the service takes one in.

Every JSON value the service accepts (a request body, the upload form's ``metadata``)
goes through :func:`loads_json` (a metadata filter given as a string is read by its type,
:mod:`chatspace.types.filters`): strict
UTF-8, standard JSON (no NaN or Infinity), at most :data:`MAX_JSON_DEPTH` levels deep, and
every string valid Unicode (a lone surrogate cannot be encoded as UTF-8, so it could be
neither stored nor answered; NUL is valid Unicode, stored and answered as it came). A
fault is a :class:`JSONRejected` that names where it is.
"""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = [
    "MAX_JSON_DEPTH",
    "JSONRejected",
    "check_json",
    "loads_json",
    "parse_json_object",
    "shown",
]

MAX_JSON_DEPTH = 64
"""Arrays and objects nest at most this deep (``{"a": [1]}`` is 2 levels): far beyond any
schema a request needs, far below where the standard library, SQLite's JSON functions or
pydantic would fail to read a stored value back."""

Loc = tuple[str | int, ...]


class JSONRejected(ValueError):
    """A JSON text or value the service does not accept; ``loc`` is where, inside it."""

    def __init__(self, loc: Loc, msg: str, kind: str, pos: int | None = None) -> None:
        super().__init__(msg)
        self.loc, self.msg, self.kind = loc, msg, kind
        self.pos = pos
        """Where in the text it does not parse (a body's ``loc`` names it, as FastAPI's)."""

    def item(self, *prefix: str | int) -> dict[str, Any]:
        """The 422 item, under ``prefix`` (``"body"``, ``"query", "metadata"``, ...)."""
        return {"loc": [*prefix, *self.loc], "msg": self.msg, "type": self.kind}


def _text_problem(text: str) -> str | None:
    try:
        text.encode()
    except UnicodeEncodeError:
        return "Text must be valid Unicode: a lone surrogate (\\ud800-\\udfff) is not."
    return None


def shown(key: str) -> str:
    """A key as it can be named in an answer (lone surrogates written as escapes)."""
    return key.encode(errors="backslashreplace").decode()


def check_json(value: Any) -> None:
    """Raise :class:`JSONRejected` unless ``value`` (parsed JSON) is within the bounds.

    Iterative, so that checking a deep value cannot itself overflow the stack.
    """
    stack: list[tuple[Any, Loc]] = [(value, ())]
    while stack:
        item, loc = stack.pop()
        if isinstance(item, str):
            if problem := _text_problem(item):
                raise JSONRejected(loc, problem, "string_unicode")
        elif isinstance(item, float) and not math.isfinite(item):
            msg = "Numbers must be finite (not NaN or Infinity)."
            raise JSONRejected(loc, msg, "finite_number")
        elif isinstance(item, dict | list):
            if len(loc) >= MAX_JSON_DEPTH:
                raise JSONRejected(
                    loc, f"JSON nests deeper than {MAX_JSON_DEPTH} levels.", "json_too_deep"
                )
            if isinstance(item, dict):
                for key, member in item.items():
                    if problem := _text_problem(key):
                        raise JSONRejected((*loc, shown(key)), problem, "string_unicode")
                    stack.append((member, (*loc, key)))
            else:
                stack.extend((member, (*loc, i)) for i, member in enumerate(item))


def _refuse_constant(constant: str) -> None:
    raise JSONRejected((), f"{constant} is not valid JSON.", "json_invalid")


def loads_json(text: str | bytes) -> Any:
    """``text`` parsed and checked by :func:`check_json`; :class:`JSONRejected` if it fails.

    Bytes must be UTF-8 (RFC 8259), with no guessing of other encodings.
    """
    try:
        decoded = text.decode() if isinstance(text, bytes) else text
    except UnicodeDecodeError as exc:
        raise JSONRejected((), "JSON must be UTF-8 text.", "json_invalid", exc.start) from None
    try:
        value = json.loads(decoded, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise JSONRejected((), f"Invalid JSON: {exc.msg}.", "json_invalid", exc.pos) from None
    except RecursionError:
        raise JSONRejected(
            (), f"JSON nests deeper than {MAX_JSON_DEPTH} levels.", "json_too_deep"
        ) from None
    except JSONRejected:
        raise
    except ValueError as exc:  # an integer of over 4300 digits
        raise JSONRejected((), f"Invalid JSON: {exc}.", "json_invalid") from None
    check_json(value)
    return value


def parse_json_object(text: str) -> dict[str, Any]:
    """``text`` as a JSON object within this module's bounds; else :class:`JSONRejected`."""
    value = loads_json(text)
    if not isinstance(value, dict):
        raise JSONRejected((), 'Input should be a JSON object, like {"key": "value"}', "dict_type")
    return value
