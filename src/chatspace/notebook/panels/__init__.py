"""The chatspace panels (ipywidgets 8): chat, completions, files, workspaces, dashboard.

Every panel takes an optional client (else the notebook session's) and follows the
session's current workspace. Every UI action has a callable twin (``panel.send(...)``,
``browser.select(id)``, ``files.upload([...])``, ``delete(id, confirm=True)``), and
``panel.wait()`` returns when background work (streaming, uploads) has ended.
"""

from .chat import ChatPanel
from .completions import CompletionsBrowser
from .dashboard import Dashboard, dashboard
from .files import FilesPanel
from .workspaces import WorkspacePanel

__all__ = [
    "ChatPanel",
    "CompletionsBrowser",
    "Dashboard",
    "FilesPanel",
    "WorkspacePanel",
    "dashboard",
]
