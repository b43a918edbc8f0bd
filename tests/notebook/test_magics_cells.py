"""The notebook as context: ``{In[n]}``, ``{Out[n]}``, ``{Err[n]}`` and ``%chat explain``,
in IPython's real shell, with real failing cells; what the service received is read back
from the stored completion."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
from IPython.utils.capture import capture_output

from chatspace.notebook.cells import cells_of
from chatspace.notebook.context import NotebookContext
from support.magics import run

if TYPE_CHECKING:
    from chatspace.client import Client
    from chatspace.notebook.magics import ChatspaceMagics
    from chatspace.notebook.session import NotebookSession


def cell(ip: Any, source: str) -> Any:
    """Run ``source`` as a numbered notebook cell (in ``In``), hiding its traceback."""
    with capture_output():
        return ip.run_cell(source, store_history=True)


def sent(client: Client, completion_id: str | None) -> str:
    """The user message the service received for a stored completion."""
    assert completion_id is not None
    content = list(client.chat.messages(completion_id))[-2].content
    assert isinstance(content, str)
    return content


@pytest.fixture
def colours(ip: Any) -> Iterator[None]:
    """Tracebacks in colour, as a notebook's kernel shows them."""
    saved = ip.colors
    ip.run_line_magic("colors", "linux")
    yield
    ip.run_line_magic("colors", saved)


def test_cells_source_value_and_error_reach_the_question(
    ip: Any, nb_session: NotebookSession, client: Client, colours: None
) -> None:
    failing = cell(ip, "values = [1, 2]\nvalues[5]")
    assert isinstance(failing.error_in_exec, IndexError)
    fine = cell(ip, "{'rows': 3}")
    n, m = failing.execution_count, fine.execution_count
    ran = run(
        ip,
        f"%%chat\nWhy? {{Err[{n}]}}\nCode: {{In[{n}]}}\nValue: {{Out[{m}]}}\n"
        f'Kept: {{Err[{m}]}} {{Out[{n}]}} {{In}} {{Err}} {{In[99999]}} {{In[0]}} {{"a": 1}}',
    )
    text = sent(client, ran.value.id)
    err, rest = text.removeprefix("Why? ").split("\nCode: ")
    assert err.splitlines()[1].startswith("IndexError")
    assert "Traceback (most recent call last)" in err
    assert f"Cell In[{n}], line 2" in err
    assert "----> 2 values[5]" in err
    assert err.endswith("IndexError: list index out of range")
    assert "\x1b" not in text  # the kernel's colours are not sent
    assert rest == (
        "values = [1, 2]\nvalues[5]\nValue: {'rows': 3}\n"
        f'Kept: {{Err[{m}]}} {{Out[{n}]}} {{In}} {{Err}} {{In[99999]}} {{In[0]}} {{"a": 1}}'
    )
    assert ran.value.interpolated == ["Err", "In", "Out"]


def test_cell_values_are_bounded_as_any_value(
    ip: Any, nb_session: NotebookSession, client: Client, magics: ChatspaceMagics
) -> None:
    frame = cell(ip, "import pandas as pd\npd.DataFrame({'a': range(500)})")
    long = cell(ip, "raise ValueError('x' * 5000)")
    nb_session.settings.max_interpolated_chars = 300
    ran = run(ip, f"%%chat\n{{Out[{frame.execution_count}]}}\n---\n{{Err[{long.execution_count}]}}")
    shown_frame, shown_error = sent(client, ran.value.id).split("\n---\n")
    assert shown_frame.startswith(
        "DataFrame with 500 rows and 1 columns: a (int64)\n```csv\na\n0\n"
    )
    assert shown_frame.endswith("… 490 more rows")
    assert len(shown_error) < 400
    assert shown_error.endswith("more characters left out]")


def test_relative_numbers_count_back_from_the_asking_cell(
    ip: Any, nb_session: NotebookSession, client: Client
) -> None:
    cell(ip, "first = 1")
    cell(ip, "undefined_name + 1")
    ran = run(ip, "%%chat\n{In[-2]} | {In[-1]} | {Err[-1]}", store_history=True)
    text = sent(client, ran.value.id)
    assert text.startswith("first = 1 | undefined_name + 1 | ")
    assert text.endswith("NameError: name 'undefined_name' is not defined")
    # Between cells (the chat panel), -1 is the last cell run: here the %%chat cell.
    names = NotebookContext.current(nb_session).names
    assert names["In"][-1] == "%%chat\n{In[-2]} | {In[-1]} | {Err[-1]}"
    assert names["Err"][-2].endswith("NameError: name 'undefined_name' is not defined")


