"""Answers you can trust: only relevant passages are cited, and follow-ups are searched
with their conversation (through the real service)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from chatspace.service.config import Settings
from chatspace.service.engines.local import NO_MATCH
from chatspace.service.retrieval.search import (
    DEFAULT_RELEVANCE,
    MAX_PHRASES,
    is_follow_up,
    name_phrases,
    names_in,
    query_of,
    shaping_words,
)
from chatspace.service.retrieval.terms import (
    MAX_OPTIONS,
    OPTION_CHARS,
    asked_words,
    calls_in,
    flags_in,
    heading_names,
    keyword_values,
    options_in,
    parameters_in,
)
from chatspace.types import ChatMessage
from support.chat import ask, client_for, upload
from support.service import Service, start_service

QUICKSTART = Path(__file__).resolve().parents[2] / "notebooks" / "data"
NICE_OFFICE = (
    "# Nice office\n\nThe Nice office is in the old town of Nice. Nice staff meet on Mondays.\n"
    "Parking in Nice is scarce; most of the Nice team comes by tram.\n"
)


@pytest.fixture
def client(service: Service, org: str) -> Iterator[httpx.Client]:
    """A client of a workspace holding the quickstart's files (on a default service)."""
    with client_for(service, org) as c:
        upload(c, [(p.name, p.read_bytes()) for p in sorted(QUICKSTART.iterdir())])
        yield c


def _said_often(sentence: str) -> str:
    """``sentence`` seven times, each after a word of sequence ("First, ...", "Then ..."):
    prose that repeats the question's words, as tips and guides do."""
    steps = ("First,", "Then", "Also", "Again", "Besides,", "Still,", "Last,")
    return " ".join(f"{step} {sentence}" for step in steps)


def _cited(answer: dict) -> list[str]:
    return [n["file_citation"]["filename"] for n in answer["choices"][0]["message"]["annotations"]]


def _content(answer: dict) -> str:
    return str(answer["choices"][0]["message"]["content"])


def test_a_question_no_file_answers_cites_nothing_and_says_so(client: httpx.Client) -> None:
    answer = ask(client, "What is the capital of Australia?")
    assert _cited(answer) == []
    said = NO_MATCH.format(workspace="default") + ' No file mentions "Australia".'
    assert _content(answer) == said, "and the name no file knows, as the question writes it"
    assert _content(answer).startswith("Nothing in the files of workspace 'default' answers")
    assert answer["perception_usage"] is None


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        (
            "What nitrate concentration did the Tullyroe East samples show?",
            {"nitrate", "concentration"},
        ),
        ("Which contractor installs the smart meters?", {"contractor", "installs"}),
        ("How long is the sewer network in the Central zone?", {"sewer", "network"}),
        ("What's the mean time to repair a burst main?", {"mean", "time"}),
        ("how many customer complaints were logged in March?", {"customer", "complaints"}),
        ("When does the contract start?", set()),
        ("What was total headcount across all departments?", {"total", "headcount"}),
    ],
)
def test_the_thing_a_question_asks_for(question: str, asked: set[str]) -> None:
    assert asked_words(question) == asked


def test_what_no_file_says_of_the_thing_asked_leads_the_nearest_passages(
    client: httpx.Client,
) -> None:
    """ "What nitrate concentration did the Tullyroe East samples show?" quoted a sample of
    Tullyroe East as its answer: the files never say "nitrate", and every other word of
    the question matched. The passages are still given, as the nearest (a question's word
    is often not the file's: "deadline" of "ship by the end of September"), after what no
    file says; a question whose words the files hold is answered as before."""
    samples = (
        "sample_id,sampled_at,dma,point,turbidity_ntu,free_chlorine_mg_l\n"
        "WQ-1,2025-02-18,Tullyroe East,SP-S311-01,1.84,0.31\n"
        "WQ-2,2025-02-19,Kilcolgan North,SP-N101-01,0.42,0.55\n"
    )
    upload(client, [("water_quality_samples_2025Q1.csv", samples)])
    answer = ask(client, "What nitrate concentration did the Tullyroe East samples show?")
    content = _content(answer)
    assert content.startswith(
        'No file mentions "nitrate" or "concentration". These passages of your files are the '
        "nearest to your question:\n\n- "
    ), content
    assert _cited(answer) == ["water_quality_samples_2025Q1.csv"]
    answer = ask(client, "What turbidity did the Tullyroe East samples show?")
    assert _content(answer).startswith("Here is what I found in your files:"), answer


def test_a_relevant_question_cites_the_file_that_answers(client: httpx.Client) -> None:
    answer = ask(client, "What was the Q3 churn in Lyon?")
    assert _cited(answer) == ["q3-report.md"]
    quote = answer["choices"][0]["message"]["annotations"][0]["file_citation"]["quote"]
    assert "churn in Lyon was 5 percent" in quote


def test_the_relevance_knob_of_a_request_changes_what_is_cited(client: httpx.Client) -> None:
    question = {"type": "text", "text": "What is the capital of Australia?"}
    anything = ask(client, [question, {"type": "filter", "relevance": 0}])
    assert _cited(anything)[0] == "cities.md", "0: the best passages, whatever they say"
    partial = {"type": "text", "text": "Which office opens at 8:30 on weekdays?"}
    assert _cited(ask(client, [partial])) == ["cities.md"], "most of the question matches"
    assert _cited(ask(client, [partial, {"relevance": 1}])) == [], "1: every term must match"
    refused = client.post(
        "/chat/completions",
        json={"messages": [{"content": [question, {"type": "filter", "relevance": 2}]}]},
    )
    assert refused.status_code == 422
    assert refused.json()["detail"][0]["loc"][-1] == "relevance"


def test_a_question_naming_what_no_file_mentions_cites_nothing(client: httpx.Client) -> None:
    """Most of the question matches ("office", "opens", "8:30"), but the files know no
    Marseille: quoting the Paris office's hours would mislead."""
    assert _cited(ask(client, "Which office opens at 8:30 in Marseille?")) == []
    assert _cited(ask(client, "When does the Lyon office open?"))[0] == "cities.md"


