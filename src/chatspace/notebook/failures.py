"""A client error told in the notebook's words: what went wrong and what to do.

The client's messages are for programmers: they end with the request
(``(GET http://127.0.0.1:44897/files/...)``) and name Python arguments (``workspace=...``).
A line in a notebook or a panel names neither; the exception keeps ``method`` and ``url``
for whoever catches it.
"""

from __future__ import annotations

from chatspace.errors import (
    APIConnectionError,
    APIStatusError,
    APITimeoutError,
    ChatspaceError,
    UnprocessableEntityError,
)

__all__ = ["told"]

_HINTS = {
    401: "Check the token (CHATSPACE_TOKEN); it may have expired.",
    404: "Check the id, and the workspace (-w NAME, or %workspace) it lives in.",
    429: "Wait a moment and run it again.",
}
"""The client's hints where they speak Python; the others are plain words already."""

_WHICH = "%chat config shows which service and where its address comes from"


def told(error: ChatspaceError) -> str:
    """``error`` as one line without the request it came from."""
    if isinstance(error, UnprocessableEntityError):
        return str(error)  # the service's items, already without the request
    if isinstance(error, APIStatusError):
        detail = error.detail if isinstance(error.detail, str) else str(error.detail)
        hint = "" if _asked_of_nothing(error) else _HINTS.get(error.status_code, error.hint)
        return f"{error.status_code} {detail.rstrip('.')}." + (f" {hint}" if hint else "")
    if isinstance(error, APITimeoutError):
        return f"the chatspace service did not answer in time; run it again ({_WHICH})"
    if isinstance(error, APIConnectionError) and error.reason is not None:
        return (
            f"cannot reach the chatspace service ({error.reason.rstrip('.')}); check that it "
            f"runs ({_WHICH})"
        )
    return str(error)


def _asked_of_nothing(error: APIStatusError) -> bool:
    """A question's 404: its model or workspace is not there, and the service's sentence
    names it (and says how to add a model); an id's hint would send the reader to the
    workspace a model "lives in"."""
    asked = (error.url or "").split("?")[0].endswith("/chat/completions")
    return error.status_code == 404 and error.method == "POST" and asked
