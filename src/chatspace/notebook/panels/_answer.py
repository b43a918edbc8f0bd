"""``AnswerView``: a turn of the chat panel, with Copy and Insert buttons on its code.

An answer is sanitized HTML made in the kernel (:func:`~chatspace.notebook.markup.
markdown_to_html`), as an ``ipywidgets.HTML`` would show it; this small anywidget shows
it the same way and puts two buttons above each code block once the answer is complete
(``codes`` set). Copy runs in the browser, because the clipboard is the browser's (the
Clipboard API, else a hidden textarea and ``execCommand('copy')`` where the page is not a
secure context). Insert sends the block's index to the kernel, where ``on_insert``
callbacks get its code: the front end of a widget has no handle on JupyterLab's
commands, the kernel has one (:mod:`._cells`). ``insert(i)`` is the button's twin.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anywidget
from traitlets import List, Unicode

__all__ = ["AnswerView"]

_ESM = """
async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.style.cssText = "position: fixed; left: -9999px;";
  document.body.appendChild(area);
  area.select();
  document.execCommand("copy");
  area.remove();
}

function action(label, css, title, onClick) {
  const b = document.createElement("button");
  b.className = "jupyter-button " + css;
  b.textContent = label;
  b.title = title;
  b.style.cssText = "height: 22px; padding: 0 8px; margin-right: 4px; font-size: 11px;";
  b.addEventListener("click", (event) => {
    event.stopPropagation();
    onClick(b);
  });
  return b;
}

function render({ model, el }) {
  const body = document.createElement("div");
  body.className = "chatspace-answer-code";
  el.appendChild(body);
  const draw = () => {
    body.innerHTML = model.get("value");
    const codes = model.get("codes");
    body.querySelectorAll("pre").forEach((pre, index) => {
      if (index >= codes.length) return;
      const bar = document.createElement("div");
      bar.className = "chatspace-code-actions";
      bar.style.cssText = "margin: 4px 0 -2px 0;";
      bar.append(
        action("Copy", "chatspace-copy-code", "Copy this code", async (b) => {
          try {
            await copyText(codes[index]);
            b.textContent = "Copied";
          } catch (err) {
            b.textContent = "Copy failed";
          }
          setTimeout(() => { b.textContent = "Copy"; }, 1500);
        }),
        action("Insert below", "chatspace-insert-code",
          "Put this code into a new cell below the active cell",
          () => model.send({ type: "insert", index })),
      );
      pre.before(bar);
    });
  };
  draw();
  model.on("change:value", draw);
  model.on("change:codes", draw);
}
export default { render };
"""


_CSS = """
.chatspace-answer-code pre {
  background: var(--jp-cell-editor-background, #f5f5f5);
  border: 1px solid var(--jp-border-color2, #e0e0e0);
  padding: 4px 6px;
  overflow-x: auto;
}
"""


class AnswerView(anywidget.AnyWidget):
    """A turn as HTML; each code block gets Copy and Insert buttons once ``codes`` is set."""

    _esm = _ESM
    _css = _CSS
    value = Unicode("", help="The turn as sanitized HTML.").tag(sync=True)
    codes = List(
        Unicode(),
        help="The code of each code block, in the order the HTML shows them; [] while the "
        "answer streams (no buttons yet).",
    ).tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._inserting: list[Callable[[str], Any]] = []
        self.on_msg(self._on_message)

    def on_insert(self, callback: Callable[[str], Any]) -> None:
        """Call ``callback(code)`` when a block's Insert button is clicked."""
        self._inserting.append(callback)

    def insert(self, index: int = 0) -> str:
        """What block ``index``'s Insert button does; returns its code."""
        if not 0 <= index < len(self.codes):
            raise IndexError(f"this answer has {len(self.codes)} code blocks, not {index + 1}")
        code = self.codes[index]
        for callback in self._inserting:
            callback(code)
        return code

    def _on_message(self, _widget: Any, content: dict[str, Any], _buffers: Any) -> None:
        if content.get("type") == "insert":
            self.insert(int(content.get("index", 0)))
