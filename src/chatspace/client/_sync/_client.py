# Generated from _async/_client.py by scripts/unasync_client.py; do not edit.
"""The client proper: drives the shared request cycle (``BaseClient._flow``) with httpx."""

from __future__ import annotations

import time
from pathlib import Path
from types import TracebackType
from typing import Any, Self, TypeVar

import httpx

from chatspace.client._base import DEFAULT_HEADERS, DEFAULT_TIMEOUT, BaseClient
from chatspace.client._call import Call
from chatspace.client._errors import connection_error
from chatspace.client._pagination import Pager
from chatspace.client._transfer import Download

from ._pagination import SyncPage
from .resources import Chat, Files, Models, Workspaces

__all__ = ["Client"]

R = TypeVar("R")
T = TypeVar("T")


class Client(BaseClient[httpx.Client]):
    """The chatspace client.

    >>> with Client() as client:  # no base URL anywhere: the embedded service
    ...     answer = client.chat.create(messages=[{"role": "user", "content": "Hi"}])
    ...     print(answer.text)
    ...     for completion in client.chat.list():
    ...         print(completion.id)

    Settings come from the arguments, then ``CHATSPACE_BASE_URL``,
    ``CHATSPACE_BETA_BASE_URL`` (with ``beta=True``), ``CHATSPACE_TOKEN`` and
    ``CHATSPACE_WORKSPACE``; ``client.config`` shows them and where each came from.
    ``token`` may be a callable, asked again once after a 401.
    """

    chat: Chat
    files: Files
    models: Models
    workspaces: Workspaces
    _http_class = httpx.Client

    def _make_http(self) -> httpx.Client:
        return httpx.Client(timeout=DEFAULT_TIMEOUT, headers=DEFAULT_HEADERS)

    def _bind_resources(self) -> None:
        self.chat = Chat(self)
        self.files = Files(self)
        self.models = Models(self)
        self.workspaces = Workspaces(self)

    # ------------------------------------------------------------------ driving

    def _send(self, call: Call[Any]) -> httpx.Response:
        """The final answer to ``call``, after the retries the request cycle asks for."""
        flow = self._flow(call)
        action = next(flow)
        while True:
            if isinstance(action, float):
                time.sleep(action)
                action = flow.send(None)
                continue
            try:
                response = self._http.send(action, stream=call.stream)
                if call.stream and response.status_code >= 400:
                    response.read()
            except httpx.TransportError as exc:
                action = flow.throw(exc)
                continue
            try:
                action = flow.send(response)
            except StopIteration as done:
                final: httpx.Response = done.value
                return final

    def _request(self, call: Call[R]) -> R:
        """Send a call and return its parsed answer."""
        try:
            response = self._send(call)
            return call.parse(response.content)
        finally:
            if call.upload is not None:
                call.upload.close()

    def _page(self, pager: Pager[T], call: Call[Any]) -> SyncPage[T]:
        # The sync client fetches the first page here, so that errors surface at the call;
        # an async page waits until it is awaited or iterated.
        return SyncPage(self, pager, call)._fetch()

    def _download(self, call: Call[Any], download: Download) -> Path:
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
