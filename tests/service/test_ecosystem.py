"""Third-party clients as their users run them, against the real service: the ``openai``
package (sync, async, streamed, tools with a tool result, structured output, a base URL
ending in ``/v1``), LangChain's ``ChatOpenAI`` (invoke, stream, ``bind_tools``,
``with_structured_output``), simonw's ``llm`` (its command, configured by
``extra-openai-models.yaml``) and marimo's ``mo.ai.llm.openai`` (called as ``mo.ui.chat``
calls it).

Tool calls need a model that makes them: ``tools`` of the scripted upstream
(:mod:`support.upstream`), served through a second service. Everything else runs on
``service-l0``.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import marimo as mo
import openai
import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI
from pydantic import BaseModel

from support.chat import client_for, upload
from support.service import Service, start_service
from support.upstream import ARGUMENTS, CALL, FakeUpstream

NOTES = "Mount Everest is the highest mountain above sea level. It is in the Himalayas."
QUESTION = "What is the highest mountain?"
WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "The weather of a city.",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
        },
    },
}


class Sourced(BaseModel):
    """An answer and the files it comes from."""

    answer: str
    sources: list[str]


@pytest.fixture(scope="module")
def relay(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    """A service whose model ``tools`` calls tools (the scripted upstream)."""
    fake = FakeUpstream().start()
    upstreams = [{"url": fake.url, "key": "k-eco", "models": {"tools": "tools"}}]
    env = {"CHATSPACE_UPSTREAMS": json.dumps(upstreams)}
    svc = start_service(tmp_path_factory.mktemp("eco-relay"), env=env)
    yield svc
    svc.stop()
    fake.stop()


@pytest.fixture
def token(service: Service, org: str) -> str:
    with client_for(service, org) as raw:
        upload(raw, [("notes.txt", NOTES)])
    return service.token(org=org)


@pytest.fixture
def client(service: Service, token: str) -> Iterator[openai.OpenAI]:
    with openai.OpenAI(base_url=service.url, api_key=token, max_retries=0) as c:
        yield c


@pytest.fixture
def relay_client(relay: Service, org: str) -> Iterator[openai.OpenAI]:
    with openai.OpenAI(base_url=relay.url, api_key=relay.token(org=org), max_retries=0) as c:
        yield c


def _user(text: str) -> list[Any]:
    return [{"role": "user", "content": text}]


# ---------------------------------------------------------------- the openai package


def test_files_create_returns_the_list(client: openai.OpenAI) -> None:
    """``files.create`` gets the seed's JSON array and hands back a list of FileObject."""
    created: Any = client.files.create(file=("more.txt", b"K2 is second."), purpose="user_data")
    [file] = created
    assert (file.filename, file.bytes, file.purpose) == ("more.txt", 13, "user_data")


def test_tool_fields_on_service_l0_are_ignored_and_named(client: openai.OpenAI) -> None:
    raw = client.chat.completions.with_raw_response.create(
        model="service-l0",
        messages=_user(QUESTION),
        tools=[WEATHER],  # type: ignore[list-item]
        tool_choice="auto",
        temperature=0.2,
        logprobs=False,
    )
    assert raw.headers["x-chatspace-ignored"] == "temperature, tool_choice, tools"
    answer = raw.parse()
    assert answer.choices[0].message.tool_calls is None
    assert answer.choices[0].logprobs is None
    with client.chat.completions.with_streaming_response.create(
        model="service-l0", messages=_user(QUESTION), stream=True, parallel_tool_calls=True
    ) as streamed:
        assert streamed.headers["x-chatspace-ignored"] == "parallel_tool_calls"


def test_json_object_and_parse_on_service_l0(client: openai.OpenAI) -> None:
    plain = client.chat.completions.create(
        model="service-l0", messages=_user(QUESTION), response_format={"type": "json_object"}
    )
    data = json.loads(plain.choices[0].message.content or "")
    assert "Mount Everest is the highest mountain" in data["answer"]
    assert data["sources"] == [
        {
            "file": "notes.txt",
            "quote": (
                "Mount Everest is the highest mountain above sea level. It is in the Himalayas."
            ),
        }
    ]
    parsed = client.chat.completions.parse(
        model="service-l0", messages=_user(QUESTION), response_format=Sourced
    )
    result = parsed.choices[0].message.parsed
    assert result is not None
    assert result.sources == ["notes.txt"]
    assert result.answer.startswith("Here is what I found")


