"""``%%chat`` and ``%chat`` through a real IPython shell against the real reference service."""

from __future__ import annotations

import json
from html import unescape
from typing import Any

import pytest

from chatspace.client import Client
from chatspace.notebook.display import ChatResult
from chatspace.notebook.magics import ChatspaceMagics
from chatspace.notebook.session import NotebookSession
from support.magics import NOTES, Ran, render_markdown, run


@pytest.fixture
def notes(client: Client) -> str:
    return client.files.upload(NOTES, filename="notes.txt", progress=False).id


def test_cell_streams_in_place_then_shows_markdown_with_citation_and_footer(
    ip: Any, nb_session: NotebookSession, magics: ChatspaceMagics, notes: str
) -> None:
    nb_session.settings.stream_throttle = 0  # every chunk shown, to see the updates
    ran = run(ip, "%%chat\nWhat was the Q3 churn in Lyon?")
    result = ran.value
    assert isinstance(result, ChatResult)
    assert ip.user_ns["_chat"] is result
    assert "5 percent" in result.text
    # one live output: published empty, updated in place with the text so far, emptied
    live_id = ran.final[0].transient["display_id"]
    assert ran.final[0].data == {"text/plain": ""}
    assert len(ran.updates) >= 3
    assert all(u.transient["display_id"] == live_id for u in ran.updates)
    partial = [u.data["text/plain"] for u in ran.updates[:-1]]
    assert all(result.text.startswith(p) for p in partial)
    assert partial == sorted(partial, key=len)
    assert ran.updates[-1].data == {"text/plain": ""}
    # then the answer, once, as a plain mimebundle with provenance
    answer = ran.final[1]
    assert len(ran.final) == 2
    assert set(answer.data) == {"text/plain", "text/markdown"}
    assert "**Sources**" in answer.data["text/markdown"]
    assert "notes\\.txt" in answer.data["text/markdown"]
    assert "The Q3 churn in Lyon was 5 percent." in answer.data["text/plain"]
    assert "service-l0 · " in answer.data["text/plain"]
    provenance = answer.metadata["chatspace"]
    assert provenance["completion_id"] == result.id
    assert provenance["usage"]["total_tokens"] == result.usage.total_tokens > 0
    assert provenance["citations"] == [notes]
    assert [c.file_id for c in result.citations] == [notes]
    assert result.citations[0].quote in NOTES.decode()


def test_stored_completion_is_tagged_with_thread_and_turn(
    ip: Any, nb_session: NotebookSession, client: Client, notes: str
) -> None:
    first = run(ip, "%%chat\nWhat is the capital of France?").value
    second = run(ip, "%chat And what is Lyon known for?").value
    tags = client.chat.get(second.id).metadata
    conversation = tags.pop("conversation")
    assert tags == {"thread": "main", "turn": "2"}
    assert client.chat.get(first.id).metadata == {
        "thread": "main",
        "turn": "1",
        "conversation": conversation,
    }
    # the second request carried the first turn as history
    roles = [m.role for m in client.chat.messages(second.id)]
    assert roles == ["user", "assistant", "user", "assistant"]
    assert second.history_sent == 1


def test_options_reach_the_request(
    ip: Any, nb_session: NotebookSession, client: Client, notes: str
) -> None:
    ran = run(
        ip,
        f"%%chat -t 0.3 --max-tokens 5 --param seed=7 --param 'user=\"nb\"' "
        f"--files {notes} --top-k 2 -s 'Be brief.' --no-stream\nWhat about Lyon?",
    )
    result = ran.value
    assert result.finish_reason == "length"
    assert "cut short: the token limit" in ran.plain()
    assert not ran.updates  # --no-stream: one output, no live updates
    stored = client.chat.get(result.id)
    assert stored.temperature == pytest.approx(0.3)
    assert stored.seed == 7
    assert stored.input_user == "nb"
    messages = list(client.chat.messages(result.id))
    assert messages[0].role == "system"
    assert messages[0].content == "Be brief."
    assert messages[-2].content_parts == [
        {"type": "text", "text": "What about Lyon?"},
        {"type": "filter", "file_ids": [notes], "top_k": 2},
    ]


