"""File metadata derived without a generative model: what ``instructions`` get from ``service-l0``.

The extractor computes, from the file's extracted text, the keys below; instructions that
name some of them (by the key or a word in :data:`ASKS`, e.g. "title and language") keep
only those, other instructions keep all. The result is the same for the same file and
instructions.

========================  =====================================================
``title``                 first Markdown heading, else first non-empty line (<= 120
                          characters); for CSV and JSON the file name without suffix
``content_type``          the file's content type
``characters``            characters of the text
``words``                 words (runs of word characters)
``lines``                 lines
``language``              natural language (ISO 639-1: en, de, fr, es, it, nl, pt), by
                          counting common words; left out when unsure
``programming_language``  for source code, from the file name's suffix
``rows``, ``columns``,    for CSV/TSV: data rows (header excluded), columns, header names
``column_names``
``json_type``, ``keys``,  for JSON: ``object`` or ``array``, the top-level keys (at most
``items``                 50) or the number of items
========================  =====================================================
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import PurePath
from typing import Any

__all__ = ["ASKS", "derive_locally"]

_WORD = re.compile(r"\w+")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)
_CODE = {
    ".py": "python", ".js": "javascript", ".mjs": "javascript", ".ts": "typescript",
    ".tsx": "typescript", ".jsx": "javascript", ".java": "java", ".c": "c", ".h": "c",
    ".cpp": "c++", ".cc": "c++", ".hpp": "c++", ".cs": "c#", ".go": "go", ".rs": "rust",
    ".rb": "ruby", ".php": "php", ".swift": "swift", ".kt": "kotlin", ".scala": "scala",
    ".r": "r", ".jl": "julia", ".sh": "shell", ".bash": "shell", ".sql": "sql",
    ".lua": "lua", ".pl": "perl", ".hs": "haskell", ".ipynb": "python",
}  # fmt: skip
_COMMON_WORDS = {
    "en": "the and of to in is that it for was with as on are this be by not",
    "de": "der die und das ist nicht ein eine zu den mit von sich auf dem des im",
    "fr": "le la les et des est une un du pas que pour dans qui en sur au",
    "es": "el la de que y los las en es por un una con para del se no",
    "it": "il di che la e un una per non sono della con del nel gli le",
    "nl": "de het een van en is dat niet op te met zijn voor er aan",
    "pt": "o a de que e os as do da em um uma para com não no",
}
_LANGS = {lang: frozenset(words.split()) for lang, words in _COMMON_WORDS.items()}
ASKS: dict[str, tuple[str, ...]] = {
    "title": ("title", "heading"),
    "content_type": ("content type", "content_type", "mime", "type"),
    "characters": ("character", "length", "size"),
    "words": ("word",),
    "lines": ("line",),
    "language": ("language", "lang"),
    "programming_language": ("programming", "code"),
    "rows": ("row",),
    "columns": ("column",),
    "column_names": ("column", "header"),
    "json_type": ("json", "structure"),
    "keys": ("key",),
    "items": ("item",),
}


def detect_language(words: list[str]) -> str | None:
    """The language whose common words are most frequent, when clearly so."""
    lowered = [w.lower() for w in words[:20000]]
    scores = {lang: sum(w in common for w in lowered) for lang, common in _LANGS.items()}
    best = max(scores, key=lambda lang: (scores[lang], lang == "en"))
    ranked = sorted(scores.values(), reverse=True)
    if ranked[0] < 3 or ranked[0] < 0.1 * len(lowered) or ranked[0] < 1.3 * ranked[1]:
        return None
    return best


def _csv_facts(text: str, delimiter: str) -> dict[str, Any]:
    rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    rows = [r for r in rows if any(cell.strip() for cell in r)]
    if not rows:
        return {"rows": 0, "columns": 0}
    header = rows[0]
    data = [r for r in rows[1:] if r != header]  # the extracted text repeats the header
    return {"rows": len(data), "columns": len(header), "column_names": header[:100]}


def _json_facts(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    if isinstance(value, dict):
        return {"json_type": "object", "keys": [str(k) for k in list(value)[:50]]}
    if isinstance(value, list):
        return {"json_type": "array", "items": len(value)}
    return {"json_type": type(value).__name__}


def _facts(text: str, filename: str, content_type: str) -> dict[str, Any]:
    suffix = PurePath(filename).suffix.lower()
    words = _WORD.findall(text)
    facts: dict[str, Any] = {}
    heading = _HEADING.search(text)
    first_line = next((line.strip() for line in text.splitlines() if line.strip()), "")
    if suffix in {".csv", ".tsv", ".json"}:
        facts["title"] = PurePath(filename).stem
    else:
        facts["title"] = (heading.group(1) if heading else first_line)[:120]
    facts["content_type"] = content_type
    facts["characters"] = len(text)
    facts["words"] = len(words)
    facts["lines"] = text.count("\n") + (0 if text.endswith("\n") else 1)
    if suffix in _CODE:
        facts["programming_language"] = _CODE[suffix]
    elif (language := detect_language(words)) is not None:
        facts["language"] = language
    if suffix in {".csv", ".tsv"} or content_type.startswith("text/csv"):
        facts.update(_csv_facts(text, "\t" if suffix == ".tsv" else ","))
    elif suffix == ".json" or content_type.startswith("application/json"):
        facts.update(_json_facts(text))
    return facts


def derive_locally(
    *, text: str | None, filename: str, content_type: str, instructions: str
) -> tuple[dict[str, Any], str]:
    """The metadata the instructions ask for, and the sentence for ``status_details``."""
    if text is None:
        return (
            {"content_type": content_type},
            "service-l0 found no text in the file; it derived content_type only.",
        )
    facts = _facts(text, filename, content_type)
    asked = instructions.lower()
    wanted = [
        key
        for key in facts
        if any(re.search(r"\b" + re.escape(word), asked) for word in (key, *ASKS.get(key, ())))
    ]
    chosen = {key: facts[key] for key in (wanted or facts)}
    return chosen, (
        f"service-l0 derived {', '.join(chosen)} with its local extractor "
        "(no generative model is configured for instructions)."
    )
