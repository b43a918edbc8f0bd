"""``PromptBox``: the chat panel's input, where Enter sends and Shift+Enter adds a line.

ipywidgets' ``Textarea`` tells the kernel nothing about keys, so this is a small
anywidget: a textarea whose Enter (without Shift, and not while an input method composes)
sends a ``submit`` message holding the text. The text travels in that message, not as a
state update before it: the front end holds back state updates while earlier ones are
unanswered, and a message sent meanwhile would overtake them (the kernel would ask the
first letter). Otherwise ``value`` follows the box when it loses focus (a click on Send).
Keys stop at the box, so JupyterLab's own Shift+Enter (run the cell) does not fire while
one types a question. ``submit()`` is the key's twin for tests and scripts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anywidget
from traitlets import Bool, Int, Unicode

__all__ = ["PromptBox"]

_ESM = """
function render({ model, el }) {
  const area = document.createElement("textarea");
  area.className = "chatspace-prompt-area";
  area.style.cssText = "width: 100%; box-sizing: border-box; resize: vertical;"
    + " font: inherit; padding: 4px 6px;";
  const sync = () => {
    area.rows = model.get("rows");
    area.placeholder = model.get("placeholder");
    area.disabled = model.get("disabled");
    if (area.value !== model.get("value")) area.value = model.get("value");
  };
  sync();
  model.on("change", sync);
  area.addEventListener("change", () => {
    model.set("value", area.value);
    model.save_changes();
  });
  area.addEventListener("keydown", (event) => {
    event.stopPropagation();
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      model.send({ type: "submit", text: area.value });
    }
  });
  el.appendChild(area);
}
export default { render };
"""


class PromptBox(anywidget.AnyWidget):
    """A multi-line text box: Enter sends (``on_submit``), Shift+Enter starts a new line."""

    _esm = _ESM
    value = Unicode("", help="The text typed so far.").tag(sync=True)
    placeholder = Unicode("", help="Shown while the box is empty.").tag(sync=True)
    rows = Int(3, help="Visible lines.").tag(sync=True)
    disabled = Bool(False, help="True to refuse typing.").tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("chatspace-chat-input")
        self._submitted: list[Callable[[PromptBox], Any]] = []
        self.on_msg(self._on_message)

    def on_submit(self, callback: Callable[[PromptBox], Any]) -> None:
        """Call ``callback(box)`` when Enter is pressed."""
        self._submitted.append(callback)

    def submit(self, text: str | None = None) -> None:
        """What pressing Enter does: ``value`` becomes ``text`` (when given), then every
        ``on_submit`` callback runs."""
        if text is not None:
            self.value = text
        for callback in self._submitted:
            callback(self)

    def _on_message(self, _widget: Any, content: dict[str, Any], _buffers: Any) -> None:
        if content.get("type") == "submit":
            self.submit(str(content.get("text", self.value)))