def test_filter_narrows_retrieval_by_metadata(
    ip: Any, nb_session: NotebookSession, client: Client
) -> None:
    a = {"team": "a", "year": "2023"}
    client.files.upload(b"Lyon churn was 5 percent.", filename="a.txt", metadata=a)
    b = {"team": "b", "year": 2024}
    client.files.upload(b"Lyon churn was 9 percent.", filename="b.txt", metadata=b)
    result = run(ip, '%%chat --filter \'{"team": "b"}\'\nWhat was the Lyon churn?').value
    assert [c.filename for c in result.citations] == ["b.txt"]
    result = run(ip, "%%chat --filter team=a\nWhat was the Lyon churn?").value
    assert [c.filename for c in result.citations] == ["a.txt"]
    result = run(ip, "%%chat --filter 'year>=2024'\nWhat was the Lyon churn?").value
    assert [c.filename for c in result.citations] == ["b.txt"]
    result = run(ip, "%%chat --filter 'year<2024 team in a,b'\nWhat was the Lyon churn?").value
    assert [c.filename for c in result.citations] == ["a.txt"]


def test_df_uploads_the_frame_once_and_searches_only_it(
    ip: Any, nb_session: NotebookSession, client: Client, notes: str
) -> None:
    import pandas as pd

    ip.user_ns["sales"] = pd.DataFrame({"city": ["Lyon", "Nice"], "revenue": [120, 80]})
    first = run(ip, "%%chat --df sales\nWhat was the revenue of Lyon?").value
    second = run(ip, "%%chat --df sales\nAnd of Nice?").value
    files = client.files.list().to_pandas()
    assert sorted(files["filename"]) == ["notes.txt", "sales.csv"]
    assert {c.filename for c in first.citations + second.citations} == {"sales.csv"}
    # A kernel restarted forgets what it uploaded; the same frame is found in the workspace
    # (in JupyterLab the chat panel's file picker listed "returns.csv" twice).
    nb_session.frame_uploads.clear()
    again = run(ip, "%%chat --df sales\nWhat was the revenue of Lyon?").value
    assert sorted(client.files.list().to_pandas()["filename"]) == ["notes.txt", "sales.csv"]
    assert {c.file_id for c in again.citations} == {c.file_id for c in first.citations}
    ip.user_ns["sales"] = pd.DataFrame({"city": ["Lyon", "Nice"], "revenue": [125, 80]})
    changed = run(ip, "%%chat --df sales\nWhat was the revenue of Lyon?").value
    assert len(client.files.list().to_pandas()) == 3, "a changed frame is a new file"
    assert {c.file_id for c in changed.citations}.isdisjoint(c.file_id for c in first.citations)


def test_format_json_returns_the_parsed_value_into_output_name(
    ip: Any, nb_session: NotebookSession
) -> None:
    # the local engine quotes files: a file holding JSON gives a JSON answer to quote
    ran = run(ip, "%%chat --format json -o parsed --no-store\nHello")
    result = ran.value
    assert result.format == "json"
    # --format json asks for a JSON object, which service-l0 answers with (its answer,
    # here that nothing matches, and its sources)
    assert set(result.value) == {"answer", "sources"}
    assert result.value["answer"].startswith("Nothing in the files of workspace 'default'")
    assert result.value["sources"] == []
    assert ip.user_ns["parsed"] == result.value
    stored = ran.final[-1].metadata["chatspace"]
    assert stored["stored"] is False


def test_format_text_is_plain_only_and_output_name_gets_the_text(
    ip: Any, nb_session: NotebookSession, notes: str
) -> None:
    ran = run(ip, "%%chat --format text -o answer\nWhat is the capital of France?")
    assert set(ran.final[-1].data) == {"text/plain"}
    assert ip.user_ns["answer"] == ran.value.text
    assert "Paris" in ip.user_ns["answer"]


def test_format_code_proposes_the_answer_as_next_cell(
    ip: Any, nb_session: NotebookSession, monkeypatch: pytest.MonkeyPatch, notes: str
) -> None:
    # The shell's own set_next_input: the terminal's next prompt starts with the code
    # (a kernel sends it as a payload instead: tests/notebook/test_kernel_cells.py).
    monkeypatch.setattr(ip, "rl_next_input", None)
    result = run(ip, "%%chat --format code\nWhat is the capital of France?").value
    assert ip.rl_next_input == result.value
    assert "Paris" in result.value


