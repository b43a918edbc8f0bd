"""The kernel's cells as context for a question: ``{In[n]}``, ``{Out[n]}``, ``{Err[n]}``.

IPython keeps what each cell was (``In``) and what it returned (``Out``) by execution
count; IPython 9 also keeps each failing cell's formatted traceback
(``history_manager.exceptions``), earlier versions do not. ``%load_ext chatspace``
therefore watches the shell (:func:`watch`): where IPython kept no traceback, a
``post_run_cell`` handler formats the error with IPython's own formatters (as the notebook
showed it, in the ``%xmode`` in force), so that no traceback is formatted twice. Both are
read without colour codes. A ``pre_run_cell`` handler notes which cell is running, so that
a relative ``-1`` means the cell before the one asking (from a cell) or the last cell run
(from a panel, between cells)::

    cells = cells_of(get_ipython())
    cells.error(5)        # the traceback of cell 5, or None if it ran fine
    cells.last_failed()   # the newest cell that failed, or None
"""

from __future__ import annotations

import re
import traceback
import weakref
from collections.abc import Callable, Mapping
from typing import Any

from .grammar import InputError
from .interpolate import Indexed, render_value

__all__ = ["NotebookCells", "cells_of", "error_question", "unwatch", "watch"]

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_WATCHED: weakref.WeakKeyDictionary[Any, NotebookCells] = weakref.WeakKeyDictionary()


class NotebookCells:
    """The cells of one shell by execution count: their source, value and error."""

    def __init__(self, shell: Any) -> None:
        self.shell = shell
        self.errors: dict[int, str] = {}
        """Execution count -> the traceback of that cell, where IPython kept none."""
        self.running: int | None = None
        """The execution count of the cell running now (None between cells)."""

    # ------------------------------------------------------------------ events

    def started(self, info: Any) -> None:
        """``pre_run_cell``: the count was already advanced for a cell kept in history."""
        self.running = self.shell.execution_count - 1 if info.store_history else None

    def finished(self, result: Any) -> None:
        """``post_run_cell``: keep the cell's error (or forget an older one of that count)."""
        self.running = None
        if result is None or not result.info.store_history:
            return  # such a cell has no number of its own: it shares the next cell's
        n = result.execution_count
        error = result.error_in_exec or result.error_before_exec
        if error is None or n in self._kept:
            self.errors.pop(n, None)
        else:
            self.errors[n] = format_error(self.shell, error)

    @property
    def _kept(self) -> Mapping[int, Mapping[str, Any]]:
        """The tracebacks IPython keeps itself (IPython 9), by execution count."""
        return getattr(self.shell.history_manager, "exceptions", None) or {}

    # ------------------------------------------------------------------ lookups

    def number(self, index: int) -> int | None:
        """The execution count ``index`` names: itself, or relative to the asking cell if < 0."""
        if index < 0:
            index = self._asking() + index
        last = len(self.shell.history_manager.input_hist_raw) - 1
        return index if 1 <= index <= last else None

    def source(self, index: int) -> str | None:
        """What the user typed in the cell (magics as typed, not IPython's translation)."""
        n = self.number(index)
        return None if n is None else self.shell.history_manager.input_hist_raw[n].rstrip("\n")

    def output(self, index: int) -> Any:
        """The cell's value, as IPython keeps it in ``Out`` (KeyError if it had none)."""
        n = self.number(index)
        if n is None:
            raise KeyError(index)
        return self.shell.history_manager.output_hist[n]

    def error(self, index: int) -> str | None:
        """The cell's traceback as the notebook showed it, without colours; None if it ran fine."""
        n = self.number(index)
        if n is None:
            return None
        kept = self._kept.get(n)  # also the cells run before %load_ext, on IPython 9
        return _plain(kept["traceback"]) if kept else self.errors.get(n)

    def last_failed(self) -> int | None:
        """The newest cell before the asking one that failed, or None."""
        asking = self._asking()
        failed = [n for n in (*self.errors, *self._kept) if n < asking]
        return max(failed, default=None)

    def _asking(self) -> int:
        """The number of the cell asking: the running one, else the next (from a panel)."""
        return self.running if self.running is not None else self.shell.execution_count

    def names(self) -> dict[str, Indexed]:
        """``In``, ``Out`` and ``Err`` for :func:`~chatspace.notebook.interpolate.interpolate`."""
        return {
            "In": _Column(self.source),
            "Out": _Column(self.output),
            "Err": _Column(self.error),
        }


