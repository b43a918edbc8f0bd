"""Pickers fed by the service: the workspace dropdown shared by every panel, the models.

A picker's options change under it (a refresh, a workspace created by a magic), and
ipywidgets then selects the first option for a moment; the ``_quiet`` guard keeps that
moment from switching the notebook's workspace.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import ipywidgets as w

if TYPE_CHECKING:
    from chatspace.client import Client

    from ._common import Panel

__all__ = ["WorkspacePicker", "file_choices", "list_models", "set_options"]


def list_models(client: Client) -> list[str]:
    """Ids of the models the service serves (``GET /models``)."""
    return [m.id for m in client.models.list()]


def file_choices(picker: w.Widget, files: Sequence[tuple[str, str]]) -> None:
    """Offer files by their whole names, ``(filename, id)`` pairs; the id is added only
    where two files share a name. The tooltip lists them all, for names wider than the box."""
    names = [name for name, _ in files]
    picker.options = [
        (name if names.count(name) == 1 else f"{name} ({file_id})", file_id)
        for name, file_id in files
    ]
    picker.tooltip = "\n".join(label for label, _ in picker.options) or None


def set_options(picker: w.Dropdown, options: Sequence[Any], value: Any) -> None:
    """Replace a dropdown's options and select ``value`` (added when missing)."""
    pairs = [o if isinstance(o, tuple) else (str(o), o) for o in options]
    if value is not None and value not in [v for _, v in pairs]:
        pairs.append((str(value), value))
    picker.options = pairs
    if value is not None:
        picker.value = value


class WorkspacePicker(w.Dropdown):
    """The current workspace: following the panel's ``workspace``, and setting it."""

    def __init__(self, panel: Panel) -> None:
        super().__init__(description="Workspace", options=[panel.workspace], value=panel.workspace)
        self.add_class("chatspace-workspace")
        self._panel = panel
        self._quiet_depth = 0
        panel.observe(self._on_panel_workspace, "workspace")
        self.observe(self._on_pick, "value")

    @contextmanager
    def _quiet(self) -> Iterator[None]:
        self._quiet_depth += 1
        try:
            yield
        finally:
            self._quiet_depth -= 1

    def reload(self) -> None:
        """Offer the caller's workspaces, keeping the current one selected."""
        ids = [ws.id for ws in self._panel.client.workspaces.list()]
        with self._quiet():
            set_options(self, ids, self._panel.workspace)

    def _on_panel_workspace(self, change: dict[str, Any]) -> None:
        with self._quiet():
            set_options(self, self.options, change["new"])

    def _on_pick(self, change: dict[str, Any]) -> None:
        if not self._quiet_depth and change["new"]:
            self._panel.workspace = change["new"]
