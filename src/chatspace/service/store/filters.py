"""Metadata filters as SQL over the typed index of the files' metadata, on SQLite and
PostgreSQL (docs/interface.md#metadata-filters).

:func:`metadata_where` turns a filter (:mod:`chatspace.types.filters`, checked there) into
one boolean expression over ``files``, so that the database evaluates it: the file list,
a filter part's scope and a search all add it to their ``WHERE``. Each comparison is a
``files.id IN (...)`` over the indexed readings of ``metadata_values``
(:mod:`.metadata_values` says how a stored value reads), so that no file's JSON is parsed
to filter.

How a file's value is compared follows the filter's value:

- a **number** compares with the value's ``number`` reading (a JSON number, or a string
  that reads as one);
- a string in **ISO 8601 date form** compares with its ``instant`` reading
  (``"2024-01-01"`` equals ``"2024-01-01T00:00:00Z"``);
- any **other string** compares with its ``text`` reading, in code-point order;
- a **boolean** equals its ``flag`` reading only (``true`` is not ``1``).

A file whose key is missing, or whose value has no reading of that kind, fails every
comparison but ``ne`` and ``nin``, which are the negations of ``eq`` and ``in``; so does
every key of a file whose metadata holds NUL (``\\u0000``) in any string.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from chatspace.types.filters import ComparisonFilter, MetadataFilter

from .dialects import is_postgres
from .metadata_values import ISO_DATE_PATTERN, instant
from .schema import files as table
from .schema import metadata_values as values

__all__ = ["ISO_DATE", "metadata_where"]

ISO_DATE = re.compile(ISO_DATE_PATTERN)
"""What a date looks like (the same expression is PostgreSQL's test of stored strings)."""
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


def _reading(value: Value, *, postgres: bool) -> tuple[sa.Column[Any], sa.ColumnElement[Any]]:
    """The reading of a file's value that compares with ``value``, and ``value`` as SQL."""
    if isinstance(value, bool):
        return values.c.flag, sa.literal("true" if value else "false", sa.Text)
    if isinstance(value, int | float):
        if postgres:
            return values.c.number, sa.cast(sa.literal(str(value)), sa.Numeric)
        number = float(value) if isinstance(value, int) and abs(value) > _INT64 else value
        return values.c.number, sa.literal(number)
    if _is_date(value):
        return values.c.instant, instant(sa.literal(value, sa.Text), postgres=postgres)
    return values.c.text, sa.literal(value, sa.Text)


_NEGATED = {"ne", "nin"}
_ORDERING = {
    "gt": lambda a, b: a > b,
    "gte": lambda a, b: a >= b,
    "lt": lambda a, b: a < b,
    "lte": lambda a, b: a <= b,
}


class _Scope:
    """The files of one workspace, filtered through the readings of their keys.

    A file has one row per key, so the comparisons that hold of a key (all but ``ne`` and
    ``nin``) are conditions on one row: those of one key under one ``and`` or ``or`` share
    a subquery, so that the database builds and probes one set of file ids for them (a
    date range is one range of one index). Keys are not merged: an ``OR`` of conditions
    on two keys makes SQLite deduplicate rows of two indexes, slower than two sets."""

    def __init__(self, org_id: str, workspace_id: str, *, postgres: bool, few: bool) -> None:
        self.org_id, self.workspace_id = org_id, workspace_id
        self.postgres, self.few = postgres, few

    def having(self, *conditions: sa.ColumnElement[bool]) -> sa.ColumnElement[bool]:
        """The files with a row for which every condition holds."""
        if self.few:  # each file looks up its own rows, by the primary key
            rows = sa.select(values.c.file_id).where(values.c.file_id == table.c.id, *conditions)
            if self.postgres:
                # OFFSET 0 keeps PostgreSQL from turning the EXISTS into a join, which
                # reads every file of the workspace before a page of them is sorted
                rows = rows.offset(0)
            return rows.exists()
        return table.c.id.in_(
            sa.select(values.c.file_id).where(
                values.c.org_id == self.org_id,
                values.c.workspace_id == self.workspace_id,
                *conditions,
            )
        )

    def holds(self, flt: ComparisonFilter) -> sa.ColumnElement[bool]:
        """``flt`` as a condition on a row of ``flt.key``; ``ne`` and ``nin`` as ``eq``
        and ``in``, which they negate."""
        wanted = flt.value if isinstance(flt.value, list) else [flt.value]
        if flt.type in _ORDERING:
            column, literal = _reading(wanted[0], postgres=self.postgres)
            return sa.and_(values.c.key == flt.key, _ORDERING[flt.type](column, literal))
        by_reading: dict[str, tuple[sa.Column[Any], list[sa.ColumnElement[Any]]]] = {}
        for value in wanted:  # one IN per reading
            column, literal = _reading(value, postgres=self.postgres)
            by_reading.setdefault(column.name, (column, []))[1].append(literal)
        return sa.and_(
            values.c.key == flt.key, sa.or_(*(c.in_(lits) for c, lits in by_reading.values()))
        )

    def where(self, flt: MetadataFilter) -> sa.ColumnElement[bool]:
        if isinstance(flt, ComparisonFilter):
            kept = self.having(self.holds(flt))
            return sa.not_(kept) if flt.type in _NEGATED else kept
        shared: dict[str, list[sa.ColumnElement[bool]]] = {}
        parts: list[sa.ColumnElement[bool]] = []
        for part in flt.filters:
            if isinstance(part, ComparisonFilter) and part.type not in _NEGATED:
                shared.setdefault(part.key, []).append(self.holds(part))
            else:
                parts.append(self.where(part))
        if flt.type == "and":
            parts += [self.having(*conditions) for conditions in shared.values()]
            return sa.and_(sa.true(), *parts)
        parts += [self.having(sa.or_(*conditions)) for conditions in shared.values()]
        return sa.or_(sa.false(), *parts)


def metadata_where(
    conn: sa.Connection,
    flt: MetadataFilter,
    *,
    org_id: str,
    workspace_id: str,
    few: bool = False,
) -> sa.ColumnElement[bool]:
    """The files of the workspace whose metadata ``flt`` keeps, as a condition on the
    ``files`` table.

    By default the files of the workspace that match are found once, from the indexes
    of the readings, and each file is checked against them: what a count or a whole list
    needs. With ``few``, each file looks up its own readings instead: what a page that
    stops after a few files needs (the first page of a list need not find every match).
    """
    return _Scope(org_id, workspace_id, postgres=is_postgres(conn), few=few).where(flt)
