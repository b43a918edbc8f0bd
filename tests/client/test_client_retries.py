"""Retries against a real endpoint that fails, then recovers (the fault proxy)."""

from __future__ import annotations

import io
import time
from pathlib import Path

import pytest

from chatspace import errors
from chatspace.client import RetryPolicy
from chatspace.client._retry import parse_retry_after
from support.clients import close, collect, make_client, run
from support.fault_proxy import Fault, FaultProxy
from support.service import Service

pytestmark = pytest.mark.anyio

FAST = {"initial_retry_delay": 0.01, "max_retry_delay": 0.05}


async def test_5xx_then_recovery_is_retried_with_one_idempotency_key(
    kind: str, proxy: FaultProxy, token: str
) -> None:
    proxy.fail(Fault("status", 503), Fault("status", 502))
    client = make_client(kind, proxy.url, token, **FAST)
    answer = await run(client.chat.create(messages="Hello", store=True))
    assert answer.text
    sent = proxy.requests("POST /chat/completions")
    assert [s.fault for s in sent] == ["status", "status", None]
    keys = {s.headers["idempotency-key"] for s in sent}
    assert len(keys) == 1
    again = await run(client.chat.create(messages="Hello", store=True))
    assert again.id != answer.id
    assert proxy.requests("POST /chat/completions")[-1].headers["idempotency-key"] not in keys
    await close(client)


async def test_every_creating_post_carries_a_key_and_nothing_else_does(
    kind: str, proxy: FaultProxy, token: str
) -> None:
    proxied = make_client(kind, proxy.url, token)
    await run(proxied.workspaces.create("keyed"))
    await run(proxied.workspaces.add_user("bob", workspace="keyed"))
    await run(proxied.files.upload(b"x", filename="x.txt"))
    await run(proxied.chat.create(messages="Hi", store=True))
    await run(proxied.chat.create(messages="Hi"))  # not stored: nothing is created
    await run(proxied.workspaces.update_user("bob", "reader", workspace="keyed"))
    keyed = [(s.method, s.path) for s in proxy.seen if "idempotency-key" in s.headers]
    assert keyed == [
        ("POST", "/workspaces"),
        ("POST", "/workspaces/keyed/user"),
        ("POST", "/files"),
        ("POST", "/chat/completions"),
    ]
    await close(proxied)


async def test_connection_reset_then_recovery(kind: str, proxy: FaultProxy, token: str) -> None:
    proxy.fail(Fault("reset"), Fault("reset"))
    client = make_client(kind, proxy.url, token, **FAST)
    workspace = await run(client.workspaces.get())
    assert workspace.id == "default"
    assert [s.fault for s in proxy.requests()] == ["reset", "reset", None]
    await close(client)


async def test_lost_answer_does_not_create_twice(kind: str, proxy: FaultProxy, token: str) -> None:
    proxy.fail(Fault("drop_response", match="POST /chat/completions"))
    client = make_client(kind, proxy.url, token, **FAST)
    answer = await run(client.chat.create(messages="Remember me", store=True))
    stored = await collect(client.chat.list())
    assert [c.id for c in stored] == [answer.id]  # the service answered the key again
    sent = proxy.requests("POST /chat/completions")
    assert len(sent) == 2
    assert sent[0].headers["idempotency-key"] == sent[1].headers["idempotency-key"]
    await close(client)


async def test_lost_stream_answer_is_streamed_again(
    kind: str, proxy: FaultProxy, token: str
) -> None:
    proxy.fail(Fault("drop_response", match="POST /chat/completions"))
    client = make_client(kind, proxy.url, token, **FAST)
    stream = client.chat.stream(messages="Remember me too", store=True)
    await collect(stream)
    stored = await collect(client.chat.list())
    assert [c.id for c in stored] == [stream.completion.id]
    assert stored[0].text == stream.text
    await close(client)


async def test_seekable_upload_is_rewound_and_stored_once(
    kind: str, proxy: FaultProxy, token: str, tmp_path: Path
) -> None:
    path = tmp_path / "data.bin"
    path.write_bytes(bytes(range(256)) * 1024)
    proxy.fail(
        Fault("status", 503, match="POST /files"), Fault("drop_response", match="POST /files")
    )
    client = make_client(kind, proxy.url, token, **FAST)
    uploaded = await run(client.files.upload(path, progress=False))
    assert uploaded.bytes == path.stat().st_size
    assert await run(client.files.content(uploaded.id)) == path.read_bytes()
    assert [f.id for f in await collect(client.files.list())] == [uploaded.id]
    sent = proxy.requests("POST /files")
    assert len(sent) == 3
    assert len({s.headers["idempotency-key"] for s in sent}) == 1
    assert len({s.body_size for s in sent}) == 1  # the whole body each time
    await close(client)


class _Pipe(io.RawIOBase):
    """A source that cannot seek, like a pipe or a socket."""

    def __init__(self, data: bytes) -> None:
        self._data = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray) -> int:  # type: ignore[override]
        chunk = self._data.read(len(buffer))
        buffer[: len(chunk)] = chunk
        return len(chunk)


