"""Files as a user names them: by id, or by a name no other file of the workspace has.

``%files show|download|delete|update``, ``%%chat --files`` and the chat panel's files all
take either. A name two files share is an error that lists both, so that nothing is
asked, shown or deleted on a guess. The service keeps names exactly as sent; names are
compared in Unicode's composed form (NFC), so that ``été.md`` typed finds the ``e`` +
accent that macOS writes in its file names, which looks the same.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .grammar import InputError

if TYPE_CHECKING:
    from chatspace.client import Client
    from chatspace.types import File

__all__ = ["file_ids", "is_file_id"]

_FILE_ID = re.compile(r"file-[A-Za-z0-9_-]+")
"""The service's ids (``file-`` and URL-safe characters); a name has a dot or a blank."""


def is_file_id(ref: str) -> bool:
    """Whether ``ref`` is written as a file id rather than a file name."""
    return _FILE_ID.fullmatch(ref) is not None


def file_ids(client: Client, workspace: str, refs: Sequence[str], *, field: str = "") -> list[str]:
    """The ids of ``refs`` (ids or names), in their order; ``field`` starts an error.

    The workspace's files are listed once, and only when a name is among ``refs``.
    """
    if all(is_file_id(ref) for ref in refs):
        return list(refs)
    by_name: dict[str, list[File]] = {}
    for found in client.files.list(workspace=workspace):
        by_name.setdefault(_same(found.filename), []).append(found)
    return [
        ref if is_file_id(ref) else _one(by_name.get(_same(ref), []), ref, workspace, field)
        for ref in refs
    ]


def _same(name: str) -> str:
    return unicodedata.normalize("NFC", name)


def _one(named: list[File], ref: str, workspace: str, field: str) -> str:
    where = f"{field}: " if field else ""
    if len(named) == 1:
        return named[0].id
    if not named:
        raise InputError(
            f"{where}no file named {ref!r} in workspace {workspace!r}; %files list lists the files"
        )
    listed = ", ".join(f"{f.id} ({f.bytes} bytes)" for f in named)
    raise InputError(
        f"{where}{len(named)} files are named {ref!r} in workspace {workspace!r}: {listed}; "
        "give the id of the one you mean"
    )
