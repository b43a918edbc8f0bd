"""``%chat models`` in a real IPython shell, on the embedded service of a fresh data dir:
listing, adding (key from the kernel's environment), asking the new model, removing; the
chat panel's picker following along; and the same against a remote service, where the
token decides (``admin`` claim).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chatspace.local.launcher import stop_service
from chatspace.notebook.display import UNSUPPORTED, UNSUPPORTED_NOTE
from support.magics import run
from support.service import new_org, start_service
from support.upstream import PIECES, REPLY, FakeUpstream, closed_port

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
        "its key sealed by the service, checked)"
    )
    tested = run(ip, "%chat models test team")
    assert tested.plain() == (
        f"model team works: {upstream.url} accepts its key and serves echo "
        "(one of the 1 models it serves)"
    )
    listed = run(ip, "%chat models").value
    assert listed[["id", "owned_by"]].values.tolist() == [
        ["service-l0", "chatspace"],
        ["team", "added by local"],  # the embedded service's user
    ]

    answer = run(ip, "%%chat -m team --no-store\nHello there?")
    assert answer.value.text == REPLY
    assert upstream.last("echo")["headers"]["authorization"] == f"Bearer {KEY}"
    assert KEY.encode() not in (embedded / "chatspace.db").read_bytes()
    for ran in (added, tested, answer):
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
        assert list(panel.model_picker.options) == [
            ("default: service-l0 (no model is connected)", ""),
            ("service-l0", "service-l0"),
        ]
        assert panel.usage_label.value == "model service-l0 · no tokens used yet"
        run(ip, f"%chat models add picked --url {upstream.url} --model echo")
        # The one connected model is the default now, and the picker says so.
        assert list(panel.model_picker.options) == [
            ("default: picked (the one connected model)", ""),
            ("service-l0", "service-l0"),
            ("picked", "picked"),
        ]
        assert (panel.model, panel.model_picker.value) == ("", "")
        assert panel.usage_label.value == "model picked · no tokens used yet"
        panel.model_picker.value = "picked"
        assert panel.model == "picked"
        run(ip, "%chat models remove picked")
        # The picked model stays offered while it is the panel's choice.
        assert [value for _, value in panel.model_picker.options] == ["", "service-l0", "picked"]
        panel.model_picker.value = ""  # back to the default
        assert panel.model == ""
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
        ("%chat models remove nothing", "remove: 404 No model 'nothing' was added over HTTP"),
        ("%chat models frobnicate", "invalid choice: 'frobnicate'"),
    ],
)
def test_bad_model_commands_are_one_line(ip: Any, embedded: Path, line: str, message: str) -> None:
    assert message in run(ip, line).error_line()
    assert not (embedded / "models.toml").exists()


@pytest.fixture(scope="module")
def keyed() -> Iterator[FakeUpstream]:
    """An upstream that lists its models only to a client with ``KEY``."""
    server = FakeUpstream(models=["echo", "echo-large"], key=KEY).start()
    yield server
    server.stop()


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("dead", "cannot be reached ("),
        ("wrong key", "refused the key (HTTP 401): check the key"),
        ("no key", "asks for a key (HTTP 401): give it with --key-env VAR"),
        (
            "not served",
            "does not serve a model 'gpt-4o'; it serves: echo, echo-large "
            "(name the server's model with --model)",
        ),
    ],
)
def test_models_add_checks_the_connection_and_saves_nothing_that_fails(
    ip: Any,
    embedded: Path,
    keyed: FakeUpstream,
    monkeypatch: pytest.MonkeyPatch,
    case: str,
    message: str,
) -> None:
    wrong = "sk-wrong-notebook-key-0123456789"
    monkeypatch.setenv("TEAM_KEY", KEY)
    monkeypatch.setenv("WRONG_KEY", wrong)
    url = f"http://127.0.0.1:{closed_port()}/v1" if case == "dead" else keyed.url
    key = {"wrong key": "WRONG_KEY", "no key": None}.get(case, "TEAM_KEY")
    model = "gpt-4o" if case == "not served" else "echo"
    line = f"%chat models add team --url {url} --model {model}"
    ran = run(ip, line + (f" --key-env {key}" if key else ""))
    said = ran.error_line()
    assert said.startswith(f"✗ %chat models add: {url} ")
    assert message in said
    for secret in (KEY, wrong):
        assert secret not in ran.plain() + ran.markdown() + ran.stdout
    assert not (embedded / "models.toml").exists()
    assert not (embedded / "keys").exists() or not list((embedded / "keys").iterdir())
    assert run(ip, "%chat models").value["id"].tolist() == ["service-l0"]


def test_models_add_no_check_saves_a_server_that_is_not_up_yet(ip: Any, embedded: Path) -> None:
    dead = f"http://127.0.0.1:{closed_port()}/v1"
    added = run(ip, f"%chat models add later --url {dead} --no-check")
    assert added.plain() == f"model later added ({dead}, remote model later, no key, not checked)"
    line = run(ip, "%chat models test later").error_line()
    assert f"%chat models test: {dead} cannot be reached (" in line


@pytest.mark.parametrize(
    ("remote", "said"),
    [
        ("denied", "refused the connection's key (HTTP 401): Incorrect API key provided."),
        (
            "missing",
            "was not found (HTTP 404: The model `missing` does not exist): the connection's "
            "URL or its model name 'missing' is wrong.",
        ),
    ],
)
@pytest.mark.parametrize("stream", ["", "--no-stream "])
def test_an_upstream_401_or_404_at_question_time_says_which_model_and_what_to_check(
    ip: Any, embedded: Path, upstream: FakeUpstream, remote: str, said: str, stream: str
) -> None:
    """A connection that worked when added and fails later (a key revoked, a model
    removed from the server): the line names the model, what its server said, and how to
    check it; no "retry later", no address."""
    run(ip, f"%chat models add team --url {upstream.url} --model {remote} --no-check")
    line = run(ip, f"%%chat -m team {stream}--no-store\nHello?").error_line()
    assert line == (
        f"✗ %%chat: 502 The upstream model 'team' {said} It was added with '%chat models add' "
        "(POST /models): check it with '%chat models test team', change it with '%chat models "
        "add team --replace'."
    )


def test_a_remote_service_needs_a_token_that_may_change_its_models(
    ip: Any, nb_session: Any
) -> None:
    assert run(ip, "%chat models").value["id"].tolist() == ["service-l0"]
    line = run(ip, "%chat models add x --url http://127.0.0.1:9/v1").error_line()
    assert line == (
        "✗ %chat models add: 403 Changing the models this service serves needs a token with "
        "the admin claim (its operator mints one with 'chatspace token --admin')."
    )


def test_an_admin_adds_a_model_to_a_remote_service_from_the_notebook(
    ip: Any,
    tmp_path: Path,
    upstream: FakeUpstream,
    monkeypatch: pytest.MonkeyPatch,
    magics: Any,
) -> None:
    """A team's service elsewhere: the notebook adds, checks, asks and removes a model
    over HTTP; nothing is written on the notebook's machine."""
    from chatspace.notebook.session import reset_session

    remote = start_service(tmp_path / "remote", "--no-autodetect")
    try:
        monkeypatch.setenv("CHATSPACE_BASE_URL", remote.url)
        monkeypatch.setenv("CHATSPACE_TOKEN", remote.token("ana", new_org(), admin=True))
        monkeypatch.setenv("CHATSPACE_DATA_DIR", str(tmp_path / "local"))
        reset_session()
        added = run(ip, f"%chat models add shared --url {upstream.url} --model echo")
        assert added.plain().startswith("model shared added")
        assert run(ip, "%chat models test shared").plain().startswith("model shared works")
        assert run(ip, "%%chat -m shared --no-store\nHello?").value.text == REPLY
        assert run(ip, "%chat models remove shared").plain() == "model shared removed"
        assert not (tmp_path / "local").exists()
    finally:
        reset_session()
        remote.stop()


