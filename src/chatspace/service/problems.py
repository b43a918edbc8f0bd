"""What the service's inner layers raise when a request cannot be served.

Operations, retrieval, engines and the store raise these and know nothing of HTTP: each
error says what went wrong in one sentence (``detail``), and :class:`Invalid` also where
in the request. Retrieval knows no request's shape: its :class:`UnknownFile` says which
filter part by value, and the operation that read the parts from the request turns it
into :class:`Invalid` (:meth:`UnknownFile.at`). Which status, headers and body each is
answered with is the HTTP edge's (:mod:`.http.errors`, docs/interface.md#errors).
"""

from __future__ import annotations

from collections.abc import Sequence

MAX_QUOTED = 80


def quoted(name: str) -> str:
    """A name or id as an answer quotes it: in quotes, and cut after 80 characters, so that
    an id of 60 KB sent in a path is not sent back whole."""
    return f"'{name}'" if len(name) <= MAX_QUOTED else f"'{name[:MAX_QUOTED]}...'"


class Problem(Exception):
    """A request that cannot be served; a bare ``Problem`` is the service's own fault."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class BadRequest(Problem):
    """A well-formed request the service cannot serve (e.g. a JSON schema it cannot fill)."""


class Unauthenticated(Problem):
    """No valid bearer token."""


class Forbidden(Problem):
    """The caller's access level is too low."""


class NotFound(Problem):
    """Not there, or not visible to the caller."""


class Conflict(Problem):
    """The request contradicts the current state (a name taken, a key reused)."""


class TooLarge(Problem):
    """A body, file or field over its size limit."""


class RateLimited(Problem):
    """The caller's rate limit is reached; ``retry_after`` seconds until it lets one in."""

    def __init__(self, detail: str, retry_after: int) -> None:
        super().__init__(detail)
        self.retry_after = retry_after


class UpstreamFailed(Problem):
    """The upstream model failed."""


class UpstreamTimeout(Problem):
    """The upstream model did not answer in time."""


class Invalid(Problem):
    """A request field found wrong after FastAPI's own validation (a file id not in the
    workspace, ...): ``items`` in the shape of a validation error, at ``loc``."""

    def __init__(self, loc: Sequence[str | int], msg: str, type: str = "value_error") -> None:
        super().__init__(msg)
        self.items = [{"loc": list(loc), "msg": msg, "type": type}]


class UnknownFile(Problem):
    """A filter part names a file the workspace does not hold: the ``position``-th id of the
    ``part``-th part given to :func:`~chatspace.service.retrieval.scope.scope_of`.

    It has no status of its own: the caller knows where that part stood in its request
    and answers :meth:`at` that place instead.
    """

    def __init__(self, file_id: str, workspace_id: str, *, part: int, position: int) -> None:
        super().__init__(f"file '{file_id[:80]}' is not a file of workspace '{workspace_id}'")
        self.file_id = file_id
        self.part = part
        self.position = position

    def at(self, loc: Sequence[str | int]) -> Invalid:
        """The 422 of this fault, for a part found at ``loc`` of the request."""
        return Invalid([*loc, "file_ids", self.position], self.detail)
