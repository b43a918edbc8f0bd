"""The notebook's shared state: one client, the settings, the conversations.

Magics and panels both read and change it. The settings (:mod:`.settings`) are an object
of their own that the session holds, so ``%config ChatspaceSettings.default_model`` reaches
a chat panel opened afterwards, and a workspace switched with ``%workspace NAME`` shows in
the panels' pickers and the other way round (panels ``observe`` the settings).

The workspace is remembered per notebook (and service) in the data dir, so that the next
kernel of the same notebook starts where the last one left off.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from traitlets import Dict, HasTraits, Instance, List, Unicode

from chatspace._wire import DEFAULT_MODEL

from .conversations import ThreadBook
from .notebook_file import current_path
from .settings import ChatspaceSettings, kernel_settings

if TYPE_CHECKING:
    from chatspace.client import Client, ResolvedConfig
    from chatspace.types import Model

__all__ = [
    "NotebookSession",
    "get_session",
    "notebook_name",
    "reset_session",
]

MEMORY_FILE = "notebook-workspaces.json"


class NotebookSession(HasTraits):
    """The client, the settings and the threads of one notebook (one per kernel)."""

    models = List(Unicode(), help="The ids of the models the service serves, as last listed.")
    last_stored = Dict(
        help="The completion a magic or panel stored last ({'id', 'workspace'}): the "
        "completions browser shows it without a Refresh."
    )
    _client = Instance("chatspace.client.Client", allow_none=True)

    def __init__(
        self, client: Client | None = None, *, settings: ChatspaceSettings | None = None
    ) -> None:
        super().__init__()
        self._client = client
        self.settings = settings if settings is not None else ChatspaceSettings()
        self.threads = ThreadBook()
        self.frame_uploads: dict[tuple[str, str, str], str] = {}
        self._remembering = False
        if self.settings.default_workspace == "default":  # none chosen (%config, the caller)
            self._start_workspace()
        self._restore_workspace()

    @property
    def client(self) -> Client:
        """The client, created on first use (embedded service unless configured)."""
        if self._client is None:
            from chatspace.client import Client

            self._client = Client()
            self._restore_workspace()
        return self._client

    def refresh_models(self) -> list[Model]:
        """The models the service serves now; their ids go to ``models`` (pickers follow)."""
        found = list(self.client.models.list())
        self.models = [m.id for m in found]
        return found

    def model_choice(self, served: Sequence[str] | None = None) -> tuple[str, str]:
        """The model of a call that names none, and why (docs/models.md#the-default-model).

        The one chosen (``model``), else the one connected model when exactly one is
        served besides ``service-l0`` (by the environment, ``models add``, ``chatspace
        serve``), else ``service-l0``. ``served`` are the ids served; ``None`` lists them.
        """
        if self.settings.default_model:
            return self.settings.default_model, "chosen with ChatspaceSettings.default_model"
        if served is None:
            served = [m.id for m in self.refresh_models()]
        connected = [i for i in served if i != DEFAULT_MODEL]
        if len(connected) == 1:
            return connected[0], "the one connected model"
        if connected:
            return DEFAULT_MODEL, f"{len(connected)} models are connected: pick one with -m"
        return DEFAULT_MODEL, "no model is connected"

    def use_client(self, client: Client) -> None:
        """Replace the client (closing the one this session created)."""
        if self._client is not None and self._client is not client:
            self._client.close()
        self._client = client
        self._restore_workspace()

    # ---------------------------------------------------------------- workspace memory

    def _start_workspace(self) -> None:
        """Start where the client works (``CHATSPACE_WORKSPACE``), even before it exists.

        The client is made on first use, after the first question is built: a workspace
        taken from it then would come one question late.
        """
        configured = self._client.config if self._client is not None else _configured()
        if configured is not None:
            self.settings.default_workspace = configured.workspace

    def _restore_workspace(self) -> None:
        """Start in the workspace this notebook last used with this service, if any."""
        notebook = notebook_name()
        chosen = self.settings.default_workspace != "default"
        service = _service_url(self._client) if notebook and not chosen else None
        if notebook and service:
            remembered = _read_memory().get(service, {}).get(notebook)
            if remembered:
                self.settings.default_workspace = remembered
        if not self._remembering:
            self.settings.observe(self._remember_workspace, "default_workspace")
            self._remembering = True

    def close(self) -> None:
        """Stop remembering the workspace and close the client (the kernel's settings
        outlive the session)."""
        self.settings.unobserve(self._remember_workspace, "default_workspace")
        self._remembering = False
        if self._client is not None:
            self._client.close()

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


def _configured() -> ResolvedConfig | None:
    """What a client made now would be configured with (None when the configuration is
    wrong: making the client says what is wrong)."""
    from chatspace.client import resolve_config
    from chatspace.errors import ConfigurationError

    try:
        return resolve_config(base_url=None, token=None, workspace=None, beta=False)
    except ConfigurationError:
        return None


def _service_url(client: Client | None) -> str | None:
    """The URL of the service the session's client uses, or will use once it is made
    (the embedded service's only when it runs: a new one would have a new port)."""
    if client is not None:
        return client.config.base_url
    configured = _configured()
    if configured is None:
        return None
    if configured.base_url is not None:
        return configured.base_url
    from chatspace.local.datadir import data_dir
    from chatspace.local.launcher import live_service_url

    return live_service_url(data_dir())


def _memory_path() -> Path:
    from chatspace.local.datadir import data_dir

    return data_dir() / MEMORY_FILE


def _read_memory() -> dict[str, dict[str, str]]:
    try:
        value = json.loads(_memory_path().read_text())
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def notebook_name() -> str | None:
    """The notebook's file name now: asked of the Jupyter server (it knows renames), else
    as the front end told it at the kernel's start (JupyterLab, VS Code)."""
    path = current_path() or os.environ.get("JPY_SESSION_NAME")
    if not path:
        from IPython import get_ipython

        shell = get_ipython()
        path = shell.user_ns.get("__vsc_ipynb_file__") if shell is not None else None
    return os.path.basename(str(path)) if path else None


_session: NotebookSession | None = None


def get_session() -> NotebookSession:
    """The process-wide session (one per kernel)."""
    global _session
    if _session is None:
        _session = NotebookSession(settings=kernel_settings())
    return _session


def reset_session() -> None:
    """Forget the session and close its client (tests and ``%chat reset --all``)."""
    global _session
    if _session is not None:
        _session.close()
    _session = None