async def test_non_seekable_upload_is_not_sent_twice(
    kind: str, proxy: FaultProxy, token: str
) -> None:
    proxy.fail(Fault("status", 503, match="POST /files"))
    client = make_client(kind, proxy.url, token, **FAST)
    with pytest.raises(errors.ServerError):
        await run(client.files.upload(_Pipe(b"streamed once"), filename="pipe.txt"))
    assert len(proxy.requests("POST /files")) == 1
    uploaded = await run(client.files.upload(_Pipe(b"streamed once"), filename="pipe.txt"))
    assert await run(client.files.content(uploaded.id)) == b"streamed once"
    await close(client)


async def test_retries_stop_after_max_retries(kind: str, proxy: FaultProxy, token: str) -> None:
    proxy.fail(*[Fault("status", 500) for _ in range(4)])
    client = make_client(kind, proxy.url, token, max_retries=2, **FAST)
    with pytest.raises(errors.ServerError):
        await run(client.workspaces.get())
    assert len(proxy.requests()) == 3
    none = client.with_options(max_retries=0)
    with pytest.raises(errors.ServerError):
        await run(none.workspaces.get())
    assert len(proxy.requests()) == 4
    await close(client)


async def test_client_errors_are_not_retried(kind: str, proxy: FaultProxy, token: str) -> None:
    client = make_client(kind, proxy.url, token, **FAST)
    with pytest.raises(errors.NotFoundError):
        await run(client.chat.get("chatcmpl-missing"))
    assert len(proxy.requests()) == 1
    await close(client)


async def test_retry_after_is_honoured(kind: str, proxy: FaultProxy, token: str) -> None:
    proxy.fail(Fault("status", 429, headers={"Retry-After": "1"}))
    client = make_client(kind, proxy.url, token, initial_retry_delay=0.001, max_retry_delay=0.001)
    started = time.monotonic()
    await run(client.workspaces.get())
    assert time.monotonic() - started >= 1.0
    assert len(proxy.requests()) == 2

    proxy.fail(Fault("status", 429, headers={"Retry-After": "3600"}))
    started = time.monotonic()
    with pytest.raises(errors.RateLimitError) as caught:
        await run(client.workspaces.get())  # an hour is not worth waiting inside a call
    assert time.monotonic() - started < 1.0
    assert caught.value.retry_after == 3600
    await close(client)


async def test_token_provider_is_refreshed_once_after_a_401(
    kind: str, service: Service, org: str
) -> None:
    tokens = iter(["expired-token", service.token("alice", org), "never-used"])
    calls = []

    def provider() -> str:
        calls.append(1)
        return next(tokens)

    client = make_client(kind, service.url, provider)
    assert (await run(client.workspaces.get())).id == "default"
    assert (await run(client.workspaces.get())).id == "default"
    assert len(calls) == 2  # once at first use, once after the 401

    always_bad = make_client(kind, service.url, lambda: "bad")
    with pytest.raises(errors.AuthenticationError):
        await run(always_bad.workspaces.get())
    await close(client)
    await close(always_bad)


def test_backoff_has_full_jitter_within_bounds() -> None:
    policy = RetryPolicy(max_retries=5, initial_delay=0.5, max_delay=4.0)
    for attempt, ceiling in enumerate([0.5, 1.0, 2.0, 4.0, 4.0, 4.0]):
        delays = [policy.backoff(attempt) for _ in range(300)]
        assert all(0 <= d <= ceiling for d in delays)
        assert max(delays) > ceiling * 0.8  # spread over the whole range
        assert min(delays) < ceiling * 0.2
    assert policy.delay(0, retry_after=2.5) == 2.5
    assert policy.delay(0, retry_after=61) is None
    with pytest.raises(ValueError, match="initial_delay"):
        RetryPolicy(initial_delay=2, max_delay=1)


def test_retry_after_parsing() -> None:
    assert parse_retry_after("3") == 3
    assert parse_retry_after(" 1.5 ") == 1.5
    assert parse_retry_after("-4") == 0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:10 GMT", now=1445412480) == 10
    assert parse_retry_after("soon") is None
    assert parse_retry_after(None) is None


async def test_interrupted_download_resumes_where_it_stopped(
    kind: str, proxy: FaultProxy, token: str, tmp_path: Path
) -> None:
    data = bytes(range(256)) * 4096  # 1 MiB
    client = make_client(kind, proxy.url, token, **FAST)
    uploaded = await run(client.files.upload(data, filename="one.bin"))
    proxy.fail(Fault("cut", after=300_000, match="GET /files/"))
    target = await run(client.files.download(uploaded.id, tmp_path / "one.bin"))
    assert target.read_bytes() == data
    sent = proxy.requests(f"GET /files/{uploaded.id}")  # not the upload's GET /files/limits
    assert [s.fault for s in sent] == ["cut", None]
    assert "range" not in sent[0].headers
    assert sent[1].headers["range"].startswith("bytes=")
    assert 0 < int(sent[1].headers["range"][6:-1]) <= 300_000

    proxy.fail(*[Fault("cut", after=1000, match="GET /files/") for _ in range(3)])
    with pytest.raises(errors.APIConnectionError):
        await run(client.files.download(uploaded.id, tmp_path / "never.bin"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.bin"]  # nothing partial left
    await close(client)
