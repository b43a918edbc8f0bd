"""``chatspace.dashboard()``: the four panels in tabs, sharing one client and workspace.

``dashboard(side=True)`` puts them in JupyterLab's right side area instead of the cell's
output, where they stay while the notebook scrolls and while other notebooks are opened.
The side area is a ``sidecar.Sidecar`` (Jupyter's widgets team keeps it; its prebuilt lab
extension opens the area as soon as the widget exists): an Output widget whose front end
lives in the shell rather than in a cell. The dashboard goes in as its output data, not
by capturing a cell's output, so it works outside a running cell too (a button's
callback), and the cell that opened it shows one line saying where it went instead of a
second copy of the panels. Beside them goes :class:`._side.StaleSides`, which closes the
side tab a restarted kernel left behind (else the notebook run again shows two).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets as w

from ._side import StaleSides
from .chat import ChatPanel
from .completions import CompletionsBrowser
from .files import FilesPanel
from .workspaces import WorkspacePanel

if TYPE_CHECKING:
    from sidecar import Sidecar

    from chatspace.client import Client
    from chatspace.notebook.session import NotebookSession

__all__ = ["SIDE_TITLE", "Dashboard", "dashboard"]

SIDE_TITLE = "chatspace"
"""The side area's tab title."""


class Dashboard(w.Tab):
    """Chat, Completions, Files and Workspaces as tabs; each panel is an attribute."""

    def __init__(
        self, client: Client | None = None, *, session: NotebookSession | None = None
    ) -> None:
        self.chat = ChatPanel(client, session=session)
        self.completions = CompletionsBrowser(client, session=session)
        self.files = FilesPanel(client, session=session)
        self.workspaces = WorkspacePanel(client, session=session)
        self.side: Sidecar | None = None
        self._stale_sides: StaleSides | None = None
        super().__init__(
            children=[self.chat, self.completions, self.files, self.workspaces],
            titles=("Chat", "Completions", "Files", "Workspaces"),
        )
        self.add_class("chatspace-dashboard")
        # a file uploaded in one tab is offered by the chat's file picker at once
        self.files.observe(lambda _: self.chat.refresh(), "last_uploaded")

    def open_side(self) -> None:
        """Show the panels in JupyterLab's right side area (again, if it was closed)."""
        from sidecar import Sidecar

        self._close_side()
        self.side = Sidecar(title=SIDE_TITLE)
        self.side.add_class("chatspace-side")
        view = w.Widget._repr_mimebundle_(self)  # the panels, not the line of the cell
        self._stale_sides = StaleSides(title=SIDE_TITLE)
        self.side.outputs = tuple(
            {"output_type": "display_data", "data": data, "metadata": {}}
            for data in (view, w.Widget._repr_mimebundle_(self._stale_sides))
        )

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any] | None:
        if self.side is not None:
            return {"text/plain": f"chatspace opened in the right side area ({SIDE_TITLE!r})."}
        bundle: dict[str, Any] | None = super()._repr_mimebundle_(**kwargs)
        return bundle

    def close(self) -> None:
        for panel in (self.chat, self.completions, self.files, self.workspaces):
            panel.close()
        self._close_side()
        super().close()

    def _close_side(self) -> None:
        for widget in (self.side, self._stale_sides):
            if widget is not None:
                widget.close()
        self.side = self._stale_sides = None


def dashboard(
    client: Client | None = None, *, session: NotebookSession | None = None, side: bool = False
) -> Dashboard:
    """All four panels in tabs; without a client they use the notebook session's.

    ``side=True`` opens them in JupyterLab's right side area, where they stay put.

    >>> import chatspace
    >>> chatspace.dashboard(side=True)
    """
    board = Dashboard(client, session=session)
    if side:
        board.open_side()
    return board
