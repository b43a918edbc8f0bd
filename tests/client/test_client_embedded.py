"""With no base URL anywhere, clients share one embedded local service per data dir."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

from chatspace.client import AsyncClient, Client
from chatspace.local.launcher import ensure_service, live_service_url, stop_service

CHILD = """
from chatspace import Client
with Client() as client:
    print(client.base_url, client.workspaces.get().id, flush=True)
"""


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh data dir; whatever service starts in it is stopped afterwards."""
    where = tmp_path / "data"
    monkeypatch.setenv("CHATSPACE_DATA_DIR", str(where))
    for name in ("CHATSPACE_BASE_URL", "CHATSPACE_TOKEN", "CHATSPACE_WORKSPACE"):
        monkeypatch.delenv(name, raising=False)
    yield where
    stop_service(where)


def test_two_processes_starting_at_once_share_one_service(data_dir: Path) -> None:
    children = [
        subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outputs = [child.communicate(timeout=120)[0].split() for child in children]
    assert all(child.returncode == 0 for child in children)
    (url_a, ws_a), (url_b, ws_b) = outputs
    assert url_a == url_b
    assert ws_a == ws_b == "default"

    info = json.loads((data_dir / "service.json").read_text())
    assert info["url"] == url_a
    pid = info["pid"]
    assert os.getsid(pid) != os.getsid(0)  # detached: it outlives the kernel that started it
    assert (data_dir / "service.log").exists()

    with Client() as client:  # this process reuses it too
        assert client.base_url == url_a
        assert client.config.sources["base_url"] == f"embedded local service ({data_dir})"
        assert client.config.sources["token"] == "embedded local service"
        answer = client.chat.create(messages="Hello", store=True)
        assert [c.id for c in client.chat.list()] == [answer.id]
        assert client.workspaces.get().creator_user_id == "system"
    assert json.loads((data_dir / "service.json").read_text())["pid"] == pid


@pytest.mark.anyio
async def test_async_client_and_a_stale_runtime_file(data_dir: Path, anyio_backend: str) -> None:
    data_dir.mkdir(parents=True)
    (data_dir / "service.json").write_text(json.dumps({"url": "http://127.0.0.1:9", "pid": 1}))
    async with AsyncClient() as client:
        assert client.base_url != "http://127.0.0.1:9"
        assert (await client.workspaces.get()).id == "default"
    url, provider, where = ensure_service()
    assert url == client.base_url
    assert where == data_dir
    token = provider()
    assert token.count(".") == 2  # a JWT, minted locally


def test_readme_walkthrough_with_nothing_configured(data_dir: Path, tmp_path: Path) -> None:
    """The README's client section, step by step, against the embedded service."""
    import pandas as pd

    from chatspace import Client
    from chatspace.client import user_message

    sales = tmp_path / "sales.csv"
    pd.DataFrame(
        {"city": ["Lyon", "Porto", "Lyon"], "product": ["bikes", "boats", "trams"]}
    ).to_csv(sales, index=False)

    client = Client()
    uploaded = client.files.upload(sales, metadata={"source": "crm"})
    answer = client.chat.create(
        messages=[user_message("Which products sell in Lyon?", filter={"source": "crm"})],
        store=True,
    )
    citation = answer.choices[0].message.annotations[0]
    assert citation.file_citation is not None
    assert citation.file_citation.file_id == uploaded.id
    assert answer.text[citation.start_index : citation.end_index] == citation.text

    frame = client.chat.list().to_pandas()
    assert frame.loc[0, "question"] == "Which products sell in Lyon?"
    assert frame.loc[0, "id"] == answer.id

    copy = client.files.download(uploaded.id, tmp_path / "copy.csv")
    assert copy.read_bytes() == sales.read_bytes()
    client.close()


def test_stop_service_stops_the_one_of_its_data_dir(data_dir: Path) -> None:
    url, _, where = ensure_service()
    assert live_service_url(where) == url
    pid = json.loads((where / "service.json").read_text())["pid"]
    assert stop_service(where) is True
    with contextlib.suppress(psutil.NoSuchProcess):  # gone, or a zombie nothing reaps
        assert psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    assert live_service_url(where) is None
    assert stop_service(where) is False  # nothing left to stop


def test_an_environment_with_other_model_variables_restarts_it_on_the_same_port(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from support.upstream import FakeUpstream

    upstream = FakeUpstream(models=["echo"]).start()
    try:
        url, _, _ = ensure_service()
        first = json.loads((data_dir / "service.json").read_text())
        # A JupyterLab started again, now with an OpenAI-compatible server configured.
        monkeypatch.setenv("OPENAI_BASE_URL", upstream.url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-embedded-0123456789")
        monkeypatch.setenv("CHATSPACE_AUTODETECT", "1")
        again, _, _ = ensure_service()
        second = json.loads((data_dir / "service.json").read_text())
        assert again == url  # same address: other kernels' clients keep working
        assert second["pid"] != first["pid"]
        assert not psutil.pid_exists(first["pid"]) or psutil.Process(first["pid"]).status() == (
            psutil.STATUS_ZOMBIE
        )
        assert "sk-embedded" not in (data_dir / "service.json").read_text()
        # Same environment: the service is kept.
        ensure_service()
        assert json.loads((data_dir / "service.json").read_text())["pid"] == second["pid"]
        # A process that sets none of the variables takes it as it is.
        for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "CHATSPACE_AUTODETECT"):
            monkeypatch.delenv(name)
        ensure_service()
        assert json.loads((data_dir / "service.json").read_text())["pid"] == second["pid"]
        with Client() as client:
            assert _wait_for_model(client, "echo").owned_by == "openai"
    finally:
        upstream.stop()


def _wait_for_model(client: Client, name: str) -> Any:
    """The model once discovery has found it (it runs in the background of the service)."""
    import time

    from chatspace.errors import NotFoundError

    deadline = time.monotonic() + 30
    while True:
        try:
            return client.models.get(name)
        except NotFoundError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)  # discovery is in another process: nothing to wait on here
