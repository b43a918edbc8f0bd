"""``%workspace`` and ``%completions`` through a real IPython shell against the real service."""

from __future__ import annotations

from typing import Any

from chatspace.client import Client
from chatspace.notebook.session import NotebookSession
from support.magics import NOTES, render_markdown, run
from support.service import Service


def test_show_create_switch_and_list(ip: Any, nb_session: NotebookSession, client: Client) -> None:
    assert "workspace default" in run(ip, "%workspace").plain()
    created = run(ip, "%workspace create q3-review Q3 review")
    assert "created workspace q3-review (Q3 review)" in created.plain()
    assert "now in workspace q3-review" in run(ip, "%workspace q3-review").plain()
    assert nb_session.settings.default_workspace == "q3-review"  # the panels see it too
    frame = run(ip, "%workspace list").value
    assert frame.set_index("id")["current"].to_dict() == {"default": False, "q3-review": True}
    # magics now work in it
    run(ip, "%chat --no-stream Hello")
    assert len(client.chat.list(workspace="q3-review").data) == 1
    assert (
        "deleted workspace q3-review; now in workspace default"
        in run(ip, "%workspace delete q3-review").plain()
    )
    assert nb_session.settings.default_workspace == "default"


def test_users_add_set_remove(ip: Any, nb_session: NotebookSession) -> None:
    run(ip, "%workspace create team")
    run(ip, "%workspace use team")
    assert (
        "added bob to workspace team as reader" in run(ip, "%workspace add-user bob reader").plain()
    )
    assert (
        "bob is now writer in workspace team"
        in run(ip, "%workspace update-user bob writer").plain()
    )
    users = run(ip, "%workspace users").value
    assert users.set_index("user_id")["access"].to_dict() == {"alice": "admin", "bob": "writer"}
    assert "removed bob from workspace team" in run(ip, "%workspace remove-user bob").plain()
    assert list(run(ip, "%workspace users team").value["user_id"]) == ["alice"]


def test_forbidden_and_missing_are_one_line(
    ip: Any, nb_session: NotebookSession, service: Service, org: str
) -> None:
    run(ip, "%workspace create locked")
    run(ip, "%workspace add-user bob reader -w locked")
    bob = Client(base_url=service.url, token=service.token("bob", org))
    nb_session.use_client(bob)
    run(ip, "%workspace locked")
    line = run(ip, "%chat Hello").error_line()
    assert "403" in line
    assert "Ask an admin" in line
    assert "403" in run(ip, "%workspace add-user carol reader").error_line()
    assert "404" in run(ip, "%workspace nowhere").error_line()
    assert nb_session.settings.default_workspace == "locked"  # a failed switch changes nothing
    assert "invalid choice: 'owner'" in run(ip, "%workspace update-user bob owner").error_line()
    assert "409" in run(ip, "%workspace delete default").error_line()


def test_completions_list_filters_and_show(
    ip: Any, nb_session: NotebookSession, client: Client
) -> None:
    client.files.upload(NOTES, filename="notes.txt", progress=False)
    run(ip, "%chat --thread a What is the capital of France?")
    run(ip, "%chat --thread b What about <b>Lyon</b>?")
    client.chat.create(messages="Not from a magic", store=True)
    frame = run(ip, "%completions").value
    assert len(frame) == 3
    assert {"id", "model", "total_tokens", "metadata.thread"} <= set(frame.columns)
    assert len(run(ip, "%completions --max-items 2").value) == 2
    only_b = run(ip, "%completions --thread b").value
    assert list(only_b["metadata.thread"]) == ["b"]
    assert len(run(ip, "%completions --filter thread=a --model service-l0").value) == 1
    assert run(ip, "%completions --model other").value.empty
    shown = run(ip, f"%completions show {only_b['id'][0]}")
    transcript = shown.value
    assert [role for role, _ in transcript.messages][-2:] == ["user", "assistant"]
    html = render_markdown(shown.final[0].data["text/markdown"])
    assert "<b>" not in html
    assert "&lt;b&gt;Lyon&lt;/b&gt;" in html
    assert list(transcript.to_pandas().columns) == ["role", "content"]
    assert "404" in run(ip, "%completions show chatcmpl-nope").error_line()


def test_use_create_makes_the_workspace_once(ip: Any, nb_session: NotebookSession) -> None:
    assert "now in workspace demo (demo, created)" in run(ip, "%workspace demo --create").plain()
    run(ip, "%workspace default")
    assert "now in workspace demo (demo)" in run(ip, "%workspace use demo --create").plain()
    assert nb_session.settings.default_workspace == "demo"
