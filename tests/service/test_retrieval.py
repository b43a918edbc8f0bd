"""Retrieval (docs/interface.md#retrieval-and-citations): extraction, passages, FTS5 search, filter
parts, perception_usage."""

from __future__ import annotations

import codecs
import itertools
import json
import struct
from pathlib import Path

import pytest

from chatspace.service.retrieval.extract import extract
from chatspace.service.retrieval.indexing import split_passages
from chatspace.service.retrieval.sqlite_index import build_query
from chatspace.service.retrieval.terms import search_terms
from chatspace.service.tokenizer import count_tokens
from support.chat import ask, client_for, upload
from support.documents import pdf_bytes as _pdf
from support.service import Service

# ---------------------------------------------------------------- extraction


def extract_text(path: Path, *, filename: str, content_type: str) -> str | None:
    found = extract(path, filename=filename, content_type=content_type)
    return None if found is None else found.text


@pytest.mark.parametrize(
    ("name", "data", "expected"),
    [
        ("a.txt", "plain words\r\nsecond line", "plain words\nsecond line"),
        ("a.md", "# Title\n\nSome *markdown*.", "# Title\n\nSome *markdown*."),
        ("a.csv", "city,country\nParis,France\n", "city,country\nParis,France"),
        ("a.json", '{"city": "Paris"}', '{"city": "Paris"}'),
        ("a.py", "def f():\n    return 1\n", "def f():\n    return 1\n"),
        ("bom.txt", "\ufeffwith a byte order mark", "with a byte order mark"),
    ],
)
def test_text_files_are_read_as_text(tmp_path: Path, name: str, data: str, expected: str) -> None:
    path = tmp_path / name
    path.write_bytes(data.encode())
    assert extract_text(path, filename=name, content_type="application/octet-stream") == expected


def test_utf16_with_a_bom_is_text(tmp_path: Path) -> None:
    path = tmp_path / "u16.txt"
    path.write_bytes("grüße".encode("utf-16"))
    assert extract_text(path, filename="u16.txt", content_type="text/plain") == "grüße"


def test_binary_after_a_utf16_byte_order_mark_is_not_text(tmp_path: Path) -> None:
    path = tmp_path / "blob.bin"
    numbers = struct.pack("<2048i", *range(2048))  # decodes as UTF-16, letters and NULs
    path.write_bytes(codecs.BOM_UTF16_LE + numbers)
    assert extract_text(path, filename="blob.bin", content_type="application/octet-stream") is None


