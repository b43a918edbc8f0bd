"""Model connections from a notebook: what the service serves, adding and removing one.

Shared by ``%chat models`` and the panels. Adding writes the embedded service's
``models.toml`` (:mod:`chatspace.service.connections`), once the server answered that it
accepts the key and serves the model (``--no-check`` skips that), which that service
re-reads at its next request; then the session's ``models`` is refreshed, so the chat
panel's picker and ``%%chat -m`` see the new model at once. A remote service's connections are its
operator's to configure (``chatspace models add`` on its host).
"""

from __future__ import annotations

import getpass
import os
from pathlib import Path
from typing import TYPE_CHECKING

from .options import OptionError

if TYPE_CHECKING:
    import pandas as pd

    from .session import NotebookSession

__all__ = ["add_model", "check_model", "models_frame", "remove_model"]


def models_frame(session: NotebookSession) -> pd.DataFrame:
    """The models served, one row each: ``id`` and ``owned_by`` (where it comes from)."""
    from chatspace.client import to_pandas

    return to_pandas(session.refresh_models())[["id", "owned_by"]]


def _data_dir(session: NotebookSession) -> Path:
    where = session.client.config.embedded_data_dir
    if where is None:
        raise OptionError(
            f"the service at {session.client.config.base_url} is not the local one: its models "
            "are configured on its host (chatspace models add)"
        )
    return where


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
    prompt (``key_prompt``), then kept in a 0600 file of the data dir: the service may not
    share the kernel's environment, and the notebook never holds the key.
    """
    from chatspace.service.connections import DEFAULT_TIMEOUT, BadConnection, add_connection

    where = _data_dir(session)
    key = None
    if key_env is not None:
        key = os.environ.get(key_env)
        if not key:
            raise OptionError(f"--key-env {key_env}: that variable is not set in this kernel")
    elif key_prompt:
        key = getpass.getpass(f"Key for {name} (not shown, not kept in the notebook): ")
    try:
        added = add_connection(
            where,
            name,
            url=url,
            model=model,
            key=key,
            timeout=DEFAULT_TIMEOUT if timeout is None else timeout,
            replace=replace,
            check=check,
        )
    except BadConnection as exc:
        raise OptionError(f"%chat models add: {exc}") from None
    session.refresh_models()
    kept = "its key kept in the data dir (mode 0600)" if key else "no key"
    checked = "checked" if check else "not checked"
    return f"model {added.name} added ({added.url}, remote model {added.model}, {kept}, {checked})"


def check_model(session: NotebookSession, name: str) -> str:
    """Ask the server of ``name`` whether it answers, accepts the key and serves the model."""
    from chatspace.service.connections import BadConnection, check_saved

    try:
        return check_saved(_data_dir(session), name)
    except BadConnection as exc:
        raise OptionError(f"%chat models test: {exc}") from None


def remove_model(session: NotebookSession, name: str) -> str:
    """Stop serving ``name``; the sentence saying what was done."""
    from chatspace.service.connections import BadConnection, remove_connection

    try:
        removed = remove_connection(_data_dir(session), name)
    except BadConnection as exc:
        raise OptionError(f"%chat models remove: {exc}") from None
    session.refresh_models()
    return f"model {removed.name} removed"