def test_threads_new_and_reset(
    ip: Any, nb_session: NotebookSession, magics: ChatspaceMagics
) -> None:
    run(ip, "%chat --thread alpha Hello")
    run(ip, "%chat Still here?")  # continues alpha, now current
    assert nb_session.threads.current == "alpha"
    assert len(nb_session.threads.get("alpha").turns) == 2
    result = run(ip, "%chat --thread alpha --new Fresh start").value
    assert result.turn == 1
    assert result.history_sent == 0
    frame = run(ip, "%chat threads").value
    row = frame.set_index("thread").loc["alpha"]
    assert (row["turns"], row["stored_turns"], bool(row["current"])) == (1, 3, True)
    ran = run(ip, "%chat reset --all")
    assert "forgot 1 threads" in ran.plain()
    assert nb_session.threads.current == "main"


def test_token_budget_leaves_old_turns_out_and_says_so(
    ip: Any, nb_session: NotebookSession, magics: ChatspaceMagics
) -> None:
    for i in range(4):
        run(ip, f"%chat Question number {i}")
    nb_session.settings.thread_token_budget = 1  # nothing fits any more
    ran = run(ip, "%chat One more")
    assert ran.value.history_sent == 0
    assert ran.value.history_left_out == 4
    assert "4 older turns left out (token budget 1)" in ran.plain()


def test_resume_rebuilds_a_thread_after_a_restart(
    ip: Any, nb_session: NotebookSession, magics: ChatspaceMagics, notes: str
) -> None:
    run(ip, "%chat --thread trip An earlier conversation")
    run(ip, "%chat --thread trip --new What is the capital of France?")
    run(ip, "%chat What is Lyon known for?")
    questions = [t.question for t in nb_session.threads.get("trip").turns]
    nb_session.threads.clear()  # what a kernel restart leaves
    ran = run(ip, "%chat resume trip")
    assert "resumed with 2 stored turns" in ran.plain()
    assert [t.question for t in nb_session.threads.get("trip").turns] == questions
    assert nb_session.threads.current == "trip"
    assert run(ip, "%chat A third question").value.turn == 3


def test_interrupt_keeps_the_partial_text(
    ip: Any, nb_session: NotebookSession, magics: ChatspaceMagics, notes: str
) -> None:
    """Ctrl-C in the kernel raises KeyboardInterrupt wherever the loop is: here, in the
    first live update. The stream stops, the partial text stays, the cell does not fail."""
    from IPython.utils.capture import capture_output

    nb_session.settings.stream_throttle = 0
    with capture_output() as cap:
        publisher = ip.display_pub
        original = publisher.publish
        fired: list[bool] = []

        def publish(data: dict[str, Any], *args: Any, **kw: Any) -> None:
            original(data, *args, **kw)
            if kw.get("update") and data.get("text/plain") and not fired:
                fired.append(True)
                raise KeyboardInterrupt

        publisher.publish = publish
        executed = ip.run_cell("%%chat\nWhat was the Q3 churn in Lyon?")
    assert executed.error_in_exec is None
    result = executed.result
    assert result.interrupted
    assert result.text
    assert "interrupted: partial answer" in result.plain()
    full = run(ip, "%%chat --thread other\nWhat was the Q3 churn in Lyon?").value.text
    assert full.startswith(result.text)
    assert len(full) > len(result.text)
    assert len(nb_session.threads.get("main").turns) == 0  # a partial answer is not a turn
    final = [o for o in cap.outputs if not o.update][-1]
    assert "interrupted" in final.data["text/plain"]


def test_throttle_bounds_the_number_of_updates(
    ip: Any, nb_session: NotebookSession, magics: ChatspaceMagics, notes: str
) -> None:
    nb_session.settings.stream_throttle = 3600
    ran = run(ip, "%%chat\nWhat was the Q3 churn in Lyon?")
    # the first text at once, then nothing until the end: the live output is emptied
    assert [bool(u.data["text/plain"]) for u in ran.updates] == [True, False]


