"""What the magics show: ChatResult, the live view, and Markdown that cannot run anything."""

from __future__ import annotations

import dataclasses
import random
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from IPython.utils.capture import capture_output

from chatspace.notebook.display import (
    ON_SCREEN,
    UNSUPPORTED,
    UNSUPPORTED_NOTE,
    ChatResult,
    Citation,
    LiveView,
    Message,
    evidence,
    fenced,
)
from chatspace.notebook.markup import markdown_literal, one_line, safe_markdown
from chatspace.types import Annotation, CompletionUsage, FileCitation
from support.magics import render_markdown


def annotation(marker: str, start: int, name: str = "a.txt", quote: str = "q") -> Annotation:
    return Annotation(
        type="file_citation",
        text=marker,
        start_index=start,
        end_index=start + len(marker),
        file_citation=FileCitation(file_id=f"file-{marker}", filename=name, quote=quote),
    )


def result(**kw: Any) -> ChatResult:
    values: dict[str, Any] = {
        "text": "Paris [1].",
        "model": "service-l0",
        "id": "chatcmpl-x",
        "usage": CompletionUsage(prompt_tokens=3, completion_tokens=4, total_tokens=7),
        "elapsed": 0.1234,
        "stored": True,
        "thread": "main",
        "turn": 2,
    }
    values.update(kw)
    return ChatResult(**values)


def test_citations_follow_the_text_once_each() -> None:
    found = Citation.from_annotations(
        [annotation("[2]", 20), annotation("[1]", 5), annotation("[1]", 30)]
    )
    assert [c.marker for c in found] == ["[1]", "[2]"]


def test_plain_and_markdown_with_sources_and_footer() -> None:
    r = result(citations=[Citation("[1]", "file-1", "notes.md", "Paris is\nthe capital.")])
    assert r.plain() == (
        "Paris [1].\n\nSources:\n  [1] notes.md: “Paris is the capital.”\n\n"
        "— service-l0 · 7 tokens · 0.12 s · thread main #2"
    )
    markdown = r.markdown()
    assert "**Sources**\n\n- \\[1\\] **notes\\.md**: “Paris is the capital\\.”" in markdown
    assert markdown.endswith("*service\\-l0 · 7 tokens · 0\\.12 s · thread main \\#2*")
    data, metadata = r._repr_mimebundle_()
    assert set(data) == {"text/plain", "text/markdown"}
    assert metadata["chatspace"]["usage"] == {
        "prompt_tokens": 3,
        "completion_tokens": 4,
        "total_tokens": 7,
    }
    assert metadata["chatspace"]["completion_id"] == "chatcmpl-x"


def test_a_source_the_answer_already_quotes_is_listed_once() -> None:
    """service-l0 quotes in its text: the sources then name the file without the quote
    again; a quote the text does not show (a model's answer) is still printed."""
    quoted = Citation("[1]", "file-1", "notes.md", "Paris is\nthe capital.")
    other = Citation("[2]", "file-2", "cities.csv", "Lyon,France")
    r = result(
        text='- "Paris is the capital." (notes.md) [1] and more [2]', citations=[quoted, other]
    )
    assert "Sources:\n  [1] notes.md\n  [2] cities.csv: “Lyon,France”" in r.plain()
    assert "- \\[1\\] **notes\\.md**\n- \\[2\\] **cities\\.csv**: “Lyon\\,France”" in r.markdown()
    assert r.plain().count("Paris is the capital.") == 1


@pytest.mark.parametrize(
    ("changes", "item"),
    [
        ({"stored": False}, "not stored"),
        ({"finish_reason": "length"}, "cut short: the token limit, or the model looped"),
        ({"interrupted": True, "usage": None}, "interrupted: partial answer"),
        ({"history_left_out": 3, "token_budget": 50}, "3 older turns left out (token budget 50)"),
        ({"error": "the answer is not JSON: x"}, "the answer is not JSON: x"),
    ],
)
def test_footer_says_what_the_reader_should_know(changes: dict[str, Any], item: str) -> None:
    assert item in result(**changes).footer_items()