def test_a_function_no_file_names_is_a_subject_the_files_do_not_know(
    client: httpx.Client,
) -> None:
    """R's manuals say much of data frames and their columns, nothing of dplyr: "How do I
    add a new column to a data frame with dplyr's mutate()?" cited R's introduction to
    data frames. A word written as a call ("mutate()") is a name, which no file holds."""
    upload(
        client,
        [
            (
                "R-intro.md",
                "# Data frames\n\nA data frame may be regarded as a matrix with columns "
                "possibly of differing modes. A new column is added to a data frame by "
                "assigning to it: df$ratio <- df$a / df$b.\n",
            )
        ],
    )
    assert (
        _cited(ask(client, "How do I add a new column to a data frame with dplyr's mutate()?"))
        == []
    )
    assert _cited(ask(client, "How do I add a new column to a data frame?")) == ["R-intro.md"]


def test_a_passage_without_a_rare_name_of_the_question_is_not_cited(client: httpx.Client) -> None:
    """A manual knows "Australia" only as a time zone: "the capital city of Australia"
    matched "Each state has many cities, but only one capital." and was cited (PostgreSQL's
    manual, the no-answer question pg-311)."""
    upload(
        client,
        [
            (
                "inheritance.md",
                "# Inheritance\n\nEach state has many cities, but only one capital.\n",
            ),
            ("zones.md", "# Time zones\n\nAustralia/Sydney is one of the time zone names.\n"),
        ],
    )
    assert "inheritance.md" not in _cited(ask(client, "What is the capital city of Australia?"))
    assert _cited(ask(client, "How many capitals does a state have?"))[0] == "inheritance.md"
    assert _cited(ask(client, "Is Australia/Sydney a time zone name?"))[0] == "zones.md"


def test_a_name_of_several_words_no_file_spells_together_is_not_cited(
    client: httpx.Client,
) -> None:
    """A manual knows "Microsoft Windows" and "SQL server" (PostgreSQL's manual, the
    no-answer question pg-285), each word of "Microsoft SQL Server" but never the name:
    its build notes were cited for the product's default port. A name it spells together,
    in any case and across punctuation ("SELECT ... FOR UPDATE"), is answered. Only names
    with a word in capitals count (products, commands): not a document's name a user
    capitalizes ("the Acme Contract"), nor acronyms in a row ("its MIME XML file": the
    spec that says "XML file" and "MIME types" answered nothing)."""
    upload(
        client,
        [
            (
                "install-windows.md",
                "# Building on Windows\n\nBuild with the Microsoft Windows SDK. The SQL server "
                "listens on TCP port 5432 by default.\n",
            ),
            ("locking.md", "# Row locks\n\nSELECT ... FOR UPDATE locks the rows it returns.\n"),
            ("terms-2025.md", "This contract between Acme GmbH and us sets a fee of EUR 9,000.\n"),
            (
                "packages.md",
                "# Packages\n\nAn application installs one XML file into the packages "
                "directory, then runs update-mime-database, which merges the MIME types.\n",
            ),
        ],
    )
    assert _cited(ask(client, "What is the default TCP port of Microsoft SQL Server?")) == []
    assert _cited(ask(client, "What is the default TCP port of the SQL server?")) == [
        "install-windows.md"
    ]
    assert _cited(ask(client, "Which rows does SELECT FOR UPDATE lock?"))[0] == "locking.md"
    # a document's name a user capitalizes is no such name: the file words it its own way
    assert _cited(ask(client, "What is the fee of the Acme Contract?"))[0] == "terms-2025.md"
    # acronyms in a row say what kind of thing it is, and a file writes them apart
    assert _cited(ask(client, "What must run after installing its MIME XML file?"))[0] == (
        "packages.md"
    )
    assert name_phrases("What is the fee of the Acme Contract?") == set()
    assert name_phrases("What does the Redis EXPIRE command do?") == {("redis", "expire")}
    assert name_phrases("How Do I Configure Logging?") == set(), "a title"
    pasted = "Is it in " + "".join(f"the Alpha{i} BETA with " for i in range(5000)) + "?"
    assert len(name_phrases(pasted)) == MAX_PHRASES, "a pasted document is no list of names"
    assert name_phrases("Is it in SQL Server's index, for a CFO, CEO?") == {("sql", "server")}
    assert name_phrases("Which command must run after installing its MIME XML file?") == set()
    assert name_phrases("Is a REST API call to AWS S3 logged?") == {("aws", "s3")}


def test_an_acronym_before_a_code_says_what_kind_of_thing_it_is(client: httpx.Client) -> None:
    """ "ILI of DMA C204 in the 2024/25 water balance?" was answered by nothing: "DMA C204"
    read as a product's name that a file must spell together, and the sheet writes the
    code under its column ``DMA``. An acronym that leads a code says what kind it is."""
    sheet = "DMA,Name,ILI\nC204,Ardcarne West,2.46\nC205,Ardcarne East,1.91\n"
    upload(client, [("water_balance_2024-25.csv", sheet)])
    answer = ask(client, "ILI of DMA C204 in the 2024/25 water balance?")
    assert _cited(answer) == ["water_balance_2024-25.csv"], answer
    assert _cited(ask(client, "What is the ILI of Microsoft SQL Server?")) == []


SETTINGS_PAGE = (
    "# Memory\n\nThe default value of work_mem is four megabytes. The default value of "
    "shared_buffers is typically 128 megabytes.\n"
)


def test_a_setting_no_file_mentions_cites_nothing(client: httpx.Client) -> None:
    """A word joined by underscores names a setting or a function: "the default value of
    *max_query_memory*" matched "default value" in every sentence about work_mem and was
    cited, though no file knows that setting. A role written in capitals ("COPY") does not
    make a file named after it the subject ("What does COPY's ON_ERROR option do?")."""
    upload(
        client,
        [("runtime-config.md", SETTINGS_PAGE), ("sql-copy.md", "# COPY\n\nCOPY moves rows.\n")],
    )
    assert _cited(ask(client, "What is the default value of max_query_memory?")) == []
    assert _cited(ask(client, "What does COPY's ON_ERROR ignore option do?")) == []
    assert _cited(ask(client, "What is the default value of work_mem?"))[0] == "runtime-config.md"


def test_a_setting_is_known_only_by_its_whole_name(client: httpx.Client) -> None:
    """ "on_error" is searched as "on" and "error", which the files have, and
    "maintenance_work_mem" holds "work" and "mem": neither makes the setting known, and
    the sentence about work_mem itself is the one quoted."""
    page = (
        "maintenance_work_mem (integer)\nThe default value is 64 megabytes for "
        "maintenance_work_mem.\n\nwork_mem (integer)\nSets the memory of a sort. The default "
        "value is four megabytes.\n\nWhen an error occurs on a row, COPY stops.\n"
    )
    upload(client, [("resource.md", page)])
    assert _cited(ask(client, "What does COPY's on_error option do?")) == []
    answer = ask(client, "What is the default value of work_mem?")
    quotes = [a["file_citation"]["quote"] for a in answer["choices"][0]["message"]["annotations"]]
    assert quotes[0] == "The default value is four megabytes.", quotes


