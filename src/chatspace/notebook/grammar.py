"""The one input grammar for metadata and filters, in magics and panels alike.

A user types either a JSON object or ``key=value`` pairs split like a shell's words:
each word holding ``=`` is one pair, quotes keep spaces in a value, and a comma *inside*
a value stays part of it (``tags=a,b`` is one pair). A comma ending a word is a
separator and is dropped, so ``team=ml, year=2024`` reads as two pairs. Values of pairs
are strings; JSON keeps its types.

>>> parse_mapping('team=ml title="Q3 report"')
{'team': 'ml', 'title': 'Q3 report'}
>>> parse_mapping("team=ml,year=2024")
{'team': 'ml,year=2024'}

A **filter** of file metadata (:func:`file_filter`, docs/magics.md#filters) reads the same
words, and each may compare instead: ``year>=2024``, ``year<2020``, ``team!=ml``, and
``team in ml,bi`` or ``team not in ml,bi`` (three or four words). A value that looks like a
number is a number (``2024``, ``-1.5``); any other, an ISO date included, a string (the
service compares ISO dates as dates). Several words must all hold.

>>> file_filter("year>=2024 team in ml,bi")
{'type': 'and', 'filters': [{'type': 'gte', 'key': 'year', 'value': 2024}, \
{'type': 'in', 'key': 'team', 'value': ['ml', 'bi']}]}
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["InputError", "file_filter", "parse_filter", "parse_mapping", "parse_pairs", "short"]

MAX_FIELD_CHARS = 65_536


class InputError(ValueError):
    """Something typed into a magic or a panel that cannot be sent; the message is one line."""


def parse_mapping(
    text: str | Mapping[str, Any] | None, *, field: str = "metadata"
) -> dict[str, Any]:
    """A dict from a JSON object or ``k=v`` words; ``{}`` for empty text.

    ``field`` names the input in the user's words (``--filter``, ``Metadata``) in errors.
    """
    if text is None:
        return {}
    if isinstance(text, Mapping):
        return dict(text)
    text = text.strip()
    if not text:
        return {}
    if len(text) > MAX_FIELD_CHARS:
        raise InputError(f"{field} is too long ({len(text)} characters; at most 65536)")
    if text.startswith(("{", "[", '"')):
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(
                f"{field} is not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
            ) from None
        if not isinstance(value, dict):
            raise InputError(f'{field} must be a JSON object, like {{"team": "ml"}}')
        return value
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise InputError(f"{field}: {exc}; use key=value pairs or a JSON object") from None
    return parse_pairs(words, field=field)


def parse_pairs(words: Iterable[str] | None, *, field: str) -> dict[str, str]:
    """Words already split (argparse's ``--metadata K=V`` list) as pairs, by the same rule."""
    pairs: dict[str, str] = {}
    for word in words or ():
        word = word.removesuffix(",")
        if not word:
            continue
        key, sep, value = word.partition("=")
        if not sep or not key.strip():
            raise InputError(
                f"{field}: {short(word)} is not key=value; use key=value pairs or a JSON object"
            )
        pairs[key.strip()] = value
    return pairs


_COMPARISON = re.compile(r"^([^=!<>]+)(!=|>=|<=|=|>|<)(.*)$", re.DOTALL)
_OPERATORS = {"=": "eq", "!=": "ne", ">": "gt", ">=": "gte", "<": "lt", "<=": "lte"}
_NUMBER = re.compile(r"^-?[0-9]+(\.[0-9]+)?$")


def _typed_value(text: str) -> str | int | float:
    """A number where ``text`` looks like one, else the text (an ISO date stays text)."""
    if not _NUMBER.match(text):
        return text
    return float(text) if "." in text else int(text)


def _comparisons(words: list[str], field: str) -> list[dict[str, Any]]:
    """The comparisons of filter words (:func:`file_filter`)."""
    found: list[dict[str, Any]] = []
    i = 0
    while i < len(words):
        word = words[i].removesuffix(",")
        i += 1
        if not word:
            continue
        if match := _COMPARISON.match(word):
            key, op, value = match.groups()
            found.append({"type": _OPERATORS[op], "key": key.strip(), "value": _typed_value(value)})
            continue
        negated = words[i : i + 1] == ["not"]
        i += negated
        if words[i : i + 1] != ["in"]:
            raise InputError(
                f"{field}: {short(word)} is not a comparison; use key=value, key>=value, "
                "key in a,b or a JSON object"
            )
        listed = ""
        i += 1
        while i < len(words) and (not listed or listed.endswith(",")):  # "in ml, bi"
            listed += words[i]
            i += 1
        values = [_typed_value(v) for v in listed.split(",") if v]
        if not values:
            raise InputError(f"{field}: {short(word)} in needs values, like {word} in a,b")
        found.append({"type": "nin" if negated else "in", "key": word, "value": values})
    return found


def file_filter(
    text: str | Mapping[str, Any] | None, *, field: str = "filter"
) -> dict[str, Any] | None:
    """A filter of file metadata as the JSON object the service reads; None for none.

    A JSON object (or a mapping) is sent as it is; words are comparisons (module docstring),
    sent as the ``{"key": value}`` shorthand while every one is ``=``.
    """
    if text is None or isinstance(text, Mapping):
        return dict(text) if text else None
    text = text.strip()
    if text.startswith(("{", "[", '"')) or not text:
        return parse_mapping(text, field=field) or None
    if len(text) > MAX_FIELD_CHARS:
        raise InputError(f"{field} is too long ({len(text)} characters; at most 65536)")
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise InputError(f"{field}: {exc}; use key=value words or a JSON object") from None
    found = _comparisons(words, field)
    if all(c["type"] == "eq" for c in found):
        return {c["key"]: c["value"] for c in found} or None
    return found[0] if len(found) == 1 else {"type": "and", "filters": found}


def parse_filter(text: str | Mapping[str, Any] | None, *, field: str = "filter") -> str | None:
    """A retrieval filter (:func:`file_filter`) as the JSON string a filter part takes."""
    found = file_filter(text, field=field)
    return json.dumps(found) if found else None


def short(text: str, limit: int = 60) -> str:
    """``text`` on one line, cut to ``limit`` characters, quoted: for error messages."""
    flat = " ".join(str(text).split())
    return repr(flat if len(flat) <= limit else flat[: limit - 1] + "…")
