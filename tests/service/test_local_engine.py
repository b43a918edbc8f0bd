"""The built-in engine ``service-l0``: deterministic, quoting and citing, honest without files."""

from __future__ import annotations

import httpx
import pytest

from chatspace.service.engines.base import word_chunks as chunks
from chatspace.service.engines.local import LEADS, NO_MATCH, answer
from chatspace.service.retrieval.quotes import (
    MAX_QUOTE_CHARS,
    best_quote,
    defines_option,
    heading_spans,
    is_label,
    quote_spans,
    units_of,
)
from chatspace.service.retrieval.search import Passage, Retrieval
from chatspace.service.tokenizer import count_tokens, truncate
from chatspace.types import ChatCompletionRequest
from support.chat import ask, assemble, client_for, stream, upload
from support.service import Service

NOTES = (
    "# Travel notes\n\n"
    "Paris is the capital of France. It has about 2.1 million inhabitants.\n\n"
    "The Louvre is the most visited museum in the world.\n"
)
CSV = "city,country,population\nParis,France,2100000\nLyon,France,520000\n"


@pytest.fixture
def client(service: Service, org: str) -> httpx.Client:
    with client_for(service, org) as c:
        upload(c, [("notes.md", NOTES), ("cities.csv", CSV)])
        yield c


def _message(answer: dict, i: int = 0) -> dict:
    return answer["choices"][i]["message"]


def test_answer_quotes_and_cites_with_exact_offsets(client: httpx.Client) -> None:
    answer = ask(client, "How many inhabitants does Paris have?")
    message = _message(answer)
    content = message["content"]
    assert content.startswith(LEADS[0])
    assert message["annotations"], content
    for number, note in enumerate(message["annotations"], 1):
        assert note["type"] == "file_citation"
        assert note["text"] == f"[{number}]"
        assert content[note["start_index"] : note["end_index"]] == note["text"]
        citation = note["file_citation"]
        assert citation["filename"] in {"notes.md", "cities.csv"}
        assert citation["quote"] in (NOTES if citation["filename"] == "notes.md" else CSV)
        if citation["filename"] == "notes.md":
            assert f'"{" ".join(citation["quote"].split())}" (notes.md)' in content
        else:  # a table's row, shown with its column names
            assert citation["quote"] == "Paris,France,2100000"
            assert '"city: Paris, country: France, population: 2100000" (cities.csv)' in content
    first = message["annotations"][0]["file_citation"]
    assert first["filename"] == "notes.md"
    assert first["quote"] == "Paris is the capital of France. It has about 2.1 million inhabitants."
    assert answer["choices"][0]["finish_reason"] == "stop"


def test_a_table_row_is_quoted_on_its_own(client: httpx.Client) -> None:
    answer = ask(client, "What is the population of Lyon, France?")
    quotes = [n["file_citation"]["quote"] for n in _message(answer)["annotations"]]
    assert quotes[0] == "Lyon,France,520000"


def test_same_request_same_answer(client: httpx.Client) -> None:
    one = ask(client, "What is the Louvre?", n=2, seed=7)
    two = ask(client, "What is the Louvre?", n=2, seed=7)
    assert one["id"] != two["id"]
    assert one["choices"] == two["choices"]
    assert one["usage"] == two["usage"]
    assert one["system_fingerprint"] == two["system_fingerprint"] == "chatspace-0.1.0-l0"


def test_n_gives_distinct_deterministic_variants(client: httpx.Client) -> None:
    answer = ask(client, "What is the Louvre?", n=4)
    contents = [c["message"]["content"] for c in answer["choices"]]
    assert [c["index"] for c in answer["choices"]] == [0, 1, 2, 3]
    assert [c.split("\n", 1)[0] for c in contents] == list(LEADS)
    assert len(set(contents)) == 4
    assert answer["usage"]["completion_tokens"] == sum(count_tokens(c) for c in contents)


def test_seed_picks_the_wording(client: httpx.Client) -> None:
    leads = {
        seed: _message(ask(client, "Louvre", seed=seed))["content"].split("\n", 1)[0]
        for seed in range(12)
    }
    assert set(leads.values()) == set(LEADS), "different seeds reach every wording"
    assert _message(ask(client, "Louvre", seed=3))["content"].startswith(leads[3])


def test_stop_ends_the_text_before_the_sequence(client: httpx.Client) -> None:
    full = _message(ask(client, "Louvre museum"))["content"]
    answer = ask(client, "Louvre museum", stop=["Louvre", "never there"])
    cut = _message(answer)["content"]
    assert cut == full[: full.index("Louvre")]
    assert "Louvre" not in cut
    assert answer["choices"][0]["finish_reason"] == "stop"
    assert _message(answer)["annotations"] == []
    single = ask(client, "Louvre museum", stop="files")
    assert _message(single)["content"] == full[: full.index("files")]


@pytest.mark.parametrize("field", ["max_tokens", "max_completion_tokens"])
def test_token_limits_truncate_with_finish_reason_length(client: httpx.Client, field: str) -> None:
    full = _message(ask(client, "Louvre museum"))["content"]
    answer = ask(client, "Louvre museum", **{field: 5})
    content = _message(answer)["content"]
    assert content == truncate(full, 5)[0] == "Here is what I found"
    assert answer["choices"][0]["finish_reason"] == "length"
    assert answer["usage"]["completion_tokens"] == 5
    assert _message(answer)["annotations"] == []


