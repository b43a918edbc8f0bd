"""Every error class, raised by a real answer of the service (or of the fault proxy)."""

from __future__ import annotations

import io
import pickle
import re
import socket
import traceback
from collections.abc import Iterator
from pathlib import Path

import pytest

from chatspace import errors
from support.clients import AnyClient, close, collect, make_client, run
from support.fault_proxy import Fault, FaultProxy
from support.service import Service, running_service, start_service

pytestmark = pytest.mark.anyio

MIB = 1024 * 1024


@pytest.fixture(scope="module")
def strict_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    """A service with a 1 MB upload limit and 3 requests per minute."""
    data = tmp_path_factory.mktemp("strict-service")
    with running_service(data, "--max-upload-mb", "1", "--rate-limit-per-minute", "3") as svc:
        yield svc


def _check(
    error: errors.APIStatusError, cls: type, status: int, token: str, *, real: bool = True
) -> None:
    assert type(error) is cls
    assert error.status_code == status
    if real:  # the service names every answer with x-request-id; the client keeps it
        assert re.fullmatch(r"req_[0-9a-f]{24}", error.request_id or "")
    text = str(error)
    assert text.startswith(f"{status} ")
    assert "\n" not in text
    assert token not in text
    assert token not in repr(error)
    assert token not in "".join(traceback.format_exception(error))
    clone = pickle.loads(pickle.dumps(error))  # noqa: S301 - our own bytes
    assert type(clone) is cls
    assert str(clone) == text
    assert (clone.status_code, clone.detail, clone.request_id, clone.retry_after) == (
        error.status_code,
        error.detail,
        error.request_id,
        error.retry_after,
    )
    assert token.encode() not in pickle.dumps(error)


async def test_401_bad_token(kind: str, service: Service) -> None:
    bad = service.token("alice", "acme")[:-4] + "AAAA"
    client = make_client(kind, service.url, bad)
    with pytest.raises(errors.AuthenticationError) as caught:
        await run(client.chat.list())
    _check(caught.value, errors.AuthenticationError, 401, bad)
    assert "Check the token" in str(caught.value)
    assert "GET http://127.0.0.1" in str(caught.value)
    await close(client)


async def test_403_reader_writing(kind: str, client: AnyClient, service: Service, org: str) -> None:
    await run(client.workspaces.create("readonly"))
    await run(client.workspaces.add_user("rita", "reader", workspace="readonly"))
    rita_token = service.token("rita", org)
    rita = make_client(kind, service.url, rita_token, workspace="readonly")
    with pytest.raises(errors.PermissionDeniedError) as caught:
        await run(rita.files.upload(b"x", filename="x.txt"))
    _check(caught.value, errors.PermissionDeniedError, 403, rita_token)
    assert isinstance(caught.value.detail, str)
    await close(rita)


async def test_404_and_409(client: AnyClient, token: str) -> None:
    with pytest.raises(errors.NotFoundError) as missing:
        await run(client.chat.get("chatcmpl-doesnotexist"))
    _check(missing.value, errors.NotFoundError, 404, token)
    assert "Check the id" in str(missing.value)
    await run(client.workspaces.create("twice"))
    with pytest.raises(errors.ConflictError) as conflict:
        await run(client.workspaces.create("twice"))
    _check(conflict.value, errors.ConflictError, 409, token)


async def test_422_reads_like_location_and_message(client: AnyClient, token: str) -> None:
    with pytest.raises(errors.UnprocessableEntityError) as caught:
        await run(client.chat.create(messages=[{"role": "user"}]))
    error = caught.value
    _check(error, errors.UnprocessableEntityError, 422, token)
    assert str(error) == "422 body.messages.0.content: Field required"
    assert error.detail == [
        {"loc": ["body", "messages", 0, "content"], "msg": "Field required", "type": "missing"}
    ]
    with pytest.raises(errors.UnprocessableEntityError) as bounds:
        await run(client.chat.create(messages="Hi", temperature=3))
    assert str(bounds.value).startswith("422 body.temperature: ")


class _Unsized(io.BytesIO):
    """A source whose size is not known before it is sent, like a pipe."""

    def seekable(self) -> bool:
        return False


async def test_413_upload_over_the_limit(kind: str, strict_service: Service, org: str) -> None:
    """A source of unknown size is sent, and the service answers 413 as its bytes arrive."""
    token = strict_service.token("alice", org)
    client = make_client(kind, strict_service.url, token, max_retries=0)
    with pytest.raises(errors.RequestTooLargeError) as caught:
        await run(client.files.upload(_Unsized(b"\0" * (2 * MIB)), filename="big.bin"))
    _check(caught.value, errors.RequestTooLargeError, 413, token)
    assert "over the upload limit of 1 MiB" in str(caught.value)
    await close(client)


async def test_413_a_file_over_the_limit_is_refused_before_it_is_sent(
    kind: str, small_limit: Service, org: str, tmp_path: Path
) -> None:
    """The client asks the limit once (GET /files/limits), again before it refuses (the
    operator may have raised it), and sends nothing of an upload with a file over it: no
    request, no progress, nothing stored."""
    token = small_limit.token("alice", org)
    (tmp_path / "small.txt").write_bytes(b"small")
    big = tmp_path / "big.bin"
    big.write_bytes(b"\0" * (2 * MIB))
    progressed: list[int] = []
    with FaultProxy(small_limit.url) as proxy:
        client = make_client(kind, proxy.url, token, max_retries=0)
        with pytest.raises(errors.RequestTooLargeError) as caught:
            await run(
                client.files.upload(
                    [tmp_path / "small.txt", big], progress=lambda done, _: progressed.append(done)
                )
            )
        _check(caught.value, errors.RequestTooLargeError, 413, token, real=False)
        assert str(caught.value) == (
            "413 File 'big.bin' is 2 MiB, over the service's upload limit of 1 MiB; nothing"
            " was sent. Send less: split the upload, or ask the operator to raise the"
            " service's limit."
        )
        assert (proxy.requests("POST"), progressed) == ([], [])
        assert await collect(client.files.list()) == []
        exactly = await run(client.files.upload(b"\0" * MIB, filename="exactly.bin"))
        assert exactly.bytes == MIB
        assert len(proxy.requests("POST /files")) == 1
        assert len(proxy.requests("GET /files/limits")) == 2  # at first, and to refuse
        await close(client)


