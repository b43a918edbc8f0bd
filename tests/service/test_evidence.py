"""Evidence a reader can check (docs/interface.md#annotations): the quote of a citation is the
sentence that answers, every model gets the passages that hold the answer, and each
sentence of a generated answer is attributed to the file that supports it, with or
without the markers the model wrote.

The files are office files as people have them (``support.office_files``), uploaded
through the real service; the model is the built-in ``service-l0`` or a scripted
OpenAI-compatible server that answers with the words a test gives it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from importlib.resources import files
from pathlib import Path
from typing import Any

import httpx
import pandas as pd
import pytest

from chatspace.service.engines.attribution import attribute
from chatspace.service.engines.table_rows import Computed, computed_for
from chatspace.service.engines.upstream import CONTEXT_PREAMBLE, NEAREST, NO_CONTEXT
from chatspace.service.retrieval.search import Passage, Retrieval, without_instructions
from chatspace.types import FileCitation
from support.chat import ask, assemble, client_for, stream, upload
from support.documents import pdf_lines_bytes
from support.office_files import acme_contract_docx, postmortem_pdf
from support.service import Service, new_org, start_service
from support.upstream import FakeUpstream

FEE = "The annual fee is EUR 184,000, invoiced quarterly in advance."
ROOT_CAUSE = (
    "The root cause was an expired TLS certificate on the payments gateway, which made every "
    "card authorisation fail for 47 minutes."
)
"""One sentence that the PDF wraps over two lines: quoted whole, not cut at the wrap."""
CHURN = "The churn rate in Q3 was 3.1 percent, down from 4.7 percent in Q2."
REPORT = (
    "# Q3 report\n\nRevenue grew 12 percent over Q2.\n"
    f"{CHURN}\nThe support backlog explains most of it.\n"
)


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeUpstream]:
    server = FakeUpstream(models=["model"]).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def relay(tmp_path_factory: pytest.TempPathFactory, fake: FakeUpstream) -> Iterator[Service]:
    """A service whose model ``model`` is the scripted upstream."""
    upstreams = [{"url": fake.url, "models": {"model": "model"}}]
    svc = start_service(
        tmp_path_factory.mktemp("evidence"), env={"CHATSPACE_UPSTREAMS": json.dumps(upstreams)}
    )
    yield svc
    svc.stop()


@pytest.fixture(scope="module")
def office(relay: Service) -> Iterator[tuple[httpx.Client, dict[str, dict[str, Any]]]]:
    """A client of a new org whose default workspace holds the office files."""
    with client_for(relay, new_org()) as c:
        files = upload(
            c,
            [
                ("acme-contract.docx", acme_contract_docx()),
                ("postmortem.pdf", postmortem_pdf()),
                ("q3-report.md", REPORT),
            ],
        )
        yield c, {f["filename"]: f for f in files}


def _notes(answer: dict[str, Any]) -> list[dict[str, Any]]:
    return list(answer["choices"][0]["message"]["annotations"])


def _quotes(answer: dict[str, Any]) -> list[tuple[str, str]]:
    return [(n["file_citation"]["filename"], n["file_citation"]["quote"]) for n in _notes(answer)]


def _said(fake: FakeUpstream, c: httpx.Client, question: str, *answer: str) -> dict[str, Any]:
    """The service's answer when the model says ``answer`` (in pieces, when streamed)."""
    fake.pieces = list(answer)
    return ask(c, question, model="model")


# ---------------------------------------------------------------- quotes that answer


@pytest.mark.parametrize(
    ("question", "filename", "expected"),
    [
        ("What is the annual fee in the Acme contract?", "acme-contract.docx", FEE),
        ("What was the root cause of the checkout outage?", "postmortem.pdf", ROOT_CAUSE),
        # The PDF wraps "... 09:59 CET. Every card" / "payment failed and about 3,100 ...":
        # the sentence starts late in its line, and was quoted from "payment failed".
        (
            "How many orders could not be placed during the outage?",
            "postmortem.pdf",
            "Every card payment failed and about 3,100 orders could not be placed.",
        ),
        # "How long" asks for a duration: the 14 of the title's "14 March" is none, and the
        # title ("Postmortem: checkout outage of 14 March") was quoted.
        (
            "How long did the checkout outage last?",
            "postmortem.pdf",
            "checkout was unavailable for 47 minutes",
        ),
    ],
)
def test_service_l0_quotes_the_sentence_that_answers(
    office: tuple[httpx.Client, dict[str, Any]], question: str, filename: str, expected: str
) -> None:
    c, _ = office
    quotes = _quotes(ask(c, question))
    assert quotes, "the answer cites the file"
    assert quotes[0][0] == filename
    assert expected in " ".join(quotes[0][1].split()), quotes


def test_a_line_after_a_word_no_sentence_ends_with_goes_on_with_it(
    service: Service, org: str
) -> None:
    """A PDF wraps "... under the direction of" / "Helena Voss. It covers ...": the second
    line starts with a capital, so the quote stopped at "of" and never said who."""
    lines = [
        "Vendor risk review",
        "This review was carried out by the procurement team in August under the direction of",
        "Helena Voss. It covers all suppliers with an annual spend above USD 25,000.",
    ]
    with client_for(service, org) as c:
        upload(c, [("vendor-review.pdf", pdf_lines_bytes(lines))])
        quotes = _quotes(ask(c, "Who directed the vendor risk review?"))
    assert quotes[0][0] == "vendor-review.pdf"
    assert "under the direction of Helena Voss." in " ".join(quotes[0][1].split()), quotes


def test_a_date_in_words_that_a_line_break_splits_is_quoted_whole(
    service: Service, org: str
) -> None:
    """A PDF wraps "... offered to all trial customers from 1" / "October 2025, ahead
    ...": the quote stopped at "from 1", the answer's date cut in two."""
    lines = [
        "6. Recommendations",
        "We recommend that the time-of-use heat pump tariff is offered to all trial customers"
        " from 1",
        "October 2025, ahead of the next heating season.",
        "We recommend that flow temperature advice becomes part of the standard call.",
    ]
    with client_for(service, org) as c:
        upload(c, [("trial-report.pdf", pdf_lines_bytes(lines))])
        quotes = _quotes(ask(c, "From when is the time-of-use heat pump tariff offered?"))
    assert quotes[0][0] == "trial-report.pdf"
    assert " ".join(quotes[0][1].split()).endswith(
        "from 1 October 2025, ahead of the next heating season."
    ), quotes