def test_tool_call_round_trip_sync(relay_client: openai.OpenAI) -> None:
    first = relay_client.chat.completions.create(
        model="tools",
        messages=_user("Weather in Paris?"),
        tools=[WEATHER],  # type: ignore[list-item]
    )
    choice = first.choices[0]
    assert choice.finish_reason == "tool_calls"
    [call] = choice.message.tool_calls or []
    assert call.model_dump() == CALL
    history: list[Any] = [
        *_user("Weather in Paris?"),
        choice.message.model_dump(exclude_none=True),  # sent back as it came
        {"role": "tool", "tool_call_id": call.id, "content": "sunny"},
    ]
    second = relay_client.chat.completions.create(
        model="tools",
        messages=history,
        tools=[WEATHER],  # type: ignore[list-item]
    )
    assert second.choices[0].message.content == "It is sunny."


def test_tool_call_streamed_async(relay: Service, org: str) -> None:
    async def run() -> tuple[str, str, str | None]:
        async with openai.AsyncOpenAI(
            base_url=relay.url, api_key=relay.token(org=org), max_retries=0
        ) as c:
            stream = await c.chat.completions.create(
                model="tools",
                messages=_user("Weather in Paris?"),
                tools=[WEATHER],  # type: ignore[list-item]
                stream=True,
            )
            name, arguments, reason = "", "", None
            async for chunk in stream:
                for choice in chunk.choices:
                    for piece in choice.delta.tool_calls or []:
                        name += (piece.function and piece.function.name) or ""
                        arguments += (piece.function and piece.function.arguments) or ""
                    reason = choice.finish_reason or reason
            return name, arguments, reason

    assert asyncio.run(run()) == ("get_weather", ARGUMENTS, "tool_calls")


def test_stream_helper_assembles_tool_calls(relay_client: openai.OpenAI) -> None:
    with relay_client.chat.completions.stream(
        model="tools",
        messages=_user("Weather in Paris?"),
        tools=[WEATHER],  # type: ignore[list-item]
    ) as stream:
        final = stream.get_final_completion()
    [call] = final.choices[0].message.tool_calls or []
    assert (call.id, call.function.name, call.function.arguments) == (
        CALL["id"],
        "get_weather",
        ARGUMENTS,
    )


# ---------------------------------------------------------------- a base URL ending in /v1


@pytest.fixture
def v1_client(service: Service, token: str) -> Iterator[openai.OpenAI]:
    """The base URL most tools' docs show, and most users type: the service's, plus /v1."""
    with openai.OpenAI(base_url=service.url + "/v1", api_key=token, max_retries=0) as c:
        yield c


def test_a_v1_base_url_reaches_the_same_endpoints(
    client: openai.OpenAI, v1_client: openai.OpenAI
) -> None:
    expected = client.chat.completions.create(model="service-l0", messages=_user(QUESTION))
    answer = v1_client.chat.completions.create(
        model="service-l0", messages=_user(QUESTION), store=True
    )
    assert answer.choices[0].message.content == expected.choices[0].message.content
    assert client.chat.completions.retrieve(answer.id).id == answer.id  # one store
    chunks = v1_client.chat.completions.create(
        model="service-l0", messages=_user(QUESTION), stream=True
    )
    streamed = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert streamed == expected.choices[0].message.content
    assert [m.id for m in v1_client.models.list()] == [m.id for m in client.models.list()]
    assert v1_client.models.retrieve("service-l0").id == "service-l0"
    assert [f.filename for f in v1_client.files.list()] == ["notes.txt"]


def test_other_v1_paths_say_to_drop_the_prefix(v1_client: openai.OpenAI) -> None:
    """Not a bare "Error code: 404 - Not Found": the answer says the prefix is the fault."""
    with pytest.raises(openai.NotFoundError) as caught:
        v1_client.embeddings.create(model="service-l0", input="Everest")
    assert caught.value.body == {
        "message": "No endpoint '/v1/embeddings': chatspace's paths have no /v1 prefix (only"
        " /chat, /files and /models answer under it too); drop it: '/embeddings'.",
        "type": "not_found_error",
        "code": None,
    }


# ---------------------------------------------------------------- LangChain


