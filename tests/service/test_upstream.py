"""Upstream models (docs/interface.md#models): forwarding to an OpenAI-compatible server, plain and
streamed, with the retrieved passages as context; 502 and 504 when it fails.

Two upstreams, both real HTTP servers: a second instance of this very service (the chain
tests), and a scripted server that records what it is sent (:mod:`support.upstream`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from chatspace.client import Client
from chatspace.service.engines.local import NO_MATCH
from chatspace.service.engines.repetition import LOOP_SEGMENTS
from chatspace.service.engines.upstream import CONTEXT_PREAMBLE
from chatspace.service.tokenizer import count_tokens
from support.chat import ask, assemble, client_for, read_events, stream, upload
from support.documents import pdf_bytes
from support.service import Service, new_org, start_service
from support.upstream import (
    ARGUMENTS,
    CALL,
    LOGPROBS,
    LOOP_LIMIT,
    LOOP_START,
    PIECES,
    REPLY,
    USAGE,
    FakeUpstream,
    closed_port,
)

SERVE_ADVICE = (
    "It comes from the service's command line (--upstream-url or CHATSPACE_UPSTREAMS): "
    "check the URL, key and model name given there"
)
DESERTS = "The Sahara is the largest hot desert. It covers most of North Africa."
QUESTION = "Which is the largest hot desert?"


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeUpstream]:
    server = FakeUpstream().start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def relay(tmp_path_factory: pytest.TempPathFactory, fake: FakeUpstream) -> Iterator[Service]:
    """A service forwarding to the scripted upstream (1 s timeout) and to a closed port."""
    upstreams = [
        {
            "url": fake.url,
            "key": "up-secret-key",
            "timeout": 1.0,
            "models": {
                name: name
                for name in (
                    *("echo", "broken", "garbage", "hang", "midstream", "meta"),
                    *("tools", "logprobs", "erroring", "denied", "missing", "framed"),
                    "looping",
                )
            }
            | {"renamed": "echo"},
        },
        {"url": f"http://127.0.0.1:{closed_port()}/v1", "models": {"gone": "gone"}},
    ]
    svc = start_service(
        tmp_path_factory.mktemp("relay"), env={"CHATSPACE_UPSTREAMS": json.dumps(upstreams)}
    )
    yield svc
    svc.stop()


@pytest.fixture(scope="module")
def chain_org() -> str:
    return new_org()


@pytest.fixture(scope="module")
def chained(
    tmp_path_factory: pytest.TempPathFactory, service: Service, chain_org: str
) -> Iterator[Service]:
    """A second service whose model ``gpt-test`` is the first service's ``service-l0``."""
    token = service.token(user="relay", org=chain_org)
    args = ["--upstream-url", service.url, "--upstream-key", token]
    args += ["--upstream-model", "gpt-test=service-l0"]
    svc = start_service(tmp_path_factory.mktemp("chained"), *args)
    yield svc
    svc.stop()


@pytest.fixture
def client(relay: Service, org: str) -> Iterator[httpx.Client]:
    with client_for(relay, org) as c:
        yield c


def test_service_l0_finding_nothing_does_not_deny_the_models_served(client: httpx.Client) -> None:
    """In JupyterLab with SmolLM2 connected, ``%%chat -m service-l0`` on a question no file
    answers said "no generative model is configured to answer beyond them": false there."""
    served = {m["id"] for m in client.get("/models").json()["data"]}
    assert "echo" in served
    answer = ask(client, "What is the airspeed of an unladen swallow?")
    said = answer["choices"][0]["message"]["content"]
    assert said == NO_MATCH.format(workspace="default")
    assert "service-l0 answers only from them" in said
    assert "no generative model is configured" not in said


# ---------------------------------------------------------------- a chain of two services


def test_models_lists_upstream_names(chained: Service, org: str) -> None:
    with client_for(chained, org) as c:
        models = {m["id"]: m["owned_by"] for m in c.get("/models").json()["data"]}
    assert models == {"service-l0": "chatspace", "gpt-test": "chatspace serve"}