RUNBOOK = """# Load Forecast Pipeline - Runbook

Owner: Forecasting squad (Data Science). Last reviewed: 12 May 2025.

## Overview

The load forecast pipeline produces the day-ahead half-hourly demand forecast for each supply
region.
It runs nightly at 02:30 UTC on the scheduler and publishes the forecast to the trading desk's
shared bucket by 05:00 UTC.
Models are retrained every second Monday using the previous 18 months of smart meter and
weather data.

## Prerequisites

- Access to the `lf-prod` project and the model registry.
- The `lfp` command-line tool, version 2.3 or later (`pip install lfp-cli`).
- Membership of the `forecast-deployers` group.

## Deploying a new model version

1. Merge the model change to `main` and tag the release, e.g. `git tag lf-v3.8.0`.
2. Run the backtest on the 48-hour horizon: `make backtest HORIZON=48`. The new version must
   achieve a MAPE below 5.5% in every region; if any region is above the gate, stop and raise
   it in #forecasting.
3. Register the model: `lfp registry push --tag lf-v3.8.0`.
4. Set `ACTIVE_MODEL` in `config/prod.yaml` to the new tag and open a pull request; a second
   reviewer from the forecasting squad must approve it.
5. After merge, run `make redeploy` and watch the next scheduled run.
6. Record the deployment in the model change log with the backtest report attached.

## Rolling back a failed deployment

If the first run after a deployment fails, or the forecast looks wrong (for example a region
flat-lining at zero), roll back immediately; do not try to fix forward during trading hours.

1. Set `ACTIVE_MODEL` in `config/prod.yaml` back to the previous tag.
2. Run `make redeploy`.
3. Re-run today's forecast with the previous model (commands below).
4. Tell the trading desk in #trading-ops that a re-issued forecast is on its way, and post the
   incident in #forecasting.

```bash
# roll back to the previous model and re-issue today's forecast
git checkout main && git pull
sed -i 's/^ACTIVE_MODEL:.*/ACTIVE_MODEL: lf-v3.7.2/' config/prod.yaml
make redeploy
lfp run --date today --force --publish
lfp status --last 1
```

## Monitoring and alerts

- If the forecast is not published by 05:00 UTC, page the on-call data scientist through
  PagerDuty (service `load-forecast-prod`).
- A data-freshness alert fires when weather inputs are more than 6 hours old; the pipeline then
  falls back to the previous day's weather forecast and flags the output as degraded.
- Backtest results for every model version are kept in `backtests/` as Parquet files.

## Contacts

- Pipeline owner: Oluwaseun Adebayo
- Escalation: Head of Data Science, Rosalind Okoye
"""


def test_a_command_in_a_markdown_code_block_is_quoted(service: Service, org: str) -> None:
    """A command in a fenced block of code looks, alone, like a heading (a short line
    without a period): "Which command re-runs today's forecast ...?" quoted the line
    under it, "lfp status --last 1", then not even that once a step was quoted. A line
    in a fence is code: quoted as itself, never joined to the next."""
    with client_for(service, org) as c:
        upload(c, [("README.md", RUNBOOK)])
        quotes = _quotes(ask(c, "Which command re-runs today's load forecast after a rollback?"))
    assert ("README.md", "lfp run --date today --force --publish") in quotes, quotes
    assert all("lfp status" not in quote for _, quote in quotes), quotes


PIPELINE_YAML = """sources:
  wms_audit:
    type: jsonl
    # Mallow is left out until its WMS moves to the central instance on 3 November 2025.
    sites: [NAS, LSB, SHR]
  erp_sales:
    connection: erp_readonly      # credentials come from the vault, never from this file
"""


def test_a_comment_that_says_something_is_quoted_not_the_line_under_it(
    service: Service, org: str
) -> None:
    """A configuration's comment after ``#`` read as a Markdown heading, which the line
    under it answers: "When does Mallow's WMS move to the central instance?" quoted
    ``sites: [NAS, LSB, SHR]``. A line after ``#`` that ends a sentence says something."""
    with client_for(service, org) as c:
        upload(c, [("pipeline.yaml", PIPELINE_YAML)])
        quotes = _quotes(ask(c, "When does Mallow's WMS move to the central instance?"))
    comment = "# Mallow is left out until its WMS moves to the central instance on 3 November 2025."
    assert quotes[0] == ("pipeline.yaml", comment), quotes


@pytest.mark.parametrize(
    "question",
    [
        "What was the root cause of the checkout outage?",
        "How many orders could not be placed during the outage?",
    ],
)
def test_a_documents_title_is_not_quoted_as_evidence(
    office: tuple[httpx.Client, dict[str, Any]], question: str
) -> None:
    """The title names what the file is about, as a heading does: it was a second quote of
    both answers, because it holds "checkout outage"."""
    c, _ = office
    quotes = _quotes(ask(c, question))
    assert quotes, "the answer cites the postmortem"
    assert all("Postmortem:" not in quote for _, quote in quotes), quotes


# ---------------------------------------------------------------- every model gets the evidence


def test_a_question_that_names_a_role_still_gets_the_named_document(
    office: tuple[httpx.Client, dict[str, Any]], fake: FakeUpstream
) -> None:
    """ "CFO" is in no file: that alone made every passage irrelevant, and the model got
    nothing for "Summarise the Acme contract for a CFO."."""
    c, _ = office
    _said(fake, c, "Summarise the Acme contract for a CFO.", "A summary.")
    context = fake.last("model")["body"]["messages"][0]["content"]
    assert "[1] acme-contract.docx" in context
    assert "184,000" in context


def test_instructions_a_tool_wraps_around_the_question_are_not_searched(
    office: tuple[httpx.Client, dict[str, Any]], fake: FakeUpstream
) -> None:
    c, _ = office
    question = "What was the churn rate in Q3? Produce output in markdown format only."
    _said(fake, c, question, "Churn fell.")
    context = fake.last("model")["body"]["messages"][0]["content"]
    assert CHURN in context


def test_the_model_is_told_when_no_passage_is_relevant(
    office: tuple[httpx.Client, dict[str, Any]], fake: FakeUpstream
) -> None:
    c, _ = office
    answer = _said(fake, c, "What is the capital of Australia?", "Canberra [1].")
    sent = fake.last("model")["body"]["messages"]
    # and which name no file says, as the user wrote it, and what it asks for
    said = f'{NO_CONTEXT} No file mentions "Australia" or "capital".'
    assert sent[0] == {"role": "system", "content": said}
    assert answer["choices"][0]["message"]["annotations"] == [], "a marker without a source"


def test_the_model_is_told_what_no_file_says_of_the_thing_asked(
    office: tuple[httpx.Client, dict[str, Any]], fake: FakeUpstream
) -> None:
    """A question about what no file says (its passages only near it) reached the model as
    any other, and small models answer from what they are given."""
    c, _ = office
    _said(fake, c, "What nitrate level does the Acme contract set?", "None is set.")
    context = fake.last("model")["body"]["messages"][0]["content"]
    assert context.startswith(
        f'{CONTEXT_PREAMBLE}\n\nNo file mentions "nitrate". {NEAREST}\n\n[1] '
    )


# ---------------------------------------------------------------- attribution


