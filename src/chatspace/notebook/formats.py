"""``--format``: what a call asks the model for, and what it makes of the answer.

``markdown`` and ``text`` keep the answer as it is (``text`` shows it as plain text);
``json`` asks for one JSON value and parses the answer (the whole of it, a fenced block,
or the first object in its prose); ``code`` asks for one fenced code
block and takes its content, which ``%%chat`` proposes as the next cell.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["FENCE", "FORMATS", "FORMAT_HINTS", "value_of"]

FORMATS = ("markdown", "text", "json", "code")
FORMAT_HINTS = {
    "json": "Answer with one JSON value only: no prose and no code fence around it.",
    "code": "Answer with code only, in one fenced code block, with no explanation.",
}
FENCE = re.compile(r"^(`{3,}|~{3,})[^\n]*\n(.*?)^\1[ \t]*$", re.MULTILINE | re.DOTALL)


def value_of(text: str, fmt: str) -> tuple[Any, str | None]:
    """The value of an answer in ``fmt``, and why there is none: the parsed JSON
    (``json``), the code (``code``), else the text."""
    if fmt == "json":
        try:
            return _parse_json(text), None
        except ValueError as exc:
            return None, f"the answer is not JSON: {exc}"
    if fmt == "code":
        match = FENCE.search(text)
        return (match.group(2).rstrip("\n") if match else text.strip()), None
    return text, None


def _parse_json(text: str) -> Any:
    """The JSON value of an answer: the whole text, a fenced block, or the first {...}.

    Inside prose only an object counts: a citation marker such as ``[1]`` is valid JSON,
    and taking it for the answer's value would be wrong.
    """
    stripped = text.strip()
    candidates = [stripped]
    match = FENCE.search(text)
    if match:
        candidates.append(match.group(2))
    for candidate in candidates:
        try:
            return json.loads(candidate)
        except ValueError:
            continue
    decoder = json.JSONDecoder()
    start = stripped.find("{")
    while start != -1:
        try:
            return decoder.raw_decode(stripped[start:])[0]
        except ValueError:
            start = stripped.find("{", start + 1)
    raise ValueError("no JSON object found in it")
