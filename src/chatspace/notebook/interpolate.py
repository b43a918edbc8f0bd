"""Safe ``{name}`` interpolation of a prompt from the notebook's namespace.

Only ``{name}``, ``{name[i]}``, ``{name[key]}`` (as in ``str.format``), ``{name['key']}``
and ``{name.attr}`` (and chains of them)
are placeholders, and only when ``name`` exists in the namespace; every other brace
(code, JSON, LaTeX, dict literals, ``{unknown}``) stays exactly as typed. A placeholder
written with doubled braces, ``{{name}}``, is left alone too. The text is scanned once,
so a substituted value is never parsed again. Unlike ``str.format`` nothing here can
raise on a brace, call a method or reach a private attribute:

    >>> interpolate("Total {n} items; keep {x: 1} and {missing}", {"n": 3}).text
    'Total 3 items; keep {x: 1} and {missing}'
"""

from __future__ import annotations

import re
import reprlib
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from chatspace._pandas import is_dataframe, is_series

__all__ = ["Indexed", "Interpolated", "interpolate", "render_value"]

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_STEP = rf"\.{_NAME}|\[(?:'[^'\\\n]*'|\"[^\"\\\n]*\"|[^\[\]{{}}'\"\s]+)\]"
_PLACEHOLDER = re.compile(rf"\{{({_NAME})((?:{_STEP})*)\}}")
_STEPS = re.compile(_STEP)

MAX_VALUE_CHARS = 20_000
"""A substituted value longer than this is cut (with a note saying how much was left out)."""
FRAME_ROWS = 10
FRAME_COLUMNS = 30

_CONTAINERS = reprlib.Repr()  # keyword arguments need Python 3.12
for _limit in ("maxtuple", "maxlist", "maxarray", "maxset", "maxfrozenset", "maxdeque"):
    setattr(_CONTAINERS, _limit, 200)
_CONTAINERS.maxdict, _CONTAINERS.maxstring, _CONTAINERS.maxother = 100, 2_000, 400
_CONTAINERS.maxlong = 400


@dataclass
class Interpolated:
    """A prompt after interpolation: the text, and the names used (for provenance)."""

    text: str
    names: list[str] = field(default_factory=list)


class Indexed(ABC):
    """A name that stands for many values (``In``: every cell): it is replaced only
    through an index, ``{In[3]}``; a bare ``{In}`` stays as typed."""

    @abstractmethod
    def __getitem__(self, key: Any) -> Any:
        """The value at ``key``; a missing one raises (the placeholder then stays as typed)."""


class _Unresolved(Exception):
    """A placeholder whose path cannot be followed: it stays as typed."""


def interpolate(
    template: str, namespace: Mapping[str, Any], *, max_chars: int = MAX_VALUE_CHARS
) -> Interpolated:
    """Replace the placeholders of ``template`` whose name exists in ``namespace``."""
    used: list[str] = []

    def substitute(match: re.Match[str]) -> str:
        name, path = match.group(1), match.group(2)
        start, end = match.span()
        doubled = template[start - 1 : start] == "{" and template[end : end + 1] == "}"
        if doubled or name not in namespace:
            return match.group(0)
        try:
            value = _follow(namespace[name], path)
        except _Unresolved:
            return match.group(0)
        if isinstance(value, Indexed):
            return match.group(0)
        if name not in used:
            used.append(name)
        return render_value(value, max_chars=max_chars)

    return Interpolated(_PLACEHOLDER.sub(substitute, template), used)


def _follow(value: Any, path: str) -> Any:
    """Walk ``.attr`` and ``[i]`` steps; private attributes are never read."""
    for step in _STEPS.findall(path):
        try:
            if step.startswith("."):
                attr = step[1:]
                if attr.startswith("_"):
                    raise _Unresolved(step)
                value = getattr(value, attr)
            else:
                key = step[1:-1]  # as str.format: digits index, other words are keys
                index: Any = key[1:-1] if key[0] in "'\"" else _index(key)
                value = value[index]
        except _Unresolved:
            raise
        except Exception as exc:  # any lookup failure leaves the placeholder as typed
            raise _Unresolved(step) from exc
    return value


def _index(key: str) -> int | str:
    try:
        return int(key)
    except ValueError:
        return key


def render_value(value: Any, *, max_chars: int = MAX_VALUE_CHARS) -> str:
    """A value as prompt text: DataFrames compactly (schema and head), the rest as ``str``."""
    if is_dataframe(value):
        text = _render_frame(value)
    elif is_series(value):
        text = _render_frame(value.to_frame())
    elif isinstance(value, list | tuple | set | frozenset | dict):
        text = _CONTAINERS.repr(value)  # never builds the whole text of a huge container
    else:
        try:
            text = str(value)
        except Exception as exc:  # a broken __str__ must not break the prompt
            text = f"<{type(value).__name__}: str() failed: {type(exc).__name__}>"
    if len(text) > max_chars:
        text = text[:max_chars] + f"… [{len(text) - max_chars} more characters left out]"
    return text


def _render_frame(frame: Any) -> str:
    """Shape, columns with their dtypes, and the first rows as CSV, with caps on all three."""
    rows, cols = frame.shape
    shown = frame.iloc[:FRAME_ROWS, :FRAME_COLUMNS]
    schema = ", ".join(f"{c} ({t})" for c, t in zip(shown.columns, shown.dtypes, strict=True))
    more_cols = f", … {cols - FRAME_COLUMNS} more columns" if cols > FRAME_COLUMNS else ""
    keep_index = type(frame.index).__name__ != "RangeIndex"  # a default index says nothing
    head = shown.to_csv(index=keep_index, lineterminator="\n").rstrip("\n")
    more_rows = f"\n… {rows - FRAME_ROWS} more rows" if rows > FRAME_ROWS else ""
    return (
        f"DataFrame with {rows} rows and {cols} columns: {schema}{more_cols}\n"
        f"```csv\n{head}\n```{more_rows}"
    )
