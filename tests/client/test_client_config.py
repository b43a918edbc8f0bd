"""Settings: arguments, then CHATSPACE_* environment, then defaults.

The order is docs/interface.md#configuration.
"""

from __future__ import annotations

import httpx
import pytest

from chatspace.client import AsyncClient, Client, ClientConfig, resolve_config
from chatspace.errors import ConfigurationError, NotFoundError
from support.clients import close, make_client, run
from support.service import Service

pytestmark = pytest.mark.anyio


def test_arguments_win_over_environment() -> None:
    env = {
        "CHATSPACE_BASE_URL": "http://env:1",
        "CHATSPACE_TOKEN": "env-token",
        "CHATSPACE_WORKSPACE": "envws",
    }
    found = resolve_config(
        base_url="http://arg:2/", token="arg", workspace="argws", beta=False, environ=env
    )
    assert (found.base_url, found.token, found.workspace) == ("http://arg:2", "arg", "argws")
    assert found.sources == {"base_url": "argument", "token": "argument", "workspace": "argument"}

    found = resolve_config(base_url=None, token=None, workspace=None, beta=False, environ=env)
    assert (found.base_url, found.token, found.workspace) == ("http://env:1", "env-token", "envws")
    assert found.sources == {
        "base_url": "environment (CHATSPACE_BASE_URL)",
        "token": "environment (CHATSPACE_TOKEN)",
        "workspace": "environment (CHATSPACE_WORKSPACE)",
    }


def test_defaults_and_the_embedded_service() -> None:
    found = resolve_config(base_url=None, token=None, workspace=None, beta=False, environ={})
    assert found.base_url is None  # the embedded local service
    assert found.token is None
    assert found.workspace == "default"
    assert found.sources == {
        "base_url": "embedded local service",
        "token": "embedded local service",
        "workspace": "default",
    }
    remote = resolve_config(
        base_url="https://x", token=None, workspace=None, beta=False, environ={}
    )
    assert remote.sources["token"] == "none"


def test_beta_picks_the_beta_address() -> None:
    env = {"CHATSPACE_BASE_URL": "http://prod", "CHATSPACE_BETA_BASE_URL": "http://beta"}
    found = resolve_config(base_url=None, token=None, workspace=None, beta=True, environ=env)
    assert found.base_url == "http://beta"
    assert found.sources["base_url"] == "environment (CHATSPACE_BETA_BASE_URL)"
    explicit = resolve_config(
        base_url="http://mine", token=None, workspace=None, beta=True, environ=env
    )
    assert explicit.base_url == "http://mine"
    with pytest.raises(ConfigurationError, match="CHATSPACE_BETA_BASE_URL"):
        resolve_config(base_url=None, token=None, workspace=None, beta=True, environ={"x": "y"})


async def test_clients_read_the_environment(
    kind: str, service: Service, org: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CHATSPACE_BASE_URL", service.url)
    monkeypatch.setenv("CHATSPACE_TOKEN", service.token("alice", org))
    monkeypatch.setenv("CHATSPACE_WORKSPACE", "envws")
    client = Client() if kind == "sync" else AsyncClient()
    assert client.base_url == service.url
    assert client.workspace == "envws"
    assert client.config.sources["token"] == "environment (CHATSPACE_TOKEN)"
    with pytest.raises(NotFoundError):
        await run(client.workspaces.get())  # envws does not exist: the env was used
    await close(client)


async def test_config_shows_values_and_origins(kind: str, service: Service, token: str) -> None:
    client = make_client(kind, service.url, token, workspace="w1", max_retries=5, timeout=12)
    config = client.config
    assert isinstance(config, ClientConfig)
    assert (config.base_url, config.workspace, config.max_retries, config.timeout) == (
        service.url,
        "w1",
        5,
        12,
    )
    assert config.beta is False
    derived = client.with_options(workspace="w2", max_retries=0, timeout=3)
    assert (derived.config.workspace, derived.config.max_retries, derived.config.timeout) == (
        "w2",
        0,
        3,
    )
    assert derived.config.sources["workspace"] == "with_options"
    assert client.config.workspace == "w1"  # the original is unchanged
    await close(client)


async def test_with_options_shares_the_pool(kind: str, service: Service, token: str) -> None:
    client = make_client(kind, service.url, token)
    derived = client.with_options(workspace="default", max_retries=0)
    assert derived._http is client._http
    await run(derived.workspaces.get())
    await close(derived)  # does not close the shared pool
    assert (await run(client.workspaces.get())).id == "default"
    await close(client)
    assert client._http.is_closed


async def test_given_http_client_is_not_closed(kind: str, service: Service, token: str) -> None:
    http = httpx.Client() if kind == "sync" else httpx.AsyncClient()
    client = make_client(kind, service.url, token, http_client=http)
    assert client.config.timeout is None  # the given client's own timeout applies
    await run(client.workspaces.get())
    await close(client)
    assert not http.is_closed
    await run(http.close() if kind == "sync" else http.aclose())


async def test_context_managers_close(service: Service, token: str) -> None:
    with Client(service.url, token=token) as client:
        assert client.workspaces.get().id == "default"
    assert client._http.is_closed
    async with AsyncClient(service.url, token=token) as aclient:
        assert (await aclient.workspaces.get()).id == "default"
    assert aclient._http.is_closed


def test_http_client_of_the_wrong_kind_is_refused(service: Service, token: str) -> None:
    with pytest.raises(TypeError, match=r"Client needs an httpx.Client"):
        Client(service.url, token=token, http_client=httpx.AsyncClient())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"AsyncClient needs an httpx.AsyncClient"):
        AsyncClient(service.url, token=token, http_client=httpx.Client())
