"""Pieces every panel shares: the base class, the error line, the confirm dialog, tables.

Each panel is a ``VBox`` subclass whose UI actions all have a callable twin (like
``Button.on_click()`` and ``Button.click()``), so tests and users drive it from Python.
Errors never escape an action: they become one escaped line in the panel (``panel.error``).
Background work (streaming, uploads) runs in one thread per panel; ``panel.wait()`` returns
when it ends, built on a ``threading.Event`` so that nobody has to sleep.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import ipywidgets as w
from traitlets import Bool, Unicode, link

from chatspace.errors import ChatspaceError
from chatspace.notebook.failures import told
from chatspace.notebook.grammar import InputError
from chatspace.notebook.markup import escape

if TYPE_CHECKING:
    from chatspace.client import Client
    from chatspace.notebook.session import NotebookSession

__all__ = [
    "Confirm",
    "ErrorLine",
    "Panel",
    "PanelInputError",
    "action",
    "button",
    "one_line",
    "render_table",
    "row",
]

P = ParamSpec("P")
R = TypeVar("R")

_MAX_ERROR = 400
_MAX_CELL = 160
# Widget HTML inherits a 28px line height meant for one-line controls; table text wraps.
_TABLE_STYLE = (
    "<style>.chatspace-table th, .chatspace-table td {padding: 3px 8px; text-align: left;"
    " vertical-align: top; line-height: 1.35; border-bottom: 1px solid"
    " var(--jp-border-color2, #ddd)} .chatspace-table a, a.chatspace-download-link"
    " {color: var(--jp-content-link-color, #1976d2); text-decoration: underline}</style>"
)


class PanelInputError(InputError):
    """Input typed into a panel that cannot be sent (empty name, nothing selected, ...)."""


def one_line(exc: BaseException | str) -> str:
    """An error as one short line: what happened, never a traceback."""
    if isinstance(exc, str):
        text = exc
    elif isinstance(exc, ChatspaceError):
        text = told(exc)  # without the request's URL
    elif isinstance(exc, InputError):
        text = str(exc)
    else:
        text = f"{type(exc).__name__}: {exc}"
    text = " ".join(text.split()) or type(exc).__name__
    return text if len(text) <= _MAX_ERROR else text[: _MAX_ERROR - 1] + "…"


class ErrorLine(w.HTML):
    """One line in the panel for the last error; empty and hidden when there is none."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("chatspace-error")
        self.layout.display = "none"

    def show(self, message: str) -> None:
        self.value = (
            f'<span style="color: var(--jp-error-color1, #c62828)">⚠ {escape(message)}</span>'
        )
        self.layout.display = None

    def clear(self) -> None:
        self.value = ""
        self.layout.display = "none"


class Confirm(w.HBox):
    """An inline yes/no question; ``accept()`` and ``reject()`` are the buttons' twins."""

    question = Unicode("", help="The question asked; '' when no question is pending.")

    def __init__(self, **kwargs: Any) -> None:
        self._label = w.Label()
        self._yes = button("Yes, delete", "chatspace-confirm-yes", style="danger")
        self._no = button("Cancel", "chatspace-confirm-no")
        super().__init__([self._label, self._yes, self._no], **kwargs)
        self.add_class("chatspace-confirm")
        self._action: Callable[[], Any] | None = None
        self._yes.on_click(lambda _: self.accept())
        self._no.on_click(lambda _: self.reject())
        self.layout.display = "none"

    def ask(self, question: str, action: Callable[[], Any]) -> None:
        """Show the question; ``action`` runs only when it is accepted."""
        self.question = question
        self._label.value = question  # a Label shows text, never HTML
        self._action = action
        self.layout.display = None

    def accept(self) -> Any:
        action, self._action = self._action, None
        self._hide()
        return action() if action is not None else None

    def reject(self) -> None:
        self._action = None
        self._hide()

    def _hide(self) -> None:
        self.question = ""
        self.layout.display = "none"


def button(description: str, css: str, *, style: str = "", tooltip: str = "") -> w.Button:
    """A button with a stable CSS class, so browser tests can find it."""
    b = w.Button(description=description, button_style=style, tooltip=tooltip or description)
    b.add_class(css)
    return b


def row(*children: w.Widget) -> w.HBox:
    """Controls side by side that wrap onto the next line where the panel is narrow (the
    side area), instead of being cut off."""
    return w.HBox(list(children), layout=w.Layout(flex_flow="row wrap"))