class _Column(Indexed):
    """One of ``In``/``Out``/``Err``: a cell's entry by number; a missing one is a KeyError."""

    def __init__(self, lookup: Callable[[int], Any]) -> None:
        self._lookup = lookup

    def __getitem__(self, index: Any) -> Any:
        if not isinstance(index, int):
            raise KeyError(index)
        value = self._lookup(index)
        if value is None:
            raise KeyError(index)
        return value


def error_question(cells: NotebookCells | None, index: int | None, *, max_chars: int) -> str:
    """The question ``%chat explain`` asks: the failing cell's source and its traceback.

    ``index`` None takes the newest cell that failed. Each part is cut at ``max_chars``,
    as an interpolated value would be.
    """
    if index is None:
        index = cells.last_failed() if cells is not None else None
        if index is None:
            raise InputError("no cell of this kernel has failed yet: nothing to explain")
    n = cells.number(index) if cells is not None else None
    if cells is None or n is None:
        raise InputError(f"there is no cell {index} in this kernel's history")
    error = cells.error(n)
    if error is None:
        raise InputError(f"cell {n} ran without an error: nothing to explain")
    source = render_value(cells.source(n), max_chars=max_chars)
    return (
        f"Explain this error from my notebook and how to fix it.\n\n"
        f"Cell In[{n}]:\n{_fenced(source, 'python')}\n\n"
        f"Its error:\n{_fenced(render_value(error, max_chars=max_chars), '')}"
    )


def _fenced(text: str, language: str) -> str:
    """``text`` in a code fence longer than any run of backticks inside it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{text}\n{fence}"


def format_error(shell: Any, error: BaseException) -> str:
    """An error as IPython shows it in a cell (the same formatters), without colour codes."""
    from IPython.core.error import UsageError

    try:
        if isinstance(error, SyntaxError):  # raised while compiling: no frames of its own
            stb = shell.SyntaxTB.structured_traceback(type(error), error, [])
        elif isinstance(error, UsageError):
            stb = [f"UsageError: {error}"]
        elif hasattr(error, "_render_traceback_"):  # an exception that draws itself
            stb = error._render_traceback_()
        else:  # tb_offset=1 leaves out IPython's own frame that ran the cell
            stb = shell.InteractiveTB.structured_traceback(
                type(error), error, error.__traceback__, tb_offset=1
            )
    except Exception:  # a formatter that fails must not lose the error
        stb = ["".join(traceback.format_exception(error))]
    return _plain(stb)


def _plain(stb: list[str]) -> str:
    """A structured traceback as one text, without colour codes (as ``stb2text`` joins it)."""
    return _ANSI.sub("", "\n".join(stb)).strip("\n")


def watch(shell: Any) -> NotebookCells:
    """Start keeping the errors of ``shell``'s cells (``%load_ext chatspace``)."""
    if shell in _WATCHED:
        return _WATCHED[shell]
    cells = NotebookCells(shell)
    shell.events.register("pre_run_cell", cells.started)
    shell.events.register("post_run_cell", cells.finished)
    _WATCHED[shell] = cells
    return cells


def unwatch(shell: Any) -> None:
    """Stop watching ``shell`` (``%unload_ext chatspace``); what was kept is forgotten."""
    cells = _WATCHED.pop(shell, None)
    if cells is None:
        return
    shell.events.unregister("pre_run_cell", cells.started)
    shell.events.unregister("post_run_cell", cells.finished)


def cells_of(shell: Any) -> NotebookCells | None:
    """The cells of ``shell`` if the extension watches it."""
    return _WATCHED.get(shell) if shell is not None else None