def test_chain_forwards_plain_and_streamed(
    service: Service, chained: Service, chain_org: str, org: str
) -> None:
    with client_for(service, chain_org) as upstream_client:
        upload(upstream_client, [("deserts.txt", DESERTS)])
        direct = ask(upstream_client, QUESTION)
    with client_for(chained, org) as c:
        plain = ask(c, QUESTION, model="gpt-test", store=True)
        _, events = stream(
            c,
            {
                "model": "gpt-test",
                "messages": [{"content": QUESTION}],
                "stream_options": {"include_usage": True},
            },
        )
        streamed = assemble(events)
        stored = c.get(f"/chat/completions/{plain['id']}").json()
    # No files on this side: the messages go up unchanged, so the answer is the upstream's.
    assert plain["model"] == "gpt-test"
    assert plain["choices"][0]["message"]["content"] == direct["choices"][0]["message"]["content"]
    assert plain["choices"][0]["message"]["annotations"] == [], "upstream files are not ours"
    assert plain["usage"] == direct["usage"]
    assert plain["perception_usage"] is None
    assert streamed["choices"][0]["message"]["content"] == plain["choices"][0]["message"]["content"]
    assert streamed["usage"] == plain["usage"]
    assert stored == plain
    with client_for(service, chain_org) as upstream_client:
        assert upstream_client.get("/chat/completions").json()["data"] == [], "store stays here"


def test_chain_sends_the_passages_as_context(chained: Service, org: str) -> None:
    with client_for(chained, org) as c:
        (mine,) = upload(c, [("mine.txt", DESERTS)])
        answer = ask(c, QUESTION, model="gpt-test")
    context = f"{CONTEXT_PREAMBLE}\n\n[1] mine.txt\n{DESERTS}"
    # the upstream (service-l0) counts every message it was sent, the context included
    assert answer["usage"]["prompt_tokens"] == count_tokens(context) + count_tokens(QUESTION)
    assert answer["perception_usage"]["prompt_tokens"] == count_tokens(DESERTS)
    assert mine["id"]


# ---------------------------------------------------------------- the scripted upstream


def test_request_forwarded_with_context_key_and_mapped_name(
    client: httpx.Client, fake: FakeUpstream
) -> None:
    (file,) = upload(client, [("deserts.txt", DESERTS)])
    parts = [{"type": "text", "text": QUESTION}, {"type": "filter", "top_k": 2}]
    messages = [
        {"role": "developer", "content": "Be terse."},
        {"role": "user", "content": parts},
    ]
    response = client.post(
        "/chat/completions",
        json={"model": "renamed", "messages": messages, "temperature": 0.3, "max_tokens": 50},
    )
    assert response.status_code == 200
    sent = fake.last("echo")
    assert sent["headers"]["authorization"] == "Bearer up-secret-key"
    body = sent["body"]
    assert body["messages"] == [
        {"role": "system", "content": f"{CONTEXT_PREAMBLE}\n\n[1] deserts.txt\n{DESERTS}"},
        {"role": "system", "content": "Be terse."},
        {"role": "user", "content": QUESTION},
    ]
    assert body["temperature"] == 0.3
    assert body["max_tokens"] == 50
    # a whole answer is asked for as a stream, which the service can close (upstream.py)
    assert body["stream"] is True
    assert body["stream_options"] == {"include_usage": True}
    assert "top_p" not in body, "only what the caller set is forwarded"
    answer = response.json()
    assert answer["model"] == "renamed"
    assert answer["usage"] == USAGE
    assert answer["system_fingerprint"] == "fp-upstream"
    assert answer["perception_usage"]["prompt_tokens"] == count_tokens(DESERTS)
    message = answer["choices"][0]["message"]
    assert message["content"] == REPLY
    [note] = message["annotations"]  # [1] names the passage that supports; [7] nothing
    assert note["text"] == "[1]"
    assert REPLY[note["start_index"] : note["end_index"]] == "[1]"
    assert note["file_citation"] == {
        "file_id": file["id"],
        "filename": "deserts.txt",
        "quote": "The Sahara is the largest hot desert.",
        "location": {"line": 1},
    }


def test_the_client_forwards_a_sampling_parameter_given_at_its_documented_default(
    relay: Service, org: str, fake: FakeUpstream
) -> None:
    """``temperature=1`` was dropped by the client as the interface's default, so the
    model's own default (llama.cpp's 0.8) applied: a slider or ``-t 1`` set to 1 did
    nothing. Left out, nothing is sent, and the model's default applies."""
    with Client(relay.url, token=relay.token("alice", org)) as c:
        c.chat.create(model="echo", messages="Hi", temperature=1, presence_penalty=0)
        body = fake.last("echo")["body"]
        assert (body["temperature"], body["presence_penalty"]) == (1, 0)
        c.chat.create(model="echo", messages="Hi")
        body = fake.last("echo")["body"]
        assert not {"temperature", "top_p", "presence_penalty", "frequency_penalty"} & set(body)


