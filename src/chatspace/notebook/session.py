"""The notebook's shared state: one client, the settings, the conversations.

Magics and panels both read and change it, so a workspace switched with ``%workspace NAME``
shows in the panels' pickers and the other way round (panels ``observe`` its traits), and
``%config ChatspaceMagics.default_model`` reaches a chat panel opened afterwards (the
magics link their settings to every session as it is created, see :func:`on_new_session`).

The workspace is remembered per notebook (and service) in the data dir, so that the next
kernel of the same notebook starts where the last one left off.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from traitlets import Bool, Dict, Enum, HasTraits, Instance, Int, List, Unicode

from chatspace._shared import DEFAULT_MODEL

from .conversations import ThreadBook
from .formats import FORMATS

if TYPE_CHECKING:
    from chatspace.client import Client
    from chatspace.types import Model

__all__ = [
    "NotebookSession",
    "get_session",
    "notebook_name",
    "off_new_session",
    "on_new_session",
    "reset_session",
]

MEMORY_FILE = "notebook-workspaces.json"


class NotebookSession(HasTraits):
    workspace = Unicode("default", help="The workspace every magic and panel works in.")
    model = Unicode(DEFAULT_MODEL, help="The model used when a call names none.")
    store = Bool(True, help="Store completions (tagged with notebook and thread).")
    stream = Bool(True, help="Stream answers into the output as they arrive.")
    top_k = Int(0, min=0, max=50, help="Passages to retrieve; 0 for the service's default.")
    format = Enum(FORMATS, "markdown", help="How answers are asked for and shown by default.")
    history_tokens = Int(4000, help="Tokens of earlier turns a thread may send again.")
    models = List(Unicode(), help="The ids of the models the service serves, as last listed.")
    last_stored = Dict(
        help="The completion a magic or panel stored last ({'id', 'workspace'}): the "
        "completions browser shows it without a Refresh."
    )
    _client = Instance("chatspace.client.Client", allow_none=True)

    def __init__(self, client: Client | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._client = client
        self.threads = ThreadBook()
        self.frame_uploads: dict[tuple[str, str, str], str] = {}
        self._remembering = False
        if client is not None:
            self._restore_workspace()

    @property
    def client(self) -> Client:
        """The client, created on first use (embedded service unless configured)."""
        if self._client is None:
            from chatspace.client import Client

            self._client = Client()
            config = self._client.config
            # CHATSPACE_WORKSPACE applies unless a workspace was already chosen here.
            if config.sources.get("workspace") != "default" and self.workspace == "default":
                self.workspace = config.workspace
            self._restore_workspace()
        return self._client

    def refresh_models(self) -> list[Model]:
        """The models the service serves now; their ids go to ``models`` (pickers follow)."""
        found = list(self.client.models.list())
        self.models = [m.id for m in found]
        return found

    def use_client(self, client: Client) -> None:
        """Replace the client (closing the one this session created)."""
        if self._client is not None and self._client is not client:
            self._client.close()
        self._client = client
        self._restore_workspace()

    # ---------------------------------------------------------------- workspace memory

    def _restore_workspace(self) -> None:
        """Start in the workspace this notebook last used with this service, if any."""
        notebook, client = notebook_name(), self._client
        if client is not None and notebook and self.workspace == "default":
            remembered = _read_memory().get(client.config.base_url, {}).get(notebook)
            if remembered:
                self.workspace = remembered
        if not self._remembering:
            self.observe(self._remember_workspace, "workspace")
            self._remembering = True

    def _remember_workspace(self, change: dict[str, Any]) -> None:
        notebook, client = notebook_name(), self._client
        if client is None or not notebook:
            return
        memory = _read_memory()
        memory.setdefault(client.config.base_url, {})[notebook] = change["new"]
        path = _memory_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(json.dumps(memory, indent=1))
        partial.replace(path)  # whole or not at all: two kernels may write at once


def _memory_path() -> Path:
    from chatspace.local_auth import data_dir

    return data_dir() / MEMORY_FILE


def _read_memory() -> dict[str, dict[str, str]]:
    try:
        value = json.loads(_memory_path().read_text())
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def notebook_name() -> str | None:
    """The notebook's file name, when the front end tells it (JupyterLab, VS Code)."""
    path = os.environ.get("JPY_SESSION_NAME")
    if not path:
        from IPython import get_ipython

        shell = get_ipython()
        path = shell.user_ns.get("__vsc_ipynb_file__") if shell is not None else None
    return os.path.basename(str(path)) if path else None


_session: NotebookSession | None = None
_followers: list[Callable[[NotebookSession], None]] = []


def on_new_session(follow: Callable[[NotebookSession], None]) -> None:
    """Call ``follow`` with the current session and with every one created later."""
    if follow not in _followers:
        _followers.append(follow)
    if _session is not None:
        follow(_session)


def off_new_session(follow: Callable[[NotebookSession], None]) -> None:
    """Stop calling ``follow`` (``%unload_ext``)."""
    if follow in _followers:
        _followers.remove(follow)


def get_session() -> NotebookSession:
    """The process-wide session (one per kernel)."""
    global _session
    if _session is None:
        _session = NotebookSession()
        for follow in _followers:
            follow(_session)
    return _session


def reset_session() -> None:
    """Forget the session and close its client (tests and ``%chat reset --all``)."""
    global _session
    if _session is not None and _session._client is not None:
        _session._client.close()
    _session = None
