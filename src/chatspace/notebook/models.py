"""Model connections from a notebook: what the service serves, adding and removing one.

Shared by ``%chat models`` and the panels, over the service's ``/models`` routes: adding
works against any chatspace service whose token has the ``admin`` claim (the embedded
one's always has), and the service asks the model's server first (``--no-check`` skips
that). The key is read from the kernel's environment or a password prompt and sent once;
the service keeps it sealed. Then the session's ``models`` is refreshed, so the chat
panel's picker and ``%%chat -m`` see the new model at once.
"""

from __future__ import annotations

import getpass
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from chatspace.errors import (
    ConflictError,
    NotFoundError,
    PermissionDeniedError,
    UnprocessableEntityError,
)

from .options import OptionError

if TYPE_CHECKING:
    import pandas as pd

    from .session import NotebookSession

__all__ = ["add_model", "check_model", "models_frame", "remove_model"]


def models_frame(session: NotebookSession) -> pd.DataFrame:
    """The models served, one row each: ``id`` and ``owned_by`` (where it comes from)."""
    from chatspace.client import to_pandas

    return to_pandas(session.refresh_models())[["id", "owned_by"]]


_SERVICE_WORDS = {"(check: false saves it unchecked)": "(--no-check saves the model unchecked)"}


@contextmanager
def _said_as(command: str) -> Iterator[None]:
    """The service's refusal of a models command as one line of that command, in the
    magic's words (its options, not the JSON fields)."""
    try:
        yield
    except UnprocessableEntityError as exc:
        items = exc.detail if isinstance(exc.detail, list) else [{"msg": str(exc.detail)}]
        said = "; ".join(str(i.get("msg", i)) if isinstance(i, dict) else str(i) for i in items)
        for theirs, ours in _SERVICE_WORDS.items():
            said = said.replace(theirs, ours)
        raise OptionError(f"{command}: {said}") from None
    except (PermissionDeniedError, NotFoundError, ConflictError) as exc:
        raise OptionError(f"{command}: {exc.status_code} {exc.detail}") from None


def add_model(
    session: NotebookSession,
    name: str,
    *,
    url: str,
    model: str | None = None,
    key_env: str | None = None,
    key_prompt: bool = False,
    timeout: float | None = None,
    replace: bool = False,
    check: bool = True,
) -> str:
    """Serve ``name`` from an OpenAI-compatible server; the sentence saying what was done.

    The key is read from the kernel's environment (``key_env``) or typed into a password
    prompt (``key_prompt``) and sent to the service, which keeps it sealed: the notebook
    never holds it in a variable or an output.
    """
    key = None
    if key_env is not None:
        key = os.environ.get(key_env)
        if not key:
            raise OptionError(f"--key-env {key_env}: that variable is not set in this kernel")
    elif key_prompt:
        key = getpass.getpass(f"Key for {name} (not shown, not kept in the notebook): ")
    with _said_as("%chat models add"):
        added = session.client.models.add(
            name, url=url, model=model, key=key, timeout=timeout, replace=replace, check=check
        )
    session.refresh_models()
    kept = "its key sealed by the service" if key else "no key"
    checked = "checked" if check else "not checked"
    remote = model or name
    return f"model {added.id} added ({url.rstrip('/')}, remote model {remote}, {kept}, {checked})"


def check_model(session: NotebookSession, name: str) -> str:
    """Ask the server of ``name`` whether it answers, accepts the key and serves the model."""
    with _said_as("%chat models test"):
        checked = session.client.models.test(name)
    if not checked.ok:
        raise OptionError(f"%chat models test: {checked.detail}")
    return f"model {checked.id} works: {checked.detail}"


def remove_model(session: NotebookSession, name: str) -> str:
    """Stop serving ``name``; the sentence saying what was done."""
    with _said_as("%chat models remove"):
        session.client.models.remove(name)
    session.refresh_models()
    return f"model {name} removed"
