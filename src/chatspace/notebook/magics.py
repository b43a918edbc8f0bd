"""The IPython magics: ``%%chat``, ``%chat``, ``%files``, ``%completions``, ``%workspace``.

``%load_ext chatspace`` registers :class:`ChatspaceMagics` and nothing else: the client,
pandas and the command modules are imported when a magic first runs, so that loading
stays fast. Settings are traitlets (``%config ChatspaceMagics.default_model = "x"``)
linked to the notebook session, so the panels see the same model, workspace, store
and stream defaults, and a change on either side shows on the other.

Whatever goes wrong in a magic (a bad option, an unknown file, a 403, no service) is
shown as one line in the output, never as a traceback.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from IPython.core.magic import (
    Magics,
    line_cell_magic,
    line_magic,
    magics_class,
    no_var_expand,
)
from traitlets import Bool, Float, Int, Unicode, link

from .session import NotebookSession, get_session

if TYPE_CHECKING:
    from .commands import CommandGroup
    from .display import ChatResult
    from .threads import ThreadBook

__all__ = ["ChatspaceMagics", "load_ipython_extension", "unload_ipython_extension"]

# ChatspaceMagics trait -> NotebookSession trait
_SHARED = {
    "default_model": "model",
    "default_workspace": "workspace",
    "store": "store",
    "stream": "stream",
}


@magics_class
class ChatspaceMagics(Magics):
    """Chat with a model over your files, from notebook cells."""

    default_model = Unicode(
        "service-l0", help="Model used when a call names none (shared with the panels)."
    ).tag(config=True)
    default_workspace = Unicode(
        "default",
        help="Workspace every magic works in; %workspace NAME changes it (shared with panels).",
    ).tag(config=True)
    store = Bool(
        True, help="Store completions, tagged with notebook and thread (--no-store for one call)."
    ).tag(config=True)
    stream = Bool(True, help="Stream answers into the output as they arrive.").tag(config=True)
    stream_throttle = Float(
        0.1, help="Seconds between two updates of a streaming answer (long answers stay cheap)."
    ).tag(config=True)
    thread_token_budget = Int(
        4000, help="Tokens of earlier turns a thread may send again; older turns are left out."
    ).tag(config=True)
    max_interpolated_chars = Int(
        20_000, help="Longest text one {name} may put into a prompt; longer values are cut."
    ).tag(config=True)
    show_tracebacks = Bool(
        False, help="Raise errors with their traceback instead of one line (for debugging)."
    ).tag(config=True)

    def __init__(self, shell: Any = None, session: NotebookSession | None = None, **kw: Any):
        super().__init__(shell=shell, **kw)
        self._session: NotebookSession | None = None
        self._links: list[link] = []
        self._threads: ThreadBook | None = None
        self.frame_uploads: dict[tuple[str, str, str], str] = {}
        self._shown: list[ChatResult] = []
        if session is not None:
            self._bind(session)

    # ------------------------------------------------------------------ shared state

    @property
    def session(self) -> NotebookSession:
        """The notebook session (re-linked if it was replaced, e.g. by ``reset_session``)."""
        current = get_session()
        if self._session is not current:
            self._bind(current)
        assert self._session is not None
        return self._session

    def _bind(self, session: NotebookSession) -> None:
        for old in self._links:
            old.unlink()
        self._session = session
        # The magics' values win at first: they hold what %config and ipython_config set.
        self._links = [link((self, mine), (session, theirs)) for mine, theirs in _SHARED.items()]

    @property
    def threads(self) -> ThreadBook:
        if self._threads is None:
            from .threads import ThreadBook

            self._threads = ThreadBook()
        return self._threads

    def live_updates(self) -> bool:
        """Whether outputs can change in place (a kernel or a capture), not a terminal."""
        from IPython.core.displaypub import DisplayPublisher

        return self.shell is not None and type(self.shell.display_pub) is not DisplayPublisher

    def notebook_name(self) -> str | None:
        """The notebook's file name, when the front end tells it (JupyterLab, VS Code)."""
        path = os.environ.get("JPY_SESSION_NAME")
        if not path and self.shell is not None:
            path = self.shell.user_ns.get("__vsc_ipynb_file__")
        return os.path.basename(str(path)) if path else None

    def shown(self, result: ChatResult) -> None:
        """``result`` is already on screen: the cell's Out must not show it again."""
        result._suppress_display = True
        self._shown.append(result)

    def _after_cell(self, *_: Any) -> None:
        # Later cells display the result normally (``r = %chat ...`` then ``r``).
        for result in self._shown:
            result._suppress_display = False
        self._shown.clear()

    # ------------------------------------------------------------------ magics

    @no_var_expand  # braces are ours: safe interpolation, not IPython's eval of {expr}
    @line_cell_magic
    def chat(self, line: str, cell: str | None = None) -> Any:
        """Ask a question over your files: ``%%chat [options]`` with the question in the
        cell, or ``%chat [options] QUESTION``; ``%chat --help`` for everything."""
        from .cmd_chat import chat_cell, chat_line

        if cell is None:
            return self._guard("%chat", chat_line, self, line)
        return self._guard("%%chat", chat_cell, self, line, cell)

    @line_magic("files")  # type: ignore[arg-type]  # IPython types the name form poorly
    def files_magic(self, line: str) -> Any:
        """Files of the workspace: list, upload, rm, get, show, meta (``%files --help``)."""
        return self._run_group("files", line)

    @line_magic("completions")  # type: ignore[arg-type]  # IPython types the name form poorly
    def completions_magic(self, line: str) -> Any:
        """Stored completions as a DataFrame; ``show ID`` for one (``%completions --help``)."""
        return self._run_group("completions", line)

    @line_magic("workspace")  # type: ignore[arg-type]  # IPython types the name form poorly
    def workspace_magic(self, line: str) -> Any:
        """Show or switch the workspace, and manage workspaces and users (``--help``)."""
        return self._run_group("workspace", line)

    def _run_group(self, name: str, line: str) -> Any:
        from .cmd_groups import group

        command: CommandGroup = group(name)
        return self._guard(command.magic, command, self, line)

    def _guard(self, magic: str, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a magic; any failure becomes one line of output instead of a traceback."""
        from .display import show_failure

        try:
            return fn(*args)
        except Exception as exc:
            if self.show_tracebacks:
                raise
            show_failure(magic, exc)
        except KeyboardInterrupt:
            show_failure(magic, KeyboardInterrupt())
        return None


# ``%chat QUESTION?``: IPython reads a line ending in ``?`` as a help request for the last
# word; a %chat line is a question, so it is turned into the magic's call before that.
_CHAT_LINE = re.compile(
    r"^([ \t]*)((?:[A-Za-z_][A-Za-z0-9_]*[ \t]*=[ \t]*)?)%chat(?=[ \t])(.*?)(\r?\n?)$"
)


def protect_questions(lines: list[str]) -> list[str]:
    """An input transformer: ``%chat ...?`` lines become ``run_line_magic`` calls."""
    if lines and lines[0].lstrip().startswith("%%"):  # a cell magic's body is not Python
        return lines
    out = []
    for line in lines:
        match = _CHAT_LINE.match(line)
        rest = match.group(3).strip() if match else ""
        if match and rest.endswith("?") and rest.strip("?"):
            indent, target, _, newline = match.groups()
            line = f"{indent}{target}get_ipython().run_line_magic('chat', {rest!r}){newline}"
        out.append(line)
    return out


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext chatspace``: register the magics (they import the rest on first use)."""
    magics = ChatspaceMagics(ipython)
    ipython.register_magics(magics)
    ipython.events.register("post_run_cell", magics._after_cell)
    if protect_questions not in ipython.input_transformers_cleanup:
        ipython.input_transformers_cleanup.append(protect_questions)
    ipython.user_ns.setdefault("_chat", None)


def unload_ipython_extension(ipython: Any) -> None:
    """``%unload_ext chatspace``: forget the magics and their settings object."""
    magics = ipython.magics_manager.registry.get("ChatspaceMagics")
    if magics is None:
        return
    with contextlib.suppress(ValueError):  # registered by load_ipython_extension only
        ipython.events.unregister("post_run_cell", magics._after_cell)
    with contextlib.suppress(ValueError):
        ipython.input_transformers_cleanup.remove(protect_questions)
    for table in ipython.magics_manager.magics.values():
        for name in [n for n, fn in table.items() if getattr(fn, "__self__", None) is magics]:
            del table[name]
    del ipython.magics_manager.registry["ChatspaceMagics"]
    if magics in ipython.configurables:
        ipython.configurables.remove(magics)
