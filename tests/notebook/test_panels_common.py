"""The panels' shared pieces, without a service: parsing, escaping, links, dialogs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chatspace.notebook.display import UNSUPPORTED, UNSUPPORTED_NOTE, Citation
from chatspace.notebook.panels._common import (
    Confirm,
    ErrorLine,
    PanelInputError,
    one_line,
    render_table,
)
from chatspace.notebook.panels._conversation import render_citations, render_turn
from chatspace.notebook.panels._inputs import parse_workspace_id
from chatspace.notebook.panels._links import (
    BASE_URL_ENV,
    data_link,
    file_download_url,
    jupyter_base_url,
)
from support.service import HOSTILE


def assert_inert(html: str) -> None:
    """No tag of the hostile text survives: it shows as text only."""
    assert "<script" not in html
    assert "<img" not in html


# ---------------------------------------------------------------- inputs


@pytest.mark.parametrize("bad", ["", "  ", "Team", "a b", "a--b", "-a", "a_", "x" * 65, "ü"])
def test_parse_workspace_id_rejects_what_the_service_would(bad: str) -> None:
    with pytest.raises(PanelInputError, match="workspace id"):
        parse_workspace_id(bad)


def test_parse_workspace_id_strips() -> None:
    assert parse_workspace_id("  team-ml_2 ") == "team-ml_2"


# ---------------------------------------------------------------- errors, dialogs, tables


def test_one_line_has_no_newlines_and_is_short() -> None:
    assert one_line(ValueError("a\nb\n  c")) == "ValueError: a b c"
    assert len(one_line("x" * 5000)) == 400
    assert one_line(PanelInputError("bad input")) == "bad input"


def test_error_line_escapes_and_hides() -> None:
    line = ErrorLine()
    assert line.layout.display == "none"
    line.show(HOSTILE)
    assert_inert(line.value)
    assert "&lt;script&gt;" in line.value
    assert line.layout.display is None
    line.clear()
    assert (line.value, line.layout.display) == ("", "none")


def test_confirm_runs_the_action_only_when_accepted() -> None:
    ran: list[str] = []
    confirm = Confirm()
    confirm.ask("Delete it?", lambda: ran.append("deleted"))
    assert confirm.question == "Delete it?"
    confirm.reject()
    assert ran == []
    assert confirm.question == ""
    confirm.ask("Delete it?", lambda: ran.append("deleted"))
    confirm._yes.click()  # the button and accept() are twins
    assert ran == ["deleted"]
    assert confirm.layout.display == "none"
    assert confirm.accept() is None  # nothing pending: nothing runs
    assert ran == ["deleted"]


def test_render_table_escapes_cells_headers_and_ids() -> None:
    html = render_table(
        ["id", "name", "meta"],
        [{"id": '"><script>', "name": HOSTILE, "meta": {"k": HOSTILE}}],
        css="t",
    )
    assert_inert(html)
    assert 'data-id="&quot;&gt;&lt;script&gt;"' in html
    assert render_table(["a"], [], css="t", empty="none <b>").endswith(
        "<i>none &lt;b&gt;</i></div>"
    )


def test_render_table_cuts_huge_values() -> None:
    html = render_table(["meta"], [{"meta": {"k": "v" * 100_000}}], css="t")
    assert len(html) < 2_000
    assert "…" in html


def test_render_table_keeps_raw_columns_raw() -> None:
    html = render_table(["link"], [{"link": '<a href="/x">x</a>'}], css="t", raw=["link"])
    assert '<a href="/x">x</a>' in html


# ---------------------------------------------------------------- conversation


def test_assistant_markdown_is_rendered_and_sanitized() -> None:
    turn = {"role": "assistant", "content": f"**bold** [l](javascript:alert(1)) {HOSTILE}"}
    html = render_turn(turn, workspace="default", base_url="/")
    assert "<strong>bold</strong>" in html
    assert 'href="javascript' not in html
    assert_inert(html)


def test_an_answer_with_unsupported_sentences_says_what_the_mark_means() -> None:
    """The panel shows the cell's mark after a sentence no file supports, and, as the
    cell's sources do, one line saying what it means (once, with or without sources)."""
    turn = {"role": "assistant", "content": f"Revenue grew in Brazil.{UNSUPPORTED} It rained."}
    html = render_turn(turn, workspace="default", base_url="/")
    assert html.count(UNSUPPORTED_NOTE) == 1
    assert UNSUPPORTED_NOTE not in render_turn(
        {"role": "assistant", "content": "Churn fell [1]."}, workspace="default"
    )


def test_user_text_is_escaped_not_rendered() -> None:
    html = render_turn({"role": "user", "content": f"**x** {HOSTILE}"}, workspace="w")
    assert "**x**" in html
    assert "<strong>" not in html
    assert_inert(html)


def test_citations_show_quote_and_escape_names() -> None:
    citation = Citation(marker="[1]", file_id='file-"x', filename=HOSTILE, quote=HOSTILE)
    html = render_citations([citation], workspace="ws", base_url="/hub/user/a/")
    assert html.count("chatspace-citation") == 1 + 1  # the list's class and one item
    assert_inert(html)
    assert 'href="/hub/user/a/chatspace/files/file-%22x/content?workspace=ws"' in html
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in html  # the quote, as text


# ---------------------------------------------------------------- links


def test_download_url_uses_the_extension_base_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(BASE_URL_ENV, "/user/ann/")
    assert jupyter_base_url() == "/user/ann/"
    assert file_download_url("file-1", "team a") == (
        "/user/ann/chatspace/files/file-1/content?workspace=team+a"
    )
    url = file_download_url("a/b", "w", base_url="x")
    assert url == "/x/chatspace/files/a%2Fb/content?workspace=w"


def test_base_url_from_the_runtime_file_of_the_parent_server(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv(BASE_URL_ENV, raising=False)
    monkeypatch.delenv("JUPYTERHUB_SERVICE_PREFIX", raising=False)
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path))
    monkeypatch.setenv("JPY_PARENT_PID", "4242")
    (tmp_path / "jpserver-4242.json").write_text(json.dumps({"base_url": "/lab-base/"}))
    assert jupyter_base_url() == "/lab-base/"
    (tmp_path / "jpserver-4242.json").write_text("not json")
    assert jupyter_base_url() == "/"
    monkeypatch.setenv("JUPYTERHUB_SERVICE_PREFIX", "/user/bob")
    assert jupyter_base_url() == "/user/bob/"


def test_data_link_escapes_the_name_and_caps_the_size() -> None:
    html = data_link(b"a,b\n", '"x.csv', "text/csv", css="c", text="get")
    assert 'download="&quot;x.csv"' in html
    assert 'href="data:text/csv;base64,YSxiCg=="' in html
    big = data_link(b"x" * (20 * 1024 * 1024 + 1), "big.csv", "text/csv", css="c", text="get")
    assert "too large" in big
    assert "href" not in big


def test_server_extension_and_panels_agree_on_the_variable() -> None:
    from chatspace.serverext import BASE_URL_ENV as SERVER_SIDE

    assert SERVER_SIDE == BASE_URL_ENV