async def test_a_service_that_does_not_state_its_limit_answers_413_itself(
    kind: str, small_limit: Service, org: str
) -> None:
    """A service of the original interface has no GET /files/limits (404): the upload goes."""
    token = small_limit.token("alice", org)
    with FaultProxy(small_limit.url) as proxy:
        proxy.fail(Fault("status", 404, match="GET /files/limits"))
        client = make_client(kind, proxy.url, token, max_retries=0)
        with pytest.raises(errors.RequestTooLargeError) as caught:
            await run(client.files.upload(b"\0" * (2 * MIB), filename="big.bin"))
        _check(caught.value, errors.RequestTooLargeError, 413, token)
        assert "over the upload limit of 1 MiB" in str(caught.value)  # the service's words
        assert len(proxy.requests("POST /files")) == 1
        await close(client)


def test_a_raised_limit_is_asked_again_before_refusing(org: str, tmp_path: Path) -> None:
    """The operator raised the limit, as the refusal suggests: the same client now sends."""
    big = b"\0" * (2 * MIB)
    with running_service(tmp_path, "--max-upload-mb", "1") as before:
        client = make_client("sync", before.url, before.token("alice", org), max_retries=0)
        with pytest.raises(errors.RequestTooLargeError):
            client.files.upload(big, filename="big.bin")
    port = int(before.url.rsplit(":", 1)[1])
    after = start_service(tmp_path, "--max-upload-mb", "3", port=port)
    try:
        assert client.files.upload(big, filename="big.bin").bytes == 2 * MIB
    finally:
        client.close()
        after.stop()


async def test_429_rate_limited_with_retry_after(
    kind: str, strict_service: Service, org: str
) -> None:
    token = strict_service.token("rate", org)
    client = make_client(kind, strict_service.url, token, max_retries=0)
    for _ in range(3):  # the limit: 3 per minute
        await run(client.workspaces.get())
    with pytest.raises(errors.RateLimitError) as caught:
        await run(client.workspaces.get())
    _check(caught.value, errors.RateLimitError, 429, token)
    assert caught.value.retry_after is not None
    assert 0 < caught.value.retry_after <= 60
    await close(client)


@pytest.mark.parametrize(
    ("status", "cls"),
    [
        (400, errors.BadRequestError),
        (500, errors.ServerError),
        (502, errors.ServerError),
        (503, errors.ServerError),
        (418, errors.APIStatusError),
    ],
)
async def test_other_statuses_via_the_proxy(
    kind: str, proxy: FaultProxy, token: str, status: int, cls: type
) -> None:
    proxy.fail(Fault("status", status, headers={"x-request-id": "req_123"}, detail="Broken."))
    client = make_client(kind, proxy.url, token, max_retries=0)
    with pytest.raises(errors.APIStatusError) as caught:
        await run(client.workspaces.get())
    _check(caught.value, cls, status, token, real=False)
    assert caught.value.request_id == "req_123"
    assert caught.value.detail == "Broken."
    await close(client)


async def test_connection_refused(kind: str, token: str) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    client = make_client(kind, f"http://127.0.0.1:{port}", token, max_retries=0)
    with pytest.raises(errors.APIConnectionError) as caught:
        await run(client.workspaces.get())
    assert type(caught.value) is errors.APIConnectionError
    assert "Check that the service is running" in str(caught.value)
    assert caught.value.url == f"http://127.0.0.1:{port}/workspaces/default"
    clone = pickle.loads(pickle.dumps(caught.value))  # noqa: S301 - our own bytes
    assert (str(clone), clone.url) == (str(caught.value), caught.value.url)
    await close(client)


async def test_timeout(kind: str, proxy: FaultProxy, token: str) -> None:
    proxy.fail(Fault("hang"))
    client = make_client(kind, proxy.url, token, max_retries=0, timeout=0.3)
    with pytest.raises(errors.APITimeoutError) as caught:
        await run(client.workspaces.get())
    assert "timed out" in str(caught.value)
    clone = pickle.loads(pickle.dumps(caught.value))  # noqa: S301 - our own bytes
    assert isinstance(clone, errors.APITimeoutError)
    await close(client)


def test_configuration_errors_say_what_to_do(monkeypatch: pytest.MonkeyPatch) -> None:
    from chatspace.client import Client

    monkeypatch.delenv("CHATSPACE_BETA_BASE_URL", raising=False)
    with pytest.raises(errors.ConfigurationError, match="set CHATSPACE_BETA_BASE_URL"):
        Client(beta=True)
    with pytest.raises(errors.ConfigurationError, match="must start with http"):
        Client("localhost:8000", token="t")


def test_the_422_error_has_one_name() -> None:
    """``ValidationError`` would shadow pydantic's: the 422 is ``UnprocessableEntityError``."""
    import chatspace

    with pytest.raises(AttributeError):
        errors.ValidationError  # noqa: B018
    with pytest.raises(AttributeError):
        chatspace.ValidationError  # noqa: B018
    assert "ValidationError" not in errors.__all__
    with pytest.raises(AttributeError):
        errors.NoSuchError  # noqa: B018