def _chat(service: Service, token: str, model: str = "service-l0") -> ChatOpenAI:
    return ChatOpenAI(model=model, base_url=service.url, api_key=token, max_retries=0)  # type: ignore[arg-type]


def test_langchain_invoke_and_stream(service: Service, token: str) -> None:
    llm = _chat(service, token)
    answer = llm.invoke(QUESTION)
    assert isinstance(answer, AIMessage)
    assert "Mount Everest is the highest mountain" in str(answer.content)
    streamed = "".join(str(piece.content) for piece in llm.stream(QUESTION))
    assert streamed == answer.content


def test_langchain_structured_output_on_service_l0(service: Service, token: str) -> None:
    result = _chat(service, token).with_structured_output(Sourced).invoke(QUESTION)
    assert isinstance(result, Sourced)
    assert result.sources == ["notes.txt"]


def test_langchain_bind_tools_round_trip(relay: Service, org: str) -> None:
    @tool
    def get_weather(city: str) -> str:
        """The weather of a city."""
        return "sunny"

    llm = _chat(relay, relay.token(org=org), model="tools").bind_tools([get_weather])
    asked = HumanMessage("Weather in Paris?")
    called = llm.invoke([asked])
    assert isinstance(called, AIMessage)
    [call] = called.tool_calls
    assert (call["name"], call["args"], call["id"]) == ("get_weather", {"city": "Paris"}, "call_1")
    result = ToolMessage(get_weather.invoke(call["args"]), tool_call_id=call["id"])
    assert llm.invoke([asked, called, result]).content == "It is sunny."


# ---------------------------------------------------------------- llm and marimo


def test_llm_command_with_a_v1_model(
    service: Service, token: str, client: openai.OpenAI, tmp_path: Path
) -> None:
    """``llm -m chatspace "..."`` as its docs set up an OpenAI-compatible model: an entry of
    ``extra-openai-models.yaml`` whose ``api_base`` ends in ``/v1``, and its key saved under
    the entry's ``api_key_name``. ``llm`` streams; its log keeps the exchange (its Chat
    models cannot send ``store: true``, so the service keeps nothing)."""
    (tmp_path / "extra-openai-models.yaml").write_text(
        "- model_id: chatspace\n"
        "  model_name: service-l0\n"
        f"  api_base: {service.url}/v1\n"
        "  api_key_name: chatspace\n"
    )
    env = {**os.environ, "LLM_USER_PATH": str(tmp_path)}

    def llm(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "llm", *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    # what `llm keys set chatspace` writes (each llm command takes seconds to start)
    (tmp_path / "keys.json").write_text(json.dumps({"chatspace": token}))
    expected = client.chat.completions.create(model="service-l0", messages=_user(QUESTION))
    answer = expected.choices[0].message.content or ""
    assert "Mount Everest is the highest mountain" in answer
    assert llm("-m", "chatspace", QUESTION) == answer + "\n"
    [logged] = json.loads(llm("logs", "-n", "1", "--json"))
    assert [logged[k] for k in ("model", "prompt", "response")] == ["chatspace", QUESTION, answer]
    assert logged["response_json"]["model"] == "service-l0"
    assert logged["response_json"]["id"].startswith("chatcmpl-")
    assert client.chat.completions.list().data == []


def test_marimo_openai_model(service: Service, token: str, client: openai.OpenAI) -> None:
    """``mo.ai.llm.openai`` with the ``/v1`` base URL, called with messages and a
    ``ChatModelConfig`` as ``mo.ui.chat`` calls it: a stream of the answer's pieces."""
    model = mo.ai.llm.openai("service-l0", base_url=service.url + "/v1", api_key=token)
    # mo.ui.chat's default config (service-l0 ignores the sampling fields, and says so)
    config = mo.ai.ChatModelConfig(
        max_tokens=4096,
        temperature=0.5,
        top_p=1,
        top_k=40,
        frequency_penalty=0,
        presence_penalty=0,
    )
    reply = model([mo.ai.ChatMessage(role="user", content=QUESTION)], config)
    assert inspect.isgenerator(reply)  # streamed: marimo falls back to a str otherwise
    expected = client.chat.completions.create(
        model="service-l0",
        messages=[{"role": "system", "content": model.system_message}, *_user(QUESTION)],
    )
    assert "".join(reply) == expected.choices[0].message.content
