"""The blocking client: drives the shared request cycle with ``httpx.Client``."""

from __future__ import annotations

import time
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import httpx

from ._base import DEFAULT_HEADERS, DEFAULT_TIMEOUT, BaseClient, Flow
from ._call import Call
from ._errors import connection_error
from ._pagination import Pager, SyncPage
from ._streaming import ChatStream
from ._transfer import Download

__all__ = ["Client"]


class Client(BaseClient):
    """The chatspace client.

    >>> from chatspace import Client
    >>> with Client() as client:  # no base URL anywhere: the embedded local service
    ...     answer = client.chat.create(messages=[{"role": "user", "content": "Hello"}])
    ...     print(answer.text)

    Settings come from the arguments, then ``CHATSPACE_BASE_URL``,
    ``CHATSPACE_BETA_BASE_URL`` (with ``beta=True``), ``CHATSPACE_TOKEN`` and
    ``CHATSPACE_WORKSPACE``; ``client.config`` shows them and where each came from.
    ``token`` may be a callable, asked again once after a 401.
    """

    _http: httpx.Client
    _http_class = httpx.Client

    def _make_http(self) -> httpx.Client:
        return httpx.Client(timeout=DEFAULT_TIMEOUT, headers=DEFAULT_HEADERS)

    # ------------------------------------------------------------------ driving

    def _send(self, call: Call) -> httpx.Response:
        flow: Flow = self._flow(call)
        action = next(flow)
        http = self._http
        while True:
            if isinstance(action, float):
                time.sleep(action)
                action = flow.send(None)
                continue
            try:
                response = http.send(action, stream=call.stream)
                if call.stream and response.status_code >= 400:
                    response.read()
            except httpx.TransportError as exc:
                action = flow.throw(exc)
                continue
            try:
                action = flow.send(response)
            except StopIteration as done:
                return done.value

    def _request(self, call: Call) -> Any:
        """Send a call and return its parsed answer (following ``then``)."""
        upload = call.upload
        try:
            while isinstance(value := self._result(call, self._send(call)), Call):
                call = value
            return value
        finally:
            if upload is not None:
                upload.close()

    def _open_stream(self, call: Call) -> ChatStream:
        stream = ChatStream(self, call)
        stream.open()
        return stream

    def _stream(self, call: Call) -> ChatStream:
        return ChatStream(self, call)

    def _page(self, pager: Pager[Any], call: Call) -> SyncPage[Any]:
        return SyncPage(self, pager, call, self._request(call))

    def _download(self, call: Call, download: Download) -> Path:
        while True:
            response = self._send(call)
            try:
                download.start(response)
                for chunk in response.iter_bytes():
                    download.write(chunk)
            except httpx.TransportError as exc:
                following = download.resume(call, self._retry.max_retries)
                if following is None:
                    download.abort()
                    raise connection_error(exc, response.request) from exc
                call = following
                continue
            except BaseException:
                download.abort()
                raise
            finally:
                response.close()
            return download.commit()

    # ------------------------------------------------------------------ lifetime

    def close(self) -> None:
        """Close the connection pool (unless it was given, or shared by ``with_options``)."""
        if self._owns_http:
            self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