def test_the_tighter_limit_wins_and_keeps_whole_citations(client: httpx.Client) -> None:
    full = ask(client, "Louvre museum")
    total = full["usage"]["completion_tokens"]
    answer = ask(client, "Louvre museum", max_tokens=total + 10, max_completion_tokens=total)
    assert _message(answer) == _message(full)
    assert answer["choices"][0]["finish_reason"] == "stop"
    shorter = ask(client, "Louvre museum", max_tokens=total - 1)
    assert shorter["choices"][0]["finish_reason"] == "length"
    last = _message(full)["annotations"][-1]
    assert all(n["end_index"] < last["end_index"] for n in _message(shorter)["annotations"])


def test_without_a_match_one_honest_sentence(service: Service, org: str) -> None:
    with client_for(service, org) as c:
        answer = ask(c, "What is the airspeed of an unladen swallow?", n=2)
    sentence = NO_MATCH.format(workspace="default")
    for choice in answer["choices"]:
        assert choice["message"]["content"] == sentence
        assert choice["message"]["annotations"] == []
    assert sentence.count(".") == 1
    assert "Nothing in the files of workspace 'default' answers this" in sentence
    assert "service-l0 answers only from them" in sentence


def test_streams_in_several_chunks_that_make_the_same_answer(client: httpx.Client) -> None:
    body = {"messages": [{"content": "Louvre museum"}], "n": 2, "seed": 1}
    plain = client.post("/chat/completions", json=body).json()
    _, events = stream(client, body)
    streamed = assemble(events)
    for choice, got in zip(plain["choices"], streamed["choices"], strict=True):
        assert got["chunks"] >= 5
        assert got["message"]["content"] == choice["message"]["content"]
        assert got["message"]["annotations"] == choice["message"]["annotations"]
        assert got["finish_reason"] == choice["finish_reason"]


# ---------------------------------------------------------------- the pieces


def _hits(text: str, *words: str) -> list[tuple[int, int]]:
    return sorted((i, i + len(w)) for w in words for i in _all(text, w))


def _passage(text: str, *words: str) -> Passage:
    """A passage of ``text`` whose hits are every occurrence of ``words``."""
    return Passage("f", "a.txt", 0, 0, text, -1.0, tuple(_hits(text, *words)))


def test_best_quote_prefers_the_sentence_with_most_distinct_terms() -> None:
    text = "Cats sleep.\n\nDogs and cats play together.\n\nDogs bark at cats and dogs."
    assert best_quote(_passage(text, "Cats", "cats", "Dogs", "dogs")) == (
        "Dogs and cats play together."
    )


def test_a_sentence_that_announces_ways_is_quoted_with_the_next() -> None:
    """Flask's templating guide: "How do I register my own Jinja2 filter?" quoted "If you
    want to register your own filters in Jinja2 you have two ways to do that.", which holds
    every word of the question and none of the ways; they are in the next sentence."""
    text = (
        "Registering Filters\n"
        "If you want to register your own filters in Jinja2 you have two ways to do that. "
        "You can either put them by hand into the jinja_env of the application or use the "
        "template_filter() decorator.\nThe two following examples work the same."
    )
    passage = _passage(text, "register", "filters", "Filters", "Jinja2", "filter")
    weights = {"register": 0.2, "jinja2": 0.45, "filter": 0.35}
    quote = best_quote(passage, weights, "How do I register my own Jinja2 filter?")
    assert quote.endswith("or use the template_filter() decorator."), quote


@pytest.mark.parametrize("prompt", ["In [57]:", ">>>"])
def test_an_example_s_prompt_line_comes_after_the_sentence_it_illustrates(prompt: str) -> None:
    """pandas' user guide (Debian's python-pandas-doc): "What does to_datetime do with
    invalid dates when errors is coerce?" quoted "In [57]: pd.to_datetime([...],
    errors="coerce")", the example's input, which spells every word of the question, and
    not the sentence it illustrates."""
    text = (
        "Converting to timestamps\n"
        "Pass errors='coerce' to convert unparsable data to NaT (not a time):\n"
        f'{prompt} pd.to_datetime(["2009/07/31", "asd"], errors="coerce")\n'
        "Out[57]: DatetimeIndex(['2009-07-31', 'NaT'])"
    )
    words = ("errors", "coerce", "to_datetime")
    quote = best_quote(_passage(text, *words), dict.fromkeys(words, 1 / 3), "to_datetime?")
    assert quote.startswith("Pass errors='coerce' to convert unparsable data to NaT"), quote


def test_i_e_and_e_g_end_no_sentence() -> None:
    """Node.js's util.md: "Takes a function following the common error-first callback
    style, i.e. taking ... and returns a version that returns promises." was two sentences
    (the second a fragment), so the quote and the notebook's marks cut it at "i.e."; so
    did pandas' "Sort ascending vs. descending." at "vs."."""
    text = (
        "Takes a function following the common error-first callback style, i.e. taking a "
        "callback last, and returns a version that returns promises. Wrap a reader, E.g. "
        "fs.stat. It is 2.5 times faster. Sort ascending vs. descending, cf. sorted."
    )
    assert [text[u.start : u.end] for u in units_of(text)] == [
        "Takes a function following the common error-first callback style, i.e. taking a "
        "callback last, and returns a version that returns promises.",
        "Wrap a reader, E.g. fs.stat.",
        "It is 2.5 times faster.",
        "Sort ascending vs. descending, cf. sorted.",
    ]


