"""The IPython magics: ``%%chat``, ``%chat``, ``%files``, ``%completions``, ``%workspace``.

``%load_ext chatspace`` registers :class:`ChatspaceMagics` and the kernel's settings
(:class:`~chatspace.notebook.settings.ChatspaceSettings`, so that ``%config
ChatspaceSettings.default_model = "x"`` reaches them) and nothing else: the client,
pandas and the command modules are imported when a magic first runs, so that loading
stays fast. The magics hold no setting: they read the session's, as the panels do.
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

from .cells import cells_of, unwatch, watch
from .session import NotebookSession, get_session
from .settings import kernel_settings

if TYPE_CHECKING:
    from .commands import CommandGroup
    from .context import NotebookContext
    from .display import ChatResult

__all__ = ["ChatspaceMagics", "load_ipython_extension", "unload_ipython_extension"]


@magics_class
class ChatspaceMagics(Magics):
    """Chat with a model over your files, from notebook cells."""

    @property
    def session(self) -> NotebookSession:
        """The notebook session (a new one after ``reset_session``)."""
        return get_session()

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
            set_next_input=self._propose_cell,
            shown=self.shown,
            cells=cells_of(shell),
        )

    def _propose_cell(self, code: str) -> None:
        if self.shell is not None:
            self.shell.set_next_input(code, replace=False)

    def shown(self, result: ChatResult) -> None:
        """``result`` is already on screen: the cell's Out must not show it again."""
        from .display import ON_SCREEN

        ON_SCREEN.add(result)

    def _after_cell(self, *_: Any) -> None:
        from .display import ON_SCREEN

        ON_SCREEN.clear()  # later cells display the results normally

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
            if kernel_settings().show_tracebacks:
                raise
            show_failure(magic, exc)
        except KeyboardInterrupt:
            show_failure(magic, KeyboardInterrupt())
        return None


# ``%chat QUESTION?``: IPython reads a line ending in ``?`` as a help request for the last
# word ("Object `March` not found."); the lines whose rest is a question or words to find
# (%chat, %files search, %completions search) are turned into the magic's call before that.
_QUESTION_LINE = re.compile(
    r"^([ \t]*)((?:[A-Za-z_][A-Za-z0-9_]*[ \t]*=[ \t]*)?)"
    r"%(chat|(?:files|completions)[ \t]+search)(?=[ \t])(.*?)(\r?\n?)$"
)

# ``%%chat --help`` has no body, and IPython refuses a cell magic with an empty one
# before the magic could answer: such a cell becomes the call with a blank body.
_CHAT_CELL = re.compile(r"^%%chat(?:[ \t]+(.*?))?[ \t]*\r?\n?$")


def protect_questions(lines: list[str]) -> list[str]:
    """An input transformer: ``%chat ...?`` and ``%files search ...?`` lines (and
    ``%completions search``) become ``run_line_magic`` calls, and a ``%%chat`` cell
    without a body (``%%chat --help``) reaches the magic, which IPython would refuse with
    "the cell body is empty"."""
    header = _CHAT_CELL.match(lines[0]) if lines else None
    if header and not "".join(lines[1:]).strip():
        body = "".join(lines[1:]) or "\n"
        return [f"get_ipython().run_cell_magic('chat', {header.group(1) or ''!r}, {body!r})\n"]
    if lines and lines[0].lstrip().startswith("%%"):  # a cell magic's body is not Python
        return lines
    out = []
    for line in lines:
        match = _QUESTION_LINE.match(line)
        rest = match.group(4).strip() if match else ""
        if match and rest.endswith("?") and rest.strip("?"):
            indent, target, called, _, newline = match.groups()
            magic, *verb = called.split()
            args = " ".join([*verb, rest])
            line = f"{indent}{target}get_ipython().run_line_magic({magic!r}, {args!r}){newline}"
        out.append(line)
    return out


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext chatspace``: register the magics (they import the rest on first use)
    and the settings, with what ``%config`` set before."""
    settings = kernel_settings()
    settings.update_config(ipython.config)
    if settings not in ipython.configurables:
        ipython.configurables.append(settings)
    magics = ChatspaceMagics(ipython)
    ipython.register_magics(magics)
    ipython.events.register("post_run_cell", magics._after_cell)
    watch(ipython)  # the errors of cells, for {Err[n]} and %chat explain
    if protect_questions not in ipython.input_transformers_cleanup:
        ipython.input_transformers_cleanup.append(protect_questions)
    ipython.user_ns.setdefault("_chat", None)


def unload_ipython_extension(ipython: Any) -> None:
    """``%unload_ext chatspace``: forget the magics; ``%config`` no longer reaches the
    settings (which keep their values)."""
    magics = ipython.magics_manager.registry.get("ChatspaceMagics")
    if magics is None:
        return
    with contextlib.suppress(ValueError):  # registered by load_ipython_extension only
        ipython.events.unregister("post_run_cell", magics._after_cell)
    unwatch(ipython)
    with contextlib.suppress(ValueError):
        ipython.input_transformers_cleanup.remove(protect_questions)
    for table in ipython.magics_manager.magics.values():
        for name in [n for n, fn in table.items() if getattr(fn, "__self__", None) is magics]:
            del table[name]
    del ipython.magics_manager.registry["ChatspaceMagics"]
    for configurable in (magics, kernel_settings()):
        if configurable in ipython.configurables:
            ipython.configurables.remove(configurable)
