"""The default model (docs/models.md#the-default-model): a call that names none uses the
chosen ``ChatspaceSettings.default_model``, else the one connected model when exactly one is
served besides ``service-l0``, else ``service-l0``; ``%chat config`` and the chat panel's
picker say which and why.

Each service is ``chatspace serve`` with its upstreams on the command line or in its
environment, forwarding to the scripted server of :mod:`support.upstream`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.magics import run
from support.service import Service, new_org, start_service
from support.upstream import REPLY, FakeUpstream, closed_port

KEY = "sk-default-model-0123456789abcdef"


@pytest.fixture(scope="module")
def upstream() -> Iterator[FakeUpstream]:
    server = FakeUpstream(models=["smollm"], key=KEY).start()
    yield server
    server.stop()


def _serving(tmp: Path, upstream: FakeUpstream, *names: str) -> Iterator[Service]:
    """A service whose command line connects ``names``, each to the upstream's ``echo``."""
    models = [f"{name}=echo" for name in names]
    svc = start_service(tmp, "--upstream-url", upstream.url, "--upstream-model", *models)
    yield svc
    svc.stop()


@pytest.fixture(scope="module")
def one(tmp_path_factory: pytest.TempPathFactory, upstream: FakeUpstream) -> Iterator[Service]:
    yield from _serving(tmp_path_factory.mktemp("one"), upstream, "smollm")


@pytest.fixture(scope="module")
def two(tmp_path_factory: pytest.TempPathFactory, upstream: FakeUpstream) -> Iterator[Service]:
    yield from _serving(tmp_path_factory.mktemp("two"), upstream, "smollm", "qwen")


def _use(service: Service, magics: Any) -> None:
    """The notebook session of every magic and panel, on ``service`` for a fresh org."""
    from chatspace.client import Client
    from chatspace.notebook.session import get_session, reset_session

    reset_session()
    get_session().use_client(Client(base_url=service.url, token=service.token("alice", new_org())))
    assert magics.session is get_session()


def _config_model(ip: Any) -> tuple[str, str]:
    (row,) = [
        (value, why) for name, value, why in run(ip, "%chat config").value.rows if name == "model"
    ]
    return row


def test_the_one_connected_model_answers_a_call_that_names_none(
    ip: Any, magics: Any, one: Service, upstream: FakeUpstream
) -> None:
    _use(one, magics)
    assert _config_model(ip) == ("smollm", "the one connected model")
    answer = run(ip, "%%chat\nHello there?").value
    assert (answer.model, answer.text) == ("smollm", REPLY)
    assert answer.completion is not None
    assert answer.completion.model == "smollm"
    assert upstream.last("echo")["body"]["messages"][-1]["content"] == "Hello there?"
    # service-l0 stays one flag away, and a chosen default wins over the rule.
    assert run(ip, "%%chat -m service-l0 --no-store\nHello?").value.model == "service-l0"
    ip.run_line_magic("config", "ChatspaceSettings.default_model = 'service-l0'")
    assert _config_model(ip) == ("service-l0", "chosen with ChatspaceSettings.default_model")
    assert run(ip, "%%chat --no-store\nHello?").value.model == "service-l0"


def test_the_chat_panel_picker_starts_on_the_default_and_says_why(
    magics: Any, one: Service, upstream: FakeUpstream
) -> None:
    from chatspace.notebook.panels import ChatPanel

    _use(one, magics)
    panel = ChatPanel()
    try:
        assert panel.model_picker.options[0] == ("default: smollm (the one connected model)", "")
        assert (panel.model, panel.model_picker.value) == ("", "")
        assert panel.usage_label.value == "model smollm · no tokens used yet"
        panel.send("Hello from the panel?")
        assert panel.wait(30)
        assert panel.error == ""
        assert panel.turns[-1]["content"].startswith("Noted: the Sahara")
        assert panel.usage_label.value.startswith("model smollm · last answer")
    finally:
        panel.close()


def test_two_connected_models_leave_service_l0_the_default(
    ip: Any, magics: Any, two: Service
) -> None:
    _use(two, magics)
    assert _config_model(ip) == ("service-l0", "2 models are connected: pick one with -m")
    assert run(ip, "%%chat --no-store\nHello?").value.model == "service-l0"
    assert run(ip, "%%chat -m qwen --no-store\nHello?").value.model == "qwen"


def test_no_connected_model_is_service_l0(ip: Any, nb_session: Any) -> None:
    assert _config_model(ip) == ("service-l0", "no model is connected")
    assert run(ip, "%%chat --no-store\nHello?").value.model == "service-l0"


def test_openai_base_url_makes_its_model_the_default_from_the_first_cell(
    ip: Any, magics: Any, tmp_path: Path, upstream: FakeUpstream
) -> None:
    """JupyterLab started with ``OPENAI_BASE_URL``: the very first ``%%chat``, sent while
    the service is still discovering that endpoint (slow to list its models), uses its
    model."""
    env = {
        "CHATSPACE_AUTODETECT": "1",
        "OPENAI_BASE_URL": upstream.url,
        "OPENAI_API_KEY": KEY,
        "OLLAMA_HOST": f"127.0.0.1:{closed_port()}",
    }
    upstream.models_delay = 3.0
    svc = start_service(tmp_path / "data", env=env)
    try:
        _use(svc, magics)
        answer = run(ip, "%%chat --no-store\nHello?").value
        assert (answer.model, answer.text) == ("smollm", REPLY)
        assert upstream.last("smollm")["headers"]["authorization"] == f"Bearer {KEY}"
    finally:
        upstream.models_delay = 0.0
        svc.stop()
