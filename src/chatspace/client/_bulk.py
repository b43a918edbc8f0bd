"""A DataFrame of metadata, one row per file, read into updates (no I/O; both clients).

``client.files.update(frame)`` takes a frame with a file column, ``id`` or ``file_id``
(ids) or ``filename`` (names, each of exactly one file of the workspace), and one column
per metadata key. A frame from ``client.files.list().to_pandas()`` works as it is: when
some columns are named ``metadata.<key>``, those are the keys and the other columns are
ignored. A missing value (NaN, None, NaT) leaves that key as it is; every other value is
merged into the file's metadata, as ``client.files.update(ID, {...})`` merges. Each row
is one request, applied whole or not at all; the result says which rows were applied.
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

    from chatspace.types import File

__all__ = [
    "BULK_CONCURRENCY",
    "BULK_PROGRESS_ROWS",
    "MetadataRow",
    "metadata_rows",
    "resolve_names",
    "results_frame",
]

BULK_CONCURRENCY = 8
"""Updates the async client has in flight at once (the sync one sends them in turn)."""

BULK_PROGRESS_ROWS = 10
"""Frames of at least this many rows show a bar unless ``progress=False``."""

_ID_COLUMNS = ("id", "file_id")
_NAME_COLUMN = "filename"
_KEY_PREFIX = "metadata."


@dataclass
class MetadataRow:
    """One row of the frame: its index label, the file it names and what to merge."""

    label: Any
    ref: str
    metadata: dict[str, Any]
    file_id: str | None = None
    """The id, known from the start for an id column, after :func:`resolve_names` else."""
    error: str | None = field(default=None)
    status: str = "pending"


def _missing(value: Any) -> bool:
    """Whether a cell holds no value (None, NaN, NaT, pandas.NA): its key is left alone."""
    import pandas as pd

    found = pd.isna(value)
    return found if isinstance(found, bool) else False  # a list or a dict is a value


def _plain(value: Any, whole: bool) -> Any:
    """A cell as JSON: numpy scalars as Python's, times in ISO 8601; ``whole``: the
    column is floats only because it has gaps (2024.0 is the year 2024)."""
    if isinstance(value, (dt.datetime, dt.date)):  # pandas' Timestamp too
        return value.isoformat()
    if hasattr(value, "item") and not isinstance(value, (list, dict)):
        value = value.item()  # numpy scalars
    if whole and isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def metadata_rows(frame: pd.DataFrame) -> list[MetadataRow]:
    """The updates a frame asks for; a ``ValueError`` if it names no file column."""
    import pandas as pd

    columns = [str(c) for c in frame.columns]
    id_column = next((c for c in _ID_COLUMNS if c in columns), None)
    file_column = id_column or (_NAME_COLUMN if _NAME_COLUMN in columns else None)
    if file_column is None:
        raise ValueError(
            "the frame needs a column of file ids ('id' or 'file_id') or of names ('filename')"
        )
    if columns.count(file_column) > 1:
        raise ValueError(f"the frame has {columns.count(file_column)} columns {file_column!r}")
    prefixed = [c for c in columns if c.startswith(_KEY_PREFIX)]
    if prefixed:
        keys = {c: c[len(_KEY_PREFIX) :] for c in prefixed}
    else:
        keys = {c: c for c in columns if c not in (*_ID_COLUMNS, _NAME_COLUMN)}
    if not keys:
        raise ValueError("the frame has no metadata column besides the file column")
    whole = {
        c: pd.api.types.is_float_dtype(frame[c])
        and bool(frame[c].isna().any())
        and bool(frame[c].dropna().map(float.is_integer).all())
        for c in keys
    }
    rows = []
    for label, values in zip(frame.index, frame.to_dict("records"), strict=True):
        ref = values[file_column]
        if _missing(ref) or not str(ref).strip():
            raise ValueError(f"row {label!r}: no file in column {file_column!r}")
        metadata = {
            key: _plain(values[column], whole[column])
            for column, key in keys.items()
            if not _missing(values[column])
        }
        rows.append(MetadataRow(label, str(ref), metadata, file_id=str(ref) if id_column else None))
    return rows


def _same(name: str) -> str:
    """Names compare in Unicode's composed form, as ``%files`` compares them."""
    return unicodedata.normalize("NFC", name)


def resolve_names(rows: Sequence[MetadataRow], files: Iterable[File], workspace: str) -> None:
    """Give each row named by ``filename`` its file's id; a ``ValueError`` naming every
    row whose name is no file's or several files' (then nothing has been sent)."""
    by_name: dict[str, list[str]] = {}
    for found in files:
        by_name.setdefault(_same(found.filename), []).append(found.id)
    problems = []
    for row in rows:
        ids = by_name.get(_same(row.ref), [])
        if len(ids) == 1:
            row.file_id = ids[0]
        elif not ids:
            problems.append(f"row {row.label!r}: no file named {row.ref!r}")
        else:
            problems.append(
                f"row {row.label!r}: {len(ids)} files are named {row.ref!r} "
                f"({', '.join(ids)}); give their ids in a column 'id'"
            )
    if problems:
        raise ValueError(f"nothing was updated in workspace {workspace!r}: " + "; ".join(problems))


def results_frame(rows: Sequence[MetadataRow]) -> pd.DataFrame:
    """What happened to each row, indexed as the frame was: ``file_id``, ``status``
    (``updated``, ``unchanged``: nothing to merge, or ``failed``) and ``error``."""
    import pandas as pd

    return pd.DataFrame(
        {
            "file_id": [row.file_id for row in rows],
            "status": [row.status for row in rows],
            "error": [row.error for row in rows],
        },
        index=pd.Index([row.label for row in rows]),
    )
