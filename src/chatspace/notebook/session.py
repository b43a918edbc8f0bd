"""The notebook's shared state: one client, the current workspace, the defaults.

Magics and panels both read and change it, so a workspace switched with ``%workspace NAME``
shows in the panels' pickers and the other way round (panels ``observe`` its traits).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from traitlets import Bool, HasTraits, Instance, List, Unicode

if TYPE_CHECKING:
    from chatspace.client import Client
    from chatspace.types import Model

__all__ = ["NotebookSession", "get_session", "reset_session"]


class NotebookSession(HasTraits):
    workspace = Unicode("default", help="The workspace every magic and panel works in.")
    model = Unicode("service-l0", help="The model used when a call names none.")
    store = Bool(True, help="Store completions (tagged with notebook and thread).")
    stream = Bool(True, help="Stream answers into the output as they arrive.")
    models = List(Unicode(), help="The ids of the models the service serves, as last listed.")
    _client = Instance("chatspace.client.Client", allow_none=True)

    def __init__(self, client: Client | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._client = client

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


_session: NotebookSession | None = None


def get_session() -> NotebookSession:
    """The process-wide session (one per kernel)."""
    global _session
    if _session is None:
        _session = NotebookSession()
    return _session


def reset_session() -> None:
    """Forget the session and close its client (tests and ``%chat reset --all``)."""
    global _session
    if _session is not None and _session._client is not None:
        _session._client.close()
    _session = None