def test_terminal_prints_the_stream_then_sources_and_footer(
    ip: Any, nb_session: NotebookSession, notes: str, capsys: pytest.CaptureFixture[str]
) -> None:
    result = ip.run_cell("%%chat\nWhat was the Q3 churn in Lyon?").result
    out = capsys.readouterr().out
    assert out.count(result.text) == 1  # printed as it came, not repeated by Out[...]
    assert "Sources:" in out
    assert "service-l0 · " in out


def test_result_displays_again_in_a_later_cell(ip: Any, nb_session: NotebookSession) -> None:
    run(ip, "r = %chat Hello")
    ran = run(ip, "r")
    assert "service-l0" in ran.plain()


def test_config_sets_the_sessions_settings(
    ip: Any, nb_session: NotebookSession, magics: ChatspaceMagics
) -> None:
    ip.run_line_magic("config", "ChatspaceSettings.default_model = 'other-model'")
    assert nb_session.settings.default_model == "other-model"
    ran = run(ip, "%chat Hello")
    assert "model 'other-model' not found" in ran.error_line()
    nb_session.settings.default_model = "service-l0"  # set from Python, as a panel may
    ip.run_line_magic("config", "ChatspaceSettings.store = False")
    assert nb_session.settings.default_model == "service-l0"  # not %config's earlier value
    assert run(ip, "%chat Hello").value.stored is False
    assert nb_session.settings.store is False


def test_help_prints_usage(ip: Any, nb_session: NotebookSession) -> None:
    ran = run(ip, "%%chat --help\nignored")
    usage = ran.plain()
    for option in ("--model", "--files", "--filter", "--df", "--thread", "--format", "--no-stream"):
        assert option in usage
    assert "{name}" in usage
    assert "usage: %chat" in run(ip, "%chat --help").plain()
    assert "usage: %chat" in run(ip, "%chat").plain()


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("%%chat --filter '{not json'\nHi", "--filter is not valid JSON"),
        ("%%chat --filter '[1, 2]'\nHi", "--filter must be a JSON object"),
        ("%%chat -t hot\nHi", "argument -t/--temperature: invalid float value: 'hot'"),
        ("%%chat --format yaml\nHi", "invalid choice: 'yaml'"),
        ("%%chat --bogus\nHi", "unrecognized arguments: --bogus"),
        ("%%chat --param nope=1\nHi", "--param 'nope' is not a request field"),
        ("%%chat --df missing\nHi", "no variable named 'missing'"),
        ("%%chat --df not_a_frame\nHi", "'not_a_frame' is a list, not a pandas DataFrame"),
        ("%%chat -o 'not a name'\nHi", "is not a Python name"),
        ("%%chat\n   ", "the question is empty"),
        ("%%chat --files file-doesnotexist\nHi", "--files 'file-doesnotexist': "),
        ("%%chat -t 5\nHi", "the service refused -t/--temperature: "),
        ("%%chat -w nowhere\nHi", "404"),
        ("%%chat -m 'x'\"\nHi", "check the quotes"),
        ("%chat --zap Hi", "unrecognized option --zap"),
    ],
)
def test_bad_input_is_one_line(
    ip: Any, nb_session: NotebookSession, source: str, expected: str
) -> None:
    ip.user_ns["not_a_frame"] = [1, 2]
    line = run(ip, source).error_line()
    assert expected in line


def test_interpolation_substitutes_known_names_only(
    ip: Any, nb_session: NotebookSession, client: Client
) -> None:
    ip.user_ns.update(city="Lyon", cities=["Paris", "Nice"], cfg={"q": 3})
    ran = run(
        ip,
        '%%chat\nChurn in {city} and {cities[1]}, quarter {cfg["q"]}? {unknown} {"a": 1} '
        "\\frac{1}{2} {{city}}",
    )
    sent = list(client.chat.messages(ran.value.id))[-2].content
    assert sent == 'Churn in Lyon and Nice, quarter 3? {unknown} {"a": 1} \\frac{1}{2} {{city}}'
    assert ran.value.interpolated == ["city", "cities", "cfg"]
    raw = run(ip, "%%chat --no-interpolate\nChurn in {city}?").value
    assert list(client.chat.messages(raw.id))[-2].content == "Churn in {city}?"


