"""Every notebook setting, once: its default, its bounds and what it does.

``%config ChatspaceSettings.default_model = "x"`` (or ``c.ChatspaceSettings.default_model``
in ``ipython_config.py``) sets one; ``%config ChatspaceSettings`` lists them. The
notebook session holds the settings it works with (``session.settings``): the magics and
the panels read that one object, and the panels observe it, so a workspace switched with
``%workspace NAME`` shows in their pickers and a model chosen with ``%config`` in an open
chat panel. The kernel's session works with :func:`kernel_settings`, which outlive the
session (a new one after ``reset_session`` keeps what ``%config`` set); a session made on
its own (``NotebookSession(client)``) gets settings of its own.

A bound that the wire has is the wire type's (``top_k``: :data:`chatspace.types.common.TopK`),
read when a value is set, so that loading the extension imports no pydantic.
"""

from __future__ import annotations

from typing import Any

from traitlets import Bool, Enum, Float, Int, TraitError, Unicode, validate
from traitlets.config import Configurable

from .formats import FORMATS

__all__ = [
    "ChatspaceSettings",
    "kernel_settings",
    "top_k_or_default",
    "wire_range",
    "wire_value",
]


class ChatspaceSettings(Configurable):
    """The notebook's settings, shared by the magics and the panels (docs/magics.md#settings)."""

    default_model = Unicode(
        "",
        help="Model of a call that names none; '': the one connected model if exactly one "
        "is, else the built-in one (docs/models.md#the-default-model).",
    ).tag(config=True)
    default_workspace = Unicode(
        "default",
        help="Workspace every magic and panel works in; %workspace NAME and the panels' "
        "pickers change it.",
    ).tag(config=True)
    store = Bool(
        True, help="Store completions, tagged with notebook and thread (--no-store for one call)."
    ).tag(config=True)
    stream = Bool(True, help="Stream answers into the output as they arrive.").tag(config=True)
    default_top_k = Int(
        0,
        help="Passages to retrieve when a call gives none: a filter part's top_k, or 0 for "
        "the service's default.",
    ).tag(config=True)
    default_format = Enum(
        FORMATS,
        "markdown",
        help=f"How answers are asked for and shown when a call gives none: {', '.join(FORMATS)}.",
    ).tag(config=True)
    stream_throttle = Float(
        0.1,
        min=0.0,
        help="Seconds between two updates of a streaming answer (long answers stay cheap).",
    ).tag(config=True)
    thread_token_budget = Int(
        4000,
        min=0,
        help="Tokens of earlier turns a thread may send again; older turns are left out.",
    ).tag(config=True)
    max_interpolated_chars = Int(
        20_000,
        min=0,
        help="Longest text one {name} may put into a prompt; longer values are cut.",
    ).tag(config=True)
    show_tracebacks = Bool(
        False, help="Raise errors with their traceback instead of one line (for debugging)."
    ).tag(config=True)

    @validate("default_top_k")
    def _valid_top_k(self, proposal: dict[str, Any]) -> int:
        return top_k_or_default(proposal["value"])


def top_k_or_default(value: int) -> int:
    """``value`` if it is 0 (the service's default) or a valid ``top_k`` of the wire."""
    if value == 0:
        return 0
    from chatspace.types.common import TopK

    return int(wire_value(TopK, value, "top_k", " (or 0 for the service's default)"))


def wire_value(wire_type: Any, value: Any, name: str, hint: str = "") -> Any:
    """``value`` checked by the wire's type; a :class:`TraitError` that says why else."""
    from pydantic import TypeAdapter, ValidationError

    try:
        return TypeAdapter(wire_type).validate_python(value)
    except ValidationError as exc:
        said = exc.errors()[0]["msg"]
        raise TraitError(f"{name} {value!r}: {said}{hint}") from None


def wire_range(wire_type: Any) -> tuple[float, float]:
    """The least and greatest value of a bounded wire type (a slider's ends)."""
    from pydantic import TypeAdapter

    schema = TypeAdapter(wire_type).json_schema()
    return float(schema["minimum"]), float(schema["maximum"])


_kernel: ChatspaceSettings | None = None


def kernel_settings() -> ChatspaceSettings:
    """The settings of this kernel's session, with what ``ipython_config.py`` sets."""
    global _kernel
    if _kernel is None:
        from IPython import get_ipython

        shell = get_ipython()
        _kernel = ChatspaceSettings(config=shell.config if shell is not None else None)
    return _kernel
