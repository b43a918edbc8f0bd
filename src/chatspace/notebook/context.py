"""What a command may know of the notebook: the narrow object the ``%`` handlers take.

Handlers need only the session (and its settings), the user's namespace, how outputs
behave and a way to propose the next cell, never the magics object. A panel builds
one with :meth:`NotebookContext.current` (the kernel's namespace, no cell to write to)
to ask through the same :func:`~chatspace.notebook.asking.ask`.
"""

from __future__ import annotations

import hashlib
from collections import ChainMap
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from chatspace._pandas import is_dataframe

from .grammar import InputError
from .session import NotebookSession, get_session, notebook_name

if TYPE_CHECKING:
    from .cells import NotebookCells
    from .display import ChatResult

__all__ = ["NotebookContext"]


def _nothing(_: Any) -> None:
    """Where an output has no cell to go to (a panel, a script)."""


@dataclass
class NotebookContext:
    """The session, the notebook's namespace and how its outputs behave."""

    session: NotebookSession
    namespace: dict[str, Any] = field(default_factory=dict)
    live: bool = False
    """Whether outputs can change in place (a kernel or a capture), not a terminal."""
    set_next_input: Callable[[str], None] = _nothing
    shown: Callable[[ChatResult], None] = _nothing
    """Called with a result already on screen, so that the cell's Out does not repeat it."""
    cells: NotebookCells | None = None
    """The kernel's cells (their source, value and error), when the extension watches it."""

    @classmethod
    def current(cls, session: NotebookSession | None = None) -> NotebookContext:
        """The context of the running kernel (its namespace), for a panel."""
        from IPython import get_ipython

        from .cells import cells_of

        shell = get_ipython()
        return cls(
            session=session if session is not None else get_session(),
            namespace=shell.user_ns if shell is not None else {},
            cells=cells_of(shell),
        )

    @property
    def names(self) -> Mapping[str, Any]:
        """What ``{name}`` in a prompt may read: the namespace, where ``In``, ``Out`` and
        ``Err`` are the kernel's cells (``{Err[5]}``, ``{In[-1]}``)."""
        if self.cells is None:
            return self.namespace
        return ChainMap(self.cells.names(), self.namespace)

    @property
    def notebook(self) -> str | None:
        return notebook_name()

    def upload_frame(self, name: str, workspace: str) -> str:
        """Upload DataFrame ``name`` as ``NAME.csv`` (once per content and workspace: its
        fingerprint goes into the file's metadata, so that a restarted kernel finds the
        file it uploaded instead of adding a copy)."""
        if name not in self.namespace:
            raise InputError(f"--df: there is no variable named {name!r} in the notebook")
        frame = self.namespace[name]
        if not is_dataframe(frame):
            raise InputError(f"--df: {name!r} is a {type(frame).__name__}, not a pandas DataFrame")
        uploads = self.session.frame_uploads
        fingerprint = _fingerprint(frame)
        key = (workspace, name, fingerprint)
        if key not in uploads:
            client = self.session.client
            metadata = {"source": "dataframe", "variable": name, "fingerprint": fingerprint}
            stored = client.files.list(workspace=workspace, limit=1, metadata=metadata)
            found = next(iter(stored), None)
            if found is None:
                found = client.files.upload(
                    frame, filename=f"{name}.csv", metadata=metadata, workspace=workspace
                )
            uploads[key] = found.id
        return uploads[key]


def _fingerprint(frame: Any) -> str:
    import pandas as pd

    digest = hashlib.sha256(repr((frame.shape, list(frame.columns))).encode())
    try:
        digest.update(pd.util.hash_pandas_object(frame, index=True).to_numpy().tobytes())
    except TypeError:  # unhashable cells (lists, dicts): hash the CSV text instead
        digest.update(frame.to_csv().encode())
    return digest.hexdigest()