def test_a_sentence_without_a_marker_is_attributed_to_the_file_that_supports_it(
    office: tuple[httpx.Client, dict[str, Any]], fake: FakeUpstream
) -> None:
    c, files = office
    said = ["The annual fee is EUR 184,000, ", "invoiced every quarter. ", "Payment is easy."]
    answer = _said(fake, c, "What is the annual fee in the Acme contract?", *said)
    content = answer["choices"][0]["message"]["content"]
    notes = answer["choices"][0]["message"]["annotations"]
    [note] = notes
    assert note["text"] == "The annual fee is EUR 184,000, invoiced every quarter."
    assert content[note["start_index"] : note["end_index"]] == note["text"]
    assert note["file_citation"]["file_id"] == files["acme-contract.docx"]["id"]
    assert FEE in " ".join(note["file_citation"]["quote"].split())


def test_a_streamed_answer_carries_the_same_attribution(
    office: tuple[httpx.Client, dict[str, Any]], fake: FakeUpstream
) -> None:
    c, _ = office
    fake.pieces = ["The churn rate in Q3 ", "was 3.1 percent. ", "Cats are mammals."]
    body = {"model": "model", "messages": [{"content": "What was the Q3 churn rate?"}]}
    plain = ask(c, "What was the Q3 churn rate?", model="model")
    streamed = assemble(stream(c, body)[1])
    for message in (plain["choices"][0]["message"], streamed["choices"][0]["message"]):
        [note] = message["annotations"]
        assert note["text"] == "The churn rate in Q3 was 3.1 percent."
        assert note["file_citation"]["filename"] == "q3-report.md"
        assert "3.1 percent" in note["file_citation"]["quote"]


def test_a_marker_on_the_wrong_passage_is_pointed_at_the_one_that_supports_it(
    office: tuple[httpx.Client, dict[str, Any]], fake: FakeUpstream
) -> None:
    c, _ = office
    question = "What is the annual fee in the Acme contract, and the Q3 churn rate?"
    _said(fake, c, question, "Nothing yet.")
    context = fake.last("model")["body"]["messages"][0]["content"]
    wrong = next(k for k in range(1, 6) if f"[{k}] acme-contract.docx" in context)
    assert f"[{wrong}] q3-report.md" not in context
    answer = _said(fake, c, question, f"The Q3 churn rate was 3.1 percent [{wrong}]. [9]")
    notes = answer["choices"][0]["message"]["annotations"]
    assert [n["text"] for n in notes] == [f"[{wrong}]"], "[9] names no passage that was sent"
    assert notes[0]["file_citation"]["filename"] == "q3-report.md"


def test_a_marker_naming_no_passage_sent_is_pointed_at_the_one_that_supports_it(
    office: tuple[httpx.Client, dict[str, Any]], fake: FakeUpstream
) -> None:
    """SmolLM2, given two passages after a thread of quoting answers, wrote the fee's
    sentence with ``[3]``: the sentence is the contract's, so the marker cites it (it was
    dropped, and the answer had no source at all)."""
    c, _ = office
    question = "What is the annual fee in the Acme contract?"
    _said(fake, c, question, "Nothing yet.")
    context = fake.last("model")["body"]["messages"][0]["content"]
    sent = len(re.findall(r"(?m)^\[\d+\] ", context))
    beyond = f"[{sent + 1}]"
    said = f'- "The annual fee is EUR 184,000, invoiced quarterly in advance." (contract) {beyond}'
    answer = _said(fake, c, question, said)
    [note] = answer["choices"][0]["message"]["annotations"]
    assert note["text"] == beyond
    assert note["file_citation"]["filename"] == "acme-contract.docx"
    assert "EUR 184,000" in note["file_citation"]["quote"]
    twice = _said(fake, c, question, said.replace(beyond, f"[1] {beyond}"))
    notes = twice["choices"][0]["message"]["annotations"]
    assert len(notes) == 1, "the marker naming no passage adds nothing to one that cites"


def test_a_sentence_that_invents_a_number_is_not_cited(
    office: tuple[httpx.Client, dict[str, Any]], fake: FakeUpstream
) -> None:
    c, _ = office
    answer = _said(
        fake,
        c,
        "What is the annual fee in the Acme contract?",
        "The annual fee is EUR 250,000 [1].",
    )
    assert answer["choices"][0]["message"]["annotations"] == []


PENGUINS = Path(str(files("palmerpenguins") / "data" / "penguins.csv"))


def test_a_table_s_computed_answer_reaches_the_model_and_backs_its_sentence(
    relay: Service, fake: FakeUpstream
) -> None:
    """A model was sent five blocks of penguins.csv's 344 rows for "What is the average
    body mass of Gentoo penguins?": it cannot compute the mean of the 123 Gentoo rows, and
    a sentence that gave it ("5,076.02") was backed by no passage, so left uncited. The
    context now ends with what the table answers, computed with pandas over all its
    rows, and that line backs the sentence, cited by the first row it averages."""
    frame = pd.read_csv(PENGUINS)
    gentoo = frame[frame["species"] == "Gentoo"]
    mean = f"{gentoo['body_mass_g'].mean():,.2f}"
    with client_for(relay, new_org()) as c:
        (table,) = upload(c, [("penguins.csv", PENGUINS.read_bytes())])
        text = c.get(f"/files/{table['id']}/text").text
        question = [
            {"type": "text", "text": "What is the average body mass of Gentoo penguins?"},
            {"type": "filter", "file_ids": [table["id"]]},
        ]
        said = [f"The average body mass of Gentoo penguins is {mean} g. ", "They swim well."]
        fake.pieces = said
        body = {"model": "model", "messages": [{"role": "user", "content": question}]}
        plain = ask(c, question, model="model")
        context = fake.last("model")["body"]["messages"][0]["content"]
        assert re.search(
            r"(?m)^\[\d+\] penguins\.csv, computed over all its rows\n"
            rf"Average body_mass_g for species Gentoo: {re.escape(mean)} \(mean of "
            rf"{gentoo['body_mass_g'].notna().sum()} rows of penguins\.csv\)$",
            context,
        ), context
        streamed = assemble(stream(c, body)[1])
    for message in (plain["choices"][0]["message"], streamed["choices"][0]["message"]):
        [note] = message["annotations"]
        assert note["text"] == said[0].strip()
        citation = note["file_citation"]
        assert citation["file_id"] == table["id"]
        assert citation["quote"].startswith("Gentoo,"), citation
        assert citation["quote"] in text
        assert citation["location"]["row"] == gentoo.index[0] + 1


def _passage(file_id: str, text: str) -> Passage:
    return Passage(file_id, f"{file_id}.md", 0, 0, text, -1.0)


