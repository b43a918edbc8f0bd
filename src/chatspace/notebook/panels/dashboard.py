"""``chatspace.dashboard()``: the four panels in tabs, sharing one client and workspace."""

from __future__ import annotations

from typing import TYPE_CHECKING

import ipywidgets as w

from .chat import ChatPanel
from .completions import CompletionsBrowser
from .files import FilesPanel
from .workspaces import WorkspacePanel

if TYPE_CHECKING:
    from chatspace.client import Client
    from chatspace.notebook.session import NotebookSession

__all__ = ["Dashboard", "dashboard"]


class Dashboard(w.Tab):
    """Chat, Completions, Files and Workspaces as tabs; each panel is an attribute."""

    def __init__(
        self, client: Client | None = None, *, session: NotebookSession | None = None
    ) -> None:
        self.chat = ChatPanel(client, session=session)
        self.completions = CompletionsBrowser(client, session=session)
        self.files = FilesPanel(client, session=session)
        self.workspaces = WorkspacePanel(client, session=session)
        super().__init__(
            children=[self.chat, self.completions, self.files, self.workspaces],
            titles=("Chat", "Completions", "Files", "Workspaces"),
        )
        self.add_class("chatspace-dashboard")
        # a file uploaded in one tab is offered by the chat's file picker at once
        self.files.observe(lambda _: self.chat.refresh(), "last_uploaded")

    def close(self) -> None:
        for panel in (self.chat, self.completions, self.files, self.workspaces):
            panel.close()
        super().close()


def dashboard(client: Client | None = None, *, session: NotebookSession | None = None) -> Dashboard:
    """All four panels in tabs; without a client they use the notebook session's.

    >>> import chatspace
    >>> chatspace.dashboard()
    """
    return Dashboard(client, session=session)
