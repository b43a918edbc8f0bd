"""The IPython magics: ``%%chat``, ``%chat``, ``%files``, ``%completions``, ``%workspace``.

``%load_ext chatspace`` registers :class:`ChatspaceMagics` and nothing else: the client,
pandas and the command modules are imported when a magic first runs, so that loading
stays fast. Settings are traitlets (``%config ChatspaceMagics.default_model = "x"``)
linked to the notebook session, so the panels see the same model, workspace, store,
stream, top_k, format and history budget, and a change on either side shows on the other.
The magics only parse their lines: the commands get a narrow
:class:`~chatspace.notebook.context.NotebookContext`, never this object.

Whatever goes wrong in a magic (a bad option, an unknown file, a 403, no service) is
shown as one line in the output, never as a traceback.
"""

from __future__ import annotations

import contextlib
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
from traitlets import Bool, Enum, Float, Int, Unicode, link

from chatspace._wire import DEFAULT_MODEL

from .cells import cells_of, unwatch, watch
from .formats import FORMATS
from .session import NotebookSession, get_session, off_new_session, on_new_session

if TYPE_CHECKING:
    from .commands import CommandGroup
    from .context import NotebookContext
    from .display import ChatResult

__all__ = ["ChatspaceMagics", "load_ipython_extension", "unload_ipython_extension"]

# ChatspaceMagics trait -> NotebookSession trait
_SHARED = {
    "default_model": "model",
    "default_workspace": "workspace",
    "store": "store",
    "stream": "stream",
    "default_top_k": "top_k",
    "default_format": "format",
    "thread_token_budget": "history_tokens",
}


@magics_class
class ChatspaceMagics(Magics):
    """Chat with a model over your files, from notebook cells."""

    default_model = Unicode(
        "",
        help="Model used when a call names none (shared with the panels); '': the one "
        f"connected model if exactly one is, else {DEFAULT_MODEL}.",
    ).tag(config=True)
    default_workspace = Unicode(
        "default",
        help="Workspace every magic works in; %workspace NAME changes it (shared with panels).",
    ).tag(config=True)
    store = Bool(
        True, help="Store completions, tagged with notebook and thread (--no-store for one call)."
    ).tag(config=True)
    stream = Bool(True, help="Stream answers into the output as they arrive.").tag(config=True)
    default_top_k = Int(
        0, min=0, max=50, help="Passages to retrieve when a call says not; 0: the service's."
    ).tag(config=True)
    default_format = Enum(
        FORMATS, "markdown", help="--format when a call gives none (shared with the panels)."
    ).tag(config=True)
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
        if self.default_workspace == "default":  # none chosen: the session's start wins
            self.default_workspace = session.workspace  # (CHATSPACE_WORKSPACE, the last one)
        # The magics' values win at first: they hold what %config and ipython_config set.
        self._links = [link((self, mine), (session, theirs)) for mine, theirs in _SHARED.items()]

    def context(self) -> NotebookContext:
        """What the commands may know of the notebook (they never see this object)."""
        from IPython.core.displaypub import DisplayPublisher

        from .context import NotebookContext

        shell = self.shell
        return NotebookContext(
            session=self.session,
            namespace=shell.user_ns if shell is not None else {},
            # outputs change in place in a kernel or a capture, not in a terminal
            live=shell is not None and type(shell.display_pub) is not DisplayPublisher,
            stream_throttle=self.stream_throttle,
            max_interpolated_chars=self.max_interpolated_chars,
            set_next_input=self._propose_cell,
            shown=self.shown,
            cells=cells_of(shell),
        )

    def _propose_cell(self, code: str) -> None:
        if self.shell is not None:
            self.shell.set_next_input(code, replace=False)

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
            return self._guard("%chat", lambda: chat_line(self.context(), line))
        return self._guard("%%chat", lambda: chat_cell(self.context(), line, cell))

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
        return self._guard(command.magic, lambda: command(self.context(), line))

    def _guard(self, magic: str, run: Callable[[], Any]) -> Any:
        """Run a magic; any failure becomes one line of output instead of a traceback."""
        from .display import show_failure

        try:
            return run()
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

# ``%%chat --help`` has no body, and IPython refuses a cell magic with an empty one
# before the magic could answer: such a cell becomes the call with a blank body.
_CHAT_CELL = re.compile(r"^%%chat(?:[ \t]+(.*?))?[ \t]*\r?\n?$")


def protect_questions(lines: list[str]) -> list[str]:
    """An input transformer: ``%chat ...?`` lines become ``run_line_magic`` calls, and a
    ``%%chat`` cell without a body (``%%chat --help``) reaches the magic, which IPython
    would refuse with "the cell body is empty"."""
    header = _CHAT_CELL.match(lines[0]) if lines else None
    if header and not "".join(lines[1:]).strip():
        body = "".join(lines[1:]) or "\n"
        return [f"get_ipython().run_cell_magic('chat', {header.group(1) or ''!r}, {body!r})\n"]
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
    on_new_session(magics._bind)  # a panel opened first still gets %config's values
    ipython.events.register("post_run_cell", magics._after_cell)
    watch(ipython)  # the errors of cells, for {Err[n]} and %chat explain
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
    unwatch(ipython)
    with contextlib.suppress(ValueError):
        ipython.input_transformers_cleanup.remove(protect_questions)
    off_new_session(magics._bind)
    for table in ipython.magics_manager.magics.values():
        for name in [n for n, fn in table.items() if getattr(fn, "__self__", None) is magics]:
            del table[name]
    del ipython.magics_manager.registry["ChatspaceMagics"]
    if magics in ipython.configurables:
        ipython.configurables.remove(magics)
