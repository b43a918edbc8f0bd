"""New cells in the notebook the user works in, from the kernel, by JupyterLab's commands.

IPython's ``set_next_input`` (what ``%%chat --format code`` uses) travels in the reply of
a cell that runs, so a button clicked later has nothing to send it with; and a widget's
front end has no handle on JupyterLab's application. ipylab (JupyterLab's own project, a
prebuilt extension for JupyterLab 4) gives the kernel the command registry, so an insert
is what the notebook's menu does: a cell below the active cell of the current notebook
(also when the click came from the side area), then the code into its editor.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ipylab import JupyterFrontEnd

__all__ = ["front_end", "insert_below"]

_front_end: JupyterFrontEnd | None = None


def front_end() -> JupyterFrontEnd:
    """The kernel's one handle on JupyterLab (made once: its model must exist in the
    front end before the first command is sent, so panels make it when they open)."""
    global _front_end
    if _front_end is None:
        from ipylab import JupyterFrontEnd

        _front_end = JupyterFrontEnd()
    return _front_end


def insert_below(code: str) -> None:
    """Put ``code`` into a new cell below the active cell of the current notebook."""
    commands = front_end().commands
    commands.execute("notebook:insert-cell-below")
    commands.execute("notebook:replace-selection", {"text": code})