def _asked_about_q3(ip: Any, upstream: FakeUpstream, tmp_path: Path, pieces: list[str]) -> Any:
    """The cell asking a connected model the Q3 churn rate over a one-line report, the
    model answering ``pieces`` (with no ``[n]``)."""
    report = tmp_path / "q3-report.md"
    report.write_text("# Q3\n\nThe churn rate in Q3 was 3.1 percent, down from 4.7 percent.\n")
    run(ip, f"%chat models add local --url {upstream.url} --model echo")
    run(ip, f"%files upload {report}")
    upstream.pieces = pieces
    try:
        return run(ip, "%%chat -m local --no-store\nWhat was the churn rate in Q3?")
    finally:
        upstream.pieces = PIECES


def test_an_answer_without_markers_shows_which_file_backs_each_sentence(
    ip: Any, embedded: Path, upstream: FakeUpstream, tmp_path: Path
) -> None:
    """A model that writes no ``[n]`` (most local ones): the cell numbers the sentence its
    file supports, lists that file, and marks the sentence nothing supports."""
    pieces = ["The churn rate in Q3 was 3.1 percent. ", "Customers love the new app."]
    answer = _asked_about_q3(ip, upstream, tmp_path, pieces)
    shown = answer.markdown()
    assert f"in Q3 was 3.1 percent. [1] Customers love the new app.{UNSUPPORTED}" in shown
    assert "\\[1\\] **q3\\-report\\.md\\, line 3**" in shown
    said = "The churn rate in Q3 was 3.1 percent. Customers love the new app."
    assert answer.value.text == said, "the value is what the model wrote"