# A setting's entry in PostgreSQL's manual (runtime-config-connection.html), as extracted:
# its name and type on a line, then what it does and its default.
SETTINGS = (
    "max_connections (integer)\n"
    "Determines the maximum number of concurrent connections to the database server. The "
    "default is typically 100 connections, but might be less if your kernel settings will "
    "not support it. This parameter can only be set at server start.\n"
    "superuser_reserved_connections (integer)\n"
    "Determines the number of connection slots that are reserved for superusers. The "
    "default value is three connections. The value must be less than max_connections."
)


def test_the_sentences_under_a_setting_s_name_answer_for_it() -> None:
    """ "max_connections (integer)" is the heading the sentences under it stand for; read
    as a sentence, it left them without its name, and the quote was the other setting's
    "The default value is three connections. The value must be less than max_connections."."""
    passage = _passage(SETTINGS, "max_connections", "default")
    quote = best_quote(passage, {"default": 0.3, "max_connections": 0.7}, "What is the default?")
    assert quote.startswith("The default is typically 100 connections"), quote
    assert "three connections" not in quote


def test_a_quote_is_the_sentences_that_hold_most_of_the_question() -> None:
    """Under the heading "Recursive Queries" every sentence is about recursive queries;
    the quote is the two sentences that say "modifier" and "query" themselves, not the
    first alone (heading terms weigh less than a sentence's own)."""
    text = (
        "Recursive Queries\nThe optional RECURSIVE modifier changes WITH into a feature. "
        "Using RECURSIVE, a WITH query can refer to its own output. A simple example."
    )
    passage = _passage(text, "Recursive", "Queries", "RECURSIVE", "modifier", "query")
    weights = {"recursive": 0.4, "modifier": 0.3, "query": 0.3}
    quote = best_quote(passage, weights, "What does the RECURSIVE modifier let a query do?")
    assert quote.startswith("The optional RECURSIVE modifier"), quote
    assert quote.endswith("can refer to its own output."), quote


def test_a_run_of_sentences_is_not_worth_more_for_a_year_in_its_last() -> None:
    """Three sentences each holding a word of the question, the last with a year, read
    as an answer to "when": the shape of the answer counts in the quote's first sentence
    only (the quickstart quoted the city introduction instead of the opening hours)."""
    text = (
        "Paris hosts our head office. Lyon is known for its food. Nice opened in 2023.\n\n"
        "The Lyon office opens at 9:00 and closes at 17:30."
    )
    passage = _passage(text, "office", "Lyon", "opened", "opens")
    weights = {"lyon": 0.4, "office": 0.3, "open": 0.3}
    quote = best_quote(passage, weights, "When does the Lyon office open?")
    assert quote == "The Lyon office opens at 9:00 and closes at 17:30.", quote


def test_the_words_a_passage_is_about_do_not_pick_its_sentence() -> None:
    """PostgreSQL's wal-async-commit.html: every sentence of the passage is about the
    asynchronous commit's risk window, so "risk", "window" and "asynchronous" told its
    sentences apart no more than they tell them from the question; the first quote was
    the sentences that say them all ("If the database crashes during the risk window
    ..."), not the one that says "maximum duration" and answers."""
    text = (
        "This is to ensure consistency between the server's file system and the logical "
        "state of the database. The commands supporting two-phase commit, such as PREPARE "
        "TRANSACTION, are also always synchronous.\n"
        "If the database crashes during the risk window between an asynchronous commit and "
        "the writing of the transaction's WAL records, then changes made during that "
        "transaction will be lost. The duration of the risk window is limited because a "
        "background process (the \u201cWAL writer\u201d) flushes unwritten WAL records to "
        "disk every wal_writer_delay milliseconds. The actual maximum duration of the risk "
        "window is three times wal_writer_delay because the WAL writer is designed to favor "
        "writing whole pages at a time during busy periods.\n"
        "Caution\n"
        "An immediate-mode shutdown is equivalent to a server crash, and will therefore "
        "cause loss of any unflushed asynchronous commits."
    )
    words = ("maximum", "duration", "asynchronous", "commit", "risk", "window")
    weights = dict(zip(words, (0.15, 0.2, 0.18, 0.12, 0.2, 0.15), strict=True))
    passage = Passage("f", "wal-async-commit.html", 0, 0, text, -1.0, tuple(_hits(text, *words)))
    question = "What is the maximum duration of the asynchronous commit risk window?"
    quote = best_quote(passage, weights, question)
    assert quote.startswith("The actual maximum duration of the risk window is three times"), quote