def test_a_name_many_files_share_names_none_of_them(client: httpx.Client) -> None:
    """ "Query" is in the names of four files: a question about Azure's Query Store is not
    about them (one file named "acme" would be: :func:`test_a_name_in_a_file_name_counts`)."""
    pages = [
        (f"config-query-{i}.md", f"# Query {i}\n\nQuery plans are stored.\n") for i in range(4)
    ]
    upload(client, pages)
    assert _cited(ask(client, "How do I turn on Query Store in Azure?")) == []
    assert _cited(ask(client, "Where are query plans stored?"))


def test_a_name_in_a_file_name_counts(client: httpx.Client) -> None:
    upload(client, [("stock-genoa.csv", "item,units\nkettle,12\ndrill,4\n")])
    assert _cited(ask(client, "How many kettle units are in stock in Genoa?")) == [
        "stock-genoa.csv"
    ]


def test_the_words_of_a_file_name_joined_by_underscores_count(client: httpx.Client) -> None:
    """``QBR_Q3_2026.md`` was one word, "qbr_q3_2026": its table never says "Q3", a rare
    name of the question, so "What was Cobalt Switch revenue in the East region in Q3?"
    cited nothing; nor did "Who is the owner of the Q3 QBR?" (the name's words are in the
    file's name, in another order)."""
    upload(
        client,
        [
            (
                "QBR_Q3_2026.md",
                "# Quarterly business review\n\nOwner: Priya Raman\n\nRevenue by product:\n\n"
                "| Product | Region | Revenue |\n|---|---|---|\n"
                "| Cobalt Switch | East | 2,208,600 |\n| Cobalt Switch | West | 1,104,000 |\n"
                "| Argon Router | East | 648,400 |\n",
            ),
            ("plan-2027.md", "# Plan\n\nThe East region opens a second office in 2027.\n"),
        ],
    )
    answer = ask(client, "What was Cobalt Switch revenue in the East region in Q3?")
    assert _cited(answer)[:1] == ["QBR_Q3_2026.md"]
    assert "2,208,600" in answer["choices"][0]["message"]["content"]
    answer = ask(client, "Who is the owner of the Q3 QBR?")
    assert "Owner: Priya Raman" in answer["choices"][0]["message"]["content"]


def test_a_period_or_an_acronym_of_the_question_need_not_be_spelled(
    client: httpx.Client,
) -> None:
    """A deck's table of the third quarter never says "Q3", and "Milan North DC" is the
    distribution centre "Milan North": "Q3 on-time rate for Milan North DC?" cited nothing
    (a rare name every passage lacked, a name of several words no file spells)."""
    upload(
        client,
        [
            (
                "fulfilment.md",
                "# Q3 2024 fulfilment review\n\nNetwork volume grew in every region.\n\n"
                "## Sites\n\n| Distribution Centre | On-Time Rate (%) |\n|---|---|\n"
                "| Milan North | 91.6 |\n| Milan South | 88.2 |\n| Rotterdam | 95.3 |\n",
            ),
            ("plan.md", "# Plan\n\nThe Milan office hires in Q4.\n"),
        ],
    )
    answer = ask(client, "Q3 on-time rate for Milan North DC?")
    assert _cited(answer)[:1] == ["fulfilment.md"]
    content = answer["choices"][0]["message"]["content"]
    assert "Distribution Centre: Milan North, On-Time Rate (%): 91.6" in content


def test_the_service_setting_is_the_default(service: Service, org: str, tmp_path: Path) -> None:
    """On by default at the calibrated threshold: a natural question whose verb no file
    uses keeps its citation (the README's walkthrough), one about what the files do not
    know gets none; ``--relevance-threshold 0`` cites the best passages whatever."""
    assert Settings().relevance == DEFAULT_RELEVANCE
    files = [(p.name, p.read_bytes()) for p in sorted(QUICKSTART.iterdir())]
    sales = [("sales.csv", b"city,product\nLyon,bikes\nPorto,boats\n")]
    with client_for(service, org) as c:
        upload(c, files + sales)
        assert _cited(ask(c, "What is the capital of Australia?")) == []
        assert _cited(ask(c, "Which products sell in Lyon?"))[0] == "sales.csv"
    loose = start_service(tmp_path / "loose", "--relevance-threshold", "0")
    try:
        with client_for(loose, org) as c:
            upload(c, files)
            assert _cited(ask(c, "What is the capital of Australia?"))[0] == "cities.md"
    finally:
        loose.stop()


def test_a_follow_up_is_searched_with_its_conversation(client: httpx.Client) -> None:
    upload(client, [("nice-office.md", NICE_OFFICE)])
    alone = ask(client, "And in Nice?")
    assert _cited(alone)[0] != "q3-report.md", "searched literally, Nice's office wins"
    conversation = [
        {"role": "user", "content": "What was the Q3 churn in Lyon?"},
        {"role": "assistant", "content": "The Q3 churn in Lyon was 5 percent."},
        {"role": "user", "content": "And in Nice?"},
    ]
    response = client.post("/chat/completions", json={"messages": conversation})
    assert response.status_code == 200, response.text
    notes = response.json()["choices"][0]["message"]["annotations"]
    first = notes[0]["file_citation"]
    assert first["filename"] == "q3-report.md"
    assert "churn in Nice was 9 percent" in first["quote"]


@pytest.mark.parametrize(
    ("question", "follow_up"),
    [
        ("And in Nice?", True),
        ("What about Q4?", True),
        ("Who owns it?", True),
        ("What is its main risk?", True),
        ("What is the capital of Australia?", False),
        ("How long does it take to hard-boil an egg at sea level?", False),
        ("Who works there?", True),
        # an existential "there" points back to no place
        ("How many species are there?", False),
        ("Is there a flower with a petal width over 3?", False),
        ("Are there open tickets there?", True),
    ],
)
def test_what_counts_as_a_follow_up(question: str, follow_up: bool) -> None:
    assert is_follow_up(question) is follow_up


