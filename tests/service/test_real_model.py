"""A real generative model as the upstream: SmolLM2-135M-Instruct behind llama.cpp's server.

Every other upstream test talks to a scripted server; here the service forwards to a model
that writes its own words (:mod:`support.llama_server`, its environment made by
``make setup-llama``). A 135M model answers from the passage most of the time, sometimes
invents a number, and never writes ``[n]`` markers, so these tests pin only what it does
every time: an answer arrives, plain and streamed, with its finish reason and token counts,
the stream and the stored completion agree, the file's passage reached the model (the
answer's facts are attributed to it), and an answer past its timeout stops the model.
Never its exact words.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from importlib.resources import files
from pathlib import Path
from typing import Any

import httpx
import pytest

from support.chat import ask, assemble, client_for, stream, upload
from support.llama_server import MODEL_ALIAS, LlamaServer
from support.office_files import acme_contract_docx
from support.service import Service, new_org, start_service

pytestmark = pytest.mark.real_model

MODEL = "smollm2"
FILENAME = "q3-report.md"
CHURN = "The churn rate in Q3 was 3.1 percent, down from 4.7 percent in Q2."
REPORT = (
    "# Quarterly report, Q3\n\n"
    f"{CHURN}\n\n"
    "The Lyon office moved to a larger building in August. "
    "The support team now answers tickets in French and German.\n"
)
QUESTION = "What was the churn rate in Q3?"
END_TOKENS = ("0", "1", "2")
"""SmolLM2's ``<|endoftext|>``, ``<|im_start|>`` and ``<|im_end|>`` token ids."""
# Small: each answer takes a few seconds on one thread.
SETTINGS: dict[str, Any] = {"model": MODEL, "temperature": 0, "max_tokens": 64}


@pytest.fixture(scope="module")
def llama() -> Iterator[LlamaServer]:
    """llama.cpp's server, started once for the module."""
    with LlamaServer() as server:
        yield server


@pytest.fixture(scope="module")
def relay(tmp_path_factory: pytest.TempPathFactory, llama: LlamaServer) -> Iterator[Service]:
    """A service that serves the llama server's model as ``smollm2``."""
    svc = start_service(
        tmp_path_factory.mktemp("real-model"),
        *("--upstream-url", llama.url, "--upstream-model", f"{MODEL}={MODEL_ALIAS}"),
    )
    yield svc
    svc.stop()


@pytest.fixture(scope="module")
def reporting_org() -> str:
    """The org whose default workspace holds the report."""
    return new_org()


@pytest.fixture(scope="module")
def report(relay: Service, reporting_org: str) -> dict[str, Any]:
    """The report, uploaded once: its File object."""
    with client_for(relay, reporting_org) as http:
        (file,) = upload(http, [(FILENAME, REPORT)])
    return file


@pytest.fixture
def http(relay: Service, reporting_org: str, report: dict[str, Any]) -> Iterator[httpx.Client]:
    """A client of the org that has the report."""
    with client_for(relay, reporting_org) as client:
        yield client


def test_the_model_is_served_under_its_name(http: httpx.Client) -> None:
    models = {m["id"]: m["owned_by"] for m in http.get("/models").json()["data"]}
    assert models[MODEL] == "chatspace serve"


def test_a_real_model_answers_a_plain_request(http: httpx.Client) -> None:
    answer = ask(http, QUESTION, **SETTINGS)
    assert answer["model"] == MODEL
    (choice,) = answer["choices"]
    assert choice["message"]["role"] == "assistant"
    assert choice["message"]["content"].strip()
    assert choice["finish_reason"] in ("stop", "length")
    usage = answer["usage"]
    assert usage["prompt_tokens"] > 0
    assert 0 < usage["completion_tokens"] <= SETTINGS["max_tokens"]
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]