PROXY_PRESERVE_HOST = (
    "Syntax: ProxyPreserveHost On|Off\n"
    "Default: ProxyPreserveHost Off\n"
    "Context: server config, virtual host, directory\n"
    "Status: Extension\n"
    "Module: mod_proxy\n"
    "Compatibility: Usable in directory context in 2.3.3 and later.\n\n"
    "When enabled, this option will pass the Host: line from the incoming request to the "
    "proxied host, instead of the hostname specified in the ProxyPass line.\n"
    "This option should normally be turned Off.\n"
    "ProxyReceiveBufferSize Directive\n\n"
    "Description: Network buffer size for proxied HTTP and FTP connections\n"
    "Syntax: ProxyReceiveBufferSize bytes\n"
    "Default: ProxyReceiveBufferSize 0\n"
    "Context: server config, virtual host\n"
    "Status: Extension\n"
    "Module: mod_proxy\n"
)
CACHE_DEFAULT_EXPIRE = (
    "CacheDefaultExpire Directive\n\n"
    "Description: The default duration to cache a document when no expiry date is given.\n"
    "Syntax: CacheDefaultExpire seconds\n"
    "Default: CacheDefaultExpire 3600 (one hour)\n"
    "Module: mod_cache\n"
    "The CacheDefaultExpire directive specifies a default time, in seconds, to cache a "
    "document if neither an expiry date nor last-modified date are provided with the "
    "document. The value specified with the CacheMaxExpire directive does not override it.\n"
)
"""Apache's directives: a box of ``key: value`` lines, then what the directive does."""


@pytest.mark.parametrize(
    ("text", "question", "weights", "expected"),
    [
        # "when" asked a date, and the syntax's line held the name: it was quoted
        (
            PROXY_PRESERVE_HOST,
            "What happens when ProxyPreserveHost is enabled?",
            {"happens": 3.8, "ProxyPreserveHost": 6.5, "enabled": 1.9},
            "When enabled, this option will pass the Host: line",
        ),
        # the line whose key is asked of the name answers, not the sentences that say them
        (
            CACHE_DEFAULT_EXPIRE,
            "What is the default value of CacheDefaultExpire?",
            {"default": 1.2, "value": 1.6, "CacheDefaultExpire": 6.4},
            "Default: CacheDefaultExpire 3600 (one hour)",
        ),
    ],
)
def test_a_directive_s_box_is_quoted_for_the_fact_asked(
    text: str, question: str, weights: dict[str, float], expected: str
) -> None:
    """Weights as the service gave them in Apache's manual (the name is rare, the rest
    are not), in a passage from the middle of the page (its first line is no title)."""
    hits = _hits(text, *weights, *(w.capitalize() for w in weights))
    passage = Passage("f", "mod.html", 98, 50_000, text, -1.0, tuple(hits))
    quote = best_quote(passage, {w.lower(): v for w, v in weights.items()}, question)
    assert quote.startswith(expected), quote


def test_what_a_name_does_is_the_sentence_under_its_label() -> None:
    """apachectl's commands are a list of labels, each its name alone ("configtest"),
    then what it does; "What does apachectl configtest do?" quoted a sentence of another
    command that mentions it ("... checks the configuration files as in configtest ..."),
    as much as the first under its label by the rule for headings."""
    text = (
        "graceful\n"
        "This command automatically checks the configuration files as in configtest before "
        "initiating the restart to make sure Apache doesn't die.\n"
        "configtest\n"
        "Run a configuration file syntax test. It parses the configuration files and "
        "either reports Syntax Ok or detailed information about the syntax error.\n"
    )
    quote = best_quote(
        _passage(text, "configtest"), {"configtest": 1.0}, "What does configtest do?"
    )
    assert quote.startswith("Run a configuration file syntax test."), quote


def test_an_faq_s_question_is_a_heading_not_an_answer() -> None:
    """R's FAQ heads each entry with its question ("2.12 Why is R named R?"), which held
    every word of "Why is R named R?" and was quoted; the sentence under it answers."""
    text = (
        "2.11 What is CRAN?\n"
        "The Comprehensive R Archive Network is a collection of sites which carry identical "
        "material.\n"
        "2.12 Why is R named R?\n"
        "The name is partly based on the (first) names of the first two R authors, and "
        "partly a play on the name of the Bell Labs language S.\n"
        "2.13 What is the R Foundation?\n"
        "The R Foundation is a not for profit organization working in the public interest.\n"
    )
    passage = Passage("f", "R-FAQ.html", 31, 40_000, text, -1.0, tuple(_hits(text, " R", "named")))
    quote = best_quote(passage, {"r": 0.3, "named": 1.3}, "Why is R named R?")
    assert quote.startswith("The name is partly based on the (first) names"), quote


def test_what_size_asks_for_a_number() -> None:
    """Flask's configuration: "What size does MAX_COOKIE_SIZE default to?" quoted the
    first sentence under the setting's heading, "Warn if cookie headers are larger than
    this many bytes.", not "Defaults to 4093.": "what size" asks for a number, as "how
    big" does."""
    text = (
        "EXPLAIN_TEMPLATE_LOADING\u00b6\n"
        "Log debugging information tracing how a template file was loaded.\n"
        "Default: False\n"
        "MAX_COOKIE_SIZE\u00b6\n"
        "Warn if cookie headers are larger than this many bytes. Defaults to 4093. Larger "
        "cookies may be silently ignored by browsers. Set to 0 to disable the warning.\n"
    )
    hits = _hits(text, "MAX_COOKIE_SIZE", "Default")
    passage = Passage("f", "config.html", 12, 20_000, text, -1.0, tuple(hits))
    weights = {"size": 3.7, "max_cookie_size": 4.7, "default": 1.2}
    quote = best_quote(passage, weights, "What size does MAX_COOKIE_SIZE default to?")
    assert quote.startswith("Defaults to 4093."), quote