def test_a_follow_up_weighs_the_earlier_turn_lower() -> None:
    messages = [
        ChatMessage.model_validate({"role": "user", "content": "Q3 churn in Lyon"}),
        ChatMessage.model_validate({"role": "assistant", "content": "5 percent"}),
        ChatMessage.model_validate({"role": "user", "content": "And in Nice?"}),
    ]
    query = query_of(messages)
    assert dict(zip(query.terms, query.weights, strict=True)) == {
        "nice": 1.0,
        "q3": 0.5,
        "churn": 0.5,
        "lyon": 0.5,
    }
    standalone = query_of([*messages[:2], ChatMessage(role="user", content="Capital of Peru?")])
    assert standalone.terms == ("capital", "peru")


BUDGETS = "region,budget_eur,owner\nNorth,120000,Ada\nSouth,340000,Grace\nEast,90000,Linus\n"


@pytest.mark.parametrize(
    ("question", "row"),
    [
        ("Which region has the largest budget?", "South,340000,Grace"),
        ("Which region has the smallest budget?", "East,90000,Linus"),
        ("Who owns the North budget?", "North,120000,Ada"),
    ],
)
def test_a_table_is_cited_by_the_row_that_answers_with_its_header(
    client: httpx.Client, question: str, row: str
) -> None:
    upload(client, [("budgets.csv", BUDGETS)])
    answer = ask(client, question)
    (note,) = answer["choices"][0]["message"]["annotations"]
    assert note["file_citation"]["filename"] == "budgets.csv"
    assert note["file_citation"]["quote"] == row
    region, budget, owner = row.split(",")
    shown = f'"region: {region}, budget_eur: {budget}, owner: {owner}" (budgets.csv) [1]'
    assert shown in _content(answer)


def test_rows_that_match_equally_are_quoted_by_the_first(client: httpx.Client) -> None:
    """Two tickets of Nice are open: the first is quoted, with its column names, rather
    than the block's lines run together."""
    answer = ask(client, "Which tickets are still open in Nice?")
    notes = answer["choices"][0]["message"]["annotations"]
    first = notes[0]["file_citation"]
    assert first["filename"] == "tickets.csv"
    assert "\n" not in first["quote"]
    assert first["quote"].split(",")[1:4] == ["Nice", "login", "open"]
    assert "city: Nice, product: login, status: open" in _content(answer)


@pytest.mark.parametrize(
    ("question", "shaping"),
    [
        ("What happens when ProxyPreserveHost is enabled?", {"happens"}),
        ("What happened to the Q3 numbers?", {"happened"}),
        ("How long did the outage last?", {"long", "last"}),
        ("Why does it happen twice?", set()),
    ],
)
def test_what_a_question_asks_for_is_not_searched(question: str, shaping: set[str]) -> None:
    """ "What happens" asks for an effect, which a file says without the word: in pandas'
    guides "happens" is rare, and it outweighed ``on_bad_lines`` and "warn"."""
    assert shaping_words(question) - {"many", "much", "often"} == shaping


@pytest.mark.parametrize(
    ("question", "passed"),
    [
        (
            "What happens when read_csv is called with on_bad_lines='warn'?",
            [("on_bad_lines", "warn")],
        ),
        (
            'What does merge do with how="left" and indicator=True?',
            [("how", "left"), ("indicator", "true")],
        ),
        ("Is x = 5 allowed, or n_jobs=-1?", [("x", "5")]),
        ("What does to_datetime do with errors=\u2018coerce\u2019?", [("errors", "coerce")]),
        ("What does df.loc[a] = b do?", []),
    ],
)
def test_a_keyword_argument_and_its_value_are_read(
    question: str, passed: list[tuple[str, str]]
) -> None:
    assert list(keyword_values(question)) == passed


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("What does the ExpiresActive directive do?", {"expiresactive"}),
        ("What is the default value of SSLProtocol?", {"sslprotocol"}),
        ("How do I pivot a DataFrame?", {"dataframe"}),
        ("Which PDFs mention Q3 and the NPS of Nice?", set()),
        ("What does the Acme Contract say?", set()),
        ("What does the [L] flag do in a RewriteRule?", {"l", "rewriterule"}),
        ("Is [citation needed] a flag?", set()),
    ],
)
def test_a_name_in_camel_case_or_in_brackets_heads_its_entry(
    question: str, names: set[str]
) -> None:
    assert heading_names(question) == names


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("What is the capital of Australia?", {"australia"}),
        ("NPS of the Nice branch in Q3?", {"nice", "q3"}),
        ("Lyon churn?  \n  Paris too. (Rome) x: Oslo", set()),
        ('He said "Berlin" then Madrid', {"madrid"}),
        ("all lowercase words here", set()),
        ("Can I run my pandas code on the GPU with cuDF?", {"gpu", "cudf"}),
        ("macOS users ask too", {"macos"}),
    ],
)
def test_names_are_capitalized_words_inside_a_sentence(question: str, names: set[str]) -> None:
    assert names_in(question) == names


@pytest.mark.parametrize(
    ("question", "options"),
    [
        ("What does initdb --data-checksums do?", {"--data-checksums"}),
        ("Is --Link the same as --link-dest?", {"--link", "--link-dest"}),
        ("pg_basebackup -R, and a -- b, and x--y, and --_x or --9x", {"--9x"}),
        ("Ends with a dash --option- here", {"--option"}),
    ],
)
def test_long_options_are_double_dashed_words(question: str, options: set[str]) -> None:
    assert options_in(question) == options


@pytest.mark.parametrize(
    ("question", "flags"),
    [
        ("What does git clean -x do?", {"-x"}),
        ("pg_basebackup -R, or -X?", {"-R", "-X"}),
        ("CONNECTION LIMIT -1, an e-mail, a - b, -xy, --x", set()),
    ],
)
def test_short_options_are_a_dashed_letter(question: str, flags: set[str]) -> None:
    assert flags_in(question) == flags


@pytest.mark.parametrize(
    ("question", "calls"),
    [
        ("What does shutil.rmtree do?", {"shutil.rmtree"}),
        ("What is the method os.path.join?", {"os.path.join"}),
        ("What does Counter.most_common return?", {"counter.most_common"}),
        ("What does str.partition return if the separator is not found?", set()),
        ("What does the maxsplit argument of str.split do?", set()),
        ("What does StandardScaler do?", {"standardscaler"}),
        ("What does enumerate() return?", {"enumerate"}),
        ("What does GridSearchCV refit by default?", set()),
        ("What changed in 15.2?", set()),
        ("How do I call shutil.rmtree?", set()),
    ],
)
def test_a_name_in_code_is_asked_about_when_nothing_else_is(question: str, calls: set[str]) -> None:
    assert calls_in(question) == calls


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("What does the ddof parameter of DataFrame.std mean?", {"ddof"}),
        ("What does sort_values do with the argument inplace?", {"inplace"}),
        ("What does the C parameter of LogisticRegression control?", {"c"}),
        ("Which bounds does a range assume when the third argument is omitted?", set()),
        ("What is a keyword argument?", set()),
    ],
)
def test_a_parameter_is_named_before_or_after_the_word(question: str, names: set[str]) -> None:
    assert parameters_in(question) == names


