"""docs/vocabulary.md: the table names what exists, and the old spellings still work.

The magics run in a real IPython shell against the real service; the panels are real
widgets driven from Python. Each old spelling does what it did and says (magics: one
note line) or warns (panels: ``DeprecationWarning``) what replaced it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import chatspace
from chatspace.client._async.resources import AsyncChat, AsyncFiles, AsyncModels, AsyncWorkspaces
from chatspace.notebook.cmd_groups import group
from chatspace.notebook.panels import ChatPanel, CompletionsBrowser, FilesPanel, WorkspacePanel
from chatspace.notebook.session import NotebookSession
from support.magics import NOTES, run

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
        assert word not in commands.renamed
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


def note(ran: Any, old: str, new: str) -> None:
    notes = [line for line in ran.plain().splitlines() if line.startswith("note: ")]
    assert len(notes) == 1, ran.plain()
    assert old in notes[0]
    assert new in notes[0]
    assert "next release" in notes[0]


def test_new_spellings_say_nothing_more(ip: Any, nb_session: NotebookSession) -> None:
    for line in ("%files list", "%workspace list", "%completions list --max-items 1"):
        assert "note:" not in run(ip, line).plain()


def test_old_file_subcommands_still_work_with_a_note(
    ip: Any, nb_session: NotebookSession, client: chatspace.Client, tmp_path: Path
) -> None:
    source = tmp_path / "notes.txt"
    source.write_bytes(NOTES)
    uploaded = run(ip, f"%files upload {source} --meta team=data")
    note(uploaded, "--meta", "--metadata")
    file_id = str(uploaded.value["id"][0])
    assert client.files.get(file_id).metadata == {"team": "data"}

    listed = run(ip, "%files ls --limit 1")
    assert list(listed.value["id"]) == [file_id]
    notes = [line for line in listed.plain().splitlines() if line.startswith("note: ")]
    assert len(notes) == 2  # the subcommand and the option
    assert any("%files ls is now %files list" in n for n in notes)
    assert any("--limit is now --max-items" in n for n in notes)

    updated = run(ip, f"%files meta {file_id} year=2024")
    note(updated, "%files meta", "%files update")
    assert updated.value == {"team": "data", "year": "2024"}

    target = tmp_path / "out"
    target.mkdir()
    fetched = run(ip, f"%files get {file_id} {target}")
    note(fetched, "%files get", "%files download")
    assert (target / "notes.txt").read_bytes() == NOTES

    removed = run(ip, f"%files rm {file_id}")
    note(removed, "%files rm", "%files delete")
    assert f"deleted {file_id}" in removed.plain()
    assert list(client.files.list()) == []


def test_old_workspace_subcommands_still_work_with_a_note(
    ip: Any, nb_session: NotebookSession, client: chatspace.Client
) -> None:
    run(ip, "%workspace create team")
    run(ip, "%workspace add-user bob reader -w team")
    listed = run(ip, "%workspace ls")
    note(listed, "%workspace ls", "%workspace list")
    assert list(listed.value["id"]) == ["default", "team"]
    changed = run(ip, "%workspace set-user bob writer -w team")
    note(changed, "%workspace set-user", "%workspace update-user")
    users = {u.user_id: u.access for u in client.workspaces.users(workspace="team")}
    assert users == {"alice": "admin", "bob": "writer"}
    removed = run(ip, "%workspace rm-user bob -w team")
    note(removed, "%workspace rm-user", "%workspace remove-user")
    assert [u.user_id for u in client.workspaces.users(workspace="team")] == ["alice"]
    deleted = run(ip, "%workspace rm team")
    note(deleted, "%workspace rm", "%workspace delete")
    assert [w.id for w in client.workspaces.list()] == ["default"]


def test_old_completion_options_still_work_with_a_note(
    ip: Any, nb_session: NotebookSession, client: chatspace.Client
) -> None:
    for thread in ("a", "a", "b"):
        client.chat.create(messages="Hello", store=True, metadata={"thread": thread})
    new = run(ip, "%completions list --filter thread=a")
    assert len(new.value) == 2
    old = run(ip, "%completions list --metadata thread=a")
    note(old, "--metadata", "--filter")
    assert sorted(old.value["id"]) == sorted(new.value["id"])
    limited = run(ip, "%completions list --limit 1")
    note(limited, "--limit", "--max-items")
    assert len(limited.value) == 1
    # --filter takes the grammar of every other --filter: JSON too
    assert len(run(ip, '%completions list --filter \'{"thread": "b"}\'').value) == 1


def test_model_actions_are_the_clis_verbs(ip: Any, nb_session: NotebookSession) -> None:
    old = run(ip, "%chat models ls").plain()
    assert "invalid choice: 'ls'" in old
    assert "list" in old


@pytest.fixture
def workspaces(client: chatspace.Client, session: NotebookSession) -> Iterator[WorkspacePanel]:
    p = WorkspacePanel(client, session=session)
    yield p
    p.close()


def test_workspace_panel_update_user_and_its_old_name(
    workspaces: WorkspacePanel, client: chatspace.Client
) -> None:
    workspaces.create("team", "Team")
    workspaces.add_user("bob", "reader")
    workspaces.update_user("bob", "writer")
    assert workspaces.error == ""
    users = {u.user_id: u.access for u in client.workspaces.users(workspace="team")}
    assert users["bob"] == "writer"
    assert workspaces.set_button.description == "Update access"
    with pytest.warns(DeprecationWarning, match=r"set_access\(\).*update_user\(\)"):
        workspaces.set_access("bob", "reader")
    users = {u.user_id: u.access for u in client.workspaces.users(workspace="team")}
    assert users["bob"] == "reader"


def test_files_panel_upload_update_and_their_old_names(
    client: chatspace.Client, session: NotebookSession
) -> None:
    panel = FilesPanel(client, session=session)
    try:
        assert panel.upload([("a.txt", b"alpha")]) is True
        assert panel.wait(60)
        assert panel.error == ""
        with pytest.warns(DeprecationWarning, match=r"upload_files\(\).*\.upload\(\)"):
            assert panel.upload_files([("b.txt", b"beta")]) is True
        assert panel.wait(60)
        assert panel.error == ""
        names = {f.filename: f.id for f in client.files.list()}
        assert set(names) == {"a.txt", "b.txt"}
        panel.update_metadata("team=ml", names["a.txt"])
        assert client.files.get(names["a.txt"]).metadata == {"team": "ml"}
        with pytest.warns(DeprecationWarning, match=r"save_metadata\(\).*update_metadata\(\)"):
            panel.save_metadata("team=ops", names["a.txt"])
        assert client.files.get(names["a.txt"]).metadata == {"team": "ops"}
        assert panel.error == ""
        assert panel.save_button.description == "Update metadata"
    finally:
        assert panel.wait(30)
        panel.close()


def test_completions_browser_update_metadata_and_its_old_name(
    client: chatspace.Client, session: NotebookSession
) -> None:
    made = client.chat.create(messages="Hello", store=True, metadata={"topic": "x"})
    browser = CompletionsBrowser(client, session=session)
    try:
        browser.update_metadata("topic=y", made.id)
        assert (client.chat.get(made.id).metadata or {}) == {"topic": "y"}
        with pytest.warns(DeprecationWarning, match=r"save_metadata\(\).*update_metadata\(\)"):
            browser.save_metadata("topic=z", made.id)
        assert (client.chat.get(made.id).metadata or {}) == {"topic": "z"}
        assert browser.error == ""
    finally:
        browser.close()
