"""The notebook's application layer, tested once and directly (magics and panels are
shells over it): the input grammar, conversations, asking, the shared settings and the
notebook context."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from chatspace.client import Client
from chatspace.errors import UnprocessableEntityError
from chatspace.notebook.asking import OPTION_WORDS, Question, build, in_words
from chatspace.notebook.context import NotebookContext
from chatspace.notebook.conversations import Thread, ThreadBook, estimate_tokens
from chatspace.notebook.display import UNSUPPORTED, UNSUPPORTED_NOTE, ChatResult, Citation
from chatspace.notebook.export import export_text, write_thread
from chatspace.notebook.formats import value_of
from chatspace.notebook.grammar import (
    InputError,
    file_filter,
    parse_filter,
    parse_mapping,
    parse_pairs,
)
from chatspace.notebook.session import NotebookSession
from chatspace.notebook.settings import ChatspaceSettings
from support.magics import render_markdown

# ---------------------------------------------------------------- the one grammar


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", {}),
        ("   ", {}),
        ("team=ml", {"team": "ml"}),
        ('team=ml title="Q3 report"', {"team": "ml", "title": "Q3 report"}),
        ("team=ml year=2024", {"team": "ml", "year": "2024"}),
        ("team=ml,year=2024", {"team": "ml,year=2024"}),  # a comma inside a value stays
        ("a=1, b=2", {"a": "1", "b": "2"}),  # a comma ending a word separates
        ("empty=", {"empty": ""}),
        ("expr=a=b", {"expr": "a=b"}),
        ('{"team": "ml", "year": 2024}', {"team": "ml", "year": 2024}),
    ],
)
def test_mapping_accepts_json_and_shell_like_pairs(text: str, expected: dict[str, Any]) -> None:
    assert parse_mapping(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"team": ', "Filter is not valid JSON"),
        ("[1, 2]", "Filter must be a JSON object"),
        ('"just a string"', "Filter must be a JSON object"),
        ("team", "Filter: 'team' is not key=value"),
        ("=value", "is not key=value"),
        ('title="unclosed', "No closing quotation"),
        ("x=" + "a" * 70_000, "Filter is too long"),
    ],
)
def test_mapping_rejects_in_one_line_naming_the_field(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message) as info:
        parse_mapping(text, field="Filter")
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("year>=2024", {"type": "gte", "key": "year", "value": 2024}),
        ("year<2020.5", {"type": "lt", "key": "year", "value": 2020.5}),
        ("team!=ml", {"type": "ne", "key": "team", "value": "ml"}),
        ("day<=2024-03-01", {"type": "lte", "key": "day", "value": "2024-03-01"}),
        ("team in ml,bi", {"type": "in", "key": "team", "value": ["ml", "bi"]}),
        ("team not in ml, 7", {"type": "nin", "key": "team", "value": ["ml", 7]}),
        ("team=ml, tags=a,b", {"team": "ml", "tags": "a,b"}),
        (
            "year>2023 team=ml",
            {
                "type": "and",
                "filters": [
                    {"type": "gt", "key": "year", "value": 2023},
                    {"type": "eq", "key": "team", "value": "ml"},
                ],
            },
        ),
        ('{"type": "eq", "key": "k", "value": "v"}', {"type": "eq", "key": "k", "value": "v"}),
        ("  ", None),
    ],
)
def test_filter_words_compare(text: str, expected: dict | None) -> None:
    assert file_filter(text) == expected


def test_filter_and_argparse_words_follow_the_same_rule() -> None:
    assert parse_filter("") is None
    assert json.loads(parse_filter("team=ml year=2024") or "") == {"team": "ml", "year": 2024}
    assert json.loads(parse_filter("day=2024-01-31 x=1.5") or "") == {"day": "2024-01-31", "x": 1.5}
    assert json.loads(parse_filter('{"team": ["ml", "ops"]}') or "") == {"team": ["ml", "ops"]}
    assert parse_pairs(["team=ml,year=2024", "x=1"], field="--meta") == {
        "team": "ml,year=2024",
        "x": "1",
    }


# ---------------------------------------------------------------- conversations


def test_history_keeps_the_newest_turns_within_a_token_budget() -> None:
    thread = Thread("t")
    for letter in "abcd":
        thread.add(letter * 8, ChatResult(text=letter * 8, model="m"))
    assert [t.tokens for t in thread.turns] == [2, 2, 2, 2]  # \w{1,8} is one token
    messages, sent, left_out = thread.history(5)
    assert (sent, left_out) == (2, 2)
    assert [m["content"] for m in messages] == ["cccccccc"] * 2 + ["dddddddd"] * 2
    assert thread.history(1) == ([], 0, 4)


def test_tags_are_the_same_whoever_asks() -> None:
    thread = Thread("panel-1")
    assert thread.tags(3, "analysis.ipynb") == {
        "thread": "panel-1",
        "turn": "3",
        "conversation": thread.conversation,
        "notebook": "analysis.ipynb",
    }
    assert "notebook" not in thread.tags(1, None)


def test_thread_book_names_new_threads_and_keeps_citations() -> None:
    book = ThreadBook()
    assert book.new_name("panel") == "panel-1"
    book.get("panel-1")
    assert book.new_name("panel") == "panel-2"
    cited = Citation("[1]", "file-a", "a.txt", "quoted")
    turn = book.get("x").add("q?", ChatResult(text="answer [1]", model="m", citations=[cited]))
    assert turn.citations == [cited]
    assert turn.tokens == estimate_tokens("q?") + estimate_tokens("answer [1]")


# ---------------------------------------------------------------- asking


def _ctx(**settings: Any) -> NotebookContext:
    session = NotebookSession(settings=ChatspaceSettings(**settings))
    return NotebookContext(session=session, namespace={"city": "Lyon"})


def test_the_request_comes_from_the_question_and_the_shared_settings() -> None:
    ctx = _ctx(default_model="m-default", default_top_k=4, default_format="json")
    request = build(ctx, Question("Churn in {city}?", filter="team=ml year=2024", thread="t"))
    kwargs = request.kwargs
    assert kwargs["model"] == "m-default"
    assert kwargs["response_format"] == {"type": "json_object"}  # the shared format
    system, user = kwargs["messages"]
    assert "JSON" in system["content"]
    assert user["content"][0] == {"type": "text", "text": "Churn in Lyon?"}
    assert user["content"][1] == {
        "type": "filter",
        "filter": json.dumps({"team": "ml", "year": 2024}),
        "top_k": 4,
    }
    assert kwargs["metadata"] == {"thread": "t", "turn": "1", "conversation": ANY_CONVERSATION}
    assert ctx.session.threads.current == "t"
    other = build(ctx, Question("x", thread="panel-1", make_current=False, interpolate=False))
    assert other.kwargs["metadata"]["thread"] == "panel-1"
    assert ctx.session.threads.current == "t"  # a panel's thread is not the magics'


class _AnyConversation(str):
    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and len(other) == 12

    __hash__ = str.__hash__


ANY_CONVERSATION = _AnyConversation()


def test_a_bad_filter_names_the_field_and_leaves_the_thread_alone() -> None:
    ctx = _ctx()
    with pytest.raises(InputError, match=r"^--filter is not valid JSON"):
        build(ctx, Question("Hi", filter="{oops", thread="t"))
    assert "t" not in ctx.session.threads.threads


def test_files_are_ids_or_unique_names_for_magics_and_panels_alike(client: Client) -> None:
    from chatspace.notebook.panels.chat import PANEL_WORDS

    notes = client.files.upload(b"Lyon churn: 5 percent.", filename="notes.txt")
    ctx = NotebookContext(session=NotebookSession(client=client))
    request = build(ctx, Question("Hi", file_ids=["notes.txt", notes.id], thread="t"))
    assert request.kwargs["messages"][-1]["content"][1]["file_ids"] == [notes.id, notes.id]
    again = client.files.upload(b"Lyon churn: 6 percent.", filename="notes.txt")
    ambiguous = r"^Files: 2 files are named 'notes.txt' in workspace 'default': "
    with pytest.raises(InputError, match=ambiguous) as raised:
        build(ctx, Question("Hi", file_ids=["notes.txt"], words=PANEL_WORDS, thread="u"))
    assert again.id in str(raised.value)
    assert "u" not in ctx.session.threads.threads  # nothing changed


def test_service_refusals_are_told_in_the_surfaces_words() -> None:
    error = UnprocessableEntityError(
        [
            {"loc": ["body", "messages", 14, "content", 1, "file_ids", 0], "msg": "no such file"},
            {"loc": ["body", "temperature"], "msg": "at most 2"},
        ]
    )
    told = in_words(error, Question("q", file_ids=["file-gone"]))
    assert told == (
        "the service refused --files 'file-gone': no such file; -t/--temperature: at most 2 (422)"
    )
    assert "body." not in told
    panel_words = {**OPTION_WORDS, "temperature": "Temperature"}
    assert "Temperature: at most 2" in in_words(error, Question("q", words=panel_words))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Lyon had 5 percent churn [1].", None),  # a citation marker is not the JSON
        ('{"churn": 5}', {"churn": 5}),
        ("[1, 2]", [1, 2]),  # the whole answer may be any JSON value
        ('The row [1] is {"city": "Lyon"} as stored.', {"city": "Lyon"}),
    ],
)
def test_json_format_takes_an_object_never_a_citation_marker(text: str, value: Any) -> None:
    found, error = value_of(text, "json")
    assert found == value
    assert error == (
        None if value is not None else "the answer is not JSON: no JSON object found in it"
    )


# ---------------------------------------------------------------- export


def test_export_keeps_citations_in_every_format(tmp_path: Path) -> None:
    thread = Thread("trip")
    cited = Citation("[1]", "file-a", "<b>memo</b>.txt", "Travel cost 300 EUR.")
    thread.add(
        "What did travel cost?", ChatResult(text="300 EUR [1].", model="m", citations=[cited])
    )
    markdown = export_text(thread, "md")
    assert "“Travel cost 300 EUR.”" in markdown  # the quote, with no needless escapes
    assert "**`<b>memo</b>.txt`** (`file-a`)" in markdown  # a file name is never markup
    html = render_markdown(markdown)
    assert "<b>" not in html
    assert "<code>&lt;b&gt;memo&lt;/b&gt;.txt</code>" in html
    record = json.loads(export_text(thread, "json"))
    assert record["turns"][0]["citations"][0]["file_id"] == "file-a"
    import nbformat

    notebook = nbformat.reads(export_text(thread, "ipynb"), as_version=4)
    assert [c.cell_type for c in notebook.cells] == ["markdown"] * 3
    assert "file-a" in notebook.cells[2].source
    path = write_thread(thread, tmp_path, "ipynb")
    assert path == tmp_path / "trip.ipynb"
    with pytest.raises(InputError, match="--to 'pdf'"):
        write_thread(thread, tmp_path / "x.pdf", None)


def test_an_export_says_what_the_mark_of_an_unsupported_sentence_means() -> None:
    """A turn whose sentences nothing supports (no source at all) keeps its marks in the
    export, and the line that says what they mean, as the cell showed it."""
    thread = Thread("trip")
    shown = f"Revenue grew in Brazil.{UNSUPPORTED}"
    thread.add("What grew?", ChatResult(text="Revenue grew in Brazil.", model="m", shown=shown))
    markdown = export_text(thread, "md")
    assert f"Brazil.{UNSUPPORTED}" in markdown
    assert UNSUPPORTED_NOTE in render_markdown(markdown)
    thread.add("And?", ChatResult(text="Nothing.", model="m"))
    assert export_text(thread, "md").count("**Sources**") == 1


# ---------------------------------------------------------------- settings and context


def test_a_notebook_starts_in_the_workspace_it_last_used(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    client.workspaces.create("research", "Research")
    monkeypatch.setenv("JPY_SESSION_NAME", "/home/me/analysis.ipynb")
    first = NotebookSession(client=client)
    assert first.settings.default_workspace == "default"
    first.settings.default_workspace = "research"  # %workspace research, or a panel's picker
    again = NotebookSession(client=client)  # the next kernel of the same notebook
    assert again.settings.default_workspace == "research"
    monkeypatch.setenv("JPY_SESSION_NAME", "/home/me/other.ipynb")
    assert NotebookSession(client=client).settings.default_workspace == "default"


def test_the_last_workspace_applies_before_the_client_is_made(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    client.workspaces.create("research", "Research")
    monkeypatch.setenv("JPY_SESSION_NAME", "/home/me/analysis.ipynb")
    NotebookSession(client=client).settings.default_workspace = "research"
    monkeypatch.setenv("CHATSPACE_BASE_URL", client.base_url)
    fresh = NotebookSession()  # a new kernel: no client until the first call
    assert fresh.settings.default_workspace == "research"
    assert fresh._client is None


def test_df_uploads_once_per_content_and_names_the_variable(client: Client) -> None:
    import pandas as pd

    ctx = NotebookContext(
        session=NotebookSession(client=client),
        namespace={"sales": pd.DataFrame({"city": ["Lyon"]}), "n": 3},
    )
    first = ctx.upload_frame("sales", "default")
    assert ctx.upload_frame("sales", "default") == first
    metadata = client.files.get(first).metadata
    assert {k: v for k, v in metadata.items() if k != "fingerprint"} == {
        "source": "dataframe",
        "variable": "sales",
    }
    assert len(metadata["fingerprint"]) == 64  # its content's sha256: found again after a restart
    with pytest.raises(InputError, match="'n' is a int, not a pandas DataFrame"):
        ctx.upload_frame("n", "default")


@pytest.mark.parametrize(
    "text",
    [
        "sales-q1-2025.xlsx (v2), 3.5% of R&D_total",
        "# not a heading",
        "- not a list",
        "1. not a list either",
        "--- no rule",
        "[x](javascript:alert(1)) *b* _i_ <img src=x onerror=y> &amp; $x$ ~~s~~ \\ `c`",
    ],
)
def test_markdown_text_shows_as_typed_with_only_the_escapes_needed(text: str) -> None:
    from html import unescape

    from chatspace.notebook.markup import code_span, markdown_text

    html = render_markdown(markdown_text(text))
    assert html.startswith("<p>")
    assert unescape(html.removeprefix("<p>").removesuffix("</p>\n")) == text
    assert markdown_text("sales-q1-2025.xlsx, 3.5% (v2)") == "sales-q1-2025.xlsx, 3.5% (v2)"
    assert unescape(render_markdown(code_span(text))) == f"<p><code>{text}</code></p>\n"