def test_a_key_value_line_is_quoted_alone() -> None:
    """Flask's converters read as ``key: value`` lines: a line that ends without a stop
    and a next one in lower case were one wrapped sentence, so "What does the path
    converter accept?" quoted the float's line with the path's."""
    text = (
        "string: accepts any text without a slash (the default)\n"
        "float: like int but for floating point values\n"
        "path: like the default but also accepts slashes\n"
        "uuid: accepts UUID strings"
    )
    words = ("path", "accepts", "converter")
    quote = best_quote(_passage(text, *words), dict.fromkeys(words, 1 / 3), "path converter?")
    assert quote == "path: like the default but also accepts slashes"


def test_the_sentence_under_an_option_s_name_says_what_it_does() -> None:
    """ "SKIP_LOCKED" heads its description: the first sentence under it defines it, though
    a later one repeats more words of the question ("option")."""
    text = (
        "SKIP_LOCKED\nSpecifies that VACUUM should not wait for conflicting locks. "
        "Note that even with this option, VACUUM may still block on indexes."
    )
    passage = _passage(text, "SKIP_LOCKED", "VACUUM", "option")
    weights = {"skip_locked": 0.55, "option": 0.14, "vacuum": 0.31}
    quote = best_quote(passage, weights, "What does the SKIP_LOCKED option of VACUUM do?")
    assert quote == "Specifies that VACUUM should not wait for conflicting locks.", quote


def test_an_entry_is_its_names_then_what_it_does_not_a_list_of_signatures() -> None:
    """SQLite's json1.html lists twenty signatures ("json_extract(json,path,...)", ...)
    before its first sentence: the list was read as json_extract's entry, and "What does
    json_extract return?" ranked it first and quoted "json_type(json)"."""
    listing = "\n".join(
        f"{name}(json,path,...)" for name in ("json_extract", "json_insert", "json_remove")
    )
    listing += "\njson_set(json,path,value,...)\nThe json1 extension provides these."
    assert not defines_option(listing, frozenset({"json_extract"}), frozenset())
    assert defines_option(listing, frozenset({"json_set"}), frozenset())
    entry = "-p\n--prune\n--prune-tags\nBefore fetching, remove any remote-tracking references."
    assert defines_option(entry, frozenset({"--prune"}), frozenset({"-p"}))
    setting = "work_mem (integer)\nSets the base maximum amount of memory of an operation."
    assert defines_option(setting, frozenset({"work_mem"}), frozenset())


def test_a_heading_opens_the_entry_of_the_name_it_starts_with_after_its_box() -> None:
    """Apache's directives: "UserDir Directive ¶", its box of facts, then what it does. An
    example's line that starts with the name ("UserDir public_html" in the guide to
    per-user directories) is no entry of it, and a heading whose box ends the passage
    holds none of its sentences."""
    headed = frozenset({"userdir"})
    box = "Description: Location of the user-specific directories\nModule: mod_userdir\n"
    entry = f"UserDir Directive \u00b6\n{box}The UserDir directive sets the real directory."
    assert defines_option(entry, frozenset(), frozenset(), headed=headed)
    example = "UserDir public_html\nThe UserDir directive specifies a directory."
    assert not defines_option(example, frozenset(), frozenset(), headed=headed)
    assert not defines_option(
        f"UserDir Directive \u00b6\n{box}", frozenset(), frozenset(), headed=headed
    )
    other = f"AliasMatch Directive \u00b6\n{box}It maps a URL to a directory."
    assert not defines_option(other, frozenset(), frozenset(), headed=headed)


def test_a_heading_that_ends_a_passage_heads_nothing_in_it() -> None:
    """Apache's ``mpm_common.html``: a passage ended with "MaxRequestWorkers Directive ¶"
    and its box ("Default: See usage for details"); the heading held the name asked about,
    and the passage ranked above the next one, which says what the default is ("The
    default value is 256"), and quoted the box. A heading heads the sentences under it in
    its passage; one with nothing but its box under it heads none there."""
    text = (
        "MaxMemFree Directive \u00b6\nDescription: Maximum free memory\n"
        "The MaxMemFree directive sets the maximum number of free Kbytes.\n"
        "MaxRequestWorkers Directive \u00b6\nDescription: Maximum number of connections\n"
        "Default: See usage for details"
    )
    assert [text[a:b] for a, b in heading_spans(text)] == ["MaxMemFree Directive \u00b6"]
    assert heading_spans(text + "\nThe default value is 256.")[1:] == [
        (text.index("MaxR"), text.index(" \u00b6\nDesc", 100) + 2)
    ]


