"""litellm, both ways: its proxy as an upstream nobody on this project wrote, and its
client against the service.

litellm pins ``openai`` below 3, so it lives in an environment of its own
(``.venv-litellm``, made by ``make setup-litellm``, part of ``make test``). The proxy
answers with its ``mock_response`` (no model weights, no network) behind a master key.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.chat import assemble, client_for, stream, upload
from support.service import Service, new_org, start_service
from support.upstream import FakeUpstream

ROOT = Path(__file__).resolve().parents[2]
MASTER_KEY = "sk-litellm-master-0123456789abcdef"
MOCK_REPLY = "Deserts hide water deep under the sand [1]."
DESERTS = "Deserts hide water deep under the sand, in aquifers that are thousands of years old."
QUESTION = "Where do deserts hide water?"
QUIET = {"LITELLM_LOCAL_MODEL_COST_MAP": "True", "LITELLM_LOG": "ERROR"}


def litellm_env() -> Path:
    """The bin folder of the litellm environment; its absence fails, never skips."""
    where = Path(os.environ.get("CHATSPACE_LITELLM_VENV", ROOT / ".venv-litellm")) / "bin"
    if not (where / "litellm").exists():
        pytest.fail(f"litellm is not installed in {where.parent}: run `make setup-litellm`")
    return where


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The litellm proxy on a free port of 127.0.0.1; its OpenAI-compatible base URL."""
    folder = tmp_path_factory.mktemp("litellm")
    config = folder / "config.yaml"
    config.write_text(
        "model_list:\n"
        "  - model_name: mock-gpt\n"
        "    litellm_params:\n"
        "      model: openai/mock-gpt\n"
        "      api_key: not-used\n"
        f"      mock_response: {json.dumps(MOCK_REPLY)}\n"
        "general_settings:\n"
        f"  master_key: {MASTER_KEY}\n"
    )
    port = free_port()
    process = subprocess.Popen(
        [
            str(litellm_env() / "litellm"),
            "--config",
            str(config),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=folder,
        env={**os.environ, **QUIET, "HOME": str(folder)},
    )
    assert process.stdout is not None
    seen = []
    for line in process.stdout:  # blocks until the proxy says it listens, or exits
        seen.append(line)
        if "Uvicorn running on" in line:
            break
    else:
        process.wait()
        pytest.fail("the litellm proxy did not start:\n" + "".join(seen[-30:]))
    drain = threading.Thread(target=lambda: [None for _ in process.stdout or []], daemon=True)
    drain.start()
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        process.terminate()
        process.wait(timeout=30)
        drain.join(timeout=30)
        process.stdout.close()


@pytest.fixture(scope="module")
def tools_upstream() -> Iterator[FakeUpstream]:
    server = FakeUpstream().start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def relay(
    tmp_path_factory: pytest.TempPathFactory, proxy: str, tools_upstream: FakeUpstream
) -> Iterator[Service]:
    """A service that discovers the proxy's models from the OpenAI variables, serves one
    more through it with a key the proxy refuses, and the scripted ``tools`` model."""
    data = tmp_path_factory.mktemp("relay")
    add = [
        sys.executable,
        "-m",
        "chatspace",
        "models",
        "add",
        "refused",
        "--url",
        proxy,
        "--model",
        "mock-gpt",
        "--key-stdin",
        "--data-dir",
        str(data),
    ]
    # The check of `models add` asks the proxy, which cannot check a key other than its
    # master key without its database: one line in its words, nothing saved; --no-check
    # keeps it anyway (the question-time refusal is tested below).
    checked = subprocess.run(
        add, input="sk-not-the-master-key", text=True, capture_output=True, timeout=60
    )
    assert checked.returncode == 2, checked.stdout + checked.stderr
    assert "answered HTTP 400 when asked for its models: No connected db." in checked.stderr
    assert "sk-not" not in checked.stderr
    assert not (data / "models.toml").exists()
    subprocess.run(
        [*add, "--no-check"], input="sk-not-the-master-key", text=True, check=True, timeout=60
    )
    env = {"CHATSPACE_AUTODETECT": "1", "OPENAI_BASE_URL": proxy, "OPENAI_API_KEY": MASTER_KEY}
    svc = start_service(
        data, "--upstream-url", tools_upstream.url, "--upstream-model", "tools", env=env
    )
    svc.wait_for_log("openai: 1 models discovered")
    yield svc
    svc.stop()
    assert not any(MASTER_KEY in line for line in svc.log)


def test_the_proxys_models_are_discovered_and_answer_with_citations(relay: Service) -> None:
    with client_for(relay, new_org()) as http:
        models = {m["id"]: m["owned_by"] for m in http.get("/models").json()["data"]}
        assert models["mock-gpt"] == "openai"
        (deserts,) = upload(http, [("deserts.txt", DESERTS)])
        body = {"model": "mock-gpt", "messages": [{"role": "user", "content": QUESTION}]}
        plain = http.post("/chat/completions", json=body)
        assert plain.status_code == 200, plain.text
        streamed = assemble(stream(http, {**body, "stream": True})[1])["choices"][0]["message"]
    for message in (plain.json()["choices"][0]["message"], streamed):
        assert message["content"] == MOCK_REPLY
        (note,) = message["annotations"]
        assert message["content"][note["start_index"] : note["end_index"]] == "[1]"
        assert note["file_citation"]["file_id"] == deserts["id"]
        assert note["file_citation"]["filename"] == "deserts.txt"


def test_the_proxys_own_error_comes_back_in_one_line(relay: Service) -> None:
    """The proxy, without a database of its own keys, answers a key that is not its
    master key with a 400 of its own words; the 502 carries them, never key or address."""
    with client_for(relay, new_org()) as http:
        body = {"model": "refused", "messages": [{"role": "user", "content": "Hello"}]}
        answer = http.post("/chat/completions", json=body)
    assert answer.status_code == 502
    detail = answer.json()["detail"]
    assert detail.startswith("The upstream model 'refused' failed: it answered HTTP 400: ")
    assert "db" in detail.split("HTTP 400: ")[1]  # litellm's own message
    assert "\n" not in detail
    assert "sk-not-the-master-key" not in answer.text
    assert "127.0.0.1" not in answer.text


CLIENT = r"""
import json, sys
import litellm

base, token = sys.argv[1], sys.argv[2]
common = dict(api_base=base, api_key=token)
out = {}
plain = litellm.completion(
    model="openai/mock-gpt", messages=[{"role": "user", "content": "Where do deserts hide water?"}],
    **common,
)
out["plain"] = plain.choices[0].message.content
pieces = litellm.completion(
    model="openai/mock-gpt", messages=[{"role": "user", "content": "Hello"}], stream=True,
    **common,
)
out["streamed"] = "".join(c.choices[0].delta.content or "" for c in pieces)
tools = [{"type": "function", "function": {
    "name": "get_weather", "description": "The weather in a city",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                   "required": ["city"]}}}]
question = [{"role": "user", "content": "What is the weather in Paris?"}]
called = litellm.completion(model="openai/tools", messages=question, tools=tools, **common)
call = called.choices[0].message.tool_calls[0]
out["call"] = [call.id, call.function.name, json.loads(call.function.arguments)]
out["finish"] = called.choices[0].finish_reason
result = {"role": "tool", "tool_call_id": call.id, "content": "sunny"}
answered = litellm.completion(
    model="openai/tools", messages=[*question, called.choices[0].message.model_dump(), result],
    tools=tools, **common,
)
out["answer"] = answered.choices[0].message.content
try:
    litellm.completion(model="openai/nothing-here", messages=question, **common)
except Exception as exc:
    out["error"] = [type(exc).__name__, str(exc)]
print(json.dumps(out))
"""


def test_the_litellm_client_chats_calls_tools_and_reads_errors(relay: Service) -> None:
    token = relay.token("ann", new_org())
    result = subprocess.run(
        [str(litellm_env() / "python"), "-c", CLIENT, relay.url, token],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, **QUIET},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    out: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    assert out["plain"] == MOCK_REPLY
    assert out["streamed"] == MOCK_REPLY
    assert out["call"] == ["call_1", "get_weather", {"city": "Paris"}]
    assert out["finish"] == "tool_calls"
    assert out["answer"] == "It is sunny."
    kind, message = out["error"]
    assert kind == "NotFoundError"
    assert "model 'nothing-here' not found" in message
    assert token not in result.stdout + result.stderr
