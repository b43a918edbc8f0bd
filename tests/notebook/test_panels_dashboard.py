"""The dashboard: four panels in tabs, one client, one current workspace."""

from __future__ import annotations

import inspect
from typing import Any

import ipywidgets as w
import pytest
from traitlets import TraitType

import chatspace
from chatspace.notebook import panels
from chatspace.notebook.panels import dashboard
from chatspace.notebook.session import NotebookSession


def test_dashboard_tabs_share_client_and_workspace(client: chatspace.Client) -> None:
    session = NotebookSession(client=client)
    board = dashboard(client, session=session)
    assert isinstance(board, w.Tab)
    assert board.titles == ("Chat", "Completions", "Files", "Workspaces")
    assert board.children == (board.chat, board.completions, board.files, board.workspaces)
    assert all(p.error == "" for p in board.children)
    board.workspaces.create("shared", "Shared")
    board.workspaces.use("shared")
    assert {p.workspace for p in board.children} == {"shared"}
    assert {p.workspace_picker.value for p in board.children[:3]} == {"shared"}
    board.files.upload([("n.txt", b"notes")])
    assert board.files.wait(30)
    assert board.chat.file_picker.options == (("n.txt", board.files.last_uploaded[0]),)
    board.close()


def test_dashboard_without_a_client_uses_the_session(client: chatspace.Client) -> None:
    session = NotebookSession(client=client)
    board = dashboard(session=session)
    assert board.chat.client is client
    assert board.files.error == ""
    board.close()


def test_the_package_exposes_the_dashboard_lazily() -> None:
    assert chatspace.dashboard is dashboard
    assert sorted(panels.__all__) == panels.__all__


@pytest.mark.parametrize(
    "cls",
    [panels.ChatPanel, panels.CompletionsBrowser, panels.FilesPanel, panels.WorkspacePanel],
)
def test_panel_state_is_documented(cls: type) -> None:
    """Every trait a panel adds says what it is for (``help=``), like ipywidgets' own."""
    own = {
        name: trait
        for klass in cls.__mro__
        if klass.__module__.startswith("chatspace.")
        for name, trait in vars(klass).items()
        if isinstance(trait, TraitType)
    }
    assert own
    assert [name for name, trait in own.items() if not trait.help] == []
    for name in ("refresh", "wait", "close"):
        assert inspect.getdoc(getattr(cls, name))


def test_magics_and_panels_share_the_notebook_session(ip: Any, nb_session: NotebookSession) -> None:
    """A workspace switched by ``%workspace`` shows in the panels, and the other way round."""
    board = dashboard()  # no client, no session: the notebook's, as a user gets it
    assert board.chat.client is nb_session.client
    ip.run_line_magic("workspace", "create research Research")
    ip.run_line_magic("workspace", "research")
    assert nb_session.settings.default_workspace == "research"
    assert {p.workspace for p in board.children} == {"research"}
    assert board.files.workspace_picker.value == "research"
    board.workspaces.use("default")
    result = ip.run_line_magic("workspace", "")
    assert "workspace default" in str(result)
    board.close()


def test_side_dashboard_goes_to_the_right_side_area(client: chatspace.Client) -> None:
    """``side=True``: the panels are the output of a Sidecar (JupyterLab's right area);
    the cell that opened them shows one line, not a second copy of the panels."""
    from sidecar import Sidecar

    board = dashboard(client, session=NotebookSession(client=client), side=True)
    side = board.side
    assert isinstance(side, Sidecar)
    assert (side.title, side.anchor) == ("chatspace", "right")
    # the panels, then the hidden widget that closes a restarted kernel's dead side tab
    views = [o["data"]["application/vnd.jupyter.widget-view+json"] for o in side.outputs]
    stale = board._stale_sides
    assert stale is not None
    assert [v["model_id"] for v in views] == [board.model_id, stale.model_id]
    assert stale.title == "chatspace"
    shown = board._repr_mimebundle_()
    assert shown == {"text/plain": "chatspace opened in the right side area ('chatspace')."}
    board.open_side()  # again (after the user closed its tab): a new area, the old one gone
    assert board.side is not side
    assert (side.comm, stale.comm) == (None, None)
    board.chat.send("Hello from the side")
    assert board.chat.wait(30)
    assert board.chat.error == ""
    board.close()
    assert board.side is None


def test_dashboard_in_a_cell_shows_the_panels(client: chatspace.Client) -> None:
    board = dashboard(client, session=NotebookSession(client=client))
    assert board.side is None
    view = board._repr_mimebundle_()["application/vnd.jupyter.widget-view+json"]
    assert view["model_id"] == board.model_id
    board.close()
