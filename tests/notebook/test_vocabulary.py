"""docs/vocabulary.md: the table names what exists, and nothing else answers.

The magics run in a real IPython shell against the real service; the panels are real
widgets driven from Python. 0.1.0 is the first release: a spelling used during its
development (``%files ls``, ``--meta``, ``set_access()``, ...) is refused in one line or
does not exist, so that one name stays for each thing.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import chatspace
from chatspace.client._async.resources import AsyncChat, AsyncFiles, AsyncModels, AsyncWorkspaces
from chatspace.notebook.cmd_groups import group
from chatspace.notebook.panels import ChatPanel, CompletionsBrowser, FilesPanel, WorkspacePanel
from chatspace.notebook.session import NotebookSession
from support.magics import run

DOC = Path(__file__).resolve().parents[2] / "docs" / "vocabulary.md"
PANELS = {c.__name__: c for c in (ChatPanel, CompletionsBrowser, FilesPanel, WorkspacePanel)}
ASYNC = {"chat": AsyncChat, "files": AsyncFiles, "models": AsyncModels}
ASYNC["workspaces"] = AsyncWorkspaces
GROUPS = {"%files": "files", "%workspace": "workspace", "%completions": "completions"}


def table() -> str:
    text = DOC.read_text()
    return text.split("## The table", 1)[1].split("\n## ", 1)[0]


def test_every_name_in_the_table_exists(client: chatspace.Client) -> None:
    cells = table()
    methods = re.findall(r"client\.(\w+)\.(\w+)\(", cells)
    assert len(methods) >= 25
    for resource, name in methods:
        assert callable(getattr(getattr(client, resource), name)), (resource, name)
        assert callable(getattr(ASYNC[resource], name)), (resource, name)
    panel_methods = re.findall(r"(\w+)\.(\w+)\(\)", cells)
    for cls, name in panel_methods:
        if cls in PANELS:
            assert callable(getattr(PANELS[cls], name)), (cls, name)
    for magic, word in re.findall(r"`(%files|%workspace|%completions) ([a-z][\w-]*)", cells):
        commands = group(GROUPS[magic])
        assert word in commands.commands, (magic, word)
    for word in re.findall(r"`%chat (?:models )?([a-z][\w-]*)", cells):
        if word in ("list", "add", "remove"):  # %chat models ...
            continue
        assert word in group("chat").commands, word


def test_no_old_spelling_is_in_the_table() -> None:
    cells = table()
    old_spellings = [
        *("files.update_metadata(", 'users("', "to_pandas(limit", "--meta ", "--limit"),
        *("set_access", "upload_files", "save_metadata", "set-user", "rm-user"),
        *("%files ls", "%files rm", "%files get", "%files meta"),
        *("%workspace ls", "%workspace rm", "models ls", "models rm"),
    ]
    for old in old_spellings:
        assert old not in cells, old


def test_new_spellings_say_nothing_more(ip: Any, nb_session: NotebookSession) -> None:
    for line in ("%files list", "%workspace list", "%completions list --max-items 1"):
        assert "note:" not in run(ip, line).plain()


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("%files ls", "unrecognized arguments: ls"),
        ("%files rm x", "unrecognized arguments: rm x"),
        ("%files list --limit 1", "unrecognized arguments: --limit 1"),
        ("%files upload x --meta team=data", "unrecognized arguments: --meta team=data"),
        ("%workspace set-user bob writer", "unrecognized arguments"),
        ("%completions list --metadata thread=a", "unrecognized arguments: --metadata"),
        ("%chat models ls", "invalid choice: 'ls'"),
    ],
)
def test_development_spellings_are_one_line_errors(
    ip: Any, nb_session: NotebookSession, line: str, said: str
) -> None:
    assert said in run(ip, line).error_line()


def test_completion_filters_take_every_grammar_of_filter(
    ip: Any, nb_session: NotebookSession, client: chatspace.Client
) -> None:
    for thread in ("a", "a", "b"):
        client.chat.create(messages="Hello", store=True, metadata={"thread": thread})
    assert len(run(ip, "%completions list --filter thread=a").value) == 2
    assert len(run(ip, "%completions list --filter thread=a --max-items 1").value) == 1
    assert len(run(ip, '%completions list --filter \'{"thread": "b"}\'').value) == 1


@pytest.mark.parametrize(
    ("panel", "old"),
    [
        (WorkspacePanel, "set_access"),
        (FilesPanel, "upload_files"),
        (FilesPanel, "save_metadata"),
        (CompletionsBrowser, "save_metadata"),
    ],
)
def test_panels_have_one_name_per_action(panel: type, old: str) -> None:
    assert not hasattr(panel, old)


def test_the_client_has_one_name_per_action(client: chatspace.Client) -> None:
    assert not hasattr(client.files, "update_metadata")
    assert not hasattr(AsyncFiles, "update_metadata")