def test_streamed_through_with_usage_and_citations(
    client: httpx.Client, fake: FakeUpstream
) -> None:
    upload(client, [("deserts.txt", DESERTS)])
    body = {"model": "echo", "messages": [{"content": QUESTION}], "store": True}
    _, events = stream(client, body)
    sent = fake.last("echo")["body"]
    assert sent["stream"] is True
    assert sent["stream_options"] == {"include_usage": True}
    completion = assemble(events)
    assert completion["choices"][0]["message"]["content"] == REPLY
    assert [n["text"] for n in completion["choices"][0]["message"]["annotations"]] == ["[1]"]
    stored = client.get(f"/chat/completions/{completion['id']}").json()
    assert stored["usage"] == USAGE
    assert (
        stored["choices"][0]["message"]["annotations"]
        == completion["choices"][0]["message"]["annotations"]
    )


def test_a_stream_framed_as_other_servers_frame_it_is_read_whole(client: httpx.Client) -> None:
    """CRLF line ends, comments, ``event``/``id``/``retry`` fields, events without data and
    JSON over several ``data`` lines (the SSE standard's, as httpx-sse reads it) give the
    same answer as ``echo``'s one-line events."""
    body = {"model": "framed", "messages": [{"content": QUESTION}], "store": True}
    completion = assemble(stream(client, body)[1])
    assert completion["choices"][0]["message"]["content"] == REPLY
    assert completion["choices"][0]["finish_reason"] == "stop"
    stored = client.get(f"/chat/completions/{completion['id']}").json()
    assert stored["usage"] == USAGE


@pytest.mark.parametrize("streamed", [False, True])
def test_an_answer_that_loops_is_cut_and_the_model_stopped(
    client: httpx.Client, fake: FakeUpstream, streamed: bool
) -> None:
    """A model repeating one line, numbers aside, until its context is full (SmolLM2 on
    "Summarise the Acme contract.") was waited for: a 504 after the connection's timeout,
    the server busy for minutes. The answer is cut once it loops, ``length``, and the
    stream closed, which stops the model."""
    body = {"model": "looping", "messages": [{"content": "Summarise it."}], "store": True}
    if streamed:
        completion = assemble(stream(client, body)[1])
    else:
        response = client.post("/chat/completions", json=body)
        assert response.status_code == 200, response.text
        completion = response.json()
    sent = fake.loop_ends.get(timeout=30)
    assert sent < LOOP_LIMIT - 1, "the model's stream was read to its end"
    choice = completion["choices"][0]
    assert choice["finish_reason"] == "length"
    content = choice["message"]["content"]
    assert content.startswith(LOOP_START)
    lines = content.splitlines()
    last = len(lines) - 1  # the lines before the loop: the summary's first line, then "1."
    assert lines[-1] == f"{last}. On-time delivery guarantee of EUR {last * 2}% of the fee"
    assert len(lines) == 2 + LOOP_SEGMENTS, "cut once twenty lines say the same"
    stored = client.get(f"/chat/completions/{completion['id']}").json()
    assert stored["choices"][0]["message"]["content"] == content
    assert stored["usage"]["completion_tokens"] == count_tokens(content)


@pytest.mark.parametrize("streamed", [False, True])
def test_a_models_citation_says_where_its_quote_is(client: httpx.Client, streamed: bool) -> None:
    """The passage starts on page 1; the sentence that supports the answer is on page 2."""
    atlas = pdf_bytes("Oceans cover most of the planet and hold its currents.", DESERTS)
    upload(client, [("atlas.pdf", atlas)])
    body = {"model": "echo", "messages": [{"role": "user", "content": QUESTION}]}
    if streamed:
        answer = assemble(stream(client, body)[1])
    else:
        answer = client.post("/chat/completions", json=body).json()
    [note] = answer["choices"][0]["message"]["annotations"]
    assert note["file_citation"]["quote"] == "The Sahara is the largest hot desert."
    assert note["file_citation"]["location"] == {"page": 2}