def render_table(
    columns: Sequence[str],
    rows: Iterable[Mapping[str, Any]],
    *,
    css: str,
    raw: Sequence[str] = (),
    row_id: str = "id",
    empty: str = "Nothing here yet.",
) -> str:
    """An HTML table; every cell is escaped except the columns named in ``raw``.

    ``raw`` columns must hold HTML the caller built from escaped parts (links).
    """
    head = "".join(f"<th>{escape(c)}</th>" for c in columns)
    body = []
    for row in rows:
        cells = "".join(
            f"<td>{row.get(c, '') if c in raw else escape(_cell(row.get(c)))}</td>" for c in columns
        )
        body.append(f'<tr data-id="{escape(row.get(row_id, ""))}">{cells}</tr>')
    if not body:
        return f'<div class="{escape(css)} chatspace-empty"><i>{escape(empty)}</i></div>'
    return (
        f'{_TABLE_STYLE}<table class="chatspace-table {escape(css)}" '
        'style="border-collapse: collapse; font-size: 12px">'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    )


def _cell(value: Any) -> str:
    """A cell's text, cut short: a huge metadata value must not flood the table."""
    if value is None:
        return ""
    if isinstance(value, Mapping):
        text = ", ".join(f"{k}={v}" for k, v in value.items())
    else:
        text = str(value)
    return text if len(text) <= _MAX_CELL else text[: _MAX_CELL - 1] + "…"


def action(method: Callable[P, R]) -> Callable[P, R | None]:
    """Run a panel action: clear the error line first, show any failure as one line."""

    @functools.wraps(method)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R | None:
        panel = args[0]
        assert isinstance(panel, Panel)
        panel.clear_error()
        try:
            return method(*args, **kwargs)
        except Exception as exc:  # a UI action reports, it does not raise
            panel.show_error(exc)
            return None

    return wrapper


class Panel(w.VBox):
    """Base of the panels: client and session, workspace, error line, background work."""

    error = Unicode("", help="The last error shown in the panel as one line; '' when none.")
    busy = Bool(False, help="True while background work runs; wait() returns when it ends.")
    workspace = Unicode(
        "default", help="The workspace the panel works in, shared with the notebook session."
    )

    def __init__(
        self,
        client: Client | None = None,
        *,
        session: NotebookSession | None = None,
        **kwargs: Any,
    ) -> None:
        from chatspace.notebook.session import get_session

        super().__init__(**kwargs)
        self._client = client
        self._session = session if session is not None else get_session()
        self.error_line = ErrorLine()
        self.confirm = Confirm()
        self._idle = threading.Event()
        self._idle.set()
        self._thread: threading.Thread | None = None
        shared = (self._session.settings, "default_workspace")
        self._link: link | None = link(shared, (self, "workspace"))

    @property
    def client(self) -> Client:
        """The panel's own client, else the notebook session's."""
        return self._client if self._client is not None else self._session.client

    @property
    def session(self) -> NotebookSession:
        return self._session

    # ---------------------------------------------------------------- errors

    def show_error(self, exc: BaseException | str) -> None:
        self.error = one_line(exc)
        self.error_line.show(self.error)

    def clear_error(self) -> None:
        self.error = ""
        self.error_line.clear()

    # ---------------------------------------------------------------- background work

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the panel's background work ends; False if ``timeout`` ran out."""
        return self._idle.wait(timeout)

    def _start(self, work: Callable[[], None], *, name: str) -> bool:
        """Run ``work`` in a thread, so that the kernel stays free; False when busy."""
        if not self._idle.is_set():
            self.show_error("Still working on the previous request; wait or stop it first.")
            return False
        self._idle.clear()
        self.busy = True

        def run() -> None:
            try:
                work()
            except Exception as exc:  # shown in the panel: a thread has nobody to raise to
                self.show_error(exc)
            finally:
                self.busy = False
                self._idle.set()

        self._thread = threading.Thread(target=run, name=f"chatspace-{name}", daemon=True)
        self._thread.start()
        return True

    def close(self) -> None:
        """Close the widget and stop following the session (again a no-op: ipywidgets
        closes every widget once more when it is collected)."""
        if self._link is not None:
            self._link.unlink()
            self._link = None
        super().close()