def test_a_question_s_options_are_read_where_it_names_them() -> None:
    """Each option is looked for in the label lines of every candidate: a document pasted
    into the question (its options past the first characters, or dozens of them) is no
    list of the options it asks about."""
    pasted = "What does --first do? " + " ".join(
        f"--opt{i} -{chr(97 + i % 26)}" for i in range(400)
    )
    assert len(options_in(pasted)) == len(flags_in(pasted)) == MAX_OPTIONS
    assert "--first" in options_in(pasted)
    late = "x" * OPTION_CHARS + " --late -z"
    assert options_in(late) == flags_in(late) == frozenset()


def test_the_file_whose_title_the_question_spells_out_is_cited_first(
    service: Service, org: str
) -> None:
    """Two pages say the same thing; the question names one page's title ("VACUUM"), not
    the other's ("Routine Vacuuming"): that page comes first, though its passage is longer
    (bm25 alone prefers the other)."""
    guide = (
        "Routine Vacuuming\n\nVACUUM FULL requires an ACCESS EXCLUSIVE lock on the table "
        "it is working on, and therefore cannot be done in parallel with other use of it.\n"
    )
    reference = (
        "VACUUM\n\nVACUUM FULL requires an ACCESS EXCLUSIVE lock on the table it is "
        "working on, and therefore cannot be done in parallel with other use of the table, "
        "its indexes or the storage the table occupies.\n"
    )
    with client_for(service, org) as c:
        upload(c, [("a-guide.txt", guide.encode()), ("b-reference.txt", reference.encode())])
        answer = ask(c, "What lock does VACUUM FULL require?")
    assert _cited(answer)[0] == "b-reference.txt"


def test_a_files_entry_whose_heading_names_the_subject_comes_before_its_mentions(
    tmp_path: Path, org: str
) -> None:
    """A manual's page mentions a setting in prose and has its entry ("checkpoint_timeout
    (integer)", then what it is). Both passages hold every word of the question (full text
    alone: they are equally relevant), and bm25 prefers the prose that repeats them; the
    entry is what answers, so it comes first and is quoted first."""
    prose = _said_often(
        "the default checkpoint_timeout suits most servers, and lowering "
        "checkpoint_timeout makes checkpoints more frequent than the default."
    )
    entry = (
        "checkpoint_timeout (integer)\n"
        "Maximum time between automatic WAL checkpoints. The default is five minutes "
        "(5min). Increasing this parameter can increase the time needed for crash recovery."
    )
    page = f"Write Ahead Log\n\n{prose}\n\n{'Other settings follow. ' * 20}\n\n{entry}\n"
    question = "What is the default checkpoint_timeout?"
    plain = start_service(tmp_path / "plain", "--embeddings", "off")
    try:
        with client_for(plain, org) as c:
            upload(c, [("runtime-config-wal.txt", page.encode())])
            hits = c.post("/files/search", json={"query": question}).json()["data"]
            answer = ask(c, question)
    finally:
        plain.stop()
    assert [h["cited"] for h in hits] == [True, True]
    assert [h["scores"]["lexical"] for h in hits] == [1.0, 1.0]
    assert "checkpoint_timeout (integer)" in hits[0]["text"]
    assert "First, the default" in hits[1]["text"]
    quote = answer["choices"][0]["message"]["annotations"][0]["file_citation"]["quote"]
    assert "The default is five minutes (5min)." in quote


def test_an_option_s_entry_comes_first_and_what_it_does_is_quoted(
    service: Service, org: str
) -> None:
    """git's manual lists an option as label lines ("-p", "--prune") above what it does,
    and mentions it in tips that repeat the question's words. "What does git fetch
    --prune do?" quoted the tips, and the entry's passage came eighth of its page (its
    words are fewer, and the dense model liked it less). The passage that holds the entry
    of an option the question spells comes first of its file's, quoted by the sentence
    under the entry; a short option's case matters ("-x" is not "-X")."""
    tips = _said_often(
        "run git fetch --prune so that git fetch prunes, or set fetch.prune and "
        "every git fetch will prune."
    )
    entries = (
        "OPTIONS\n-p\n--prune\n"
        "Before fetching, remove any remote-tracking references that no longer exist on "
        "the remote.\n-X\nRemove only files ignored by Git.\n-x\n"
        "Don't use the standard ignore rules, but still use those given with -e options."
    )
    page = f"git-fetch(1)\n\n{tips}\n\n{'Other options follow. ' * 20}\n\n{entries}\n"
    with client_for(service, org) as c:
        upload(c, [("git-fetch.txt", page.encode())])
        hits = c.post("/files/search", json={"query": "What does git fetch --prune do?"})
        quotes = {
            q: ask(c, q)["choices"][0]["message"]["annotations"][0]["file_citation"]["quote"]
            for q in ("What does git fetch --prune do?", "What does git fetch -x do?")
        }
    first, second = hits.json()["data"]
    assert "--prune\nBefore fetching" in first["text"]
    assert "First, run git fetch --prune" in second["text"]
    assert quotes["What does git fetch --prune do?"].startswith("Before fetching, remove any")
    assert quotes["What does git fetch -x do?"].startswith("Don't use the standard ignore")


def test_a_setting_s_entry_comes_first_of_its_page(service: Service, org: str) -> None:
    """PostgreSQL's runtime-config pages list a setting as a label ("work_mem (integer)"),
    then what it sets and its default, and mention it in other settings' entries that
    say the question's words more often: "What is the default value of work_mem?" quoted
    hash_mem_multiplier's "The default value is 2.0, which makes hash-based operations
    use twice the usual work_mem base amount." The entry of a setting, function or column
    the question names comes first of its file's passages, as an option's does."""
    mentions = " ".join(
        f"The default value of {name} is {value}, which multiplies the work_mem value."
        for name, value in (("hash_mem_multiplier", "2.0"), ("sort_factor", "3.0"))
        for _ in range(4)
    )
    page = (
        f"Resource Consumption\n\n{mentions}\n\n{'Other settings follow here. ' * 30}\n\n"
        "work_mem (integer)\nSets the base maximum amount of memory to be used by a query "
        "operation before writing to temporary disk files. The default value is four "
        "megabytes (4MB).\n"
    )
    with client_for(service, org) as c:
        upload(c, [("runtime-config-resource.txt", page.encode())])
        answer = ask(c, "What is the default value of work_mem?")
    first = answer["choices"][0]["message"]["annotations"][0]["file_citation"]["quote"]
    assert "four megabytes (4MB)" in first, first


