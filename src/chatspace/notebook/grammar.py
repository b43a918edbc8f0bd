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
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["InputError", "parse_filter", "parse_mapping", "parse_pairs", "short"]

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


def parse_filter(text: str | Mapping[str, Any] | None, *, field: str = "filter") -> str | None:
    """A retrieval filter as the JSON object string the service wants; None for none."""
    pairs = parse_mapping(text, field=field)
    return json.dumps(pairs) if pairs else None


def short(text: str, limit: int = 60) -> str:
    """``text`` on one line, cut to ``limit`` characters, quoted: for error messages."""
    flat = " ".join(str(text).split())
    return repr(flat if len(flat) <= limit else flat[: limit - 1] + "…")
