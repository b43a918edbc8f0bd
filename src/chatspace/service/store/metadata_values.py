"""Each file's metadata read once as typed values, the index metadata filters use
(:mod:`.filters`; docs/decisions.md, "How are metadata filters indexed?").

A row of ``metadata_values`` per key of a file holds what that key's value reads as,
each reading NULL unless the value is of that kind:

- ``number``: a JSON number, or a string that reads as one (``-?[0-9]+(.[0-9]+)?``:
  ``"2024"`` is 2024, ``"2024a"`` and ``"1e3"`` are not);
- ``instant``: a string in ISO 8601 date form (``YYYY-MM-DD``, optionally
  ``THH:MM[:SS[.f]]`` and ``Z`` or ``+HH:MM``; no offset means UTC) as a comparable instant
  (``"2024-01-01"`` is ``"2024-01-01T00:00:00Z"``);
- ``text``: a string, compared in code-point order;
- ``flag``: a boolean, as ``'true'`` or ``'false'`` (``true`` is not ``1``).

An array, an object or null reads as nothing; a file whose metadata holds NUL
(``\\u0000``) in any string has no rows at all (PostgreSQL's text cannot hold it).

The database computes the readings from the stored JSON (``json_each``), in the
transaction that writes the metadata, so that a value reads the same in every filter and
after every write: :func:`index_metadata` is called by every write of ``files.metadata``
and by the migration that filled the table for the files stored before it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import sqlalchemy as sa

from .dialects import is_postgres
from .schema import files
from .schema import metadata_values as values

__all__ = ["ISO_DATE_PATTERN", "index_metadata", "instant"]

_NUMBER_TEXT = r"^-?[0-9]+(\.[0-9]+)?$"
_OFFSET = r"(Z|[+-][0-9]{2}:[0-9]{2})$"
ISO_DATE_PATTERN = (
    r"^[0-9]{4}-[0-9]{2}-[0-9]{2}"
    r"([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]{1,9})?)?(Z|[+-][0-9]{2}:[0-9]{2})?)?$"
)
"""What a date looks like: PostgreSQL's test of stored strings, and :mod:`.filters`' of a
filter's value."""


def instant(text: sa.ColumnElement[Any], *, postgres: bool) -> sa.ColumnElement[Any]:
    """A date string as a comparable instant (UTC where it names no offset)."""
    if not postgres:
        return sa.func.julianday(text)
    with_offset = sa.cast(text, sa.DateTime(timezone=True))
    in_utc = sa.func.timezone("UTC", sa.cast(text, sa.DateTime(timezone=False)))
    return sa.case((text.regexp_match(_OFFSET), with_offset), else_=in_utc)


@dataclass(frozen=True)
class _Member:
    """One key of a file's metadata, as the engine reads it: each reading is NULL unless
    the value is of that kind."""

    postgres: bool
    kind: sa.ColumnElement[Any]
    """SQLite: ``json_each``'s type; PostgreSQL: ``json_typeof`` of the value."""
    raw: sa.ColumnElement[Any]
    """SQLite: the value (text for strings, a number for numbers); PostgreSQL: its text."""

    def number(self) -> sa.ColumnElement[Any]:
        if self.postgres:
            readable = sa.or_(
                self.kind == "number",
                sa.and_(self.kind == "string", self.raw.regexp_match(_NUMBER_TEXT)),
            )
            return sa.case((readable, sa.cast(self.raw, sa.Numeric)))
        digits = sa.case((self.raw.startswith("-"), sa.func.substr(self.raw, 2)), else_=self.raw)
        reads = sa.and_(
            self.kind == "text",
            digits.op("GLOB")("[0-9]*"),
            sa.not_(digits.op("GLOB")("*[^0-9.]*")),
            sa.not_(digits.op("GLOB")("*.*.*")),
            sa.not_(digits.op("GLOB")("*.")),
        )
        return sa.case(
            (self.kind.in_(["integer", "real"]), self.raw), (reads, sa.cast(self.raw, sa.Float))
        )

    def instant(self) -> sa.ColumnElement[Any]:
        if self.postgres:
            valid = sa.and_(
                self.kind == "string",
                self.raw.regexp_match(ISO_DATE_PATTERN),
                sa.func.pg_input_is_valid(self.raw, "timestamptz"),
            )
            return sa.case((valid, instant(self.raw, postgres=True)))
        dated = sa.and_(
            self.kind == "text", self.raw.op("GLOB")("[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*")
        )
        return sa.case((dated, instant(self.raw, postgres=False)))

    def text(self) -> sa.ColumnElement[Any]:
        return sa.case((self.kind == ("string" if self.postgres else "text"), self.raw))

    def flag(self) -> sa.ColumnElement[Any]:
        if self.postgres:
            return sa.case((self.kind == "boolean", self.raw))
        return sa.case((self.kind == "true", "true"), (self.kind == "false", "false"))


@cache
def _statements(postgres: bool) -> tuple[sa.Insert, sa.Insert, sa.Delete]:
    """Filling the table for every file, for the files bound to ``ids``, and emptying it
    for them (built once: the readings are long expressions)."""
    kind: sa.ColumnElement[Any]
    raw: sa.ColumnElement[Any]
    if postgres:
        each = sa.func.json_each(files.c.metadata).table_valued("key", "value")
        kind = sa.func.json_typeof(each.c.value)
        raw = files.c.metadata.op("->>", return_type=sa.Text)(each.c.key)
        clean = sa.func.strpos(sa.cast(files.c.metadata, sa.Text), "\\u0000") == 0
    else:
        each = sa.func.json_each(files.c.metadata).table_valued("key", "value", "type")
        kind, raw = each.c.type, each.c.value
        clean = sa.func.instr(files.c.metadata, "\\u0000") == 0
    member = _Member(postgres, kind, raw)
    readings = (
        sa.select(
            files.c.id,
            files.c.org_id,
            files.c.workspace_id,
            each.c.key,
            member.number(),
            member.instant(),
            member.text(),
            member.flag(),
        )
        .select_from(files.join(each, sa.true()))
        .where(clean)
    )
    columns = ["file_id", "org_id", "workspace_id", "key", "number", "instant", "text", "flag"]
    ids: sa.BindParameter[list[str]] = sa.bindparam("ids", expanding=True)
    return (
        values.insert().from_select(columns, readings),
        values.insert().from_select(columns, readings.where(files.c.id.in_(ids))),
        values.delete().where(values.c.file_id.in_(ids)),
    )


def index_metadata(conn: sa.Connection, file_ids: Sequence[str] | None = None) -> None:
    """Read again the metadata of ``file_ids`` (every file when None) into
    ``metadata_values``, in the caller's transaction."""
    every, some, forget = _statements(is_postgres(conn))
    if file_ids is None:
        conn.execute(values.delete())
        conn.execute(every)
    else:
        conn.execute(forget, {"ids": list(file_ids)})
        conn.execute(some, {"ids": list(file_ids)})