def test_what_a_page_s_title_does_is_its_introduction(service: Service, org: str) -> None:
    """SQLite's manual (lang_vacuum.html, a check nobody here wrote): "What does VACUUM
    do?" quoted the passages of its page that say VACUUM most ("If the INTO clause is
    included, ..."); its introduction ("The VACUUM command rebuilds the database file
    ...") came fourth. The first passage of a page whose title is what the question asks
    about comes first of its file's; a question about more than the title (an option, or
    two more words) keeps the order of relevance."""
    uses = " ".join(
        f"Running VACUUM {when} rewrites the tables, and VACUUM INTO writes a copy."
        for when in ("daily", "weekly", "often", "rarely", "nightly", "monthly", "again")
    )
    page = (
        "VACUUM\n\nThe VACUUM command rebuilds the database file, repacking it into a "
        f"minimal amount of disk space.\n\n{'Other text follows here. ' * 40}\n\n"
        f"VACUUM INTO\n{uses}\n"
    )
    with client_for(service, org) as c:
        upload(c, [("lang_vacuum.txt", page.encode())])
        quotes = {
            q: ask(c, q)["choices"][0]["message"]["annotations"][0]["file_citation"]["quote"]
            for q in ("What does VACUUM do?", "What does VACUUM INTO write weekly?")
        }
    assert quotes["What does VACUUM do?"].startswith("The VACUUM command rebuilds"), quotes
    assert "weekly" in quotes["What does VACUUM INTO write weekly?"], quotes


SPHINX_PAGE = """<html><head><title>shutil \u2014 High-level file operations</title></head><body>
<h1>shutil \u2014 High-level file operations<a class="headerlink"
 href="#module-shutil">\u00b6</a></h1>
<p>The shutil module offers a number of high-level operations on files.</p>
<h2>Directory and files operations<a class="headerlink" href="#dir">\u00b6</a></h2>
<dl><dt id="shutil.copytree">shutil.copytree(<em>src</em>, <em>dst</em>)<a class="headerlink"
 href="#shutil.copytree">\u00b6</a></dt>
<dd><p>Recursively copy an entire directory tree rooted at src to a directory named dst.</p></dd>
</dl><dl><dt id="shutil.rmtree">shutil.rmtree(<em>path</em>)<a class="headerlink"
 href="#shutil.rmtree">\u00b6</a></dt>
<dd><p>Delete an entire directory tree; path must point to a directory.</p>
<p>Raises an auditing event shutil.rmtree with argument path; shutil.rmtree is audited.</p>
</dd></dl>
<dl><dt id="shutil.Counter">class shutil.Counter(<em>start</em>)<a class="headerlink"
 href="#shutil.Counter">\u00b6</a></dt>
<dd><p>Counts the files that shutil has copied.</p>
<dl><dt id="shutil.Counter.total">total(<em>kind</em>)<a class="headerlink"
 href="#shutil.Counter.total">\u00b6</a></dt>
<dd><p>Return the number of files copied so far, of one kind.</p>
<p>Raises an auditing event shutil.Counter.total with argument kind.</p>
</dd></dl>
<dl><dt id="shutil.Counter.count_of">count_of(<em>key</em>, <em>default</em>)<a
 class="headerlink" href="#shutil.Counter.count_of">\u00b6</a></dt>
<dd><p>If key is a kind already counted, return its count. If not, insert key with a
count of default and return default.</p></dd></dl>
<pre>&gt;&gt;&gt; shutil.Counter(0).total("csv")   # Counter.total counts by kind
3</pre></dd></dl>
<dl><dt id="shutil.Archive">class shutil.Archive(<em>path</em>)<a class="headerlink"
 href="#shutil.Archive">\u00b6</a></dt>
<dd><p>An archive on disk.</p>
<dl><dt id="shutil.Archive.glob">Archive.glob(<em>pattern</em>)<a class="headerlink"
 href="#shutil.Archive.glob">\u00b6</a></dt>
<dd><p>Glob the given relative pattern in the archive, yielding all matching members.</p>
<p>Raises an auditing event shutil.Archive.glob with arguments self, pattern.</p>
</dd></dl></dd></dl>
<h3>rmtree example<a class="headerlink" href="#rmtree-example">\u00b6</a></h3>
<p>This example shows shutil.rmtree on Windows where files are read-only.</p>
<pre>shutil.rmtree(directory, onerror=remove_readonly)</pre>
<h2>Archiving operations<a class="headerlink" href="#archiving">\u00b6</a></h2>
<p>New in version 3.2.</p>
<dl><dt id="shutil.make_archive">shutil.make_archive(<em>base_name</em>, <em>format</em>)<a
 class="headerlink" href="#shutil.make_archive">\u00b6</a></dt>
<dd><p>Create an archive file (such as zip or tar) and return its name.</p></dd></dl>
<dl><dt id="shutil.unpack_archive">shutil.unpack_archive(<em>filename</em>)<a
 class="headerlink" href="#shutil.unpack_archive">\u00b6</a></dt>
<dd><p>Unpack an archive: what shutil.make_archive made, where make_archive wrote it, with
the format make_archive used; Counter.total does not return the unpacked files.</p>
</dd></dl>
</body></html>"""


