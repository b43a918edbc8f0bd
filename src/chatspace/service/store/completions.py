"""Stored chat completions, their messages and sources (docs/interface.md#stored-completions).

A completion is kept whole as JSON (``body``) next to the columns its lists filter and
sort on; its messages are the request's messages in order, then the assistant message of
choice 0, with ids ``<completion_id>-<i>``, each with its tool calls (``tool_calls``, the
legacy ``function_call``) or the call it answers (``tool_call_id``). Lists page by
``(created, id)`` so that ties in ``created`` still page stably; an unknown ``after`` is a
404.

Its sources (the passages retrieved for it) are a JSON array in its row, written with it:
no row or index more per completion, so that storing stays as fast. Deleting a file
rewrites the arrays that hold it (:func:`forget_files`), found among the completions of
its workspace made since its upload.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import sqlalchemy as sa

from chatspace.service.problems import NotFound, quoted
from chatspace.types import (
    ChatCompletion,
    ChatCompletionDeleted,
    ChatCompletionList,
    ChatCompletionMessageList,
    ChatCompletionMessageObject,
    ChatMessage,
    Source,
    SourceList,
)

from .completion_search import index_completion, matching
from .dialects import is_postgres
from .schema import completion_messages as messages_t
from .schema import completions as completions_t
from .schema import files as files_t

__all__ = [
    "delete_completion",
    "forget_files",
    "get_completion",
    "get_sources",
    "insert_completion",
    "list_completions",
    "list_messages",
    "update_metadata",
]

Order = Literal["asc", "desc"]
CLOCK_SKEW = 3600
"""Seconds by which a completion that retrieved a file may say it was made before the
file's upload (replicas' clocks differ): how far back of the upload a deletion looks."""


def _scope(org_id: str, workspace_id: str) -> list[sa.ColumnElement[bool]]:
    return [completions_t.c.org_id == org_id, completions_t.c.workspace_id == workspace_id]


def _missing(completion_id: str) -> NotFound:
    return NotFound(f"Chat completion {quoted(completion_id)} not found.")


_CALL_FIELDS = {"tool_calls", "function_call"}


def _message_rows(
    completion: ChatCompletion, messages: Sequence[ChatMessage]
) -> list[dict[str, Any]]:
    rows = []
    for i, m in enumerate(messages):
        parts = None
        if isinstance(m.content, list):
            parts = [p.model_dump(mode="json", exclude_none=True) for p in m.content]
        content = None if m.content is None else m.text()
        rows.append(
            {"idx": i, "role": m.role, "content": content, "name": m.name, "content_parts": parts}
            | {"tool_call_id": m.tool_call_id}
            | m.model_dump(mode="json", include=_CALL_FIELDS)
        )
    if completion.choices:
        answer = completion.choices[0].message
        rows.append(
            {
                "idx": len(messages),
                "role": answer.role,
                "content": answer.content,
                "name": None,
                "content_parts": None,
                "tool_call_id": None,
            }
            | answer.model_dump(mode="json", include=_CALL_FIELDS)
        )
    for row in rows:
        row["completion_id"] = completion.id
    return rows


def insert_completion(
    conn: sa.Connection,
    *,
    org_id: str,
    workspace_id: str,
    user_id: str,
    completion: ChatCompletion,
    messages: Sequence[ChatMessage],
    sources: Sequence[Source] = (),
) -> None:
    """Store ``completion`` (as answered), the messages that asked for it and the
    passages retrieved for it (its ``sources``)."""
    conn.execute(
        completions_t.insert().values(
            id=completion.id,
            org_id=org_id,
            workspace_id=workspace_id,
            user_id=user_id,
            model=completion.model,
            created=completion.created,
            metadata=completion.metadata or {},
            body=completion.model_dump_json(),
            sources=[s.model_dump(mode="json") for s in sources],
        )
    )
    conn.execute(messages_t.insert(), _message_rows(completion, messages))
    index_completion(conn, completion=completion, messages=messages)


def get_completion(
    conn: sa.Connection, *, org_id: str, workspace_id: str, completion_id: str
) -> ChatCompletion:
    body = conn.scalar(
        sa.select(completions_t.c.body).where(
            *_scope(org_id, workspace_id), completions_t.c.id == completion_id
        )
    )
    if body is None:
        raise _missing(completion_id)
    return ChatCompletion.model_validate_json(body)


def _after(
    column_created: sa.ColumnElement[Any],
    column_id: sa.ColumnElement[Any],
    created: Any,
    id_: Any,
    order: Order,
) -> sa.ColumnElement[bool]:
    """Rows strictly after ``(created, id)`` in ``order``."""
    if order == "asc":
        return sa.or_(column_created > created, sa.and_(column_created == created, column_id > id_))
    return sa.or_(column_created < created, sa.and_(column_created == created, column_id < id_))


def _holds(conn: sa.Connection, column: sa.ColumnElement[Any], text: str) -> sa.ColumnElement[bool]:
    """Whether the JSON text of ``column`` holds ``text``."""
    stored = sa.cast(column, sa.Text)
    found = sa.func.strpos(stored, text) if is_postgres(conn) else sa.func.instr(stored, text)
    return found > 0


def _metadata_is(conn: sa.Connection, key: str, value: str) -> sa.ColumnElement[bool]:
    """Whether a completion's metadata maps ``key`` to the string ``value``.

    The stored JSON text is searched for the pair as the store wrote it (``json.dumps``:
    ``"key": "value"``, escaped; a quote inside a string is always escaped, so the pair
    cannot be found inside another string). The engines' JSON functions cannot be used:
    PostgreSQL's refuse a document holding ``\u0000`` (one such completion would break
    the filter for its workspace), SQLite's cut a key or value at a NUL."""
    return _holds(conn, completions_t.c.metadata, f"{json.dumps(key)}: {json.dumps(value)}")