@pytest.mark.parametrize(
    ("model", "status"), [("broken", 502), ("garbage", 502), ("gone", 502), ("hang", 504)]
)
@pytest.mark.parametrize("streamed", [False, True])
def test_upstream_failures_are_502_and_504(
    client: httpx.Client, model: str, status: int, streamed: bool
) -> None:
    body = {"model": model, "messages": [{"content": "hi"}], "store": True, "stream": streamed}
    response = client.post("/chat/completions", json=body)
    assert response.status_code == status
    detail = response.json()["detail"]
    assert detail.startswith(f"The upstream model '{model}' ")
    for secret in ("up-secret-key", "127.0.0.1", "http"):
        assert secret not in detail
    assert client.get("/chat/completions").json()["data"] == []


def test_a_failure_mid_stream_is_an_error_event_then_done(client: httpx.Client) -> None:
    body = {"model": "midstream", "messages": [{"content": "hi"}], "store": True, "stream": True}
    with client.stream("POST", "/chat/completions", json=body) as response:
        assert response.status_code == 200
        events = read_events(response)
    assert events[-1] == "[DONE]"
    error = events[-2]["error"]
    assert error["type"] == "upstream_error"
    assert error["message"] == (
        "The upstream model 'midstream' failed: it reported an error while streaming: "
        "model crashed."
    )
    content = "".join(
        c["choices"][0]["delta"].get("content", "") for c in events[:-2] if c.get("choices")
    )
    assert content == "".join(PIECES[:2])[: len(content)]
    assert client.get("/chat/completions").json()["data"] == [], "a failed stream is not stored"


def test_retry_after_failure_works_under_the_same_key(client: httpx.Client) -> None:
    headers = {"Idempotency-Key": "up-1"}
    failed = client.post(
        "/chat/completions",
        json={"model": "broken", "messages": [{"content": "x"}]},
        headers=headers,
    )
    assert failed.status_code == 502
    again = client.post(
        "/chat/completions",
        json={"model": "broken", "messages": [{"content": "x"}]},
        headers=headers,
    )
    assert again.status_code == 502, "a failure is not remembered"


# ---------------------------------------------------------------- tools, logprobs, errors

WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "The weather of a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
        "strict": False,
    },
}
ASK_WEATHER = {"role": "user", "content": "Weather in Paris?"}


def test_every_set_field_is_forwarded_as_given(client: httpx.Client, fake: FakeUpstream) -> None:
    given = {
        "tools": [WEATHER_TOOL],
        "tool_choice": {"type": "function", "function": {"name": "get_weather"}},
        "parallel_tool_calls": False,
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": "w", "schema": {"type": "object"}, "strict": True},
        },
        "logprobs": True,
        "top_logprobs": 2,
        "prompt_cache_key": "k1",
        "safety_identifier": "user-hash",
        "verbosity": "low",
        "reasoning_effort": "minimal",
        "prediction": {"type": "content", "content": "Sunny"},
        "web_search_options": {},
        "service_tier": "auto",
        "user": "u1",
    }
    body = {"model": "echo", "messages": [ASK_WEATHER], "store": True, "metadata": {"a": "b"}}
    assert client.post("/chat/completions", json={**body, **given}).status_code == 200
    sent = fake.last("echo")["body"]
    assert {k: sent[k] for k in given} == given
    for own in ("store", "metadata", "workspace"):
        assert own not in sent, "what belongs to chatspace stays here"


def test_tool_calls_round_trip_and_are_stored(client: httpx.Client, fake: FakeUpstream) -> None:
    asked = {"model": "tools", "messages": [ASK_WEATHER], "tools": [WEATHER_TOOL], "store": True}
    called = client.post("/chat/completions", json=asked).json()
    [choice] = called["choices"]
    assert choice["finish_reason"] == "tool_calls"
    assert choice["message"]["content"] is None
    assert choice["message"]["tool_calls"] == [CALL]
    stored = client.get(f"/chat/completions/{called['id']}").json()
    assert stored["tools"] == [WEATHER_TOOL]
    assert stored["choices"] == called["choices"]

    result = {"role": "tool", "tool_call_id": CALL["id"], "content": "sunny"}
    history = [ASK_WEATHER, {"role": "assistant", "content": None, "tool_calls": [CALL]}, result]
    answered = client.post("/chat/completions", json={**asked, "messages": history}).json()
    assert answered["choices"][0]["message"]["content"] == "It is sunny."
    assert fake.last("tools")["body"]["messages"] == history
    messages = client.get(f"/chat/completions/{answered['id']}/messages").json()["data"]
    assert [(m["role"], m["content"], m["tool_calls"], m["tool_call_id"]) for m in messages] == [
        ("user", "Weather in Paris?", None, None),
        ("assistant", None, [CALL], None),
        ("tool", "sunny", None, CALL["id"]),
        ("assistant", "It is sunny.", None, None),
    ]
    first = client.get(f"/chat/completions/{called['id']}/messages").json()["data"]
    assert first[-1]["tool_calls"] == [CALL], "the answer's own calls are listed"


