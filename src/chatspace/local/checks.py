"""Asking a model server whether a connection to it works, before anyone relies on it.

``chatspace models add`` (through :func:`.connections.add_connection`) and the service's
``POST /models`` ask the same question the same way: one ``GET {url}/models`` tells
whether the server answers, accepts the key and serves the model. A failure is
:class:`BadConnection`, one line saying which part is wrong and what to do, and never
holding the key.
"""

from __future__ import annotations

import re

import httpx

from chatspace._wire import DEFAULT_MODEL
from chatspace.types import MODEL_NAME_PATTERN

__all__ = [
    "CHECK_TIMEOUT",
    "BadConnection",
    "check_connection",
    "check_name",
    "check_url",
    "model_ids",
]

_NAME = re.compile(MODEL_NAME_PATTERN)
RESERVED = frozenset({DEFAULT_MODEL})
CHECK_TIMEOUT = 10.0
"""Longest a check waits for the server's model list (a connection's timeout is for answers)."""
_LISTED = 20


class BadConnection(ValueError):
    """A connection that cannot be added or removed as asked; the message says why, and
    ``field`` which of its parts is at fault (``url``, ``key``, ``model`` or ``id``)."""

    def __init__(self, message: str, field: str = "url") -> None:
        super().__init__(message)
        self.field = field


def check_name(name: str) -> str:
    """A model name users can pick: letters, digits and ``._:/@+-``, at most 128."""
    if not _NAME.match(name):
        raise BadConnection(
            f"model name {name!r} must start with a letter or digit and hold only letters, "
            "digits and . _ : / @ + - (at most 128 characters)",
            "id",
        )
    if name in RESERVED:
        raise BadConnection(f"{name!r} is the built-in model; choose another name", "id")
    return name


def check_url(url: str) -> str:
    """An http(s) base URL, without its trailing slash."""
    if not re.match(r"^https?://[^\s/]+", url):
        raise BadConnection(f"--url {url!r} must start with http:// or https://")
    return url.rstrip("/")


def _their_words(response: httpx.Response, key: str | None) -> str:
    """The server's own error message, cut short, unless it repeats the key (or any
    part of it long enough to matter): left out then."""
    try:
        error = response.json().get("error")
        message = error.get("message") if isinstance(error, dict) else error
    except (ValueError, AttributeError):
        return ""
    if not isinstance(message, str):
        return ""
    message = " ".join(message.split())[:120]
    if key and any(key[i : i + 8] in message for i in range(max(1, len(key) - 7))):
        return ""
    return message


def check_connection(
    url: str, model: str, key: str | None, *, timeout: float = CHECK_TIMEOUT, adding: bool = True
) -> list[str]:
    """The ids the server at ``url`` serves, once it answered that it serves ``model``.

    One ``GET {url}/models`` tells the three things that make a connection work: the server
    answers, it accepts the key, and it lists the model. Anything else raises
    :class:`BadConnection` with one line saying which and what to do; the line never holds
    the key (the server's own error text is not quoted, as it may repeat the key).
    ``adding``: the line may point at ``--no-check`` where the server may just not be up.
    """
    url = check_url(url)
    unchecked = " (--no-check saves the model unchecked)" if adding else ""
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    try:
        with httpx.Client(timeout=timeout) as client:
            response = client.get(f"{url}/models", headers=headers)
    except httpx.TimeoutException:
        raise BadConnection(
            f"{url} did not list its models within {timeout:g} s: is it the server's "
            f"OpenAI-compatible base URL?{unchecked}"
        ) from None
    except httpx.HTTPError as exc:
        reason = " ".join(str(exc).split()) or type(exc).__name__
        raise BadConnection(
            f"{url} cannot be reached ({reason}): is the server running and the URL "
            f"right?{unchecked}"
        ) from None
    status = response.status_code
    if status in (401, 403):
        if key:
            raise BadConnection(f"{url} refused the key (HTTP {status}): check the key", "key")
        raise BadConnection(
            f"{url} asks for a key (HTTP {status}): give it with --key-env VAR "
            "(or --key-prompt in a notebook, --key-stdin in a shell)",
            "key",
        )
    if status == 404:
        raise BadConnection(
            f"{url}/models is not found (HTTP 404): an OpenAI-compatible base URL usually "
            f"ends in /v1{unchecked}"
        )
    if status >= 400:
        said = _their_words(response, key)
        raise BadConnection(
            f"{url} answered HTTP {status} when asked for its models"
            + (f": {said}" if said else "")
        )
    try:
        served = model_ids(response)
    except ValueError:
        raise BadConnection(
            f"{url} did not answer with a list of models: is it an OpenAI-compatible base URL?"
        ) from None
    if model not in served:
        listed = ", ".join(sorted(served)[:_LISTED]) or "none"
        more = f" and {len(served) - _LISTED} more" if len(served) > _LISTED else ""
        raise BadConnection(
            f"{url} does not serve a model {model!r}; it serves: {listed}{more} "
            "(name the server's model with --model)",
            "model",
        )
    return served


def model_ids(response: httpx.Response) -> list[str]:
    """The ids of an OpenAI-compatible ``GET /models`` answer; ``ValueError`` when it is
    not a list of models."""
    body = response.json()
    data = body.get("data") if isinstance(body, dict) else None
    if not isinstance(data, list):
        raise ValueError("its /models answer has no list of models")
    return [str(m["id"]) for m in data if isinstance(m, dict) and m.get("id")]
