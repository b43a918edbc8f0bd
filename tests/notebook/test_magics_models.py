"""``%chat models`` in a real IPython shell, on the embedded service of a fresh data dir:
listing, adding (key from the kernel's environment), asking the new model, removing; the
chat panel's picker following along; and what happens against a remote service.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chatspace.embedded import stop_service
from chatspace.notebook.display import UNSUPPORTED
from support.magics import run
from support.upstream import PIECES, REPLY, FakeUpstream

KEY = "sk-notebook-key-0123456789abcdefghij"


@pytest.fixture(scope="module")
def upstream() -> Iterator[FakeUpstream]:
    server = FakeUpstream().start()
    yield server
    server.stop()


@pytest.fixture
def embedded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, magics: Any) -> Iterator[Path]:
    """The notebook session on the embedded service of a fresh data dir."""
    from chatspace.notebook.session import get_session, reset_session

    where = tmp_path / "data"
    monkeypatch.setenv("CHATSPACE_DATA_DIR", str(where))
    for name in ("CHATSPACE_BASE_URL", "CHATSPACE_TOKEN", "CHATSPACE_WORKSPACE"):
        monkeypatch.delenv(name, raising=False)
    reset_session()
    assert magics.session is get_session()
    yield where
    reset_session()
    stop_service(where)


def test_add_a_model_ask_it_and_remove_it(
    ip: Any, embedded: Path, upstream: FakeUpstream, monkeypatch: pytest.MonkeyPatch
) -> None:
    listed = run(ip, "%chat models").value
    assert listed[["id", "owned_by"]].values.tolist() == [["service-l0", "chatspace"]]

    monkeypatch.setenv("TEAM_KEY", KEY)
    added = run(ip, f"%chat models add team --url {upstream.url} --model echo --key-env TEAM_KEY")
    assert added.plain() == (
        f"model team added ({upstream.url}, remote model echo, "
        "its key kept in the data dir (mode 0600))"
    )
    listed = run(ip, "%chat models").value
    assert listed[["id", "owned_by"]].values.tolist() == [
        ["service-l0", "chatspace"],
        ["team", "models.toml"],
    ]

    answer = run(ip, "%%chat -m team --no-store\nHello there?")
    assert answer.value.text == REPLY
    assert upstream.last("echo")["headers"]["authorization"] == f"Bearer {KEY}"
    assert KEY not in (embedded / "models.toml").read_text()
    for ran in (added, answer):
        assert KEY not in ran.plain() + ran.markdown() + ran.stdout

    removed = run(ip, "%chat models remove team")
    assert removed.plain() == "model team removed"
    assert run(ip, "%chat models").value["id"].tolist() == ["service-l0"]
    gone = run(ip, "%%chat -m team\nHello?")
    line = gone.error_line()
    assert "model 'team' not found" in line
    assert "%chat models add" in line


def test_the_chat_panel_picker_sees_a_new_model_at_once(
    ip: Any, embedded: Path, upstream: FakeUpstream
) -> None:
    from chatspace.notebook.panels import ChatPanel

    panel = ChatPanel()
    try:
        assert list(panel.model_picker.options) == ["service-l0"]
        run(ip, f"%chat models add picked --url {upstream.url} --model echo")
        assert list(panel.model_picker.options) == ["service-l0", "picked"]
        panel.model_picker.value = "picked"
        assert panel.model == "picked"
        run(ip, "%chat models remove picked")
        # The picked model stays offered while it is the panel's choice.
        assert list(panel.model_picker.options) == ["service-l0", "picked"]
    finally:
        panel.close()


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("%chat models add", "%chat models add: name the model"),
        ("%chat models add x", "%chat models add: --url is required"),
        ("%chat models add x --url ftp://x", "must start with http:// or https://"),
        ("%chat models add service-l0 --url http://x", "'service-l0' is the built-in model"),
        ("%chat models add x --url http://x --key-env NOT_SET_HERE", "not set in this kernel"),
        ("%chat models remove nothing", "no model 'nothing' in models.toml"),
        ("%chat models frobnicate", "invalid choice: 'frobnicate'"),
    ],
)
def test_bad_model_commands_are_one_line(ip: Any, embedded: Path, line: str, message: str) -> None:
    assert message in run(ip, line).error_line()
    assert not (embedded / "models.toml").exists()


def test_a_remote_service_says_where_its_models_are_configured(ip: Any, nb_session: Any) -> None:
    assert run(ip, "%chat models").value["id"].tolist() == ["service-l0"]
    line = run(ip, "%chat models add x --url http://127.0.0.1:9/v1").error_line()
    assert "is not the local one: its models are configured on its host" in line


def test_an_answer_without_markers_shows_which_file_backs_each_sentence(
    ip: Any, embedded: Path, upstream: FakeUpstream, tmp_path: Path
) -> None:
    """A model that writes no ``[n]`` (most local ones): the cell numbers the sentence its
    file supports, lists that file, and marks the sentence nothing supports."""
    report = tmp_path / "q3-report.md"
    report.write_text("# Q3\n\nThe churn rate in Q3 was 3.1 percent, down from 4.7 percent.\n")
    run(ip, f"%chat models add local --url {upstream.url} --model echo")
    run(ip, f"%files upload {report}")
    upstream.pieces = ["The churn rate in Q3 was 3.1 percent. ", "Customers love the new app."]
    try:
        answer = run(ip, "%%chat -m local --no-store\nWhat was the churn rate in Q3?")
    finally:
        upstream.pieces = PIECES
    shown = answer.markdown()
    assert f"in Q3 was 3.1 percent. [1] Customers love the new app.{UNSUPPORTED}" in shown
    assert "\\[1\\] **q3\\-report\\.md**" in shown
    said = "The churn rate in Q3 was 3.1 percent. Customers love the new app."
    assert answer.value.text == said, "the value is what the model wrote"