def test_json_and_code_values_are_shown_fenced() -> None:
    as_json = result(format="json", value={"a": "<b>"})
    assert '```json\n{\n  "a": "<b>"\n}\n```' in as_json.markdown()
    code = "x = '```'\nprint(1 < 2)\n"
    as_code = result(format="code", value=code)
    assert render_markdown(as_code.markdown()).count("<code>") == 1
    assert "print(1 &lt; 2)" in render_markdown(as_code.markdown())
    assert set(result(format="text")._repr_mimebundle_()[0]) == {"text/plain"}


def test_displaying_twice_in_one_cell_is_suppressed_once(ip: Any) -> None:
    r = result()
    ON_SCREEN.add(r)  # as a magic that published it does
    with capture_output() as cap:
        r._ipython_display_()
        r._ipython_display_()
    assert len(cap.outputs) == 1


def test_a_result_is_frozen() -> None:
    r = result()
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.text = "changed"  # type: ignore[misc]


def test_message_is_one_escaped_line() -> None:
    data = Message("bad <b>\nthing", error=True)._repr_mimebundle_()
    assert data["text/plain"] == "✗ bad <b> thing"
    assert "<b>" not in render_markdown(data["text/markdown"])


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_live_view_updates_one_display_and_throttles() -> None:
    clock = Clock()
    view = LiveView(live=True, throttle=1.0, clock=clock)
    with capture_output() as cap:
        view.feed("")  # nothing yet: no output at all
        assert not view.started
        view.feed("a")
        view.feed("ab")  # within the second: not shown
        clock.now = 1.5
        view.feed("abc")
        view.close()
    ids = {o.transient["display_id"] for o in cap.outputs}
    assert len(ids) == 1
    shown = [(o.update, o.data["text/plain"]) for o in cap.outputs]
    assert shown == [(False, ""), (True, "a"), (True, "abc"), (True, "")]
    assert view.updates == 2


def test_live_view_prints_in_a_terminal() -> None:
    import io

    out = io.StringIO()
    view = LiveView(live=False, throttle=1.0, stream=out)
    for text in ("Hel", "Hello", "Hello world"):
        view.feed(text)
    view.close()
    assert out.getvalue() == "Hello world\n"


def test_fence_is_longer_than_any_backtick_run() -> None:
    assert fenced("a ```` b", "py").startswith("`````py\n")
    assert fenced("plain") == "```\nplain\n```"


# ------------------------------------------------------------------ markup


@pytest.mark.parametrize(
    "hostile",
    [
        "<script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
        "[x](javascript:alert(1))",
        "[x](  JaVaScRiPt:alert(1))",
        "[x](java\\script:alert(1))",
        "[x](\njavascript:alert(1))",
        "![i](javascript:alert(1))",
        "[x][r]\n\n[r]: javascript:alert(1)",
        "[x](data:text/html,<script>alert(1)</script>)",
        "&lt;script&gt;",
        "x\u2028```\u2028<script>alert(1)</script>",
        "- a\n  ```\n<script>alert(1)</script>",
        "> ```\n<script>alert(1)</script>",
        "```\ncode\n``` x\n<script>alert(1)</script>",
        "```\ncode\n```~\n<script>alert(1)</script>",
        "[a](x`y) <script>alert(1)</script> `",
        "`a\n- <script>alert(1)</script>`",
        "| `a | <b onclick=x>c</b> ` |\n|---|---|",
        "\\`<script>alert(1)</script>`",
        "<!-- x --><svg onload=alert(1)>",
        # found by fuzzing against marked 15, one of the parsers JupyterLab bundles
        '![a" onerror="alert(1)](http://x)',
        '[a \\![b" onerror="alert(1)\\](http://x) c](http://y)',
        "[a \\[b\\](javascript:alert(1)) c](http://y)",
        "- [\n~~~ x\n~~~\n<script>alert(1)</script>",
        '[\n~~~"]: javascript:x\n<script>alert(1)</script>',
        "~~~\n````x\n~~~\n<script>alert(1)</script>",
        "text\n~~~",
    ],
)
def test_safe_markdown_renders_no_markup_from_the_input(hostile: str) -> None:
    assert_inert(render_markdown(safe_markdown(hostile)))


