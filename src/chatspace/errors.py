"""The one exception hierarchy of chatspace.

    ChatspaceError
    ├── ConfigurationError            bad client settings, no service reachable to start
    ├── APIConnectionError            the request never got an answer
    │   └── APITimeoutError
    ├── APIStreamError                the service reported an error inside a streamed answer
    └── APIStatusError                the service answered with an error status
        ├── BadRequestError           400
        ├── AuthenticationError       401
        ├── PermissionDeniedError     403
        ├── NotFoundError             404
        ├── ConflictError             409
        ├── RequestTooLargeError      413
        ├── UnprocessableEntityError  422, with the service's ``detail`` items
        ├── RateLimitError            429
        └── ServerError               5xx

Every message is one line that says what happened and what to do. Errors never carry
the request's headers, so the bearer token cannot leak through ``str()``, ``repr()``,
a traceback or a pickle.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "APIConnectionError",
    "APIStatusError",
    "APIStreamError",
    "APITimeoutError",
    "AuthenticationError",
    "BadRequestError",
    "ChatspaceError",
    "ConfigurationError",
    "ConflictError",
    "NotFoundError",
    "PermissionDeniedError",
    "RateLimitError",
    "RequestTooLargeError",
    "ServerError",
    "UnprocessableEntityError",
    "error_for_status",
]


class ChatspaceError(Exception):
    """Base of every error chatspace raises on purpose."""


class ConfigurationError(ChatspaceError):
    """The client settings are wrong or incomplete."""


class APIConnectionError(ChatspaceError):
    """The service could not be reached, or the connection broke before an answer.

    ``reason`` is what the network said (``[Errno 111] Connection refused``), without the
    request, for messages that must not show URLs (the notebook's).
    """

    def __init__(self, message: str, *, url: str | None = None, reason: str | None = None) -> None:
        super().__init__(message)
        self.url = url
        self.reason = reason

    def __reduce__(self) -> tuple[Any, ...]:
        state = {"url": self.url, "reason": self.reason}
        return (_rebuild, (type(self), (str(self),), state))


class APITimeoutError(APIConnectionError):
    """The service did not answer within the timeout."""


class APIStreamError(ChatspaceError):
    """A failure reported inside a streamed answer (docs/interface.md#streaming).

    ``error_type`` is the event's ``type``; the text received before the failure stays
    on the stream object (``stream.text``).
    """

    def __init__(self, message: str, *, error_type: str | None = None) -> None:
        super().__init__(message)
        self.error_type = error_type

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), (str(self),), {"error_type": self.error_type}))


class APIStatusError(ChatspaceError):
    """The service answered with an error status.

    ``detail`` is the body's ``detail``: a sentence, or for a 422 the list of items
    (each a dict with ``loc``, ``msg`` and ``type``). ``retry_after`` is the answer's
    ``Retry-After`` in seconds, when it had one.
    """

    status_code: int = 0
    hint: str = ""

    def __init__(
        self,
        detail: Any,
        *,
        status_code: int | None = None,
        request_id: str | None = None,
        method: str | None = None,
        url: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        if status_code is not None:
            self.status_code = status_code
        self.detail = detail
        self.request_id = request_id
        self.retry_after = retry_after
        self.method = method
        self.url = url
        super().__init__(self._message())

    def _message(self) -> str:
        text = self.detail if isinstance(self.detail, str) else str(self.detail)
        where = f" ({self.method} {self.url})" if self.method and self.url else ""
        hint = f" {self.hint}" if self.hint else ""
        return f"{self.status_code} {text.rstrip('.')}.{hint}{where}"

    def __reduce__(self) -> tuple[Any, ...]:
        state = {
            "status_code": self.status_code,
            "request_id": self.request_id,
            "method": self.method,
            "url": self.url,
            "retry_after": self.retry_after,
        }
        return (_rebuild, (type(self), (self.detail,), state))


class BadRequestError(APIStatusError):
    status_code = 400


class AuthenticationError(APIStatusError):
    status_code = 401
    hint = "Check the token (CHATSPACE_TOKEN or Client(token=...)); it may have expired."


class PermissionDeniedError(APIStatusError):
    status_code = 403
    hint = "Ask an admin of the workspace for a higher access level."


class NotFoundError(APIStatusError):
    status_code = 404
    hint = "Check the id and the workspace (workspace=...) it lives in."


class ConflictError(APIStatusError):
    status_code = 409


class RequestTooLargeError(APIStatusError):
    status_code = 413
    hint = "Send less: split the upload, or ask the operator to raise the service's limit."


class UnprocessableEntityError(APIStatusError):
    """A 422: ``detail`` is the list of ``{loc, msg, type}`` items of the answer.

    Named as the ``openai`` package names it, so that it does not shadow pydantic's
    ``ValidationError``.
    """

    status_code = 422

    def _message(self) -> str:
        if not isinstance(self.detail, list) or not self.detail:
            return super()._message()
        parts = []
        for item in self.detail:
            if isinstance(item, dict):
                loc = ".".join(str(p) for p in item.get("loc", ()))
                parts.append(f"{loc}: {item.get('msg', '')}" if loc else str(item.get("msg")))
            else:
                parts.append(str(item))
        return f"{self.status_code} " + "; ".join(parts)


class RateLimitError(APIStatusError):
    status_code = 429
    hint = "Wait and retry, or raise max_retries."


class ServerError(APIStatusError):
    status_code = 500
    hint = "The service failed; retry later, or check the service's log."


_BY_STATUS: dict[int, type[APIStatusError]] = {
    cls.status_code: cls
    for cls in (
        BadRequestError,
        AuthenticationError,
        PermissionDeniedError,
        NotFoundError,
        ConflictError,
        RequestTooLargeError,
        UnprocessableEntityError,
        RateLimitError,
    )
}


def error_for_status(status_code: int) -> type[APIStatusError]:
    """The exception class that stands for an HTTP error status."""
    if status_code >= 500:
        return ServerError
    return _BY_STATUS.get(status_code, APIStatusError)


def _rebuild(cls: type[Exception], args: tuple[Any, ...], state: dict[str, Any]) -> Exception:
    return cls(*args, **state)