def test_tool_calls_stream_as_deltas(client: httpx.Client) -> None:
    body = {"model": "tools", "messages": [ASK_WEATHER], "tools": [WEATHER_TOOL], "store": True}
    _, events = stream(client, body)
    assert events[-1] == "[DONE]"
    deltas = [c["choices"][0] for c in events[:-1] if c["choices"]]
    assert deltas[0]["delta"]["role"] == "assistant"
    calls = [d["delta"]["tool_calls"] for d in deltas if "tool_calls" in d["delta"]]
    assert calls[0] == [
        {
            "index": 0,
            "id": CALL["id"],
            "type": "function",
            "function": {"name": "get_weather", "arguments": '{"city": '},
        }
    ]
    assert all(set(c[0]) == {"index", "function"} for c in calls[1:])
    assert "".join(c[0]["function"]["arguments"] for c in calls) == ARGUMENTS
    assert deltas[-1]["finish_reason"] == "tool_calls"
    assert not any(d["delta"].get("content") for d in deltas)
    stored = client.get(f"/chat/completions/{events[0]['id']}").json()
    assert stored["choices"][0]["message"]["tool_calls"] == [CALL]
    assert stored["choices"][0]["message"]["content"] is None


@pytest.mark.parametrize("model", ["tools", "legacy", "logprobs"])
def test_a_streams_completion_is_the_stored_completion(
    relay: Service, org: str, model: str
) -> None:
    """``stream.completion`` of chatspace's client folds every part of the chunks: tool
    calls, the legacy function call, log probabilities and ``perception_usage`` (the fold
    kept only text and annotations, so a streamed tool call had no call)."""
    with client_for(relay, org) as raw:
        upload(raw, [("weather.md", "Rain is likely in Paris on Sunday.")])
    params: dict[str, Any] = {"model": model, "messages": [ASK_WEATHER], "store": True}
    if model == "legacy":
        params.update(model="tools", functions=[WEATHER_TOOL["function"]])
    elif model == "tools":
        params["tools"] = [WEATHER_TOOL]
    else:
        params["logprobs"] = True
    with Client(relay.url, token=relay.token("alice", org)) as c:
        with c.chat.stream(**params) as s:
            for _ in s:
                pass
        folded = s.completion
        assert folded is not None
        stored = c.chat.get(folded.id)
    assert folded.choices == stored.choices
    assert folded.perception_usage == stored.perception_usage
    message = folded.choices[0].message
    if model == "tools":
        assert message.tool_calls is not None
        assert message.tool_calls[0].model_dump(mode="json", exclude_none=True) == CALL
        assert message.content is None
    elif model == "legacy":
        assert message.function_call is not None
        assert message.function_call.model_dump(mode="json") == CALL["function"]
    else:
        assert folded.choices[0].logprobs is not None
        assert folded.choices[0].logprobs.content == LOGPROBS
        assert folded.perception_usage is not None
        assert folded.perception_usage.prompt_tokens > 0


@pytest.mark.parametrize("streamed", [False, True])
def test_legacy_functions_round_trip(client: httpx.Client, streamed: bool) -> None:
    functions = [WEATHER_TOOL["function"]]
    body = {"model": "tools", "messages": [ASK_WEATHER], "functions": functions, "store": True}
    if streamed:
        _, events = stream(client, body)
        completion_id = events[0]["id"]
        pieces = [c["choices"][0]["delta"] for c in events[:-1] if c["choices"]]
        arguments = "".join(p["function_call"]["arguments"] for p in pieces if "function_call" in p)
        assert arguments == ARGUMENTS
    else:
        completion_id = client.post("/chat/completions", json=body).json()["id"]
    stored = client.get(f"/chat/completions/{completion_id}").json()["choices"][0]
    assert stored["finish_reason"] == "function_call"
    assert stored["message"]["function_call"] == CALL["function"]
    history = [
        ASK_WEATHER,
        {"role": "assistant", "content": None, "function_call": CALL["function"]},
        {"role": "function", "name": "get_weather", "content": "rainy"},
    ]
    answer = ask(client, history[0]["content"], model="tools", messages=history)
    assert answer["choices"][0]["message"]["content"] == "It is rainy."