def test_a_syntax_error_is_kept_as_the_notebook_showed_it(
    ip: Any, nb_session: NotebookSession, client: Client
) -> None:
    broken = cell(ip, "def f(:\n    pass")
    assert isinstance(broken.error_before_exec, SyntaxError)
    cells = cells_of(ip)
    assert cells is not None
    error = cells.error(broken.execution_count)
    assert error is not None
    assert error.splitlines() == [
        f"  Cell In[{broken.execution_count}], line 1",
        "    def f(:",
        "          ^",
        "SyntaxError: invalid syntax",
    ]
    assert cells.error(cell(ip, "1 + 1").execution_count) is None


def test_explain_sends_the_last_failing_cell_and_its_error(
    ip: Any, nb_session: NotebookSession, client: Client
) -> None:
    older = cell(ip, "import json\njson.loads('{bad')")
    failing = cell(ip, "totals = {'a': 1}\ntotals['b']")
    cell(ip, "ok = 1")
    ran = run(ip, "%chat explain", store_history=True)
    n = failing.execution_count
    text = sent(client, ran.value.id)
    head, error = text.split("\n\nIts error:\n")
    assert head == (
        "Explain this error from my notebook and how to fix it.\n\n"
        f"Cell In[{n}]:\n```python\ntotals = {{'a': 1}}\ntotals['b']\n```"
    )
    assert error.startswith("```\n")
    assert error.endswith("\n```")
    assert "KeyError: 'b'" in error
    assert ran.value.interpolated == []  # the braces of the code were sent as they are
    # A cell by number, with %%chat's options.
    older_run = run(ip, f"%chat explain {older.execution_count} --thread debug", store_history=True)
    older_text = sent(client, older_run.value.id)
    assert f"Cell In[{older.execution_count}]:\n```python\nimport json\n" in older_text
    assert "JSONDecodeError" in older_text
    assert older_run.value.thread == "debug"


def test_explain_says_in_one_line_when_there_is_nothing_to_explain(
    ip: Any, nb_session: NotebookSession, client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    fine = cell(ip, "x = 1")
    line = run(ip, f"%chat explain {fine.execution_count}").error_line()
    assert f"cell {fine.execution_count} ran without an error: nothing to explain" in line
    assert "there is no cell 99999" in run(ip, "%chat explain 99999").error_line()
    cells = cells_of(ip)
    assert cells is not None
    monkeypatch.setattr(cells, "errors", {})
    monkeypatch.setattr(ip.history_manager, "exceptions", {})
    line = run(ip, "%chat explain").error_line()
    assert "no cell of this kernel has failed yet: nothing to explain" in line
    assert list(client.chat.list()) == []  # nothing was asked


class _Forgets(dict):  # type: ignore[type-arg]
    """``history_manager.exceptions`` of an IPython that keeps no errors (before 9)."""

    def __setitem__(self, key: Any, value: Any) -> None:
        pass


def test_where_ipython_keeps_no_errors_the_extension_formats_them(
    ip: Any, nb_session: NotebookSession, client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    cells = cells_of(ip)
    assert cells is not None
    kept = cell(ip, "{}['missing']")  # IPython 9 keeps it: not formatted a second time
    assert kept.execution_count in ip.history_manager.exceptions
    assert kept.execution_count not in cells.errors
    monkeypatch.setattr(ip.history_manager, "exceptions", _Forgets())
    failing = cell(ip, "{}['missing']")
    n = failing.execution_count
    assert n not in ip.history_manager.exceptions
    assert cells.errors[n].endswith("KeyError: 'missing'")
    assert f"Cell In[{n}], line 1\n----> 1 {{}}['missing']" in cells.errors[n]
    ran = run(ip, f"%%chat\n{{Err[{n}]}}")
    assert sent(client, ran.value.id) == cells.errors[n]
    assert cells.last_failed() == n


def test_unload_stops_watching_and_load_starts_again(ip: Any) -> None:
    cells = cells_of(ip)
    assert cells is not None
    ip.run_line_magic("unload_ext", "chatspace")
    try:
        assert cells_of(ip) is None
        assert cells.finished not in ip.events.callbacks["post_run_cell"]
        assert cells.started not in ip.events.callbacks["pre_run_cell"]
        unseen = cell(ip, "1/0")
    finally:
        ip.run_line_magic("load_ext", "chatspace")
    again = cells_of(ip)
    assert again is not None
    assert again is not cells
    assert again.finished in ip.events.callbacks["post_run_cell"]
    # IPython 9 kept the error of the cell run while the extension was not loaded.
    error = again.error(unseen.execution_count)
    assert error is not None
    assert error.endswith("ZeroDivisionError: division by zero")