MARKDOWN_TAGS = {
    *("p", "ul", "ol", "li", "a", "img", "code", "pre", "em", "strong", "blockquote"),
    *("table", "thead", "tbody", "tr", "th", "td", "h1", "h2", "h3", "br", "hr"),
}


def assert_inert(html: str) -> None:
    """Only the elements Markdown itself makes; no handler attribute; no script URL."""
    found: list[tuple[str, list[tuple[str, str | None]]]] = []

    class Collect(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            found.append((tag, attrs))

    Collect().feed(html)
    for tag, attrs in found:
        assert tag in MARKDOWN_TAGS, html
        for name, value in attrs:
            assert not name.startswith("on"), html
            if name in ("href", "src"):
                assert not re.match(r"\s*(javascript|data|vbscript):", value or "", re.I), html


def test_code_right_after_a_sentence_keeps_its_characters() -> None:
    html = render_markdown(safe_markdown("Here is the code:\n```python\nif a < b: pass\n```\n"))
    assert '<pre><code class="language-python">if a &lt; b: pass\n</code></pre>' in html


def test_safe_markdown_keeps_markdown_and_code_as_written() -> None:
    text = (
        "# Title\n\n**bold** and `x` and [docs](https://example.org)\n\n"
        "```python\nif a < b and c & d:\n    pass\n```\n\n1 < 2 & 3"
    )
    html = render_markdown(safe_markdown(text))
    assert "<h1>Title</h1>" in html
    assert "<strong>bold</strong>" in html
    assert '<a href="https://example.org">docs</a>' in html
    assert "if a &lt; b and c &amp; d:" in html  # the code shows exactly as written
    assert "1 &lt; 2 &amp; 3" in html


def test_safe_markdown_fuzz_never_lets_markup_through() -> None:
    pieces = ["<", ">", "&", "`", "```", "~~~", "\n", " ", "[", "](", ")", "]: ", "javascript:",
              "<script>", "</script>", "<img src=x onerror=y>", "\\", "|", "- ", "> ", "    ",
              "\u2028", "\r", "text", "![", "<http://x>", "&#60;", "\"", "'"]  # fmt: skip
    rng = random.Random(1234)
    for _ in range(3000):
        sample = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 30)))
        assert_inert(render_markdown(safe_markdown(sample)))


def test_markdown_literal_and_one_line() -> None:
    name = "[x](javascript:alert(1)) *b* <i>\nnext"
    html = render_markdown(markdown_literal(name))
    assert html == "<p>[x](javascript:alert(1)) *b* &lt;i&gt; next</p>\n"
    assert one_line("a\n b\tc", 4) == "a b…"


def test_an_attributed_answer_shows_a_number_per_source_and_marks_what_nothing_supports() -> None:
    """A sentence attributed without a marker gets its source's number, a marker with no
    source is left out (the model's ``[3]`` named a passage that does not support it),
    and, since the answer has sources, the sentence none supports carries the mark."""
    text = "The fee is EUR 184,000. Everyone <b>loves</b> this deal a lot [3]. Churn fell [1]."
    fee = Annotation(
        type="file_citation",
        text="The fee is EUR 184,000.",
        start_index=0,
        end_index=23,
        file_citation=FileCitation(file_id="f-1", filename="contract.docx", quote="The fee."),
    )
    churn = annotation("[1]", text.index("[1]"), "q3.md", "Churn fell.")
    shown, citations = evidence(text, [churn, fee])
    assert [(c.marker, c.filename) for c in citations] == [
        ("[1]", "contract.docx"),
        ("[2]", "q3.md"),
    ]
    assert shown == (
        "The fee is EUR 184,000. [1] Everyone <b>loves</b> this deal a lot."
        f"{UNSUPPORTED} Churn fell [2]."
    )
    chat = result(text=text, citations=citations, shown=shown)
    markdown = chat.markdown()
    assert "<b>" not in markdown, "the answer stays escaped"
    assert UNSUPPORTED_NOTE in chat.plain()
    assert "[3]" not in render_markdown(markdown)


def test_an_answer_without_sources_marks_nothing() -> None:
    text = "Canberra is the capital of Australia. It was founded in 1913."
    assert evidence(text, []) == (text, [])