def test_substituted_values_are_not_parsed_again(
    ip: Any, nb_session: NotebookSession, client: Client
) -> None:
    ip.user_ns.update(a="{b}", b="SECRET")
    result = run(ip, "%chat Value: {a}").value
    assert list(client.chat.messages(result.id))[-2].content == "Value: {b}"


def test_script_in_model_output_shows_as_text(
    ip: Any, nb_session: NotebookSession, client: Client
) -> None:
    hostile = client.files.upload(
        b"The launch code is <script>alert('x')</script> in Lyon.",
        filename='<img src=x onerror="alert(1)">.txt',
        progress=False,
    )
    ran = run(ip, "%%chat\nWhat is the launch code in Lyon?")
    assert "<script>" in ran.value.text  # the model quoted it ...
    html = render_markdown(ran.final[-1].data["text/markdown"])
    assert "<script" not in html  # ... but it is shown as text
    assert "<img" not in html
    assert "&lt;script&gt;alert" in html
    assert hostile.filename.startswith("<img src=x onerror=")
    assert hostile.filename in unescape(html)  # shown as text, whatever the escaping


def test_huge_values_are_capped(
    ip: Any, nb_session: NotebookSession, client: Client, magics: ChatspaceMagics
) -> None:
    ip.user_ns["big"] = "x" * 1_000_000
    nb_session.settings.max_interpolated_chars = 1000
    result = run(ip, "%chat {big}").value
    sent = list(client.chat.messages(result.id))[-2].content
    assert len(sent) < 1100
    assert "999000 more characters left out" in sent


def test_no_service_is_one_line(ip: Any, nb_session: NotebookSession) -> None:
    nb_session.use_client(Client(base_url="http://127.0.0.1:9", token="t" * 40, max_retries=0))
    line = run(ip, "%chat Hello").error_line()
    assert "%chat:" in line
    assert "t" * 40 not in line
    assert "tttt" not in line


def test_config_shows_sources_and_masks_the_token(
    ip: Any, nb_session: NotebookSession, client: Client
) -> None:
    ran = run(ip, "%chat config")
    view = ran.value
    assert view["user"] == "alice"
    assert view["service"] == client.base_url
    assert view["token"].startswith("****")
    token = client._auth.header().split()[-1]
    assert token not in ran.plain() + str(view._repr_mimebundle_())


def test_json_output_is_parsed_from_prose_with_a_block(
    ip: Any, nb_session: NotebookSession, client: Client
) -> None:
    # A file that holds JSON on one line: the local engine quotes that line.
    client.files.upload(b'{"city": "Lyon", "churn": 5}\n', filename="row.json")
    ran = run(ip, "%%chat --format json -o row\nLyon churn")
    row = ip.user_ns["row"]
    assert row == ran.value.value
    assert set(row) == {"answer", "sources"}
    assert '{"city": "Lyon", "churn": 5}' in json.dumps(row["sources"], ensure_ascii=False) or (
        '\\"city\\": \\"Lyon\\"' in json.dumps(row["sources"])
    )
    assert "row.json" in json.dumps(row["sources"])
    assert '```json\n{\n  "answer":' in ran.final[-1].data["text/markdown"]


def test_interrupted_result_has_no_completion(ip: Any, nb_session: NotebookSession) -> None:
    result = run(ip, "%chat Hello").value
    assert result.completion is not None
    assert result.completion.id == result.id


def test_ran_helper_sees_failures() -> None:
    ran = Ran(None, [], "", None)
    with pytest.raises(AssertionError):
        ran.error_line()


def test_option_values_interpolate_word_by_word(
    ip: Any, nb_session: NotebookSession, client: Client, notes: str
) -> None:
    ip.user_ns.update(report={"id": notes}, role="a careful 'analyst'", k=2)
    result = run(ip, "%%chat --files {report[id]} --top-k {k} -s 'You are {role}.'\nLyon?").value
    messages = list(client.chat.messages(result.id))
    assert messages[0].content == "You are a careful 'analyst'."
    assert messages[-2].content_parts[1] == {"type": "filter", "file_ids": [notes], "top_k": 2}
    line = run(ip, "%chat --files {report[id]} -- What about {role}?").value
    assert list(client.chat.messages(line.id))[-2].content == "What about a careful 'analyst'?"