def test_attribution_judges_each_sentence_on_its_own() -> None:
    passages = (
        _passage("fees", f"Fees\n{FEE} Late payments accrue interest of 1% per month."),
        _passage("report", CHURN),
    )
    content = (
        "Churn in Q3 was 3.1 percent, down from 4.7 percent [1]. "
        "Acme pays an annual fee of EUR 184,000 quarterly in advance. "
        "The contract is well written."
    )
    notes = attribute(content, Retrieval("q", passages=passages))
    cited = {n.text: n.file_citation.file_id for n in notes if n.file_citation}
    assert cited == {
        "[1]": "report",
        "Acme pays an annual fee of EUR 184,000 quarterly in advance.": "fees",
    }
    for note in notes:
        assert content[note.start_index : note.end_index] == note.text
        assert note.file_citation is not None
        assert note.file_citation.quote in passages[0].text + passages[1].text


def _csv_passage(tmp_path: Path, name: str, text: str) -> Passage:
    """The one passage of a small CSV file, as the service reads and locates it."""
    from chatspace.service.retrieval.extract import extract

    table = tmp_path / name
    table.write_text(text)
    found = extract(table, filename=name, content_type="text/csv")
    assert found is not None
    ((start, passage),) = found.passages
    return Passage(name, name, 0, start, passage, -1.0, locations=found.locations[0])


def test_a_row_backs_the_figure_under_the_column_a_sentence_names(tmp_path: Path) -> None:
    """A CSV row's numbers were read as one ("5683.5,5341.4,73,15.2"), so no figure of a
    row backed a sentence; and a row's other figure must not back one either: SmolLM2
    answered "Cormac Hegarty's FY2025 target was 73.", his practices visited, not his
    target. A row's numbers are its cells', each under its column."""
    passage = _csv_passage(
        tmp_path,
        "reps.csv",
        "Rep,Territory,Target FY2025 (EUR k),Actual FY2025 (EUR k),Practices visited\n"
        "Orla Byrne,Leinster South,4952.9,5012.5,63\n"
        "Cormac Hegarty,Munster East,5683.5,5341.4,73\n",
    )
    question = "What was Cormac Hegarty's FY2025 target?"
    row = "Cormac Hegarty,Munster East,5683.5,5341.4,73"
    for sentence, quotes in [
        ("Cormac Hegarty's FY2025 target was 5683.5.", [row]),
        ("Cormac Hegarty's actual FY2025 sales were 5341.4.", [row]),
        ("Cormac Hegarty visited 73 practices.", [row]),
        ("Cormac Hegarty's FY2025 target was 73.", []),
        ("Cormac Hegarty's FY2025 target was 4952.9.", []),
    ]:
        notes = attribute(sentence, Retrieval(question, passages=(passage,)))
        assert [n.file_citation.quote for n in notes if n.file_citation] == quotes, sentence
    # what the table answers is sent too, the row as "Practices visited: 73": judged by
    # the row's cells as well
    retrieval = Retrieval(question, passages=(passage,))
    (computed,) = computed_for(retrieval)
    assert "Target FY2025 (EUR k): 5683.5" in computed.text
    for sentence, cited in [
        ("Cormac Hegarty's FY2025 target was 5683.5.", True),
        ("Cormac Hegarty's FY2025 target was 73.", False),
    ]:
        assert bool(attribute(sentence, retrieval, (computed,))) is cited, sentence


def test_a_row_named_by_two_cells_each_in_other_rows_backs_its_own_figure(
    tmp_path: Path,
) -> None:
    """A work order's crew, a row a member: SmolLM2's "Dara Quinn booked 4 hours on work
    order WO-13." names her row of that order by two cells, each in other rows too, so it
    named no row, and another row's figure backed it. The rows a sentence names are those
    with the most cells it says."""
    passage = _csv_passage(
        tmp_path,
        "crew.csv",
        "wo,zone,crew.name,crew.hours\nWO-11,South,Dara Quinn,4.25\nWO-11,South,Ann Byrne,2\n"
        "WO-13,North,Dara Quinn,4.75\nWO-14,North,Ann Byrne,4.25\n",
    )
    text = passage.text
    retrieval = Retrieval("How many hours did Dara Quinn book?", passages=(passage,))
    for sentence, quotes in [
        ("Dara Quinn booked 4.75 hours on WO-13.", ["WO-13,North,Dara Quinn,4.75"]),
        (
            "Dara Quinn booked 4.25 hours on WO-11.",
            [text.split("\n", 2)[0] + "\n" + text.split("\n")[1]],
        ),
        ("Dara Quinn booked 4.25 hours on WO-13.", []),
        ("Ann Byrne booked 4.75 hours on WO-14.", []),
    ]:
        notes = attribute(sentence, retrieval)
        assert [n.file_citation.quote for n in notes if n.file_citation] == quotes, sentence
    # the row it names in one passage, another of hers in the next: not backed by that one
    header, *lines = text.split("\n")
    first, second = (
        Passage("crew", "crew.csv", k, 0, "\n".join([header, *part]), -1.0)
        for k, part in enumerate([lines[:2], lines[2:]])
    )
    split = Retrieval("How many hours did Dara Quinn book on WO-11?", passages=(first, second))
    assert attribute("Dara Quinn booked 4.75 hours on WO-11.", split) == ()


def test_numbers_in_a_list_are_each_a_number_and_a_hex_one_is_whole() -> None:
    """SQLite's datatype3.html stores an integer "in 0, 1, 2, 3, 4, 6, or 8 bytes": read
    as one number "0,1,2,3,4,6", it backed no sentence that says one of them. SmolLM2's
    "INTEGER (None, 0xfffffff8c2431d567)" was a 0 and letters."""
    passages = (
        _passage(
            "datatype3",
            "INTEGER. The value is a signed integer, stored in 0, 1, 2, 3, 4, 6, or 8 bytes "
            "depending on the magnitude of the value.",
        ),
    )
    backed = "A signed integer value can be stored in 4 bytes."
    [note] = attribute(backed, Retrieval("q", passages=passages))
    assert note.text == backed
    assert attribute("INTEGER (None, 0xfffffff8c2431d567)", Retrieval("q", passages=passages)) == ()


def test_a_date_in_a_passage_does_not_back_a_quantity_with_the_same_number() -> None:
    """SmolLM2 answered "The checkout outage lasted 14 days." from the postmortem, whose
    only 14 is the day of "14 March": the sentence was cited as if the file said it."""
    passages = (
        _passage(
            "postmortem",
            "Postmortem: checkout outage of 14 March\nOn 14 March, checkout was unavailable "
            "for 47 minutes, from 09:12 to 09:59 CET.",
        ),
    )
    invented = "The checkout outage lasted 14 days."
    assert attribute(invented, Retrieval("q", passages=passages)) == ()
    for backed in ("The checkout outage of 14 March lasted 47 minutes.", "It ended at 09:59."):
        [note] = attribute(backed, Retrieval("q", passages=passages))
        assert note.text == backed


