"""Lists as pandas DataFrames, with stable columns (pandas is imported only here).

Columns, in order; timestamps are timezone-aware UTC, token counts and sizes integers,
and every metadata key becomes a ``metadata.<key>`` column (sorted by key):

- completions: ``id, created, model, finish_reason, prompt_tokens, completion_tokens,
  total_tokens, question, answer, sources, metadata.<key>...``. ``question`` is the text
  of the request's last user message: the completion's ``question`` field when the
  service sends one, else fetched from its messages (one request per completion);
  ``answer`` is the first choice's text; ``sources`` the number of passages it keeps as
  its sources (the completion's ``sources`` field; <NA> where the service does not say).
- messages: ``id, role, content``
- sources: ``rank, file_id, filename, quote, score, lexical, dense, sent, cited,
  deleted``, then one column per key of a location, as in search hits
- files: ``id, filename, bytes, created_at, expires_at, purpose, status, workspace_id,
  user_id, metadata.<key>...`` (``expires_at`` is NaT when the file never expires)
- workspaces: ``id, name, creator_user_id, org_id, created_at``
- users: ``user_id, access, created_at``
- models: ``id, owned_by, created``
- search hits: ``rank`` (from 1, best first), ``file_id, filename, quote, score`` (the
  relevance the cut uses), ``lexical, dense`` (its two halves; NaN where that half did not
  score the passage), ``cited``, one column per key of a location (``page, sheet, row,
  slide, cell, line``; empty where it does not apply to the file), ``text`` (the passage)

An empty list gives an empty frame with the same columns and types.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from chatspace.types import question_of
from chatspace.types.retrieval import Location

from ._call import Call

if TYPE_CHECKING:
    import pandas as pd

    from chatspace.types import ChatCompletionMessageList

__all__ = ["COLUMNS", "question_call", "question_in", "to_frame", "to_pandas"]

_TIME = "datetime64[ns, UTC]"
_INT = "int64"
_FLOAT = "float64"
_NUMBER = "Int64"  # an integer or nothing
_BOOL = "bool"
_LOCATION: dict[str, str | None] = {
    key: None if key == "sheet" else _NUMBER for key in Location.model_fields
}
"""One column per key of a location (search hits, sources)."""
_PASSAGE: dict[str, str | None] = {
    "rank": _INT,
    "file_id": None,
    "filename": None,
    "quote": None,
    "score": _FLOAT,
    "lexical": _FLOAT,
    "dense": _FLOAT,
}
"""The first columns of a passage found for a question (search hits, sources)."""

# column -> dtype (None: left to pandas, object or str)
COLUMNS: dict[str, dict[str, str | None]] = {
    "completions": {
        "id": None,
        "created": _TIME,
        "model": None,
        "finish_reason": None,
        "prompt_tokens": _INT,
        "completion_tokens": _INT,
        "total_tokens": _INT,
        "question": None,
        "answer": None,
        "sources": _NUMBER,
    },
    "messages": {"id": None, "role": None, "content": None},
    "sources": {
        **_PASSAGE,
        "sent": _BOOL,
        "cited": _BOOL,
        "deleted": _BOOL,
        **_LOCATION,
    },
    "files": {
        "id": None,
        "filename": None,
        "bytes": _INT,
        "created_at": _TIME,
        "expires_at": _TIME,
        "purpose": None,
        "status": None,
        "workspace_id": None,
        "user_id": None,
    },
    "workspaces": {
        "id": None,
        "name": None,
        "creator_user_id": None,
        "org_id": None,
        "created_at": _TIME,
    },
    "users": {"user_id": None, "access": None, "created_at": _TIME},
    "models": {"id": None, "owned_by": None, "created": _TIME},
    "hits": {
        **_PASSAGE,
        "cited": _BOOL,
        **_LOCATION,
        "text": None,
    },
}


def question_call(list_call: Call[Any], completion_id: str) -> Call[ChatCompletionMessageList]:
    """The request for the messages that hold a completion's question (newest first)."""
    from chatspace.types import ChatCompletionMessageList

    workspace = (list_call.params or {}).get("workspace", "default")
    return Call(
        "GET",
        f"/chat/completions/{quote(completion_id, safe='')}/messages",
        params={"workspace": workspace, "limit": 100, "order": "desc"},
        parse=ChatCompletionMessageList.model_validate_json,
    )


def question_in(page: ChatCompletionMessageList) -> str | None:
    """The question (:func:`chatspace.types.question_of`) of a newest-first message list."""
    return question_of(page.data[::-1])


def _completion_row(row: dict[str, Any], questions: Mapping[str, str | None]) -> dict[str, Any]:
    choices = row.get("choices") or ()
    choice = choices[0] if choices else {}
    usage = row["usage"]
    question = row.get("question")
    if question is None:
        question = questions.get(row["id"])
    return {
        "id": row["id"],
        "created": row["created"],
        "model": row["model"],
        "finish_reason": choice.get("finish_reason"),
        "prompt_tokens": usage["prompt_tokens"],
        "completion_tokens": usage["completion_tokens"],
        "total_tokens": usage["total_tokens"],
        "question": question,
        "answer": (choice.get("message") or {}).get("content") or "",
        "sources": row.get("sources"),
    }


