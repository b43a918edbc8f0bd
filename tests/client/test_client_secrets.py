"""The token never shows: reprs, the config, log records, errors, tracebacks, pickles."""

from __future__ import annotations

import logging
import pickle
import traceback

import pytest

from chatspace import errors
from chatspace.client import Client
from support.clients import AnyClient, close, collect, make_client, run
from support.fault_proxy import Fault, FaultProxy
from support.service import Service

pytestmark = pytest.mark.anyio


def _scan(token: str, *texts: str) -> None:
    for text in texts:
        assert token not in text
        assert token[-12:] not in text  # not even the signature's tail


async def test_repr_and_config_mask_the_token(client: AnyClient, token: str) -> None:
    config = client.config
    assert config.token == "****" + token[-4:]
    assert config.sources == {"base_url": "argument", "token": "argument", "workspace": "default"}
    _scan(token, repr(client), str(config), repr(config), repr(vars(client)), repr(client.chat))
    derived = client.with_options(workspace="other", token=token + "x")
    _scan(token, repr(derived), repr(derived.config))
    assert derived.config.sources["token"] == "with_options"


async def test_logs_at_debug_carry_no_token(
    client: AnyClient, token: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    await run(client.chat.create(messages="Hello"))
    await collect(client.chat.stream(messages="Hello"))
    await run(client.files.upload(b"abc", filename="a.txt"))
    names = {r.name for r in caplog.records}
    assert {"httpx", "httpcore.http11", "httpcore.connection"} <= names
    _scan(token, caplog.text, *(str(r.args) for r in caplog.records))

    # anything that does log a header (a verbose transport, a user's own logging) is redacted
    logging.getLogger("httpx").debug("sent %s", {"Authorization": f"Bearer {token}"})
    logging.getLogger("chatspace.client").warning("token was %s", token)
    _scan(token, caplog.text)
    assert "Bearer [redacted]" in caplog.text
    assert "token was [redacted]" in caplog.text


async def test_retry_logs_carry_no_token(
    kind: str, proxy: FaultProxy, token: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    proxy.fail(Fault("status", 503), Fault("reset"))
    client = make_client(kind, proxy.url, token, initial_retry_delay=0.01)
    await run(client.workspaces.get())
    retries = [r for r in caplog.records if r.name == "chatspace.client"]
    assert len(retries) == 2
    assert "Retrying GET /workspaces/default" in retries[0].getMessage()
    _scan(token, caplog.text)
    await close(client)


async def test_errors_of_real_answers_carry_no_token(
    kind: str, service: Service, proxy: FaultProxy, org: str
) -> None:
    token = service.token("alice", org)
    raised: list[BaseException] = []
    bad = make_client(kind, service.url, token[:-3] + "abc")
    with pytest.raises(errors.AuthenticationError) as unauthorized:
        await run(bad.workspaces.get())
    raised.append(unauthorized.value)
    good = make_client(kind, service.url, token)
    with pytest.raises(errors.UnprocessableEntityError) as invalid:
        await run(good.chat.create(messages=[{"role": "nobody", "content": "x"}]))
    raised.append(invalid.value)
    proxy.fail(Fault("status", 500))
    proxied = make_client(kind, proxy.url, token, max_retries=0)
    with pytest.raises(errors.ServerError) as failed:
        await run(proxied.chat.create(messages="x"))
    raised.append(failed.value)
    for error in raised:
        _scan(
            token,
            str(error),
            repr(error),
            "".join(traceback.format_exception(error)),
            repr(pickle.dumps(error)),
        )
    for c in (bad, good, proxied):
        await close(c)


def test_token_provider_is_never_called_for_repr(service: Service, org: str) -> None:
    calls = []

    def provider() -> str:
        calls.append(1)
        return service.token("alice", org)

    client = Client(service.url, token=provider)
    assert client.config.token == "<token provider>"
    repr(client)
    assert calls == []
    client.workspaces.get()
    assert calls == [1]
    client.close()


def test_a_very_short_token_does_not_blot_out_log_text(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    with Client(base_url="http://127.0.0.1:9", token="t", max_retries=0):
        logging.getLogger("chatspace.client").warning("the total is %s", "tested")
        logging.getLogger("httpx").warning("header %s", "Bearer t")
    assert "the total is tested" in caplog.text
    assert "header Bearer [redacted]" in caplog.text