def test_a_sentence_naming_another_month_is_not_backed_by_the_passage() -> None:
    """SmolLM2 answered "... offered to all trial customers from January 2025" from a
    report that says "from 1 October 2025": its words and its year were the passage's, so
    the wrong date was cited as the file's."""
    report = (
        "We recommend that the time-of-use heat pump tariff is offered to all trial "
        "customers from 1 October 2025, ahead of the next heating season."
    )
    retrieval = Retrieval("When is the tariff offered?", passages=(_passage("report", report),))
    invented = "The time-of-use heat pump tariff is offered to trial customers from January 2025."
    assert attribute(invented, retrieval) == ()
    backed = invented.replace("January", "1 Oct")
    [note] = attribute(backed, retrieval)
    assert note.file_citation is not None
    assert note.file_citation.quote == report


def test_code_in_an_answer_is_no_claim_even_when_its_block_is_cut() -> None:
    """Lines of an answer's block of code claim nothing, though they repeat the passage's
    command; an answer cut by ``max_tokens`` inside its block left the block open, and
    its lines were judged as sentences (and cited)."""
    runbook = "Re-run today's forecast with the previous model: lfp run --date today --force."
    retrieval = Retrieval("How do I re-run the forecast?", passages=(_passage("runbook", runbook),))
    said = "Re-run today's forecast with the previous model.\n```bash\nlfp run --date today --force"
    notes = attribute(said, retrieval)
    assert [note.text for note in notes] == ["Re-run today's forecast with the previous model."]
    assert len(attribute(said + "\n```", retrieval)) == 1


def test_a_number_the_question_states_is_said_back_not_claimed() -> None:
    """SmolLM2's "The number of jobs with no access in week 19 was 4." was not cited,
    though the count it gives is the table's: its "19" is the question's, which the
    computed answer need not say."""
    passages = (_passage("jobs", "Job ID,Job Type,Outcome\nJ-1,Exchange,Aborted - no access"),)
    retrieval = Retrieval(
        "How many Exchange jobs in week 19 were aborted because of no access?", passages=passages
    )
    row = FileCitation(file_id="jobs", filename="jobs.md", quote="J-1,Exchange,Aborted - no access")
    count = "Rows with Job Type Exchange, Outcome Aborted - no access: 4 of 172"
    computed = (Computed("jobs.md", count, row),)
    answer = "The number of jobs with no access in week 19 was 4."
    [note] = attribute(answer, retrieval, computed)
    assert note.file_citation == row
    assert attribute(answer.replace("4.", "5."), retrieval, computed) == ()


def test_a_follow_up_quotes_what_it_asks_about_and_keeps_the_evidence_of_its_turn(
    office: tuple[httpx.Client, dict[str, Any]], fake: FakeUpstream
) -> None:
    c, _ = office
    first = "What is the annual fee in the Acme contract?"
    follow_up = "And what happens if they miss the on-time delivery SLA?"
    messages = [
        {"role": "user", "content": first},
        {"role": "assistant", "content": "EUR 184,000 a year."},
        {"role": "user", "content": follow_up},
    ]
    quotes = _quotes(ask(c, follow_up, messages=messages))
    assert "SLA is missed" in " ".join(quotes[0][1].split()), quotes
    fake.pieces = ["Acme may claim a service credit."]
    ask(c, follow_up, model="model", messages=messages)
    context = " ".join(fake.last("model")["body"]["messages"][0]["content"].split())
    assert "SLA is missed" in context
    assert FEE in context, "the evidence of the turn it continues"


@pytest.mark.parametrize("asked", ["How long did the outage last?", "How long did it take?"])
def test_how_long_reaches_the_files_alone_and_as_a_follow_up(
    office: tuple[httpx.Client, dict[str, Any]], fake: FakeUpstream, asked: str
) -> None:
    """In JupyterLab, "And how long did the outage last?" after the postmortem's root cause
    found nothing (no source, an unmarked invented answer): "long" and "last" were searched
    as the subject, and no file says them; it says "unavailable for 47 minutes" (and the
    root cause, "fail for 47 minutes")."""
    c, _ = office
    first = "What was the root cause of the outage in the postmortem?"
    messages = [
        {"role": "user", "content": first},
        {"role": "assistant", "content": ROOT_CAUSE},
        {"role": "user", "content": f"And {asked[0].lower()}{asked[1:]}"},
    ]
    quotes = _quotes(ask(c, messages[-1]["content"], messages=messages))
    assert any("47 minutes" in q for _, q in quotes), quotes
    if "outage" in asked:
        _said(fake, c, asked, "It lasted 47 minutes.")
        context = " ".join(fake.last("model")["body"]["messages"][0]["content"].split())
        assert "checkout was unavailable for 47 minutes" in context


@pytest.mark.parametrize(
    ("question", "filename", "held"),
    [
        ("What does the postmortem say?", "postmortem.pdf", ROOT_CAUSE),
        ("Summarise the Acme contract.", "acme-contract.docx", "184,000"),
    ],
)
def test_a_question_about_a_named_document_sends_its_passages(
    office: tuple[httpx.Client, dict[str, Any]],
    fake: FakeUpstream,
    question: str,
    filename: str,
    held: str,
) -> None:
    """No single passage answers "What does the postmortem say?"; the file it names does."""
    c, _ = office
    _said(fake, c, question, "A summary.")
    context = " ".join(fake.last("model")["body"]["messages"][0]["content"].split())
    assert f"[1] {filename}" in context
    assert held in context


@pytest.mark.parametrize(
    ("asked", "searched"),
    [
        (
            "What is the Q3 churn? Produce output in markdown format only.",
            "What is the Q3 churn?",
        ),
        ("You are a helpful assistant. What is the fee?", "What is the fee?"),
        ("Which format does the export use?", "Which format does the export use?"),
        ("Respond in JSON.", "Respond in JSON."),
        ("What does zlib.gzipSync do?", "What does zlib.gzipSync do?"),
        (
            "What changed in 15.2 for os.path.join? Answer in plain text.",
            "What changed in 15.2 for os.path.join?",
        ),
    ],
)
def test_only_the_instructions_around_a_question_are_left_out(asked: str, searched: str) -> None:
    """A question about a format is a question; an instruction alone is all there is; a
    dotted name or a version is one word, not the end of a sentence."""
    assert without_instructions(asked) == searched


def test_a_follow_up_keeps_the_evidence_of_the_turn_it_continues(
    office: tuple[httpx.Client, dict[str, Any]], fake: FakeUpstream
) -> None:
    """ "And what about churn?" after a question about the contract's fee: the model is
    sent the churn passage for this turn and keeps the fee passage of the turn before,
    so that it can answer "compared with the fee" and is attributed for both (a follow-up
    is searched with the words of the turn it continues)."""
    c, _ = office
    messages = [
        {"role": "user", "content": "What is the annual fee in the Acme contract?"},
        {"role": "assistant", "content": "It is EUR 184,000 a year."},
        {"role": "user", "content": "And what was the churn rate in Q3?"},
    ]
    said = ["The churn rate in Q3 was 3.1 percent. ", "The annual fee stays EUR 184,000."]
    fake.pieces = said
    answer = ask(c, messages[-1]["content"], model="model", messages=messages)
    context = " ".join(fake.last("model")["body"]["messages"][0]["content"].split())
    assert context.index(CHURN) < context.index(FEE), "this turn's evidence first"
    cited = {n["text"]: n["file_citation"]["filename"] for n in _notes(answer)}
    assert cited == {
        "The churn rate in Q3 was 3.1 percent.": "q3-report.md",
        "The annual fee stays EUR 184,000.": "acme-contract.docx",
    }