def test_logprobs_come_back_plain_and_streamed(client: httpx.Client, fake: FakeUpstream) -> None:
    body = {"model": "logprobs", "messages": [{"content": "hi"}], "logprobs": True}
    plain = client.post("/chat/completions", json={**body, "top_logprobs": 1}).json()
    assert fake.last("logprobs")["body"]["top_logprobs"] == 1
    assert plain["choices"][0]["logprobs"] == {"content": LOGPROBS, "refusal": None}
    _, events = stream(client, {**body, "store": True})
    pieces = [c["choices"][0] for c in events[:-1] if c["choices"]]
    streamed = [p for piece in pieces if piece["logprobs"] for p in piece["logprobs"]["content"]]
    assert streamed == LOGPROBS
    stored = client.get(f"/chat/completions/{events[0]['id']}").json()
    assert stored["choices"][0]["logprobs"]["content"] == LOGPROBS


@pytest.mark.parametrize("streamed", [False, True])
def test_upstream_error_message_is_passed_on_scrubbed(
    client: httpx.Client, fake: FakeUpstream, streamed: bool
) -> None:
    body = {"model": "erroring", "messages": [{"content": "hi"}], "stream": streamed}
    response = client.post("/chat/completions", json=body)
    assert response.status_code == 502
    assert response.json()["detail"] == (
        "The upstream model 'erroring' failed: it answered HTTP 400: Context too long for key "
        "[redacted] at [redacted]. Trim the messages."
    )
    assert response.json()["error"]["type"] == "upstream_error"
    for secret in ("up-secret-key", fake.url, "127.0.0.1"):
        assert secret not in response.text


@pytest.mark.parametrize("streamed", [False, True])
def test_a_refused_key_says_so(client: httpx.Client, streamed: bool) -> None:
    body = {"model": "denied", "messages": [{"content": "hi"}], "stream": streamed}
    response = client.post("/chat/completions", json=body)
    assert response.status_code == 502
    assert response.json()["detail"] == (
        "The upstream model 'denied' refused the connection's key (HTTP 401): "
        f"Incorrect API key provided. {SERVE_ADVICE}."
    )


@pytest.mark.parametrize("streamed", [False, True])
def test_a_model_the_upstream_does_not_know_says_which_and_what_to_check(
    client: httpx.Client, streamed: bool
) -> None:
    body = {"model": "missing", "messages": [{"content": "hi"}], "stream": streamed}
    response = client.post("/chat/completions", json=body)
    assert response.status_code == 502
    assert response.json()["detail"] == (
        "The upstream model 'missing' was not found (HTTP 404: The model `missing` does not "
        "exist): the connection's URL or its model name 'missing' is wrong. "
        f"{SERVE_ADVICE}."
    )


def test_sources_mark_the_passages_sent_to_the_upstream(
    client: httpx.Client, fake: FakeUpstream
) -> None:
    """A stored completion's sources are the passages of the context message the model
    got, in its order, each marked sent; the one the answer's [1] quotes is cited."""
    sand = "Sand covers a fifth of the Sahara, the largest hot desert; dunes move."
    files = upload(client, [("deserts.txt", DESERTS), ("sand.txt", sand)])
    names = {f["id"]: f["filename"] for f in files}
    for streamed in (False, True):
        body = {"model": "echo", "messages": [{"content": QUESTION}], "store": True}
        if streamed:
            completion = assemble(stream(client, body)[1])
        else:
            completion = client.post("/chat/completions", json=body).json()
        context = fake.last("echo")["body"]["messages"][0]["content"]
        response = client.get(f"/chat/completions/{completion['id']}/sources")
        rows = response.json()["data"]
        assert len(rows) == 2
        blocks = [f"[{r['rank']}] {names[r['file_id']]}\n" for r in rows]
        assert context.startswith(CONTEXT_PREAMBLE)
        assert [context.index(b) for b in blocks] == sorted(context.index(b) for b in blocks)
        assert all(r["sent"] for r in rows)
        [note] = completion["choices"][0]["message"]["annotations"]
        cited = note["file_citation"]
        assert [(r["file_id"], r["quote"]) for r in rows if r["cited"]] == [
            (cited["file_id"], cited["quote"])
        ]