def test_a_terminal_names_the_sentences_each_file_backs_and_those_none_does(
    ip: Any,
    embedded: Path,
    upstream: FakeUpstream,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """In a terminal the answer is printed as it arrives and cannot be marked afterwards:
    its sources said "[1] q3-report.md" and "nothing in your files supports this
    sentence" without saying which sentence. Each source now names the sentences it
    backs, and the note the sentences nothing backs."""
    report = tmp_path / "q3-report.md"
    report.write_text("# Q3\n\nThe churn rate in Q3 was 3.1 percent, down from 4.7 percent.\n")
    run(ip, f"%chat models add local --url {upstream.url} --model echo")
    run(ip, f"%files upload {report}")
    upstream.pieces = ["The churn rate in Q3 was 3.1 percent. ", "Customers love the new app."]
    capsys.readouterr()
    try:
        ip.run_cell("%%chat -m local --no-store\nWhat was the churn rate in Q3?")
    finally:
        upstream.pieces = PIECES
    out = capsys.readouterr().out
    assert out.count("The churn rate in Q3 was 3.1 percent. Customers love the new app.") == 1
    tail = out.split("Sources:\n", 1)[1]
    assert tail.startswith("  [1] q3-report.md, line 3")
    assert "\n      for “The churn rate in Q3 was 3.1 percent.”\n" in tail
    assert f"  {UNSUPPORTED_NOTE}\n      “Customers love the new app.”\n" in tail


def test_a_terminal_lists_no_sentences_for_the_quotes_of_service_l0(
    ip: Any, embedded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """service-l0's bullets are the quotes they cite: a source listed the end of its own
    bullet as the sentence it backs ("for “Close*) (4 passages of prices.csv) [1]”")."""
    report = tmp_path / "q3-report.md"
    report.write_text("# Q3\n\nThe churn rate in Q3 was 3.1 percent, down from 4.7 percent.\n")
    run(ip, f"%files upload {report}")
    capsys.readouterr()
    ip.run_cell("%%chat -m service-l0 --no-store\nWhat was the churn rate in Q3?")
    tail = capsys.readouterr().out.split("Sources:\n", 1)[1]
    assert tail.startswith("  [1] q3-report.md, line 3"), tail
    assert "for “" not in tail


def test_an_answer_nothing_supports_is_marked_though_its_model_was_given_passages(
    ip: Any, embedded: Path, upstream: FakeUpstream, tmp_path: Path
) -> None:
    """The model was sent the report's passage and wrote something else entirely (a small
    model's invented revenue): no sentence has a source, and each one carries the mark, so
    that the answer does not look as checked as one with sources."""
    pieces = ["Revenue grew by 40 percent in Brazil. ", "Shipping takes ten days."]
    answer = _asked_about_q3(ip, upstream, tmp_path, pieces)
    result = answer.value
    assert result.citations == []
    assert result.completion is not None
    assert result.completion.perception_usage is not None, "the model was given the passage"
    shown = answer.plain()
    assert f"in Brazil.{UNSUPPORTED} Shipping takes ten days.{UNSUPPORTED}" in shown
    assert UNSUPPORTED_NOTE in shown


def test_a_sentence_with_a_decimal_or_a_file_name_is_marked_whole(
    ip: Any, embedded: Path, upstream: FakeUpstream, tmp_path: Path
) -> None:
    """SmolLM2 in JupyterLab answered ``--df returns`` with a wrong product "which has a
    return rate of 0.14%." and the cell showed it unmarked: the notebook cut sentences at
    every dot, so "0.14" and "q4-forecast.md" broke the sentence into pieces too short to
    mark. A sentence ends where the service's end (the mark follows the whole of it)."""
    pieces = [
        "Churn in Q4 fell to 2.5 percent for the Hiking boots. ",
        "The board read q4-forecast.md in October.",
    ]
    answer = _asked_about_q3(ip, upstream, tmp_path, pieces)
    assert answer.value.citations == []
    shown = answer.plain()
    assert (
        f"fell to 2.5 percent for the Hiking boots.{UNSUPPORTED} "
        f"The board read q4-forecast.md in October.{UNSUPPORTED}"
    ) in shown
    assert UNSUPPORTED_NOTE in shown