def test_a_real_models_stream_is_the_completion_it_stores(http: httpx.Client) -> None:
    body = {
        **SETTINGS,
        "messages": [{"role": "user", "content": QUESTION}],
        "store": True,
        "stream_options": {"include_usage": True},
    }
    _, events = stream(http, body)
    assert events[-1] == "[DONE]"
    pieces = [
        c["delta"]["content"]
        for e in events[:-1]
        for c in e["choices"]
        if c["delta"].get("content")
    ]
    assert len(pieces) > 1, "a real model streams its answer in pieces"
    streamed = assemble(events)
    (choice,) = streamed["choices"]
    assert choice["message"]["content"].strip()
    assert choice["finish_reason"] in ("stop", "length")
    assert streamed["usage"]["completion_tokens"] > 0

    stored = http.get(f"/chat/completions/{streamed['id']}")
    assert stored.status_code == 200, stored.text
    kept = stored.json()
    assert kept["choices"][0]["message"]["content"] == choice["message"]["content"]
    assert kept["choices"][0]["finish_reason"] == choice["finish_reason"]
    assert kept["usage"] == streamed["usage"]


def test_a_plain_answer_is_counted_as_its_stream_is(http: httpx.Client) -> None:
    """A whole answer is asked of the upstream as a stream (so that the service can stop
    it), and llama.cpp's server streams no usage: the plain and the streamed answer to one
    question are counted alike, the passages' system message included."""
    plain = ask(http, QUESTION, **{**SETTINGS, "max_tokens": 1})
    body = {**SETTINGS, "max_tokens": 1, "messages": [{"role": "user", "content": QUESTION}]}
    *_, last, done = stream(http, {**body, "stream_options": {"include_usage": True}})[1]
    assert done == "[DONE]"
    assert plain["usage"]["prompt_tokens"] == last["usage"]["prompt_tokens"]
    assert plain["usage"]["prompt_tokens"] > plain["perception_usage"]["prompt_tokens"] > 0


def test_a_whole_answer_past_its_timeout_stops_the_model(
    tmp_path: Path, llama: LlamaServer
) -> None:
    """An answer that outlasts the connection's timeout is a 504, and the model stops
    writing it: the next question is answered at once. (Asked as a plain request, llama.cpp's
    server went on writing the abandoned answer, and every question after it waited behind
    it and timed out too.) The model is kept from ending its answer (its end tokens banned),
    as a small model that repeats itself does not end it."""
    upstream = {"url": llama.url, "models": {MODEL: MODEL_ALIAS}, "timeout": 5}
    svc = start_service(tmp_path, env={"CHATSPACE_UPSTREAMS": json.dumps([upstream])})
    try:
        with client_for(svc, new_org()) as http:
            endless = {"max_tokens": 4000, "logit_bias": dict.fromkeys(END_TOKENS, -100)}
            long = http.post(
                "/chat/completions",
                json={**SETTINGS, **endless, "messages": [{"role": "user", "content": "Hi"}]},
            )
            assert long.status_code == 504, long.text
            assert "did not answer in time" in long.json()["error"]["message"]
            short = ask(http, "Say hello.", **{**SETTINGS, "max_tokens": 4})
            assert short["choices"][0]["message"]["content"].strip()
    finally:
        svc.stop()


def test_a_summary_arrives_within_the_timeout_whatever_the_model_does(
    tmp_path: Path, llama: LlamaServer
) -> None:
    """ "Summarise the Acme contract." with no token limit: at temperature 0 this model
    lists the contract's terms and then counts one of them up ("EUR 30% of quarterly fee",
    40%, ...) until its context is full, which took minutes, so the whole answer was a 504
    after the connection's timeout. It arrives: ended by the model, or cut where it
    loops (``length``), and the contract's terms it states are attributed to the contract."""
    upstream = {"url": llama.url, "models": {MODEL: MODEL_ALIAS}, "timeout": 90}
    svc = start_service(tmp_path, env={"CHATSPACE_UPSTREAMS": json.dumps([upstream])})
    try:
        with client_for(svc, new_org()) as http:
            (contract,) = upload(http, [("acme-contract.docx", acme_contract_docx())])
            body = {"model": MODEL, "temperature": 0}
            response = http.post(
                "/chat/completions",
                json={
                    **body,
                    "messages": [{"role": "user", "content": "Summarise the Acme contract."}],
                },
            )
            assert response.status_code == 200, response.text
            choice = response.json()["choices"][0]
            assert choice["finish_reason"] in ("stop", "length")
            assert choice["message"]["content"].strip()
            cited = {n["file_citation"]["file_id"] for n in choice["message"]["annotations"]}
            assert cited == {contract["id"]}
    finally:
        svc.stop()