# ---------------------------------------------------------------- issue 11: rough edges


def test_cell_help_works_without_a_body(ip: Any, nb_session: NotebookSession) -> None:
    ran = run(ip, "%%chat --help")
    assert "usage: %%chat" in ran.plain()
    assert "--filter K=V|JSON" in ran.plain()
    assert "the question is empty" in run(ip, "%%chat -m service-l0").error_line()


def test_format_json_over_a_citation_marker_is_none_with_a_note(
    ip: Any, nb_session: NotebookSession, notes: str
) -> None:
    # prose with a citation marker [1] and no JSON object in it
    source = '%%chat --format json --param response_format=\'{"type": "text"}\'\nLyon churn?'
    ran = run(ip, source)
    result = ran.value
    assert "[1]" in result.text
    assert result.value is None
    assert "the answer is not JSON: no JSON object found in it" in ran.plain()


def test_export_writes_a_thread_with_its_citations(
    ip: Any, nb_session: NotebookSession, notes: str, tmp_path: Any
) -> None:
    run(ip, "%%chat --thread trip\nWhat was the Q3 churn in Lyon?")
    run(ip, "%%chat\nAnd in Paris?")
    target = tmp_path / "trip.md"
    ran = run(ip, f"%chat export trip --to md -o {target}")
    assert ran.plain() == f"wrote 2 turns of thread trip to {target}"
    text = target.read_text()
    assert "What was the Q3 churn in Lyon?" in text
    assert "**`notes.txt`**" in text  # the source, named as it is ...
    assert f"(`{notes}`)" in text  # ... and identified
    assert "“The Q3 churn in Lyon was 5 percent.”" in text
    assert text.count("\\") == 2 * text.count("\\[1\\]")  # a marker's brackets only
    run(ip, f"%chat export -o {tmp_path}/trip.ipynb")  # the current thread, by suffix
    import nbformat

    notebook = nbformat.read(tmp_path / "trip.ipynb", as_version=4)
    assert len(notebook.cells) == 1 + 2 * 2
    assert "no thread 'nope'" in run(ip, "%chat export nope").error_line()


def test_export_writes_the_passages_stored_for_each_turn(
    ip: Any, nb_session: NotebookSession, client: Client, notes: str, tmp_path: Any
) -> None:
    """From the service (the stored sources), not from the kernel: a file deleted since
    shows as deleted, with nothing of its text."""
    run(ip, "%%chat --thread trip\nWhat was the Q3 churn in Lyon?")
    [turn] = nb_session.threads.threads["trip"].turns
    [source] = client.chat.sources(turn.completion_id or "")
    text = (
        run(ip, f"%chat export trip --to md -o {tmp_path}/trip.md")
        and (tmp_path / "trip.md").read_text()
    )
    assert "**Passages retrieved**" in text
    assert (
        f"1. **`notes.txt`** score {source.score:.2f}, sent yes, cited yes, line 3: "
        "“The Q3 churn in Lyon was 5 percent.”"
    ) in text
    client.files.delete(notes)
    run(ip, f"%chat export trip --to json -o {tmp_path}/trip.json")
    record = json.loads((tmp_path / "trip.json").read_text())
    [gone] = record["turns"][0]["sources"]
    assert (gone["file_id"], gone["deleted"], gone["quote"]) == (notes, True, None)


def test_same_question_from_magic_and_panel_gives_the_same_tags_and_answer(
    ip: Any, nb_session: NotebookSession, client: Client, notes: str
) -> None:
    from chatspace.notebook.panels import ChatPanel

    result = run(ip, "%%chat\nWhat was the Q3 churn in Lyon?").value
    panel = ChatPanel()
    try:
        assert panel.send("What was the Q3 churn in Lyon?") is True
        assert panel.wait(30)
        turn = panel.turns[-1]
    finally:
        panel.close()
    magic_tags = client.chat.get(result.id).metadata
    panel_tags = client.chat.get(turn["id"]).metadata
    assert set(magic_tags) == set(panel_tags) == {"thread", "turn", "conversation"}
    assert (magic_tags["thread"], panel_tags["thread"]) == ("main", panel.thread)
    assert turn["content"] == result.text
    assert "panel-1" in run(ip, "%chat threads --local").value["thread"].tolist()


