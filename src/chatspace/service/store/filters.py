"""Metadata filters as SQL over the files' JSON metadata, on SQLite and PostgreSQL
(docs/interface.md#metadata-filters).

:func:`metadata_where` turns a filter (:mod:`chatspace.types.filters`, checked there) into
one boolean expression over ``files.metadata``, so that the database evaluates it: the
file list, a filter part's scope and a search all add it to their ``WHERE``.

How a file's value is compared follows the filter's value:

- a **number** compares with a number, or with a string that reads as one
  (``-?[0-9]+(.[0-9]+)?``: ``"2024"`` is 2024, ``"2024a"`` and ``"1e3"`` are not);
- a string in **ISO 8601 date form** (``YYYY-MM-DD``, optionally ``THH:MM[:SS[.f]]`` and
  ``Z`` or ``+HH:MM``; no offset means UTC) compares with strings in that form as
  instants (``"2024-01-01"`` equals ``"2024-01-01T00:00:00Z"``);
- any **other string** compares with strings, in code-point order;
- a **boolean** equals a boolean only (``true`` is not ``1``).

A file whose key is missing, or whose value is of another kind (an array, an object,
null, a string that is no number for a number), fails every comparison but ``ne`` and
``nin``, which are the negations of ``eq`` and ``in``; so does every key of a file whose
metadata holds NUL (``\\u0000``) in any string.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from chatspace.types.filters import ComparisonFilter, CompoundFilter, MetadataFilter

from .dialects import is_postgres
from .schema import files as table

__all__ = ["ISO_DATE", "metadata_where"]

ISO_DATE = re.compile(
    r"^[0-9]{4}-[0-9]{2}-[0-9]{2}"
    r"([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]{1,9})?)?(Z|[+-][0-9]{2}:[0-9]{2})?)?$"
)
"""What a date looks like; the same expression is PostgreSQL's test of stored strings."""
_NUMBER_TEXT = r"^-?[0-9]+(\.[0-9]+)?$"
_OFFSET = r"(Z|[+-][0-9]{2}:[0-9]{2})$"
_INT64 = 2**63 - 1

Value = str | int | float | bool


def _is_date(value: str) -> bool:
    if not ISO_DATE.match(value):
        return False
    try:
        datetime.fromisoformat(value)
    except ValueError:  # 2024-02-30
        return False
    return True


@dataclass(frozen=True)
class _Member:
    """One key of a file's metadata, as the engine reads it: each accessor is NULL
    unless the value is of that kind."""

    postgres: bool
    kind: sa.ColumnElement[Any]
    raw: sa.ColumnElement[Any]
    """SQLite: the value (text for strings, a number for numbers); PostgreSQL: its text."""

    def _when(self, *kinds: str) -> sa.ColumnElement[bool]:
        return self.kind.in_(kinds)

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
            (self._when("integer", "real"), self.raw), (reads, sa.cast(self.raw, sa.Float))
        )

    def date(self) -> sa.ColumnElement[Any]:
        if self.postgres:
            valid = sa.and_(
                self.kind == "string",
                self.raw.regexp_match(ISO_DATE.pattern),
                sa.func.pg_input_is_valid(self.raw, "timestamptz"),
            )
            return sa.case((valid, _instant(self.raw, postgres=True)))
        dated = sa.and_(
            self.kind == "text", self.raw.op("GLOB")("[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*")
        )
        return sa.case((dated, _instant(self.raw, postgres=False)))

    def string(self) -> sa.ColumnElement[Any]:
        if self.postgres:
            return sa.case((self.kind == "string", self.raw)).collate("C")
        return sa.case((self.kind == "text", self.raw))

    def boolean(self) -> sa.ColumnElement[Any]:
        if self.postgres:
            return sa.case((self.kind == "boolean", self.raw))
        return sa.case((self.kind == "true", "true"), (self.kind == "false", "false"))