def test_a_function_s_signature_heads_the_sentence_that_says_what_it_does() -> None:
    """A reference table's row (PostgreSQL's string functions, as extracted): the
    signature, its description, an example. "What does concat_ws do?" quoted the signature
    alone, which says nothing the question did not; the description under it answers. An
    example ("concat_ws(',', 'abcde', 2) → abcde,2") is a call with literals, not a
    signature."""
    text = (
        'concat ( val1 "any" [, val2 "any" [, ...] ] ) → text\n'
        "Concatenates the text representations of all the arguments.\n"
        "concat('abcde', 2, NULL, 22) → abcde222\n"
        'concat_ws ( sep text, val1 "any" [, val2 "any" [, ...] ] ) → text\n'
        "Concatenates all but the first argument, with separators.\n"
        "The first argument is used as the separator string, and should not be NULL.\n"
        "concat_ws(',', 'abcde', 2, NULL, 22) → abcde,2,22\n"
        "pg_cancel_backend ( pid integer ) → boolean\n"
        "Cancels the current query of the session whose backend process has the given ID.\n"
    )
    quote = best_quote(_passage(text, "concat_ws"), {"concat_ws": 1.0}, "What does concat_ws do?")
    assert quote == "Concatenates all but the first argument, with separators.", quote
    quote = best_quote(
        _passage(text, "pg_cancel_backend"), {"pg_cancel_backend": 1.0}, "What does it do?"
    )
    assert quote.startswith("Cancels the current query of the session"), quote
    assert is_label("pg_cancel_backend ( pid integer ) → boolean")
    assert is_label("def area(self) -> float:")
    assert not is_label("concat_ws(',', 'abcde', 2, NULL, 22) → abcde,2,22")
    assert not is_label("chr(65) → A")


def test_an_example_without_digits_says_what_its_call_gives() -> None:
    """PostgreSQL's string functions: "What does initcap('hi THOMAS') return?" quoted the
    description of the next function ("Returns first n characters ..."): the example, a
    short line without digits, was read as a label heading that description, whose words
    it lent it. An example with a string argument and its result is a fact."""
    text = (
        "initcap ( text ) → text\n"
        "Converts the first letter of each word to upper case and the rest to lower case.\n"
        "initcap('hi THOMAS') → Hi Thomas\n"
        "left ( string text, n integer ) → text\n"
        "Returns first n characters in the string, or when n is negative, returns all but "
        "last |n| characters.\n"
        "left('abcde', 2) → ab\n"
    )
    weights = {"initcap": 0.37, "hi": 0.29, "thomas": 0.26, "return": 0.08}
    passage = _passage(text, "initcap", "hi", "THOMAS", "Thomas", "Returns", "returns")
    quote = best_quote(passage, weights, "What does initcap('hi THOMAS') return?")
    assert quote == "initcap('hi THOMAS') → Hi Thomas", quote
    assert not is_label("upper('tom') → TOM")
    assert is_label("setweight(to_tsvector(coalesce(title,'')), 'A') ||")  # code, no result


def test_a_quote_joins_the_sentences_after_the_one_that_answers() -> None:
    """A quote of one sentence often stopped before the detail that answers; it goes on
    with the sentences after it in its paragraph that refer back to it ("It ...", "This
    ..."), up to three and :data:`MAX_QUOTE_CHARS`, and starts where the answer does
    (never with the sentence before it)."""
    text = (
        "The server writes its log. The file records the slot that pg_basebackup is using. "
        "It is named after the standby. This name is kept. And more."
    )
    quote = best_quote(_passage(text, "pg_basebackup"), {"pg_basebackup": 1.0})
    start = text.index("The file")
    assert quote == text[start : text.index(" And more.")], quote
    unrelated = "The file records the slot that pg_basebackup is using. The slot of Nice is 9."
    quote = best_quote(_passage(unrelated, "pg_basebackup"), {"pg_basebackup": 1.0})
    assert quote == "The file records the slot that pg_basebackup is using."
    long = _passage(text.replace("It is named", "It is " + "x " * 200 + "named"), "pg_basebackup")
    quote = best_quote(long, {"pg_basebackup": 1.0})
    assert quote == "The file records the slot that pg_basebackup is using.", "not past the bound"
    assert len(quote) <= MAX_QUOTE_CHARS


def test_a_heading_s_number_and_a_word_under_it_are_not_quoted() -> None:
    """PostgreSQL's pages head a section "54.24. pg_settings", which splits after the
    number: "54.24.", "20.5.", "11.8." were quoted as facts (8 quotes of 1,728 on the
    manual's questions). SQLite's pages put "Small. Fast. Reliable." under the title:
    "Small." was quoted as the title's definition."""
    assert is_label("54.24.")
    assert is_label("F.4.")
    assert not is_label("It grew 3.1 percent.")
    text = "STRICT Tables\nSmall. Fast. Reliable.\nSTRICT Tables\nEvery column declares a type."
    passage = _passage(text, "STRICT", "Tables")
    quote = best_quote(passage, {"strict": 0.8, "table": 0.2}, "What is a STRICT table?")
    assert quote == "Every column declares a type.", quote