def test_filter_words_are_pairs_as_in_the_panel(
    ip: Any, nb_session: NotebookSession, client: Client
) -> None:
    for year in ("2024", "2023"):
        client.files.upload(
            f"The ML budget for {year} was 9 units.".encode(),
            filename=f"ml-{year}.txt",
            metadata={"team": "ml", "year": year},
        )
    result = run(ip, '%%chat --filter "team=ml year=2024"\nWhat was the ML budget?').value
    assert {c.filename for c in result.citations} == {"ml-2024.txt"}


def test_first_cell_of_a_kernel_goes_to_the_configured_workspace(
    ip: Any, magics: ChatspaceMagics, service: Any, org: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from chatspace.notebook.session import reset_session
    from chatspace.notebook.settings import kernel_settings

    token = service.token("alice", org)
    with Client(base_url=service.url, token=token) as admin:
        admin.workspaces.create("research", "Research")
        notes = admin.files.upload(NOTES, filename="notes.txt", workspace="research").id
    monkeypatch.setenv("CHATSPACE_BASE_URL", service.url)
    monkeypatch.setenv("CHATSPACE_TOKEN", token)
    monkeypatch.setenv("CHATSPACE_WORKSPACE", "research")
    reset_session()  # a new kernel: the session makes its own client from the environment
    try:
        first = run(ip, "%%chat\nWhat was the Q3 churn in Lyon?").value
        assert first.workspace == "research"
        assert [c.file_id for c in first.citations] == [notes]
        assert kernel_settings().default_workspace == "research"
        with Client(base_url=service.url, token=token) as admin:
            assert admin.chat.get(first.id, workspace="research").id == first.id
    finally:
        reset_session()


def test_files_option_takes_ids_or_unique_names(
    ip: Any, nb_session: NotebookSession, client: Client, notes: str
) -> None:
    from support.office_files import sales_xlsx

    sales = client.files.upload(sales_xlsx(), filename="sales-q1-2025.xlsx")
    question = "\nWhat was the Q3 churn in Lyon?"
    result = run(ip, f"%%chat --files sales-q1-2025.xlsx notes.txt{question}").value
    assert [c.file_id for c in result.citations] == [notes]
    sent = client.chat.messages(result.id).data[-2].content_parts
    assert sent is not None
    assert sent[-1]["file_ids"] == [sales.id, notes]  # names became ids, in the order typed
    cited = run(ip, f"%%chat --files {notes} sales-q1-2025.xlsx{question}").value.citations
    assert [c.file_id for c in cited] == [notes]  # ids and names mix
    cited = run(ip, f"%%chat --files sales-q1-2025.xlsx{question}").value.citations
    assert {c.file_id for c in cited} <= {sales.id}  # the notes were not searched
    line = run(ip, "%%chat --files nope.md\nHi").error_line()
    assert "--files: no file named 'nope.md' in workspace 'default'" in line
    again = client.files.upload(sales_xlsx(), filename="sales-q1-2025.xlsx")
    line = run(ip, "%%chat --files sales-q1-2025.xlsx\nHi").error_line()
    assert "2 files are named 'sales-q1-2025.xlsx' in workspace 'default'" in line
    assert sales.id in line
    assert again.id in line


def test_resume_of_an_unknown_thread_is_one_line_naming_what_exists(
    ip: Any, nb_session: NotebookSession
) -> None:
    run(ip, "%chat --thread trip What is the capital of France?")
    run(ip, "%chat --thread main Hello")
    run(ip, "%chat --thread scratch --no-store Hello")  # in this kernel only
    line = run(ip, "%chat resume no-such-thread").error_line()
    assert "✗ %chat: no stored thread 'no-such-thread' in workspace 'default'" in line
    assert "stored: main (1 turn), trip (1 turn)" in line
    assert "in this kernel only: scratch" in line
    assert nb_session.threads.current == "scratch"  # nothing changed
    assert "no-such-thread" not in nb_session.threads.threads