@pytest.mark.parametrize(
    ("question", "quoted"),
    [
        ("What does shutil.rmtree do?", "Delete an entire directory tree"),
        ("What does Counter.total return?", "Return the number of files copied"),
        ("What does shutil.Counter.total return?", "Return the number of files copied"),
        ("What does shutil.Counter.count_of do?", "If key is a kind already counted"),
        ("What does shutil.Archive.glob return?", "Glob the given relative pattern"),
        ("What does shutil.make_archive return?", "Create an archive file"),
        ("Who audits shutil.rmtree with argument path?", "Raises an auditing event"),
    ],
)
def test_a_definition_sphinx_links_is_quoted_by_what_it_does(
    service: Service, org: str, question: str, quoted: str
) -> None:
    """Python's library reference (Sphinx, a check nobody here wrote): each definition's
    signature ends with the "¶" of its permalink, which made "shutil.make_archive(...)¶"
    no signature, and "What does shutil.rmtree do?" quoted "New in version 3.2." (the
    headings before it held the question's words) or the example that calls it. A line
    that ends with "¶" is a heading, which starts anew; a dotted name the question asks
    about (and nothing else of it) has its entry where a label starts with it, or a
    signature Sphinx links starts with its last parts (a method under its class), and what
    it does is quoted; "If not, ..." goes on from the sentence before it. A question that
    asks something else of the name is quoted by what answers it."""
    with client_for(service, org) as c:
        upload(c, [("shutil.html", SPHINX_PAGE.encode())])
        notes = ask(c, question)["choices"][0]["message"]["annotations"]
    assert notes[0]["file_citation"]["quote"].startswith(quoted), notes
    if "count_of" in question:  # "If not, ..." goes on from the sentence before it
        assert notes[0]["file_citation"]["quote"].endswith("and return default."), notes


ROBUST_SCALER_PAGE = (
    "<html><head><title>RobustScaler</title></head><body><dl><dt>class "
    "sklearn.preprocessing.RobustScaler(<em>*</em>, <em>with_centering=True</em>)"
    '<a class="headerlink" href="#r">\u00b6</a></dt><dd><p>Scale features using '
    "statistics that are robust to outliers.</p><p>This Scaler removes the median.</p>"
    "</dd></dl></body></html>"
)


@pytest.mark.parametrize(
    ("question", "guide", "page", "quoted"),
    [
        (
            "What does shutil.rmtree do?",
            "shutil.rmtree runs here: our scripts call shutil.rmtree on the build folder.",
            ("shutil.html", SPHINX_PAGE),
            "Delete an entire directory tree",
        ),
        (
            "What does RobustScaler do?",
            "you can use RobustScaler here: scaler = RobustScaler() fits the data.",
            ("RobustScaler.html", ROBUST_SCALER_PAGE),
            "Scale features using statistics that are robust",
        ),
    ],
)
def test_a_name_s_entry_comes_before_pages_that_use_it(
    service: Service, org: str, question: str, guide: str, page: tuple[str, str], quoted: str
) -> None:
    """ "What does subprocess.run return?" cited asyncio's page on subprocesses first (it
    says "subprocess" and "run" more often); subprocess.html defines it. "What does
    StandardScaler do?" (scikit-learn's reference, Debian's python-sklearn-doc) cited a
    user guide's "You can use StandardScaler for standardization."; its page's entry,
    "class sklearn.preprocessing.StandardScaler(...)¶", names it under its module. The
    passage that holds the entry of a name a question asks about whole (dotted, a class's
    CamelCase name, a function's with "()") comes first, whatever its file."""
    name, html = page
    with client_for(service, org) as c:
        upload(c, [("a-guide.txt", _said_often(guide).encode()), (name, html.encode())])
        notes = ask(c, question)["choices"][0]["message"]["annotations"]
    cited = [(n["file_citation"]["filename"], n["file_citation"]["quote"]) for n in notes]
    assert cited[0][0] == name, cited
    assert cited[0][1].startswith(quoted), cited


NUMPYDOC_PAGE = """<html><head><title>pandas.DataFrame.sort_values</title></head><body>
<h1>pandas.DataFrame.sort_values<a class="headerlink" href="#sv">\u00b6</a></h1>
<dl><dt class="sig sig-object py">DataFrame.sort_values(<em>by</em>, <em>axis=0</em>,
<em>kind='quicksort'</em>, <em>inplace=False</em>)<a class="headerlink" href="#sv2">\u00b6</a></dt>
<dd><p>Sort by the values along either axis.</p>
<dl class="field-list"><dt class="field-odd">Parameters</dt><dd class="field-odd"><dl>
<dt><strong>by</strong><span class="classifier">str or list of str</span></dt>
<dd><p>Name or list of names to sort by.</p></dd>
<dt><strong>axis</strong><span class="classifier">{0 or 'index', 1 or 'columns'},
default 0</span></dt>
<dd><p>Axis to be sorted.</p></dd>
<dt><strong>kind</strong><span class="classifier">{'quicksort', 'mergesort', 'heapsort',
'stable'}, default 'quicksort'</span></dt>
<dd><p>Choice of sorting algorithm. See also numpy.sort() for more information.</p></dd>
<dt><strong>inplace</strong><span class="classifier">bool, default False</span></dt>
<dd><p>If True, perform operation in-place.</p></dd>
</dl></dd></dl></dd></dl></body></html>"""


def test_a_numpydoc_parameter_reads_as_its_page_shows_it(service: Service, org: str) -> None:
    """pandas' reference (Debian's python-pandas-doc, a check nobody here wrote) writes a
    parameter as ``<strong>kind</strong><span class="classifier">...`` and its stylesheet
    puts " : " between them; the text glued them ("kind{'quicksort', ...}", "sepstr,
    default ','"), and "What is the default sorting algorithm of sort_values?" quoted
    "Choice of sorting algorithm." without the default. The classifier reads after " : ",
    and the parameter's line, which holds the default, is quoted with what it does."""
    with client_for(service, org) as c:
        (page,) = upload(c, [("pandas.DataFrame.sort_values.html", NUMPYDOC_PAGE.encode())])
        text = c.get(f"/files/{page['id']}/text").text
        notes = ask(c, "What is the default sorting algorithm of sort_values?")
    assert "kind : {'quicksort', 'mergesort', 'heapsort', 'stable'}, default 'quicksort'" in text
    assert "by : str or list of str" in text
    quote = notes["choices"][0]["message"]["annotations"][0]["file_citation"]["quote"]
    assert "default 'quicksort'" in quote, quote
    assert "Choice of sorting algorithm." in quote, quote


@pytest.mark.parametrize(
    "question",
    [
        "What does the inplace parameter of sort_values do?",
        "What does sort_values do with the argument inplace?",
    ],
)
def test_a_parameter_asked_about_is_quoted_by_its_entry(
    service: Service, org: str, question: str
) -> None:
    """scikit-learn's and pandas' references: "What does the inplace parameter of dropna
    do?" quoted "Remove missing values.", which took "inplace" from the signature above
    it, and "What does the stratify argument of train_test_split do?" the function's
    first sentence. A parameter the question names has its entry where a line starts
    with its name and type ("inplace : bool, default False"): its passage comes first of
    its file's, and its line is quoted with what it does."""
    with client_for(service, org) as c:
        upload(c, [("pandas.DataFrame.sort_values.html", NUMPYDOC_PAGE.encode())])
        notes = ask(c, question)["choices"][0]["message"]["annotations"]
    quote = notes[0]["file_citation"]["quote"]
    assert quote == "inplace : bool, default False\nIf True, perform operation in-place.", quote