@pytest.mark.parametrize(
    "data", [b"\x00\x01\x02binary\x00", b"\xfa\xfb not utf-8 \xc3\x28", b"   \n  "]
)
def test_files_without_text_yield_none(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "blob.bin"
    path.write_bytes(data)
    assert extract_text(path, filename="blob.bin", content_type="application/octet-stream") is None


def _html_text(tmp_path: Path, html: str) -> str | None:
    path = tmp_path / "page.html"
    path.write_text(html)
    return extract_text(path, filename="page.html", content_type="text/html")


def test_html_keeps_visible_text_only(tmp_path: Path) -> None:
    html = """<!doctype html><html><head><title>The  Page</title>
    <style>body { color: red }</style><script>var secret = "hidden script words";</script>
    </head><body><h1>Heading</h1><p>First &amp; <b>bold</b> para.</p><!-- a comment -->
    <ul><li>one</li><li>two</li></ul><noscript>no script</noscript></body></html>"""
    assert _html_text(tmp_path, html) == "The Page\nHeading\nFirst & bold para.\none\ntwo"


def test_html_without_a_closed_head_still_has_its_body(tmp_path: Path) -> None:
    assert _html_text(tmp_path, "<html><head><title>T</title><body><p>text</p>") == "T\ntext"


def test_html_navigation_is_left_out(tmp_path: Path) -> None:
    """A menu, a table of contents, a Prev / Next bar (texinfo's says which links move
    through the manual, ``rel="next"``; its labels are a quarter of the line) and a "See
    Also" line of names are links, not text, which passages carried to models (R's FAQ
    quoted "Next: Why is R named R?, Previous: What is CRAN?, ..."). Text that links what it names
    stays: prose, a reference's parameters (two thirds links), a book's index, code;
    and a character reference to a control character is a blank, never a link's mark."""
    html = """<html><head><title>Vacuum</title></head><body>
    <nav><a href="/">Home</a> <a href="/docs">Docs</a></nav>
    <div class="navheader"><a href="prev.html">Prev</a> <a href="next.html">Next</a></div>
    <div class="header"><p>Next: <a href="#b" accesskey="n" rel="next">R Basics</a>,
    Previous: <a href="#t" rel="prev">R FAQ</a>, Up: <a href="#t" rel="up">R FAQ</a>
    &nbsp; [<a href="#c" rel="contents">Contents</a>]</p></div>
    <div class="toc"><dl><dt><a href="a.html">24.1. Routine Vacuuming</a></dt>
    <dd><dl><dt><a href="b.html">24.1.1. Vacuuming Basics</a></dt></dl></dd></dl></div>
    <p>Existing replication slots and their state can be seen in the
    <a href="view.html">pg_replication_slots</a> view.</p>
    <ul><li><code>path</code> <a href="s.html">&lt;string&gt;</a> |
    <a href="b.html">&lt;Buffer&gt;</a></li></ul>
    <p>&#14;Totals are final, see <a href="t.html">Table 1</a>.</p>
    <h2>See Also</h2><p><a href="v.html">VACUUM</a>, <a href="a.html">ANALYZE</a></p>
    <dl><dt>vacuum_cost_delay configuration parameter,
    <a href="c.html">Cost-based Vacuum Delay</a></dt></dl>
    <pre><a href="#x">CHECK_STOPPED</a>;</pre></body></html>"""
    assert _html_text(tmp_path, html) == (
        "Vacuum\n"
        "Existing replication slots and their state can be seen in the "
        "pg_replication_slots view.\n"
        "path <string> | <Buffer>\n"
        "Totals are final, see Table 1.\n"
        "See Also\n"
        "vacuum_cost_delay configuration parameter, Cost-based Vacuum Delay\n"
        "CHECK_STOPPED;"
    )


def test_an_html_table_of_facts_reads_as_key_value_lines(tmp_path: Path) -> None:
    """Apache's manual heads each directive with a table of two columns and no header,
    its labels links ("Default:"): read a cell a line, the labels were left out as
    navigation and "KeepAliveTimeout 5" stood alone, no word saying it is the default;
    Flask's converters ("path | like string but also accepts slashes") lost what each
    line is of. A cell's inline tags join without blanks ("num[ms]"), its paragraphs
    with one."""
    html = """<html><body><h2>KeepAliveTimeout Directive</h2><table class="directive">
    <tr><th><a href="d.html#Description">Description:</a></th><td>Amount of time the
    server will wait</td></tr>
    <tr><th><a href="d.html#Syntax">Syntax:</a></th><td><code>KeepAliveTimeout
    <var>num</var>[ms]</code></td></tr>
    <tr><th><a href="d.html#Default">Default:</a></th><td><code>KeepAliveTimeout 5</code></td></tr>
    </table><p>Converter types:</p><table><tbody>
    <tr><td><p><code>string</code></p></td><td><p>(default) accepts any text</p><p>without
    a slash</p></td></tr>
    <tr><td><p><code>path</code></p></td><td><p>like string but also accepts slashes</p></td></tr>
    </tbody></table></body></html>"""
    assert _html_text(tmp_path, html) == (
        "KeepAliveTimeout Directive\n\n"
        "Description: Amount of time the server will wait\n"
        "Syntax: KeepAliveTimeout num[ms]\n"
        "Default: KeepAliveTimeout 5\n\n"
        "Converter types:\n\n"
        "string: (default) accepts any text without a slash\n"
        "path: like string but also accepts slashes"
    )


@pytest.mark.parametrize(
    "rows",
    [
        # a layout: a sidebar of links beside the page's text
        "<tr><td>Home Docs Download Community Blog Contact About Us Search Help</td>"
        "<td>text</td></tr><tr><td>Menu</td><td>more text</td></tr>",
        # one row, a note's label and its text
        "<tr><td>Note</td><td>The build is parallelizable.</td></tr>",
        # the same first cell twice: rows of data, not facts
        "<tr><td>x</td><td>1</td></tr><tr><td>x</td><td>2</td></tr>",
        # three columns
        "<tr><td>a</td><td>b</td><td>c</td></tr><tr><td>d</td><td>e</td><td>f</td></tr>",
    ],
)
def test_other_tables_without_a_header_are_read_a_cell_a_line(tmp_path: Path, rows: str) -> None:
    text = _html_text(tmp_path, f"<html><body><table>{rows}</table></body></html>")
    assert text is not None
    assert ": " not in text


def test_html_file_by_extension_or_content_type(tmp_path: Path) -> None:
    path = tmp_path / "page"
    path.write_text("<p>Hello <i>there</i></p><script>alert(1)</script>")
    assert extract_text(path, filename="page.html", content_type="") == "Hello there"
    assert extract_text(path, filename="page", content_type="text/html; charset=utf-8") == (
        "Hello there"
    )


def test_pdf_text_through_pypdf(tmp_path: Path) -> None:
    path = tmp_path / "doc.pdf"
    path.write_bytes(_pdf("Zanzibar exports cloves"))
    assert extract_text(path, filename="doc.pdf", content_type="application/pdf") == (
        "Zanzibar exports cloves"
    )


def test_a_damaged_pdf_has_no_text(tmp_path: Path) -> None:
    path = tmp_path / "bad.pdf"
    path.write_bytes(b"%PDF-1.4\nthis is not really a pdf")
    assert extract_text(path, filename="bad.pdf", content_type="application/pdf") is None


# ---------------------------------------------------------------- passages and queries


def test_passages_cover_the_text_with_overlap_and_true_offsets() -> None:
    text = " ".join(f"Sentence number {i} says something." for i in range(400))
    passages = split_passages(text, size=500, overlap=100)
    assert len(passages) > 10
    for start, passage in passages:
        assert text[start : start + len(passage)] == passage
        assert len(passage) <= 500
        assert not passage[0].isspace()
        assert not passage[-1].isspace()
    for (s1, p1), (s2, _) in itertools.pairwise(passages):
        assert s1 < s2 < s1 + len(p1), "consecutive passages overlap"
    covered = set()
    for start, passage in passages:
        covered.update(range(start, start + len(passage)))
    assert all(i in covered for i, ch in enumerate(text) if not ch.isspace())


def test_a_passage_starts_where_a_sentence_or_a_line_does() -> None:
    """A passage stepped back by the overlap to a word, mid-sentence, and its quote began
    with the end of a sentence ("md5 is specified as a method ..." of "if md5 is ...")."""
    prose = " ".join(f"Sentence {i} is a sentence of prose about topic {i}." for i in range(90))
    lines = "\n".join(f"row {i} of a listing without sentence ends" for i in range(120))
    for text in (prose, lines):
        passages = split_passages(text, size=1000, overlap=200)
        assert len(passages) > 3
        for (s1, p1), (s2, _) in itertools.pairwise(passages):
            assert s1 < s2 < s1 + len(p1)
            assert text[s2 - 1] == "\n" or text[s2 - 2 : s2] == ". ", text[s2 - 20 : s2 + 20]
            assert s1 + len(p1) - s2 <= 2 * 200


def test_a_passage_does_not_start_after_an_abbreviation() -> None:
    """scikit-learn's guide: a passage began after "(i.e. ", and its quote was "with more
    zero coefficients), even when L2 penalty is used."; "i.e.", "e.g.", "vs." and "cf."
    end no sentence."""
    prose = " ".join(
        f"Model {i} may be sparser (i.e. with more zero coefficients) or denser (e.g. "
        f"with none), as the guide says (cf. section {i}) about L1 vs. L2 penalties."
        for i in range(60)
    )
    passages = split_passages(prose, size=1000, overlap=200)
    assert len(passages) > 3
    for start, passage in passages[1:]:
        assert passage.startswith("Model "), prose[start - 20 : start + 20]


def test_a_text_without_spaces_is_still_split() -> None:
    text = "x" * 2500
    passages = split_passages(text, size=1000, overlap=200)
    assert [s for s, _ in passages] == [0, 800, 1600]
    assert passages[-1][0] + len(passages[-1][1]) == 2500


def test_query_terms_are_quoted_so_fts_syntax_is_plain_text() -> None:
    terms = search_terms('What is NEAR(a b) "quoted" col:x AND * OR -not the')
    assert terms == ("near", "b", "quoted", "col", "x")
    query = build_query(['say "hi"', "x"])
    assert query == '"say ""hi""" OR "x"'


def test_the_pieces_of_contractions_are_not_searched() -> None:
    """ "I'm" searched for "m", "doesn't" for "doesn" and "t": words no passage is about,
    rare in a manual, which weighed as much as "port" in a question asked in a user's
    words. A quoted letter is a word ("the 'm' flag")."""
    question = "My Mac says port 5000 is taken though I'm not running it; Flask's docs don't"
    assert search_terms(question) == (
        "mac",
        "says",
        "port",
        "5000",
        "taken",
        "though",
        "running",
        "flask",
        "docs",
    )
    assert search_terms("Why doesn\u2019t the 'm' flag work? We won't, they've, you'll") == (
        "m",
        "flag",
        "work",
    )
    assert search_terms("Which team won?") == ("team", "won")
    assert search_terms("Q3 churn in Lyon") == ("q3", "churn", "lyon")  # no "'t" after it


def test_a_huge_question_keeps_a_bounded_query() -> None:
    terms = search_terms(" ".join(f"word{i}" for i in range(10_000)) + " " + "y" * 5000)
    assert len(terms) == 32
    assert terms[0] == "word0"


# ---------------------------------------------------------------- through the service

FRANCE = "Paris is the capital of France. The Seine flows through Paris."
GERMANY = "Berlin is the capital of Germany. The Spree flows through Berlin."
RECIPE = "Whisk the eggs with sugar until pale, then fold in the flour."


def _cited_files(answer: dict) -> list[str]:
    notes = answer["choices"][0]["message"]["annotations"]
    return [a["file_citation"]["file_id"] for a in notes]


def test_the_best_passages_are_cited_and_counted(service: Service, org: str) -> None:
    with client_for(service, org) as client:
        fr, de, cake = upload(
            client, [("france.txt", FRANCE), ("germany.txt", GERMANY), ("cake.md", RECIPE)]
        )
        answer = ask(client, "Which river flows through Berlin?")
    assert _cited_files(answer)[0] == de["id"]
    assert cake["id"] not in _cited_files(answer)
    # perception_usage counts the tokens of the passages the model was given
    given = [GERMANY] if len(_cited_files(answer)) == 1 else [GERMANY, FRANCE]
    tokens = sum(count_tokens(t) for t in given)
    assert answer["perception_usage"] == {
        "prompt_tokens": tokens,
        "completion_tokens": 0,
        "total_tokens": tokens,
    }
    assert fr["id"]


def test_no_files_or_no_match_means_no_context(service: Service, org: str) -> None:
    with client_for(service, org) as client:
        empty = ask(client, "What is the capital of France?")
        upload(client, [("cake.md", RECIPE)])
        unrelated = ask(client, "What is the capital of France?")
    for answer in (empty, unrelated):
        assert answer["perception_usage"] is None
        assert answer["choices"][0]["message"]["annotations"] == []


def test_file_ids_narrow_the_search(service: Service, org: str) -> None:
    with client_for(service, org) as client:
        fr, _de = upload(client, [("france.txt", FRANCE), ("germany.txt", GERMANY)])
        parts = [
            {"type": "text", "text": "What flows through the capital?"},
            {"type": "filter", "file_ids": [fr["id"]]},
        ]
        answer = ask(client, parts)
    assert set(_cited_files(answer)) == {fr["id"]}


def test_metadata_filter_and_several_parts_combine_with_and(service: Service, org: str) -> None:
    with client_for(service, org) as client:
        (fr,) = upload(client, [("france.txt", FRANCE)], metadata={"lang": "en", "kind": "a"})
        (de,) = upload(client, [("germany.txt", GERMANY)], metadata={"lang": "en", "kind": "b"})
        (it,) = upload(client, [("italy.txt", "Rome is the capital of Italy.")])
        question = {"type": "text", "text": "capital"}

        def cited(*filters: dict) -> set[str]:
            return set(_cited_files(ask(client, [question, *filters])))

        assert cited() == {fr["id"], de["id"], it["id"]}
        assert cited({"filter": json.dumps({"kind": "b"})}) == {de["id"]}
        assert cited({"filter": json.dumps({"kind": ["a", "b"]})}) == {fr["id"], de["id"]}
        both = cited({"filter": '{"lang": "en"}'}, {"file_ids": [fr["id"], it["id"]]})
        assert both == {fr["id"]}
        assert cited({"filter": '{"lang": "xx"}'}) == set()


def test_a_huge_list_of_file_ids_is_checked_in_one_query(service: Service, org: str) -> None:
    with client_for(service, org) as client:
        (fr,) = upload(client, [("france.txt", FRANCE)])
        ids = [*(f"file-{i:024d}" for i in range(40_000)), fr["id"]]
        refused = client.post(
            "/chat/completions",
            json={"messages": [{"content": [{"text": "capital"}, {"file_ids": ids}]}]},
        )
        assert refused.status_code == 422
        assert refused.json()["detail"][0]["loc"][-2:] == ["file_ids", 0]
        many = [fr["id"]] * 40_000
        answer = ask(client, [{"text": "capital"}, {"file_ids": many}])
    assert _cited_files(answer) == [fr["id"]]


def test_top_k_limits_the_passages(service: Service, org: str) -> None:
    with client_for(service, org) as client:
        upload(client, [(f"c{i}.txt", f"Capital city number {i}.") for i in range(8)])
        default = ask(client, "capital city")
        two = ask(client, [{"text": "capital city"}, {"type": "filter", "top_k": 2}])
        smallest = ask(client, [{"text": "capital city"}, {"top_k": 7}, {"top_k": 3}])
    assert len(_cited_files(default)) == 5
    assert len(_cited_files(two)) == 2
    assert len(_cited_files(smallest)) == 3


@pytest.mark.parametrize(
    "question",
    [
        'NEAR("capital" OR',
        'capital" AND -',
        "col:capital *",
        "capital^2 {x} (y",
        "\"'; DROP TABLE passages; --",
    ],
)
def test_fts_syntax_in_questions_is_plain_text(service: Service, org: str, question: str) -> None:
    with client_for(service, org) as client:
        (fr,) = upload(client, [("france.txt", FRANCE)])
        # relevance 0: cite any match, so that the syntax is all that is tested
        answer = ask(client, [{"text": question}, {"type": "filter", "relevance": 0}])
        again = ask(client, "capital")
    if "capital" in question.lower():
        assert _cited_files(answer) == [fr["id"]]
    assert _cited_files(again) == [fr["id"]], "the passages table is intact"


def test_script_in_html_is_never_indexed(service: Service, org: str) -> None:
    page = (
        "<html><head><script>const zyxwvut = 'steal cookies';</script></head>"
        "<body><p>Visible paragraph about gardening.</p>"
        "<script>document.write('zyxwvut')</script></body></html>"
    )
    with client_for(service, org) as client:
        upload(client, [("page.html", page)])
        hidden = ask(client, "zyxwvut cookies")
        visible = ask(client, "gardening")
    assert hidden["perception_usage"] is None
    quote = visible["choices"][0]["message"]["annotations"][0]["file_citation"]["quote"]
    assert quote == "Visible paragraph about gardening."
    assert "<" not in visible["choices"][0]["message"]["content"]


def test_script_text_in_a_plain_file_is_quoted_as_text(service: Service, org: str) -> None:
    with client_for(service, org) as client:
        upload(client, [("notes.txt", "Payload: <script>alert('gardening')</script>")])
        answer = ask(client, "gardening")
    note = answer["choices"][0]["message"]["annotations"][0]
    assert note["file_citation"]["quote"] == "Payload: <script>alert('gardening')</script>"


def test_a_huge_prompt_is_answered(service: Service, org: str) -> None:
    with client_for(service, org) as client:
        (fr,) = upload(client, [("france.txt", FRANCE)])
        question = "capital " + " ".join(f"filler{i}" for i in range(50_000))
        answer = ask(client, [{"text": question}, {"relevance": 0}])
    assert _cited_files(answer) == [fr["id"]]
    assert answer["usage"]["prompt_tokens"] == count_tokens(question)


def test_a_pdf_upload_is_searchable(service: Service, org: str) -> None:
    with client_for(service, org) as client:
        (pdf,) = upload(client, [("doc.pdf", _pdf("Zanzibar exports cloves"))])
        answer = ask(client, "What does Zanzibar export?")
    assert _cited_files(answer) == [pdf["id"]]


def test_rankings_of_a_workspace_depend_on_its_own_files_only(service: Service, org: str) -> None:
    """bm25 statistics are per workspace: other orgs' (and workspaces') uploads change nothing."""
    notes = "Paris is the capital of France. It has about 2.1 million inhabitants."
    table = "city,country,population\nParis,France,2100000\nLyon,France,520000\n"
    question = "How many inhabitants does Paris have?"
    with client_for(service, org) as mine, client_for(service, org + "-other") as theirs:
        upload(mine, [("notes.md", notes), ("cities.csv", table)])
        before = ask(mine, question)
        # Many passages elsewhere that make "inhabitants" common and "Paris" rare.
        upload(theirs, [(f"n{i}.txt", f"inhabitants inhabitants {i}") for i in range(40)])
        assert mine.post("/workspaces", json={"id": "side", "name": "Side"}).status_code == 200
        upload(mine, [("side.txt", "inhabitants " * 50)], workspace="side")
        after = ask(mine, question)
    assert after["choices"] == before["choices"]
    assert after["perception_usage"] == before["perception_usage"]