def list_completions(
    conn: sa.Connection,
    *,
    org_id: str,
    workspace_id: str,
    limit: int,
    order: Order = "asc",
    after: str | None = None,
    model: str | None = None,
    metadata: Mapping[str, str] | None = None,
    search: str | None = None,
) -> ChatCompletionList:
    """A page of the workspace's completions, filtered by model, metadata and the words
    of ``search`` (each in the question or answer; see :mod:`.completion_search`)."""
    c = completions_t.c
    query = sa.select(c.id, c.body).where(*_scope(org_id, workspace_id))
    if model is not None:
        query = query.where(c.model == model)
    if search is not None:
        query = query.where(matching(conn, search))
    for key, value in (metadata or {}).items():
        query = query.where(_metadata_is(conn, key, value))
    if after is not None:
        cursor = conn.execute(
            sa.select(c.created, c.id).where(*_scope(org_id, workspace_id), c.id == after)
        ).first()
        if cursor is None:
            raise _missing(after)
        query = query.where(_after(c.created, c.id, cursor.created, cursor.id, order))
    direction = sa.asc if order == "asc" else sa.desc
    query = query.order_by(direction(c.created), direction(c.id)).limit(limit + 1)
    rows = conn.execute(query).all()
    page = [ChatCompletion.model_validate_json(body) for _, body in rows[:limit]]
    return ChatCompletionList(
        data=page,
        first_id=page[0].id if page else None,
        last_id=page[-1].id if page else None,
        has_more=len(rows) > limit,
    )


def update_metadata(
    conn: sa.Connection,
    *,
    org_id: str,
    workspace_id: str,
    completion_id: str,
    metadata: Mapping[str, str],
) -> ChatCompletion:
    """Replace the completion's metadata; return the completion as now stored."""
    completion = get_completion(
        conn, org_id=org_id, workspace_id=workspace_id, completion_id=completion_id
    )
    completion.metadata = dict(metadata)
    conn.execute(
        completions_t.update()
        .where(*_scope(org_id, workspace_id), completions_t.c.id == completion_id)
        .values(metadata=dict(metadata), body=completion.model_dump_json())
    )
    return completion