def test_a_manual_page_wrapped_in_its_source_is_quoted_by_whole_sentences(
    relay: Service,
) -> None:
    """An HTML manual wraps its paragraphs at 80 columns; a browser joins the lines, and so
    does extraction: the quote was "The COALESCE function returns the first of its"."""
    page = (
        "<html><head><title>Conditional Expressions</title></head><body>\n"
        "<h2>COALESCE</h2>\n<p>The <code>COALESCE</code> function returns the first of its\n"
        "arguments that is not null. Null is returned only if all arguments\n"
        "are null.</p>\n<pre>SELECT COALESCE(description, short_description, '(none)')\n"
        "FROM items;</pre>\n</body></html>\n"
    )
    with client_for(relay, new_org()) as c:
        upload(c, [("functions-conditional.html", page)])
        quotes = _quotes(ask(c, "What does the COALESCE function return?"))
    assert quotes[0][1].startswith(
        "The COALESCE function returns the first of its arguments that is not null."
    ), quotes


def test_a_data_dictionary_is_quoted_by_the_description_of_the_column_asked(
    relay: Service,
) -> None:
    """A data dictionary (PostgreSQL's catalogs are written so: "null_frac float4", then
    "Fraction of column entries that are null") lists each column and its type above its
    description, without a period. The column's line was read as the end of the sentence
    above it ("Day the customer signed up churn_score float32") and, holding digits, as a
    fact: the quote was the column's line, not what it holds."""
    dictionary = (
        "Customers table\n\n"
        "customer_id int64\nIdentifier the CRM gives each customer when it is created\n"
        "signup_date date\nDay the customer signed up on the web site\n"
        "churn_score float32\nProbability that the customer leaves within the next 90 days\n"
        "region varchar(16)\nSales region of the account manager\n"
    )
    with client_for(relay, new_org()) as c:
        upload(c, [("customers-dictionary.txt", dictionary)])
        quotes = _quotes(ask(c, "What does churn_score hold?"))
    assert quotes[0][1] == "Probability that the customer leaves within the next 90 days", quotes


GUIDE = (
    "WAL Configuration\n\n"
    "The server's checkpointer process automatically performs a checkpoint every so often. "
    "A checkpoint is begun every checkpoint_timeout seconds, or if max_wal_size is about to "
    "be exceeded, whichever comes first. The default settings are 5 minutes and 1 GB, "
    "respectively. If no WAL has been written since the previous checkpoint, new "
    "checkpoints will be skipped even if checkpoint_timeout has passed.\n"
)
REFERENCE = (
    "Write Ahead Log\n\n"
    "commit_siblings (integer)\n"
    "A larger value makes it more probable that at least one other transaction will become "
    "ready to commit during the delay interval. The default is five transactions.\n"
    "Checkpoints\n"
    "checkpoint_timeout (integer)\n"
    "Maximum time between automatic WAL checkpoints. The valid range is between 30 seconds "
    "and one day. The default is five minutes (5min).\n"
)
"""PostgreSQL's guide to the WAL (wal-configuration.html) and its reference of settings
(runtime-config-wal.html), the passages "What is the default checkpoint_timeout?" finds."""


def test_the_entry_of_a_name_ranks_above_a_guide_that_uses_it(relay: Service) -> None:
    """The guide says "checkpoint_timeout" twice and "default" once, as the reference
    does; its passage was first by a hair, and the answer quoted "The default settings are
    5 minutes and 1 GB, respectively.", the reference's entry second."""
    with client_for(relay, new_org()) as c:
        upload(c, [("wal-configuration.txt", GUIDE), ("runtime-config-wal.txt", REFERENCE)])
        quotes = _quotes(ask(c, "What is the default checkpoint_timeout?"))
    assert quotes[0] == ("runtime-config-wal.txt", "The default is five minutes (5min)."), quotes


AB_OPTIONS = "".join(
    f"-{letter} value\nSets the {word} of the benchmark run to the value given here.\n"
    for letter, word in zip(
        "abcdefghij",
        ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"],
        strict=True,
    )
)
AB = (
    "ab - Apache HTTP server benchmarking tool\n\n"
    "ab is a tool for benchmarking your Apache HTTP server.\n"
    "Synopsis\n"
    "ab [ -A auth-username:password ] [ -c concurrency ] [ -k ] [ -n requests ] url\n"
    "Options\n"
    f"{AB_OPTIONS * 2}"
    "-k\n"
    "Enable the HTTP KeepAlive feature, i.e., perform multiple requests within one HTTP "
    "session. Default is no KeepAlive.\n"
)
"""Apache's ``ab.html``: its options' entries never say "ab"."""
SWITCHES = "".join(
    f"Service {i}: to stop it via the command line switches, use httpd -k stop -n svc{i}; "
    f"to start it, httpd -k start -n svc{i}; to restart it, httpd -k restart -n svc{i}.\n\n"
    for i in range(400)
)
"""A page that says "-k" and "switches" in every passage (Apache's ``windows.html``)."""


def test_a_file_the_question_names_is_searched_for_its_other_words(relay: Service) -> None:
    """ "What does the -k switch of ab do?": the candidates were the 50 passages that say
    "k" and "switch" most, all of the page on Windows services; the entry "-k" of
    ``ab.txt``, which says "k" once and never "ab", was not among them, and the answer
    quoted ab's introduction. The file's name holds a word of the question (a word of
    its name counts as held by all its passages): its passages are searched too."""
    with client_for(relay, new_org()) as c:
        upload(c, [("ab.txt", AB), ("windows.txt", SWITCHES)])
        quotes = _quotes(ask(c, "What does the -k switch of ab do?"))
    assert quotes[0][0] == "ab.txt", quotes
    assert quotes[0][1].startswith("Enable the HTTP KeepAlive feature"), quotes