def test_a_quote_goes_on_with_what_its_sentence_leads_to() -> None:
    """SQLite's datatype3.html: "How should I store dates and times in SQLite?" quoted
    "SQLite does not have a storage class set aside for storing dates and/or times." and
    stopped before "Instead, ...", which says how; a conclusion ("Therefore ...", "Thus
    ...") quoted alone missed its premise. Such a sentence goes on with the quote, and,
    when it ends with a colon, with what it announces."""
    text = (
        "SQLite does not have a storage class set aside for storing dates and/or times. "
        "Instead, the built-in Date And Time Functions of SQLite are capable of storing "
        "dates and times as TEXT, REAL, or INTEGER values:\n"
        'TEXT as ISO8601 strings ("YYYY-MM-DD HH:MM:SS.SSS").\n'
        "REAL as Julian day numbers.\n"
    )
    weights = {"store": 0.3, "dates": 0.4, "times": 0.3}
    passage = _passage(text, "storing", "dates", "times")
    quote = best_quote(passage, weights, "How should I store dates and times in SQLite?")
    assert quote == text[: text.index("\nREAL")], quote
    premise = "A block with an EXCEPTION clause costs more to enter and exit."
    text = f"{premise} Therefore, do not use EXCEPTION without need. Other text follows."
    quote = best_quote(_passage(text, "EXCEPTION"), {"exception": 1.0}, "Is EXCEPTION costly?")
    assert quote == text[: text.index(" Other")], quote


def test_a_quote_that_starts_by_referring_back_joins_the_sentence_it_refers_to() -> None:
    """PostgreSQL's manual (sql-createtable.html, the dev question pg-047): "Are unlogged
    tables crash-safe?" quoted "However, they are not crash-safe: ..." with nothing to
    say what "they" are. A quote whose first sentence refers back starts with the whole
    sentence of prose before it, within the bounds; a fragment the passage starts with
    (cut mid-sentence) is not joined."""
    before = (
        "Data written to unlogged tables is not written to the write-ahead log, which "
        "makes them considerably faster than ordinary tables."
    )
    answer = (
        "However, they are not crash-safe: an unlogged table is automatically truncated "
        "after a crash or unclean shutdown."
    )
    text = f"If specified, the table is created as an unlogged table. {before} {answer}"
    quote = best_quote(_passage(text, "crash"), {"crash": 1.0})
    assert quote == f"{before} {answer}", quote
    fragment = f"considerably faster than ordinary tables. {answer}"
    assert best_quote(_passage(fragment, "crash"), {"crash": 1.0}) == answer
    long = text.replace("which makes", "which " + "x " * 200 + "makes")
    assert best_quote(_passage(long, "crash"), {"crash": 1.0}) == answer, "the bound"


def test_a_quote_goes_on_to_what_its_colon_announces() -> None:
    """PostgreSQL's manual (libpq-pgpass.html, the dev question pg-147): "What is the line
    format of the .pgpass file?" quoted "This file should contain lines of the following
    format:" and stopped before the format, a blank line below."""
    text = (
        "The file .pgpass can contain passwords. This file should contain lines of the "
        "following format:\n\nhostname:port:database:username:password"
    )
    quote = best_quote(_passage(text, "format", "file"), {"format": 0.7, "file": 0.3})
    assert quote == (
        "This file should contain lines of the following format:\n\n"
        "hostname:port:database:username:password"
    )
    beyond = text.replace("hostname", "hostname" + ":x" * MAX_QUOTE_CHARS)
    quote = best_quote(_passage(beyond, "format", "file"), {"format": 0.7, "file": 0.3})
    assert quote == "This file should contain lines of the following format:", "the bound"


def test_code_and_table_rows_are_quoted_alone() -> None:
    """Only sentences of prose join a quote: a line of code or a table row stays itself."""
    text = "We drop the outliers of the penguin data.\npenguins.dropna()\nThen we plot them."
    assert best_quote(_passage(text, "penguins", "dropna")) == "penguins.dropna()"


def test_a_long_sentence_is_quoted_around_its_first_hit() -> None:
    text = " ".join(["filler"] * 200 + ["needle"] + ["filler"] * 200) + "."
    at = text.index("needle")
    passage = Passage("f", "a.txt", 0, 0, text, -1.0, ((at, at + 6),))
    quote = best_quote(passage)
    assert "needle" in quote
    assert quote in text
    assert len(quote) <= MAX_QUOTE_CHARS
    assert not quote.startswith(" ")
    assert not quote.endswith(" ")


def test_chunks_join_back_exactly() -> None:
    text = 'Here is what\n\n- "a b c d e f" (x.md) [1]  '
    pieces = chunks(text)
    assert "".join(pieces) == text
    assert len(pieces) > 2
    assert chunks("") == []


def _all(text: str, word: str) -> list[int]:
    found, at = [], text.find(word)
    while at != -1:
        found.append(at)
        at = text.find(word, at + 1)
    return found


# PostgreSQL's manual on asynchronous commit (wal-async-commit.html), as extracted: the
# question's words are spread over two sentences, and the one with most of them is not
# the one with the answer.
ASYNC_COMMIT = (
    "Asynchronous commit is an option that allows transactions to complete more quickly. "
    "If the database crashes during the risk window between an asynchronous commit and "
    "the writing of the transaction's WAL records, then changes made during that "
    "transaction will be lost. The duration of the risk window is limited because a "
    "background process (the WAL writer) flushes unwritten WAL records to disk every "
    "wal_writer_delay milliseconds. The actual maximum duration of the risk window is "
    "three times wal_writer_delay because the WAL writer is designed to favor writing "
    "whole pages at a time during busy periods.\n"
)