READ_CSV_PAGE = """<html><head><title>IO tools</title></head><body>
<h1>CSV and text files<a class="headerlink" href="#csv">\u00b6</a></h1>
<p>The workhorse function for reading text files is read_csv().</p>
<dl>
<dt><strong>warn_bad_lines</strong><span class="classifier">boolean, optional, default
None</span></dt>
<dd><p>If error_bad_lines is False, and warn_bad_lines is True, a warning for each bad line
will be output.</p><p>Deprecated since version 1.3.0: The on_bad_lines parameter should be
used instead to specify behavior upon encountering a bad line instead.</p></dd>
<dt><strong>on_bad_lines</strong><span class="classifier">('error', 'warn', 'skip'),
default 'error'</span></dt>
<dd><p>Specifies what to do upon encountering a bad line (a line with too many fields).
Allowed values are :</p><ul>
<li><p>'error', raise an ParserError when a bad line is encountered.</p></li>
<li><p>'warn', print a warning when a bad line is encountered and skip that line.</p></li>
<li><p>'skip', skip bad lines without raising or warning when they are encountered.</p></li>
</ul></dd></dl></body></html>"""


def test_a_value_passed_to_a_parameter_is_quoted_by_its_item(service: Service, org: str) -> None:
    """pandas' guide to read_csv: "What happens when read_csv is called with
    on_bad_lines='warn'?" quoted the deprecation of ``warn_bad_lines``, which says
    "on_bad_lines" and "warn"; the item of the parameter's description that starts with
    the value passed ("'warn', print a warning ...") says what it does."""
    with client_for(service, org) as c:
        upload(c, [("io.html", READ_CSV_PAGE.encode())])
        notes = ask(c, "What happens when read_csv is called with on_bad_lines='warn'?")
    quote = notes["choices"][0]["message"]["annotations"][0]["file_citation"]["quote"]
    assert quote.startswith("'warn', print a warning when a bad line is encountered"), quote


STYLER_IDS = (
    "The id of each cell is T_uuid_level0_row0_col0; headings have a row or a column id, "
    "and by default each heading returns its own class.\n"
)
"""pandas' styling guide: "row", "headings", "returns" and "default" in one sentence."""
ROWS = "".join(
    f"Section {i}. A method that returns rows keeps their order by default; "
    "the rows it returns are copies unless the default is changed. " * 6 + "\n\n"
    for i in range(30)
)
"""The rest of pandas' guides: "rows", "returns" and "default" are everywhere."""
BASICS = (
    "Head and tail\n\nTo view a small sample of a Series or DataFrame object, use the head() "
    "and tail() methods. The default number of elements to display is five, but you may "
    "pass a custom number.\n"
)


def test_a_name_written_as_a_call_is_found_whole(service: Service, org: str) -> None:
    """ "How many rows does head() return by default?" cited pandas' styling guide, whose
    "headings" the index stems to "head"; a word the question writes as a call names a
    function, found whole as an identifier is."""
    with client_for(service, org) as c:
        upload(c, [("style.txt", STYLER_IDS), ("basics.txt", BASICS), ("guide.txt", ROWS)])
        notes = ask(c, "How many rows does head() return by default?")
    cited = notes["choices"][0]["message"]["annotations"][0]["file_citation"]
    assert cited["filename"] == "basics.txt", cited


EXAMPLES = "".join(
    f"In [{i}]: pd.Timedelta('{i} seconds')\nOut[{i}]: Timedelta('0 days 00:00:{i:02}')\n"
    for i in range(30)
)
TIMEDELTAS = (
    f"Time deltas\n\nParsing\n{EXAMPLES}to_timedelta\u00b6\n"
    "Using the top-level pd.to_timedelta, you can convert a scalar, a string, a list, or Series "
    "from a recognized timedelta format / value into a Timedelta type.\n"
    f"{EXAMPLES}Warning\nIf a string or array of strings is passed as an input then the "
    "unit keyword argument will be ignored. If a string without units is passed then the "
    "default unit of nanoseconds is assumed.\n"
)
"""pandas' guide to time deltas: the entry of ``to_timedelta`` holds its name only; a
passage further down holds what is asked of it."""


def test_an_entry_that_holds_only_the_name_asked_is_not_put_first(
    service: Service, org: str
) -> None:
    """ "What unit does to_timedelta assume for a string without units?" quoted the
    entry "to_timedelta¶", whose passage holds nothing else the question asks (0.30 of
    its weight), above the passage that holds all of it: an entry comes first of its
    file's by the share of the question it holds."""
    with client_for(service, org) as c:
        upload(c, [("timedeltas.txt", TIMEDELTAS)])
        notes = ask(c, "What unit does to_timedelta assume for a string without units?")
    quote = notes["choices"][0]["message"]["annotations"][0]["file_citation"]["quote"]
    assert "the default unit of nanoseconds is assumed" in quote, quote


def test_a_long_option_no_file_spells_is_not_cited(service: Service, org: str) -> None:
    """The index reads ``--parallel-restore-threads`` as three words, each in the manual
    page; the option itself is nowhere, so nothing answers. An option the page spells is
    answered, and one word of a longer option (``--link`` in ``--link-dest``) is not it."""
    page = (
        "pg_restore\n\n"
        "--single-transaction\nExecute the restore as a single transaction.\n\n"
        "-j number-of-jobs\nRun the most time-consuming steps of pg_restore in parallel, "
        "with several threads or processes. Each job is one process or one thread.\n\n"
        "--link-dest\nHard-link unchanged files to the given directory.\n"
    )
    with client_for(service, org) as c:
        upload(c, [("app-pgrestore.txt", page.encode())])
        known = ask(c, "What does pg_restore --single-transaction do?")
        unknown = ask(c, "What does pg_restore's --parallel-restore-threads option do?")
        prefix = ask(c, "What does pg_restore --link do?")
    assert _cited(known) == ["app-pgrestore.txt"]
    assert (
        "single transaction"
        in known["choices"][0]["message"]["annotations"][0]["file_citation"]["quote"]
    )
    assert _cited(unknown) == []
    assert _content(unknown) == NO_MATCH.format(workspace="default")
    assert _cited(prefix) == []