MOD_EXPIRES = (
    "mod_expires\n\n"
    "This module controls the setting of the Expires HTTP header and the max-age directive "
    "of the Cache-Control HTTP header in server responses. The expiration date can set to "
    "be relative to either the time the source file was last modified, or to the time of "
    "the client access.\n\n"
    "ExpiresActive Directive \u00b6\n\n"
    "Description: Enables generation of Expires headers\n"
    "Syntax: ExpiresActive On|Off\n"
    "Default: ExpiresActive Off\n"
    "Context: server config, virtual host, directory, .htaccess\n"
    "Module: mod_expires\n\n"
    "This directive enables or disables the generation of the Expires and Cache-Control "
    "headers for the document realm in question. If set to Off, the headers will not be "
    "generated for any document in the realm.\n\n"
    "ExpiresByType Directive \u00b6\n\n"
    "Description: Value of the Expires header configured by MIME type\n"
    "Syntax: ExpiresByType MIME-type <code>seconds\n"
    "Module: mod_expires\n\n"
    "This directive defines the value of the Expires header and the max-age directive of "
    "the Cache-Control header generated for documents of the specified type. "
    "Note that this directive only has effect if ExpiresActive On has been specified.\n"
    "Example:\n"
    "# enable expirations\n"
    "ExpiresActive On\n"
    "# expire GIF images after a month in the client's cache\n"
    "ExpiresByType image/gif A2592000\n"
    "Example with wildcard:\n"
    "ExpiresActive On\n"
    "# All images expire after 1 month\n"
    'ExpiresByType image/* "access plus 1 month"\n'
)
"""Apache's ``mod_expires.html``: each directive's entry is a heading, its box of facts,
then what it does; the examples of another directive's entry start with its name."""


def test_a_directive_s_heading_opens_its_entry(relay: Service) -> None:
    """ "What does the ExpiresActive directive do?": the passage of ExpiresByType's
    examples ("ExpiresActive On", twice) came first of the page's by a hair, and its quote
    was an example; a name written in CamelCase is a directive's or a class's, whose
    entry is the heading that starts with it (then its box of ``key: value`` facts, then
    what it does)."""
    with client_for(relay, new_org()) as c:
        upload(c, [("mod_expires.txt", MOD_EXPIRES)])
        quotes = _quotes(ask(c, "What does the ExpiresActive directive do?"))
    assert quotes[0][1].startswith("This directive enables or disables the generation"), quotes


REWRITE_FLAGS = (
    "RewriteRule Flags\n\n"
    + "".join(
        f"{flag} \u00b6\n"
        f"The [{short}] flag is one of the flags a RewriteRule may end with; combine it with "
        f"others in one bracket, as in [{short},L] or [R=301,{short},L], where the L flag "
        f"comes last.\n"
        f'RewriteRule "^/{short.lower()}/(.*)$" "/new/$1" [{short},L]\n'
        f'RewriteRule "^/old-{short.lower()}/(.*)$" "http://example.com/$1" [R=301,{short},L]\n'
        for flag, short in (("C|chain", "C"), ("CO|cookie", "CO"), ("DPI|discardpath", "DPI"))
    )
    + "L|last \u00b6\n"
    "The [L] flag causes mod_rewrite to stop processing the rule set. In most contexts, "
    "this means that if the rule matches, no further rules will be processed.\n"
    + "".join(
        f"{flag} \u00b6\n"
        f"The [{short}] flag changes how the substitution is read, and the rule goes on.\n"
        for flag, short in (("N|next", "N"), ("NC|nocase", "NC"), ("NE|noescape", "NE"))
    )
)
"""Apache's ``flags.html``: each flag's entry is headed "L|last ¶", and the examples of
every other flag end with "[...,L]"."""


def test_a_flag_in_brackets_is_answered_by_its_entry(relay: Service) -> None:
    """ "What does the [L] flag do in a RewriteRule?": every passage of the page says "L",
    "flag" and "RewriteRule", the examples most, and one was quoted; a name the question
    writes in brackets is a rewrite rule's flag, whose entry is the heading that starts
    with it ("L|last ¶")."""
    with client_for(relay, new_org()) as c:
        upload(c, [("flags.txt", REWRITE_FLAGS)])
        quotes = _quotes(ask(c, "What does the [L] flag do in a RewriteRule?"))
    assert quotes[0][1].startswith("The [L] flag causes mod_rewrite to stop"), quotes


MOD_SSL = (
    "mod_ssl\n\n" + "The external program is called only once per unique pass phrase, and it is "
    "expected to print the pass phrase on its standard output and to exit. " * 4 + "\n"
    "SSLProtocol Directive \u00b6\n\n"
    "Description: Configure usable SSL/TLS protocol versions\n"
    "Syntax: SSLProtocol [+|-]protocol ...\n"
    "Default: SSLProtocol all -SSLv3 (up to 2.4.16: all)\n"
    "Context: server config, virtual host\nModule: mod_ssl\n\n"
    "This directive can be used to control which versions of the SSL/TLS protocol will be "
    "accepted in new connections.\n"
    + "".join(
        f"TLSv1.{i}\nA revision of the TLS 1.{i - 1} protocol, defined in RFC {5246 + i}, "
        "supported by nearly every client and by the servers this module is built against.\n"
        for i in range(1, 8)
    )
    + "\nFor compatibility with previous versions, if no SSLProtocol is configured in a "
    "name-based virtual host, the one from the base virtual host still applies, unless "
    "SSLProtocol is configured globally in which case the global value applies. The value "
    "of SSLProtocol in the base virtual host is the value each other host starts from, by "
    "default.\n"
)
"""Apache's ``mod_ssl.html``: the default is a line of the directive's box; a later
paragraph says "SSLProtocol" and "value" more often."""


def test_the_line_of_the_fact_asked_is_the_entry(relay: Service) -> None:
    """ "What is the default value of SSLProtocol?": the paragraph that says "value" and
    "SSLProtocol" most ranked first and was quoted; the box's line "Default: SSLProtocol
    all -SSLv3" is the fact asked (its key) of the name asked (its value)."""
    with client_for(relay, new_org()) as c:
        settings = "".join(f"Setting {i} has a default value of {i}.\n\n" for i in range(60))
        upload(c, [("mod_ssl.txt", MOD_SSL), ("settings.txt", settings)])
        quotes = _quotes(ask(c, "What is the default value of SSLProtocol?"))
    assert quotes[0][1] == "Default: SSLProtocol all -SSLv3 (up to 2.4.16: all)", quotes


HTPASSWD = (
    "htpasswd - Manage user files for basic authentication\n\n"
    "htpasswd is used to create and update the flat-files used to store usernames and "
    "password for basic authentication of HTTP users.\n"
    "Options\n"
    "-m\nUse MD5 hashing for passwords. This is the default.\n"
    "-B\nUse bcrypt hashing for passwords. This is currently considered to be very secure.\n"
    "-d\nUse crypt() hashing for passwords. This is insecure by today's standards.\n"
    f"{'Usernames are limited to 255 bytes and may not include the character colon. ' * 12}\n"
    "Restrictions\n"
    "The cost of computing a bcrypt password hash value increases with the number of "
    "rounds specified by the -C option. The apr-util library enforces a maximum number of "
    "rounds of 17 in version 1.6.0 and later.\n"
)