def test_a_real_models_answer_is_attributed_to_the_file_its_facts_came_from(
    http: httpx.Client, report: dict[str, Any]
) -> None:
    """The model never writes ``[n]``; its answer is attributed all the same, to the file
    whose passage it drew on, with spans that cut the answer's own text. (The question asks
    for words, not a number: at temperature 0 this model restates the churn sentence with
    invented figures, and such a sentence is rightly left uncited, as the next test pins.)"""
    answer = ask(http, "Which languages does the support team answer tickets in?", **SETTINGS)
    message = answer["choices"][0]["message"]
    content, notes = message["content"], message["annotations"]
    for note in notes:
        assert content[note["start_index"] : note["end_index"]] == note["text"], note
    cited = [
        n["file_citation"]
        for n in notes
        if n["type"] == "file_citation" and n["file_citation"]["file_id"] == report["id"]
    ]
    assert cited, f"no citation of {FILENAME} in {content!r}: {notes}"
    for citation in cited:
        assert citation["filename"] == FILENAME
        assert citation["quote"], citation
        assert citation["quote"] in REPORT, citation


def test_a_real_models_sentence_is_cited_only_with_the_numbers_of_its_file(
    http: httpx.Client,
) -> None:
    """Whatever figures the model states for the churn, a sentence it is cited for states
    no number its file does not hold."""
    answer = ask(http, QUESTION, **SETTINGS)
    message = answer["choices"][0]["message"]
    for note in message["annotations"]:
        said = message["content"][note["start_index"] : note["end_index"]]
        for number in re.findall(r"\d+(?:\.\d+)?", said):
            assert number in REPORT, (said, note)


def test_a_streamed_answer_counts_the_passages_the_model_read(
    relay: Service, http: httpx.Client
) -> None:
    """llama.cpp's server streams no usage (it ignores ``stream_options``), so the service
    counts a streamed answer itself: its prompt is what the model read, the passages'
    system message included, as the plain answer's count from the model is."""

    def streamed(client: httpx.Client) -> dict[str, Any]:
        body = {
            **SETTINGS,
            "max_tokens": 1,
            "messages": [{"role": "user", "content": QUESTION}],
            "stream_options": {"include_usage": True},
        }
        *_, last, done = stream(client, body)[1]
        assert done == "[DONE]"
        assert last["choices"] == [], "the usage chunk comes last"
        return dict(last)

    with client_for(relay, new_org()) as empty:
        bare = streamed(empty)
    given = streamed(http)
    perceived = given["perception_usage"]["prompt_tokens"]
    assert perceived > 0
    assert "perception_usage" not in bare
    added = given["usage"]["prompt_tokens"] - bare["usage"]["prompt_tokens"]
    assert added > perceived, (added, perceived)


def test_a_real_model_states_a_table_s_computed_value_and_it_is_cited(relay: Service) -> None:
    """Sent five blocks of penguins.csv's 344 rows, the model answered "the heaviest
    penguin's body mass" with figures it made up, none cited. Given the table's answer
    computed over all its rows after the passages, it states the heaviest body mass, and
    that sentence is cited by the row that holds it."""
    penguins = Path(str(files("palmerpenguins") / "data" / "penguins.csv"))
    heaviest = max(
        (line for line in penguins.read_text().splitlines()[1:] if ",NA," not in line),
        key=lambda line: float(line.split(",")[5]),
    )
    mass = heaviest.split(",")[5]
    org = new_org()
    with httpx.Client(base_url=relay.url, headers=relay.headers("alice", org), timeout=300) as c:
        (table,) = upload(c, [("penguins.csv", penguins.read_bytes())])
        question = [
            {"type": "text", "text": "What is the heaviest penguin's body mass?"},
            {"type": "filter", "file_ids": [table["id"]]},
        ]
        message = ask(c, question, **SETTINGS)["choices"][0]["message"]
    content = message["content"]
    assert mass in content, content
    stating = [
        n for n in message["annotations"] if mass in content[n["start_index"] : n["end_index"]]
    ]
    assert [n["file_citation"]["quote"] for n in stating] == [heaviest], message["annotations"]