def delete_completion(
    conn: sa.Connection, *, org_id: str, workspace_id: str, completion_id: str
) -> ChatCompletionDeleted:
    """Delete the completion (its sources with it) and its messages."""
    found = conn.scalar(
        sa.select(completions_t.c.id).where(
            *_scope(org_id, workspace_id), completions_t.c.id == completion_id
        )
    )
    if found is None:
        raise _missing(completion_id)
    conn.execute(messages_t.delete().where(messages_t.c.completion_id == completion_id))
    conn.execute(completions_t.delete().where(completions_t.c.id == completion_id))
    return ChatCompletionDeleted(id=completion_id)


def get_sources(
    conn: sa.Connection, *, org_id: str, workspace_id: str, completion_id: str
) -> SourceList:
    """The sources of a stored completion, by rank (none for one stored before sources
    were kept)."""
    row = conn.execute(
        sa.select(completions_t.c.sources).where(
            *_scope(org_id, workspace_id), completions_t.c.id == completion_id
        )
    ).first()
    if row is None:
        raise _missing(completion_id)
    return SourceList(data=[Source.model_validate(s) for s in _json(row.sources) or []])


_FORGOTTEN = {"filename": None, "quote": None, "location": None, "deleted": True}


def forget_files(conn: sa.Connection, file_ids: Sequence[str]) -> None:
    """Keep nothing of these files (about to be deleted) in the sources that hold them:
    their entries keep the file id, rank, scores and flags, and say ``deleted``."""
    if not file_ids:
        return
    gone = set(file_ids)
    f, c = files_t.c, completions_t.c
    uploaded = sa.select(f.org_id, f.workspace_id, sa.func.min(f.created_at)).where(
        f.id.in_(file_ids)
    )
    for org_id, workspace_id, since in conn.execute(uploaded.group_by(f.org_id, f.workspace_id)):
        holding = sa.or_(*(_holds(conn, c.sources, json.dumps(i)) for i in file_ids))
        found = conn.execute(
            sa.select(c.id, c.sources).where(
                *_scope(org_id, workspace_id), c.created >= since - CLOCK_SKEW, holding
            )
        )
        for completion_id, stored in found.all():
            sources = [s | _FORGOTTEN if s["file_id"] in gone else s for s in _json(stored) or []]
            conn.execute(
                completions_t.update().where(c.id == completion_id).values(sources=sources)
            )


def list_messages(
    conn: sa.Connection,
    *,
    org_id: str,
    workspace_id: str,
    completion_id: str,
    limit: int,
    order: Order = "asc",
    after: str | None = None,
) -> ChatCompletionMessageList:
    """A page of a stored completion's messages, by their position."""
    get_completion(conn, org_id=org_id, workspace_id=workspace_id, completion_id=completion_id)
    m = messages_t.c
    query = sa.select(
        m.idx,
        m.role,
        m.content,
        m.name,
        m.content_parts,
        m.tool_calls,
        m.tool_call_id,
        m.function_call,
    ).where(m.completion_id == completion_id)
    if after is not None:
        prefix, _, number = after.rpartition("-")
        # ASCII and short: int() refuses 4301 digits, and isdigit() alone takes "²"
        digits = number.isascii() and number.isdigit() and len(number) <= 9
        idx = int(number) if prefix == completion_id and digits else None
        known = sa.select(m.idx).where(m.completion_id == completion_id, m.idx == idx)
        if idx is None or conn.scalar(known) is None:
            raise NotFound(f"Message {quoted(after)} not found in this chat completion.")
        query = query.where(m.idx > idx if order == "asc" else m.idx < idx)
    query = query.order_by(m.idx if order == "asc" else m.idx.desc()).limit(limit + 1)
    rows = conn.execute(query).all()
    page = [
        ChatCompletionMessageObject(
            id=f"{completion_id}-{row.idx}",
            role=row.role,
            content=row.content,
            name=row.name,
            content_parts=_json(row.content_parts),
            tool_calls=_json(row.tool_calls),
            tool_call_id=row.tool_call_id,
            function_call=_json(row.function_call),
        )
        for row in rows[:limit]
    ]
    return ChatCompletionMessageList(
        data=page,
        first_id=page[0].id if page else None,
        last_id=page[-1].id if page else None,
        has_more=len(rows) > limit,
    )


def _json(value: Any) -> Any:
    """A JSON column as read back (some drivers hand JSON columns back as text)."""
    return json.loads(value) if isinstance(value, str) else value
