"""The bearer token: kept out of reprs and logs, refreshed once after a 401.

A callable token provider is called on first use and again after a 401, so that a
short-lived token (the embedded service's, or one from a company login) renews itself
without the caller noticing.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable

from ._config import TokenSource

__all__ = ["REDACTED", "TokenAuth", "install_log_redaction"]

REDACTED = "[redacted]"
_MIN_SECRET = 8
"""Shorter "tokens" (test values like ``"t"``) are not searched for in log text: they
would blot out every matching letter. ``Bearer <token>`` is redacted whatever its length."""
_BEARER = re.compile(r"(?i)(bearer\s+)[A-Za-z0-9\-._~+/]+=*")
# Loggers that see requests: records logged straight to them pass our filter.
_LOGGERS = (
    "chatspace",
    "chatspace.client",
    "httpx",
    "httpcore",
    "httpcore.connection",
    "httpcore.http11",
    "httpcore.http2",
    "httpcore.proxy",
)
_installed = False
_install_lock = threading.Lock()


class TokenAuth:
    """Holds the token and builds the ``Authorization`` header value once per token."""

    __slots__ = ("_header", "_lock", "_source")

    def __init__(self, source: TokenSource | None) -> None:
        self._source = source
        self._header: str | None = None
        self._lock = threading.Lock()
        if isinstance(source, str):
            self._header = f"Bearer {source}"

    def __repr__(self) -> str:
        return "TokenAuth(<hidden>)"

    @property
    def refreshable(self) -> bool:
        return callable(self._source)

    def header(self) -> str | None:
        """The ``Authorization`` value, calling a provider only the first time."""
        if self._header is None and callable(self._source):
            self.refresh()
        return self._header

    def refresh(self) -> None:
        """Ask the provider for a new token (after a 401)."""
        source = self._source
        if not callable(source):
            return
        with self._lock:
            token = _call(source)
            self._header = f"Bearer {token}"
            _remember(token)


def _remember(token: str) -> None:
    if len(token) >= _MIN_SECRET:
        _Redactor.secrets.add(token)


def _call(provider: Callable[[], str]) -> str:
    token = provider()
    if not isinstance(token, str) or not token:
        raise TypeError("the token provider must return a non-empty string")
    return token


class _Redactor(logging.Filter):
    """Replaces bearer tokens in a record's message and arguments."""

    secrets: set[str] = set()  # noqa: RUF012 - provider tokens seen, shared on purpose

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = _scrub(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_scrub(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _scrub(v) for k, v in record.args.items()}
        return True


def _scrub(value: object) -> object:
    if isinstance(value, bytes):
        text = value.decode("latin-1")
        cleaned = _scrub(text)
        return cleaned.encode("latin-1") if isinstance(cleaned, str) else value
    if not isinstance(value, str):
        if isinstance(value, (int, float, type(None))):
            return value
        as_text = str(value)
        cleaned_text = _scrub(as_text)
        return value if cleaned_text == as_text else cleaned_text
    value = _BEARER.sub(lambda m: m.group(1) + REDACTED, value)
    for secret in _Redactor.secrets:
        if secret in value:
            value = value.replace(secret, REDACTED)
    return value


def install_log_redaction(token: str | None = None) -> None:
    """Attach the redacting filter to the loggers of chatspace, httpx and httpcore (once)."""
    global _installed
    if token:
        _remember(token)
    if _installed:
        return
    with _install_lock:
        if not _installed:
            redactor = _Redactor()
            for name in _LOGGERS:
                logging.getLogger(name).addFilter(redactor)
            _installed = True
