"""What :class:`Client` and :class:`AsyncClient` share: settings, requests, retries.

The request cycle is a generator (:meth:`BaseClient._flow`) that yields what to do next
(an ``httpx.Request`` to send, or a number of seconds to wait) and receives the answer.
The two clients only drive it, one with blocking calls and one with ``await``, so the
retry, token-refresh and error rules exist once. The async client is the source
(``_async/``); ``scripts/unasync_client.py`` generates the sync one (``_sync/``) from it.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Generator
from dataclasses import replace
from typing import Any, Generic, Self, TypeVar

import httpx

from chatspace._version import __version__

from ._auth import TokenAuth, install_log_redaction
from ._call import Call
from ._config import ClientConfig, TokenSource, mask, resolve_config
from ._errors import connection_error, status_error
from ._retry import RETRY_STATUSES, RetryPolicy, parse_retry_after

__all__ = ["DEFAULT_HEADERS", "DEFAULT_TIMEOUT", "NOT_GIVEN", "BaseClient", "Flow"]

log = logging.getLogger("chatspace.client")

DEFAULT_TIMEOUT = httpx.Timeout(60.0, connect=10.0)
"""Generous reads (an upstream model may think for a while), quick failure to connect."""

IDEMPOTENCY_HEADER = "Idempotency-Key"
DEFAULT_HEADERS = {"User-Agent": f"chatspace-python/{__version__}", "Accept": "application/json"}
_JSON = "application/json"


class _NotGiven:
    """Tells an argument left out from one given as None."""

    def __repr__(self) -> str:
        return "NOT_GIVEN"

    def __bool__(self) -> bool:
        return False


NOT_GIVEN: Any = _NotGiven()

Flow = Generator[httpx.Request | float, httpx.Response | None, httpx.Response]
"""Yields a request to send or seconds to wait; receives the answer; returns the final one."""

H = TypeVar("H", httpx.Client, httpx.AsyncClient)


class BaseClient(Generic[H]):
    """Settings, request building and the retry cycle; no I/O (``H``: the httpx client)."""

    _http_class: type[H]
    _http: H

    def __init__(
        self,
        base_url: str | None = None,
        *,
        token: TokenSource | None = None,
        workspace: str | None = None,
        beta: bool = False,
        timeout: float | httpx.Timeout | None = NOT_GIVEN,
        max_retries: int = 2,
        initial_retry_delay: float = 0.5,
        max_retry_delay: float = 8.0,
        http_client: Any = None,
    ) -> None:
        """Resolve the settings once; nothing is sent until the first call.

        ``base_url``, ``token`` and ``workspace`` fall back to ``CHATSPACE_BASE_URL``
        (``CHATSPACE_BETA_BASE_URL`` with ``beta=True``), ``CHATSPACE_TOKEN`` and
        ``CHATSPACE_WORKSPACE``; with no base URL anywhere the embedded local service is
        found or started (this blocks for a second or two the first time on a machine).
        ``token`` may be a callable returning a token, asked again once after a 401.
        ``timeout`` is in seconds (or an ``httpx.Timeout``); failed requests are retried
        ``max_retries`` times with full-jitter backoff between ``initial_retry_delay`` and
        ``max_retry_delay`` seconds. ``http_client`` (an ``httpx.Client`` or
        ``httpx.AsyncClient``) is used as given, and not closed by :meth:`close`.
        """
        found = resolve_config(base_url=base_url, token=token, workspace=workspace, beta=beta)
        url, source, sources = found.base_url, found.token, dict(found.sources)
        where = None
        if url is None:
            from chatspace.local.launcher import ensure_service

            url, provider, where = ensure_service()
            sources["base_url"] = f"embedded local service ({where})"
            if source is None:
                source = provider
        install_log_redaction(source if isinstance(source, str) else None)
        self._auth = TokenAuth(source)
        self._base_url = url
        self._workspace = found.workspace
        self._retry = RetryPolicy(max_retries, initial_retry_delay, max_retry_delay)
        # What the service said of itself (its upload limit), asked once; shared with the
        # clients with_options derives, which talk to the same service.
        self._learned: dict[str, Any] = {}
        self._timeout: httpx.Timeout | httpx._client.UseClientDefault
        if timeout is NOT_GIVEN:
            self._timeout = httpx.USE_CLIENT_DEFAULT
            shown_timeout = None if http_client is not None else DEFAULT_TIMEOUT.read
        else:
            self._timeout = httpx.Timeout(timeout)
            shown_timeout = self._timeout.read
        given = http_client
        if given is not None and not isinstance(given, self._http_class):
            raise TypeError(
                f"{type(self).__name__} needs an {self._http_class.__module__}."
                f"{self._http_class.__name__} as http_client, not {type(given).__name__}"
            )
        self._owns_http = given is None
        self._http = given if given is not None else self._make_http()
        self.config = ClientConfig(
            base_url=url,
            workspace=found.workspace,
            token=mask(source),
            beta=beta,
            timeout=shown_timeout,
            max_retries=max_retries,
            sources=sources,
            embedded_data_dir=where,
        )
        self._bind_resources()

    # ------------------------------------------------------------------ set-up

    def _make_http(self) -> H:  # pragma: no cover - each client makes its own
        raise NotImplementedError

    def _bind_resources(self) -> None:  # pragma: no cover - each client has its own
        raise NotImplementedError

    @property
    def base_url(self) -> str:
        return self._base_url

    @property
    def workspace(self) -> str:
        """The workspace every call uses unless given ``workspace=``."""
        return self._workspace

    @property
    def max_retries(self) -> int:
        return self._retry.max_retries

    def __repr__(self) -> str:
        return f"<{type(self).__name__} base_url={self._base_url!r} workspace={self._workspace!r}>"

    def with_options(
        self,
        *,
        workspace: str | None = None,
        token: TokenSource | None = None,
        timeout: float | httpx.Timeout | None = NOT_GIVEN,
        max_retries: int | None = None,
        initial_retry_delay: float | None = None,
        max_retry_delay: float | None = None,
    ) -> Self:
        """A client with some settings changed that shares this one's connection pool.

        >>> reader = client.with_options(workspace="research", max_retries=0)

        Closing the derived client leaves the pool open; closing the original closes it.
        """
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new._owns_http = False
        sources = dict(self.config.sources)
        changes: dict[str, Any] = {}
        if workspace is not None:
            new._workspace = workspace
            changes["workspace"], sources["workspace"] = workspace, "with_options"
        if token is not None:
            new._auth = TokenAuth(token)
            install_log_redaction(token if isinstance(token, str) else None)
            changes["token"], sources["token"] = mask(token), "with_options"
        if timeout is not NOT_GIVEN:
            new._timeout = httpx.Timeout(timeout)
            changes["timeout"] = new._timeout.read
        retry = self._retry
        new._retry = RetryPolicy(
            retry.max_retries if max_retries is None else max_retries,
            retry.initial_delay if initial_retry_delay is None else initial_retry_delay,
            retry.max_delay if max_retry_delay is None else max_retry_delay,
            retry.max_retry_after,
        )
        changes["max_retries"] = new._retry.max_retries
        new.config = replace(self.config, sources=sources, **changes)
        new._bind_resources()
        return new

    # ------------------------------------------------------------------ requests

    def _build(self, call: Call[Any], idempotency_key: str | None) -> httpx.Request:
        headers: dict[str, str] = {}
        auth = self._auth.header()
        if auth is not None:
            headers["Authorization"] = auth
        if idempotency_key is not None:
            headers[IDEMPOTENCY_HEADER] = idempotency_key
        if call.content is not None:
            headers["Content-Type"] = _JSON
        if call.headers:
            headers.update(call.headers)
        upload = call.upload
        return self._http.build_request(
            call.method,
            self._base_url + call.path,
            params=call.params,
            content=call.content,
            data=upload.fields if upload is not None else None,
            files=upload.parts() if upload is not None else None,
            headers=headers,
            timeout=self._timeout,
        )

    def _flow(self, call: Call[Any]) -> Flow:
        """The request cycle: send, refresh the token once on a 401, retry what may be."""
        key = uuid.uuid4().hex if call.create else None
        attempt = 0
        refreshed = False
        while True:
            if call.upload is not None:
                call.upload.rewind()
            request = self._build(call, key)
            delay: float | None = None
            try:
                response = yield request
            except httpx.TransportError as exc:
                error = connection_error(exc, request)
                delay = self._retry_delay(call, attempt, None)
                if delay is None:
                    raise error from exc
                log.info("Retrying %s in %.2f s after: %s", _what(request), delay, error)
            if delay is not None:
                yield delay
                attempt += 1
                continue
            assert response is not None
            status = response.status_code
            if status < 400:
                return response
            if status == 401 and self._auth.refreshable and not refreshed and call.replayable:
                refreshed = True
                self._auth.refresh()
                log.info("Refreshed the token after a 401 on %s", _what(request))
                continue
            if status in RETRY_STATUSES:
                retry_after = parse_retry_after(response.headers.get("retry-after"))
                delay = self._retry_delay(call, attempt, retry_after)
                if delay is not None:
                    log.info(
                        "Retrying %s in %.2f s after %d (retry %d of %d)",
                        _what(request),
                        delay,
                        status,
                        attempt + 1,
                        self._retry.max_retries,
                    )
                    yield delay
                    attempt += 1
                    continue
            raise status_error(response)

    def _retry_delay(
        self, call: Call[Any], attempt: int, retry_after: float | None
    ) -> float | None:
        if attempt >= self._retry.max_retries or not call.replayable:
            return None
        return self._retry.delay(attempt, retry_after)


def _what(request: httpx.Request) -> str:
    return f"{request.method} {request.url.path}"