def _scored(row: dict[str, Any]) -> dict[str, Any]:
    """A passage's two halves of relevance and each key of its location, flat."""
    scores, location = row.get("scores") or {}, row.get("location") or {}
    return {
        "lexical": scores.get("lexical"),
        "dense": scores.get("dense"),
        **{key: location.get(key) for key in Location.model_fields},
    }


def _hit_row(row: dict[str, Any], _: Mapping[str, str | None]) -> dict[str, Any]:
    return {
        **{name: row.get(name) for name in ("file_id", "filename", "quote", "score", "cited")},
        **_scored(row),
        "text": row.get("text"),
    }


def _source_row(row: dict[str, Any], _: Mapping[str, str | None]) -> dict[str, Any]:
    return {name: row.get(name) for name in COLUMNS["sources"]} | _scored(row)


def _fields(*names: str) -> Callable[[dict[str, Any], Mapping[str, str | None]], dict[str, Any]]:
    return lambda row, _: {name: row.get(name) for name in names}


_ROWS: dict[str, Callable[[dict[str, Any], Mapping[str, str | None]], dict[str, Any]]] = {
    "completions": _completion_row,
    "messages": _fields("id", "role", "content"),
    "sources": _source_row,
    "files": _fields(*COLUMNS["files"]),
    "workspaces": _fields(*COLUMNS["workspaces"]),
    "users": _fields(*COLUMNS["users"]),
    "models": _fields(*COLUMNS["models"]),
    "hits": _hit_row,
}
_HAS_METADATA = frozenset({"completions", "files"})


def _timestamps(values: Sequence[Any]) -> pd.Series:
    """Unix seconds or ISO 8601 strings, as timezone-aware UTC timestamps."""
    import pandas as pd

    if any(isinstance(v, str) for v in values):
        return pd.Series(pd.to_datetime(list(values), utc=True, format="ISO8601")).astype(_TIME)
    numbers = pd.Series(list(values), dtype="float64")
    return pd.Series(pd.to_datetime(numbers, unit="s", utc=True)).astype(_TIME)


def to_frame(
    kind: str,
    rows: Sequence[dict[str, Any]],
    questions: Mapping[str, str | None] | None = None,
) -> pd.DataFrame:
    """A DataFrame of ``rows`` (items as plain JSON) with the columns of ``kind``.

    ``questions`` gives completions without a ``question`` field theirs, by id.
    """
    import pandas as pd

    schema = COLUMNS[kind]
    make_row = _ROWS[kind]
    flat = [make_row(row, questions or {}) for row in rows]
    if "rank" in schema:  # the order is the answer's: best first
        for rank, row in enumerate(flat, 1):
            row["rank"] = rank
    columns: dict[str, Any] = {name: [r[name] for r in flat] for name in schema}
    for name, dtype in schema.items():
        if dtype == _TIME:
            columns[name] = _timestamps(columns[name])
        elif dtype is not None:
            columns[name] = pd.Series(columns[name], dtype=dtype)
        else:
            columns[name] = pd.Series(columns[name], dtype=_text_dtype(pd))
    if kind in _HAS_METADATA:
        metadata = [row.get("metadata") or {} for row in rows]
        for key in sorted({k for m in metadata for k in m}):
            columns[f"metadata.{key}"] = pd.Series([m.get(key) for m in metadata], dtype=object)
    return pd.DataFrame(columns)


_KINDS = {
    "ChatCompletion": "completions",
    "ChatCompletionMessageObject": "messages",
    "Source": "sources",
    "File": "files",
    "Workspace": "workspaces",
    "WorkspaceUser": "users",
    "Model": "models",
    "SearchHit": "hits",
}


def to_pandas(items: Sequence[Any]) -> pd.DataFrame:
    """Wire models already in hand (the files an upload returned, say) as the same
    DataFrame their list's ``to_pandas()`` gives.

    >>> to_pandas(client.files.upload(["a.csv", "b.csv"]))
    """
    kinds = {_KINDS.get(type(item).__name__) for item in items}
    if len(kinds) != 1 or None in kinds:
        names = sorted({type(item).__name__ for item in items}) or ["nothing"]
        raise TypeError(f"to_pandas takes items of one wire model; got {', '.join(names)}")
    (kind,) = kinds
    assert kind is not None
    return to_frame(kind, [item.model_dump(mode="json") for item in items])


def _text_dtype(pd: Any) -> Any:
    """The text dtype pandas uses by default (``str`` from pandas 3 on, else object)."""
    return pd.Series(["x"]).dtype