def test_a_passage_is_quoted_twice_when_two_parts_hold_the_question(
    service: Service, org: str
) -> None:
    """The run of sentences with most of the question ("asynchronous commit", "risk
    window", "duration") is quoted first; the sentence with the rest ("maximum") and the
    answer is a second quote of the same passage, with its own marker and location."""
    with client_for(service, org) as c:
        upload(c, [("wal.txt", ASYNC_COMMIT), ("notes.md", NOTES)])
        answer = ask(c, "What is the maximum duration of the asynchronous commit risk window?")
    notes = _message(answer)["annotations"]
    quotes = [
        n["file_citation"]["quote"] for n in notes if n["file_citation"]["filename"] == "wal.txt"
    ]
    assert len(quotes) == 2, quotes
    assert "asynchronous commit" in quotes[0]
    assert "three times wal_writer_delay" in quotes[1]
    assert "three times wal_writer_delay" not in quotes[0]
    assert [n["text"] for n in notes] == [f"[{i}]" for i in range(1, len(notes) + 1)]
    assert all(q in ASYNC_COMMIT for q in quotes)


def test_a_quote_said_in_another_is_shown_once() -> None:
    """Passages overlap: a sentence near the end of one starts the next. Quoted with the
    sentence it refers back to from the first, and alone from the second, it was shown
    twice."""
    logs = "Audit logs are kept for 400 days. They are deleted after seven years."
    later = "They are deleted after seven years. Badges are printed at the front desk."
    passages = tuple(
        Passage("f", "retention.txt", i, 0, text, -1.0, tuple(_hits(text, "deleted", "years")))
        for i, text in enumerate((logs, later))
    )
    request = ChatCompletionRequest.model_validate(
        {"model": "service-l0", "messages": [{"role": "user", "content": "When are logs deleted?"}]}
    )
    retrieval = Retrieval("When are logs deleted?", ("deleted", "years"), passages)
    [choice] = answer(request, retrieval)
    assert [n.file_citation.quote for n in choice.annotations if n.file_citation] == [logs]


def test_a_heading_alone_is_no_bullet_after_one_that_says_something() -> None:
    """Apache's mod_cache: "What is the default value of CacheDefaultExpire?" listed,
    after the "Default:" line and the sentences, the heading "CacheDefaultExpire
    Directive \u00b6" of a passage whose best quote it was: it says nothing."""
    said = "Default: CacheDefaultExpire 3600 (one hour)\nModule: mod_cache"
    heading = "CacheDefaultExpire Directive \u00b6"
    words = ("CacheDefaultExpire", "Default")
    passages = tuple(
        Passage("f", "mod_cache.html", i, 5_000 * (i + 1), text, -1.0, tuple(_hits(text, *words)))
        for i, text in enumerate((said, heading))
    )
    question = "What is the default value of CacheDefaultExpire?"
    request = ChatCompletionRequest.model_validate(
        {"model": "service-l0", "messages": [{"role": "user", "content": question}]}
    )
    [choice] = answer(request, Retrieval(question, ("cachedefaultexpire", "default"), passages))
    quotes = [n.file_citation.quote for n in choice.annotations if n.file_citation]
    assert quotes == ["Default: CacheDefaultExpire 3600 (one hour)"], quotes
    [alone] = answer(request, Retrieval(question, ("cachedefaultexpire", "default"), passages[1:]))
    assert [n.file_citation.quote for n in alone.annotations if n.file_citation] == [
        "CacheDefaultExpire Directive \u00b6"
    ]


def test_a_second_quote_that_says_nothing_new_is_not_shown() -> None:
    """ "The Lyon office opens at 9:00" holds "office" and "opens" as the first quote does,
    and nothing else of the question: it is not a second answer to which office opens at
    8:30."""
    text = (
        "The Paris office opens at 8:30 and closes at 18:00.\n"
        "The Lyon office opens at 9:00 and closes at 17:30."
    )
    passage = _passage(text, "office", "opens", "8:30")
    weights = {"office": 0.3, "opens": 0.3, "8:30": 0.4}
    spans = quote_spans(passage, weights, "Which office opens at 8:30 on weekdays?")
    assert [text[a:b] for a, b in spans] == ["The Paris office opens at 8:30 and closes at 18:00."]


def test_a_numbered_heading_is_a_label() -> None:
    """A Word report's heading "4 Step test in Tullyroe East" (its number written in its
    text) was quoted for "On which night was the step test carried out?": its digit made
    it no label. A heading's number before its capitalized title is no figure."""
    text = (
        "4 Step test in Tullyroe East\n\n"
        "The network team closed six boundary valves in turn.\n\n"
        "Footnote 3: The step test ran on the night of 11 to 12 March 2025."
    )
    passage = _passage(text, "Step", "test", "Tullyroe", "East", "step", "test", "night")
    weights = {"tullyroe": 0.3, "east": 0.2, "step": 0.2, "test": 0.2, "night": 0.1}
    question = "On which night was the Tullyroe East step test carried out?"
    quote = best_quote(passage, weights, question)
    assert quote == "Footnote 3: The step test ran on the night of 11 to 12 March 2025.", quote
    assert is_label("3.2 Findings")
    assert not is_label("4 pallets"), "a figure, not a heading's number"
    assert not is_label("2025 Budget"), "a year"
