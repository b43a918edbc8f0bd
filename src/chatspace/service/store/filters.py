"""Metadata filters as SQL over the typed index of the files' metadata, on SQLite and
PostgreSQL (docs/interface.md#metadata-filters).

:func:`metadata_where` turns a filter (:mod:`chatspace.types.filters`, checked there) into
one boolean expression over ``files``, so that the database evaluates it: the file list,
a filter part's scope and a search all add it to their ``WHERE``. Each comparison is a
``files.id IN (...)`` over the indexed readings of ``metadata_values``
(:mod:`.metadata_values` says how a stored value reads), so that no file's JSON is parsed
to filter. :func:`metadata_count` counts the files a filter keeps from the rows of those
indexes, without building the set of their ids.

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

import functools
import operator
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Literal

import sqlalchemy as sa

from chatspace.types.filters import ComparisonFilter, MetadataFilter

from .dialects import is_postgres
from .metadata_values import ISO_DATE_PATTERN, instant
from .schema import files as table
from .schema import metadata_values as values

__all__ = ["ISO_DATE", "metadata_count", "metadata_where"]

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


@dataclass(frozen=True)
class _Key:
    """Comparisons that hold of one row of ``key`` (``ne`` and ``nin`` as ``eq`` and
    ``in``), all of them (``and``) or any (``or``); ``held`` False: a file for which no row
    of the key holds them (``ne``, ``nin``, or such a part negated)."""

    key: str
    comparisons: tuple[ComparisonFilter, ...]
    join: Literal["and", "or"] = "and"
    held: bool = True


@dataclass(frozen=True)
class _Compound:
    join: Literal["and", "or"]
    parts: tuple[_Key | _Compound, ...]


_Node = _Key | _Compound


def _tree(flt: MetadataFilter) -> _Node:
    """``flt`` with the comparisons of one key under one ``and`` or ``or`` merged into
    one :class:`_Key`, so that the database builds and probes one set of file ids for
    them (a date range is one range of one index). Keys are not merged: an ``OR`` of
    conditions on two keys makes SQLite deduplicate rows of two indexes, slower than two
    sets."""
    if isinstance(flt, ComparisonFilter):
        return _Key(flt.key, (flt,), held=flt.type not in _NEGATED)
    shared: dict[str, list[ComparisonFilter]] = {}
    parts: list[_Node] = []
    for part in flt.filters:
        if isinstance(part, ComparisonFilter) and part.type not in _NEGATED:
            shared.setdefault(part.key, []).append(part)
        else:
            parts.append(_tree(part))
    parts += [_Key(key, tuple(each), flt.type) for key, each in shared.items()]
    return _Compound(flt.type, tuple(parts))


def _negated(node: _Node) -> _Node:
    if isinstance(node, _Key):
        return replace(node, held=not node.held)
    return _Compound("or" if node.join == "and" else "and", tuple(map(_negated, node.parts)))


class _Scope:
    """The files of one workspace, filtered through the readings of their keys."""

    def __init__(self, org_id: str, workspace_id: str, *, postgres: bool) -> None:
        self.org_id, self.workspace_id, self.postgres = org_id, workspace_id, postgres

    def _holds(self, flt: ComparisonFilter, rows: sa.FromClause) -> sa.ColumnElement[bool]:
        """``flt`` as a condition on a row of ``rows`` (``ne`` and ``nin`` as ``eq`` and
        ``in``, which they negate)."""
        wanted = flt.value if isinstance(flt.value, list) else [flt.value]
        if flt.type in _ORDERING:
            column, literal = _reading(wanted[0], postgres=self.postgres)
            ordered: sa.ColumnElement[bool] = _ORDERING[flt.type](rows.c[column.name], literal)
            return ordered
        by_reading: dict[str, list[sa.ColumnElement[Any]]] = {}
        for value in wanted:  # one IN per reading
            column, literal = _reading(value, postgres=self.postgres)
            by_reading.setdefault(column.name, []).append(literal)
        return sa.or_(*(rows.c[name].in_(literals) for name, literals in by_reading.items()))

    def _holding(self, node: _Key, rows: sa.FromClause) -> list[sa.ColumnElement[bool]]:
        """A row of ``rows`` of ``node``'s key for which its comparisons hold."""
        held = [self._holds(flt, rows) for flt in node.comparisons]
        return [rows.c.key == node.key, sa.and_(*held) if node.join == "and" else sa.or_(*held)]

    def _in_workspace(self, rows: sa.FromClause) -> list[sa.ColumnElement[bool]]:
        return [rows.c.org_id == self.org_id, rows.c.workspace_id == self.workspace_id]

    def where(
        self, node: _Node, file_id: sa.ColumnElement[Any] | None, *, fenced: bool = True
    ) -> sa.ColumnElement[bool]:
        """``node`` as a condition on the file whose id is ``file_id``, which looks up
        its own rows by the primary key (what a page that stops after a few files needs);
        with no ``file_id``, on ``files``, the matches found once from the indexes of the
        readings and probed (what a whole list needs). ``fenced``: PostgreSQL looks up
        each file's rows too, rather than joining them (a count may join)."""
        if isinstance(node, _Compound):
            parts = [self.where(part, file_id, fenced=fenced) for part in node.parts]
            return sa.and_(sa.true(), *parts) if node.join == "and" else sa.or_(sa.false(), *parts)
        kept: sa.ColumnElement[bool]
        if file_id is None:
            found = sa.select(values.c.file_id).where(
                *self._in_workspace(values), *self._holding(node, values)
            )
            kept = table.c.id.in_(found)
        else:
            rows = values.alias("other")
            found = sa.select(rows.c.file_id).where(
                rows.c.file_id == file_id, *self._holding(node, rows)
            )
            if self.postgres and fenced:
                # OFFSET 0 keeps PostgreSQL from turning the EXISTS into a join, which
                # reads every file of the workspace before a page of them is sorted
                found = found.offset(0)
            kept = found.exists()
        return kept if node.held else sa.not_(kept)

    def count(self, node: _Node) -> sa.ColumnElement[int]:
        """How many files of the workspace (expired ones too) ``node`` keeps.

        Where the filter needs a row of some key, the rows of that key's index are
        counted, each checked against the rest of the filter by the primary key: no set
        of file ids is built, SQLite's costliest step when a filter keeps many files.
        """
        counted = self._from_rows(node)
        if counted is not None:
            return counted
        counted = self._from_rows(_negated(node))
        if counted is not None:  # ne, nin, an or with one of them...: the other files
            return self._files() - counted
        return self._files(self.where(node, None))

    def _files(self, *conditions: sa.ColumnElement[bool]) -> sa.ColumnElement[int]:
        """How many files of the workspace meet ``conditions``."""
        files = sa.select(sa.func.count()).where(
            table.c.org_id == self.org_id, table.c.workspace_id == self.workspace_id, *conditions
        )
        return files.scalar_subquery()

    def _from_rows(self, node: _Node) -> sa.ColumnElement[int] | None:
        """The files ``node`` keeps, counted over rows of the index (None when some
        file it keeps may have no row)."""
        if isinstance(node, _Compound) and node.join == "or":
            # each part counts the files that the parts before it do not keep
            terms = [self._driven(part, node.parts[:i]) for i, part in enumerate(node.parts)]
            if any(term is None for term in terms):
                return None
            return functools.reduce(operator.add, terms, sa.literal(0))  # an empty or: 0
        return self._driven(node)

    def _driven(self, node: _Node, unless: Sequence[_Node] = ()) -> sa.ColumnElement[int] | None:
        """The files that ``node`` keeps and none of ``unless`` keeps, counted over the
        rows of a key ``node`` needs a row of (None when it needs none)."""
        if isinstance(node, _Key):
            if not node.held:
                return None
            driver, rest = node, []
        else:
            found = [p for p in node.parts if isinstance(p, _Key) and p.held]
            if node.join == "or" or not found:
                return None
            driver, rest = found[0], [p for p in node.parts if p is not found[0]]
        checks = [self.where(part, values.c.file_id, fenced=False) for part in rest]
        checks += [sa.not_(self.where(part, values.c.file_id, fenced=False)) for part in unless]
        counted = sa.select(sa.func.count()).where(
            *self._in_workspace(values), *self._holding(driver, values), *checks
        )
        return counted.scalar_subquery()


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
    of the readings, and each file is checked against them: what a whole list needs.
    With ``few``, each file looks up its own readings instead: what a page that stops
    after a few files needs (the first page of a list need not find every match).
    """
    scope = _Scope(org_id, workspace_id, postgres=is_postgres(conn))
    return scope.where(_tree(flt), table.c.id if few else None)


def metadata_count(
    conn: sa.Connection, flt: MetadataFilter, *, org_id: str, workspace_id: str
) -> sa.ColumnElement[int]:
    """How many files of the workspace, expired ones too, ``flt`` keeps (a scalar
    subquery)."""
    scope = _Scope(org_id, workspace_id, postgres=is_postgres(conn))
    return scope.count(_tree(flt))