def _instant(text: sa.ColumnElement[Any], *, postgres: bool) -> sa.ColumnElement[Any]:
    """A date string as a comparable instant (UTC where it names no offset)."""
    if not postgres:
        return sa.func.julianday(text)
    with_offset = sa.cast(text, sa.DateTime(timezone=True))
    in_utc = sa.func.timezone("UTC", sa.cast(text, sa.DateTime(timezone=False)))
    return sa.case((text.regexp_match(_OFFSET), with_offset), else_=in_utc)


def _member(key: str, *, postgres: bool) -> _Member:
    # Metadata holding \u0000 in any string reads as no metadata, on both engines: on
    # PostgreSQL every -> of such a document fails (its text cannot hold NUL).
    if postgres:
        clean = sa.func.strpos(sa.cast(table.c.metadata, sa.Text), "\\u0000") == 0
        name = sa.literal(key, sa.Text)
        value = table.c.metadata.op("->", return_type=sa.JSON)(name)
        text = table.c.metadata.op("->>", return_type=sa.Text)(name)
        return _Member(True, sa.case((clean, sa.func.json_typeof(value))), sa.case((clean, text)))
    clean = sa.func.instr(table.c.metadata, "\\u0000") == 0
    if '"' not in key and "\\" not in key:
        path = sa.literal('$."' + key + '"', sa.Text)
        kind = sa.func.json_type(table.c.metadata, path)
        extracted = sa.func.json_extract(table.c.metadata, path)
        return _Member(False, sa.case((clean, kind)), sa.case((clean, extracted)))
    # a label of a JSON path cannot hold " or \ in SQLite: read the members instead
    each = sa.func.json_each(table.c.metadata).table_valued("key", "value", "type")
    one = sa.and_(each.c.key == key, clean)
    return _Member(
        False,
        sa.select(each.c.type).where(one).scalar_subquery(),
        sa.select(each.c.value).where(one).scalar_subquery(),
    )


def _side(member: _Member, value: Value) -> tuple[sa.ColumnElement[Any], sa.ColumnElement[Any]]:
    """The file's side of a comparison with ``value``, and ``value`` as SQL."""
    pg = member.postgres
    if isinstance(value, bool):
        return member.boolean(), sa.literal("true" if value else "false", sa.Text)
    if isinstance(value, int | float):
        if pg:
            return member.number(), sa.cast(sa.literal(str(value)), sa.Numeric)
        number = float(value) if isinstance(value, int) and abs(value) > _INT64 else value
        return member.number(), sa.literal(number)
    if _is_date(value):
        return member.date(), _instant(sa.literal(value, sa.Text), postgres=pg)
    return member.string(), sa.literal(value, sa.Text)


_OPS = {
    "eq": lambda a, b: a == b,
    "gt": lambda a, b: a > b,
    "gte": lambda a, b: a >= b,
    "lt": lambda a, b: a < b,
    "lte": lambda a, b: a <= b,
}


def _equal(member: _Member, value: Value) -> sa.ColumnElement[bool]:
    side, wanted = _side(member, value)
    return sa.and_(side.is_not(None), side == wanted)


def _comparison(flt: ComparisonFilter, *, postgres: bool) -> sa.ColumnElement[bool]:
    member = _member(flt.key, postgres=postgres)
    values = flt.value if isinstance(flt.value, list) else [flt.value]
    if flt.type in ("eq", "in"):
        return sa.or_(*(_equal(member, v) for v in values))
    if flt.type in ("ne", "nin"):
        return sa.not_(sa.or_(*(_equal(member, v) for v in values)))
    side, wanted = _side(member, values[0])
    return sa.and_(side.is_not(None), _OPS[flt.type](side, wanted))


def _where(flt: MetadataFilter, *, postgres: bool) -> sa.ColumnElement[bool]:
    if isinstance(flt, CompoundFilter):
        parts = [_where(f, postgres=postgres) for f in flt.filters]
        if flt.type == "and":
            return sa.and_(sa.true(), *parts)
        return sa.or_(sa.false(), *parts)
    return _comparison(flt, postgres=postgres)


def metadata_where(conn: sa.Connection, flt: MetadataFilter) -> sa.ColumnElement[bool]:
    """The files whose metadata ``flt`` keeps, as a condition on the ``files`` table."""
    return _where(flt, postgres=is_postgres(conn))