def test_which_option_is_answered_by_the_option_s_entry(relay: Service) -> None:
    """ "Which option of htpasswd uses bcrypt?": the passage that says "option" and
    "bcrypt" ("... specified by the -C option") came first, and the entry that answers,
    "-B" then "Use bcrypt hashing for passwords.", was quoted without its label: the
    option asked for is the label of the entry whose sentence says what was asked."""
    with client_for(relay, new_org()) as c:
        upload(c, [("htpasswd.txt", HTPASSWD)])
        quotes = _quotes(ask(c, "Which option of htpasswd uses bcrypt?"))
    assert quotes[0] == (
        "htpasswd.txt",
        "-B\nUse bcrypt hashing for passwords. This is currently considered to be very secure.",
    ), quotes


FACILITIES = (
    "The cafeteria on the second floor opens at eight and serves breakfast until half past "
    "ten. Visitors sign in at the front desk and wear a badge while they stay in the "
    "building. Parking spaces near the east entrance are kept for delivery vans and for "
    "colleagues with a permit. The library lends laptops for a week, and a second week can "
    "be asked for at the counter. Printers on every floor print double-sided unless a "
    "colleague changes the default. Fire drills happen twice a year, and the wardens wear "
    "yellow vests during them. Bicycles are kept in the basement, where a pump and a few "
    "tools are free to use. Meeting rooms are booked through the calendar, for at most four"
    " hours at a time. Audit logs are kept for 400 days on the primary cluster, after which"
    " the retention job moves them to cold storage in the archive bucket, where they stay "
    "encrypted until the retention job deletes them after seven years. The gym in the annex"
    " is open from six in the morning to ten in the evening on weekdays. Lost items are "
    "kept at the front desk for a month before they are given to charity. The retention job"
    " also deletes visitor badges a year after their last visit. Plants on the terrace are "
    "watered by the facilities team every Tuesday and Friday."
)
"""One paragraph of one line, longer than a passage: the second passage overlaps the first
by about 200 characters, which fall in the sentence about audit logs."""


def test_a_quote_starts_where_its_sentence_does_and_is_said_once(relay: Service) -> None:
    """A passage started 200 characters before the end of the one before it, at a word:
    mid-sentence. The sentence across the cut was quoted cut from the second passage ("in
    the archive bucket, where they stay encrypted ..."), first, and whole from the first."""
    sentences = re.split(r"(?<=\.) ", FACILITIES)
    with client_for(relay, new_org()) as c:
        upload(c, [("facilities.txt", FACILITIES)])
        quotes = [q for _, q in _quotes(ask(c, "What does the retention job delete?"))]
    assert quotes[0].startswith("Audit logs are kept for 400 days"), quotes
    for quote in quotes:
        assert any(quote.startswith(s) for s in sentences), quote
        assert not any(quote in other for other in quotes if other != quote), quotes


def _page(name: str, text: str) -> Passage:
    return Passage(name, f"{name}.html", 0, 0, text, -1.0)


TOP_LEVEL = (
    _page(
        "git",
        "If you are not at the top-level directory of the working tree, you should tell Git "
        "where the top-level of the working tree is, with the --work-tree=<path> option (or "
        "GIT_WORK_TREE environment variable)\nIf you just want to run git as if it was "
        "started in <path> then use git -C <path>.",
    ),
    _page(
        "git-rev-parse",
        "--show-toplevel\nShow the (by default, absolute) path of the top-level directory of "
        "the working tree.",
    ),
)
TUTORIAL = _page(
    "gitcore-tutorial",
    "To show that as an example, let's go back to the git-tutorial repository we used "
    "earlier, and create a branch in it.",
)
CONFIG = _page(
    "git-config",
    "Can be overridden by giving --no-keep-cr from the command line. See git-am(1), "
    "git-mailsplit(1).",
)
FETCH = _page(
    "git-fetch",
    "-p\n--prune\nBefore fetching, remove any remote-tracking references that no longer "
    "exist on the remote. Tags are not subject to pruning if they are fetched only because "
    "of the default tag auto-following or due to a --tags option.",
)
STAGES = _page("git-merge-file", 'file1 is stage 2 aka "our version", file2 is stage 3.')


@pytest.mark.parametrize(
    ("question", "passages", "sentence", "cited"),
    [
        (
            "How do I print the top-level directory of the working tree?",
            TOP_LEVEL,
            "You can use the following commands to print the top-level directory of the "
            "working tree.",
            None,
        ),
        (
            "How do I print the top-level directory of the working tree?",
            TOP_LEVEL,
            "Run git rev-parse --show-toplevel to show the absolute path of the top-level "
            "directory.",
            "git-rev-parse",
        ),
        ("How do I copy a commit onto my branch?", (TUTORIAL,), "Here's an example:", None),
        (
            "How do I copy a commit onto my branch?",
            (TUTORIAL,),
            "Go back to the git-tutorial repository and create a branch in it.",
            "gitcore-tutorial",
        ),
        (
            "How do I make git blame ignore whitespace?",
            (CONFIG,),
            "git-blame(1) -i --ignore-whitespace --no-keep-cr, no-keep-space=true",
            None,
        ),
        (
            "What does git fetch --prune do?",
            (FETCH,),
            "git-fetch.prune is a command that allows you to prune references from your "
            "fetch, which means it will remove any remote-tracking references that have been "
            "deleted by the previous fetch.",
            "git-fetch",
        ),
        ("What was churn in Q3?", (_page("report", CHURN),), "Churn in Q4 was 3.1 percent.", None),
        (
            "What was churn in Q3?",
            (_page("report", CHURN),),
            "Churn in Q3 was 3.1 percent.",
            "report",
        ),
        (
            "What does git log --follow do?",
            (STAGES,),
            "This will show all commits reachable from the current commit (v1) which has a "
            "diff between them (v3).",
            None,
        ),
    ],
)
def test_what_a_small_model_says_around_its_answer_is_not_cited(
    question: str, passages: tuple[Passage, ...], sentence: str, cited: str | None
) -> None:
    """SmolLM2's answers on git's manual (Debian's git-doc): a sentence that says the
    question back ("You can use the following commands to print the top-level directory
    of the working tree.") was backed by any passage the question found; "Here's an
    example:" by "let's ... as an example" (the "s" of both); "git-blame(1)" by "git-am(1)"
    and "(v1)" by "file1": 8 of 32 citations on 22 answers were right. A name's digits
    stay as strict as a number ("Q4" is not "Q3"). Words of the
    question weigh less in a sentence's support, a sentence that introduces what follows
    claims nothing, and a name's digits are no number; a file's name counts as its
    passages' words ("git rev-parse" is what git-rev-parse.html documents). A sentence
    that restates a passage's in words of its own around it is backed by it (it held
    0.47 of the "--prune" entry, under the cut)."""
    notes = attribute(sentence, Retrieval(question, passages=passages))
    assert [n.file_citation.file_id for n in notes if n.file_citation] == ([cited] if cited else [])
