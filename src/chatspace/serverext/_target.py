"""Which chatspace service the Jupyter server talks to, found once when the server starts.

A remote service is configured like the client (``CHATSPACE_BASE_URL`` and
``CHATSPACE_TOKEN`` in the server's environment). Without one, the embedded local service
is found or started (``chatspace.local.launcher.ensure_service``) in a background thread, so
the Jupyter server starts at once and its kernels, which look for the same service in the
same data dir, share it instead of each starting their own. The embedded service outlives
the Jupyter server on purpose: other servers and kernels of the machine may use it.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future

__all__ = ["ServiceTarget", "ServiceUnavailable"]

TokenProvider = Callable[[], str] | str | None


class ServiceUnavailable(RuntimeError):
    """The service could not be found or started; the message says why."""


class ServiceTarget:
    """The service's URL and credentials, resolved in the background."""

    def __init__(self) -> None:
        self._future: Future[tuple[str, TokenProvider]] = Future()
        self.where = "not resolved yet"

    @classmethod
    def from_environment(cls, log: logging.Logger | None = None) -> ServiceTarget:
        """A remote service when configured, else the embedded one (started in a thread)."""
        from chatspace.client import resolve_config
        from chatspace.errors import ConfigurationError

        target = cls()
        try:
            found = resolve_config(base_url=None, token=None, workspace=None, beta=False)
        except ConfigurationError as exc:
            target.where = "misconfigured service"
            target._future.set_exception(ServiceUnavailable(str(exc)))
            return target
        if found.base_url is not None:
            target.where = f"remote service {found.base_url} ({found.sources['base_url']})"
            target._future.set_result((found.base_url, found.token))
        else:
            target.where = "embedded local service (starting)"
            threading.Thread(
                target=target._start_embedded, args=(log,), name="chatspace-embedded", daemon=True
            ).start()
        return target

    @classmethod
    def fixed(cls, url: str, token: TokenProvider) -> ServiceTarget:
        """A target known up front (tests, or a server configured in code)."""
        target = cls()
        target.where = f"service {url}"
        target._future.set_result((url.rstrip("/"), token))
        return target

    def _start_embedded(self, log: logging.Logger | None) -> None:
        try:
            from chatspace.local.launcher import ensure_service

            url, provider, where = ensure_service()
        except Exception as exc:  # kept for the handlers, which answer 503 with it
            self.where = "embedded local service (failed to start)"
            if log is not None:
                log.warning("chatspace | embedded service did not start: %s", exc)
            self._future.set_exception(ServiceUnavailable(str(exc)))
            return
        self.where = f"embedded local service {url} ({where})"
        if log is not None:
            log.info("chatspace | using the %s", self.where)
        self._future.set_result((url.rstrip("/"), provider))

    def wait(self, timeout: float | None = None) -> str:
        """Block until resolved (tests); the service's URL."""
        return self._future.result(timeout)[0]

    async def resolve(self) -> tuple[str, str | None]:
        """The service's URL and the ``Authorization`` header value to send it."""
        try:
            url, token = await asyncio.wrap_future(self._future)
        except ServiceUnavailable:
            raise
        except Exception as exc:  # pragma: no cover - set_exception only sets the above
            raise ServiceUnavailable(str(exc)) from exc
        if callable(token):
            token = await asyncio.get_running_loop().run_in_executor(None, token)
        return url, (f"Bearer {token}" if token else None)
