"""``StaleSides``: closes the side tabs a restarted kernel left behind.

A kernel restart leaves a ``sidecar`` tab in JupyterLab's side bar: ipywidgets marks the
dead kernel's views disconnected (``jupyter-widgets-disconnected``) instead of removing
them, and the sidecar's shell widget goes on showing them. Running the notebook again
opens a second tab beside it, and the user sees two "chatspace" tabs, one of them dead.

The kernel cannot reach the dead views (their models went with the old kernel), and a
widget's front end has no handle on JupyterLab's shell; so this widget, shown with the
new side area, closes in the browser every closable side tab of the same title whose
dashboard is disconnected, the way a user would: a click on the tab's close icon (the
sidecar extension disposes a tab whose close is requested).
"""

from __future__ import annotations

import anywidget
from traitlets import Unicode

__all__ = ["StaleSides"]

_ESM = """
function disconnected(tab, title) {
  const label = tab.querySelector(".lm-TabBar-tabLabel");
  const panel = document.getElementById(tab.dataset.id);
  return !!label && label.textContent === title && !!panel
    && !!panel.querySelector(".chatspace-dashboard.jupyter-widgets-disconnected");
}

function closeStale(title) {
  const tabs = document.querySelectorAll(
    ".jp-SideBar .lm-TabBar-tab.lm-mod-closable[data-id]");
  for (const tab of tabs) {
    if (!disconnected(tab, title)) continue;
    const icon = tab.querySelector(".lm-TabBar-tabCloseIcon");
    const r = icon && icon.getBoundingClientRect();
    if (!r || r.width === 0) continue;  // a hidden side bar: nothing to click
    const at = { bubbles: true, cancelable: true, button: 0, isPrimary: true,
                 pointerId: 1, clientX: r.x + r.width / 2, clientY: r.y + r.height / 2 };
    icon.dispatchEvent(new PointerEvent("pointerdown", at));
    icon.dispatchEvent(new PointerEvent("pointerup", at));
  }
}

function render({ model, el }) {
  el.style.display = "none";
  // after this render: the side area's own tab is in the side bar by then
  requestAnimationFrame(() => closeStale(model.get("title")));
}
export default { render };
"""


class StaleSides(anywidget.AnyWidget):
    """Shown (invisibly) with a side area: closes that title's tabs of dead kernels."""

    _esm = _ESM
    title = Unicode(help="The side tabs' title (the dashboard's SIDE_TITLE).").tag(sync=True)
