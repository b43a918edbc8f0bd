"""The public surface: curated exports, light imports, both clients in step."""

from __future__ import annotations

import inspect
import subprocess
import sys
import types
import typing
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import chatspace
import chatspace.client
from chatspace.client import (
    AsyncChatStream,
    AsyncClient,
    AsyncPage,
    ChatStream,
    Client,
    SyncPage,
)
from chatspace.client._async.resources import AsyncChat, AsyncFiles, AsyncModels, AsyncWorkspaces
from chatspace.client._sync.resources import Chat, Files, Models, Workspaces

HEAVY = ("pandas", "tqdm", "ipywidgets", "fastapi", "chatspace.service", "uvicorn", "IPython")


def _isort_style(name: str) -> tuple[int, str]:
    """Ruff's RUF022 order: CONSTANTS, then Classes, then the rest, each alphabetical."""
    return (0 if name.isupper() else 1 if name[:1].isupper() else 2, name)


def test_client_all_is_sorted_and_complete() -> None:
    exported = chatspace.client.__all__
    assert exported == sorted(exported, key=_isort_style)
    public = {
        name
        for name, value in vars(chatspace.client).items()
        if not name.startswith("_") and not isinstance(value, types.ModuleType)
    }
    public -= {"annotations"}  # from __future__
    assert set(exported) == public


def test_package_all_is_sorted_and_resolves() -> None:
    assert chatspace.__all__ == sorted(chatspace.__all__, key=_isort_style)
    assert chatspace.Client is chatspace.client.Client
    assert chatspace.AsyncClient is chatspace.client.AsyncClient
    assert chatspace.APIStreamError.__module__ == "chatspace.errors"


@pytest.mark.parametrize("statement", ["import chatspace", "from chatspace import Client"])
def test_imports_stay_light(statement: str) -> None:
    code = f"import sys; {statement}; print(sorted(sys.modules))"
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    heavy = [m for m in HEAVY if f"'{m}'" in loaded]
    assert heavy == []


ROOT = Path(__file__).resolve().parents[2]
# Each async class and its generated sync twin.
TWINS: dict[type, type] = {
    AsyncClient: Client,
    AsyncChat: Chat,
    AsyncFiles: Files,
    AsyncModels: Models,
    AsyncWorkspaces: Workspaces,
    AsyncPage: SyncPage,
    AsyncChatStream: ChatStream,
    AsyncIterator: Iterator,
}
# What only the async side has, or names differently.
ASYNC_ONLY = {"aclose", "__await__"}
DUNDERS = {"__aiter__": "__iter__", "__aenter__": "__enter__", "__aexit__": "__exit__"}
_TYPE_VARS: dict[str, typing.TypeVar] = {}


def test_the_generated_sync_client_is_up_to_date() -> None:
    """``client/_sync`` is what ``scripts/unasync_client.py`` makes of ``client/_async``."""
    check = subprocess.run(
        [sys.executable, "scripts/unasync_client.py", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stderr


def _members(cls: type) -> dict[str, str]:
    """Public methods and properties by their sync name (``__aiter__`` as ``__iter__``)."""
    members = {}
    for name in dir(cls):
        public = not name.startswith("_") or name in DUNDERS or name in DUNDERS.values()
        value = inspect.getattr_static(cls, name)
        if public and name not in ASYNC_ONLY and (callable(value) or isinstance(value, property)):
            members[DUNDERS.get(name, name)] = name
    return members


def _synced(hint: Any) -> Any:
    """A type hint of the async side with each async class replaced by its sync twin."""
    if isinstance(hint, type) and hint in TWINS:
        return TWINS[hint]
    if isinstance(hint, typing.TypeVar):  # each module has its own ``T``
        return _TYPE_VARS.setdefault(hint.__name__, hint)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    synced = tuple(_synced(a) for a in args)
    if origin is None or (synced == args and origin not in TWINS):
        return hint
    if origin is types.UnionType:
        return typing.Union[synced]  # noqa: UP007 - built from a tuple
    return TWINS.get(origin, origin)[synced if len(synced) > 1 else synced[0]]


def _hints(function: Callable[..., Any]) -> dict[str, Any]:
    hints = typing.get_type_hints(function, localns={"pd": pd}, include_extras=True)
    return {name: _synced(hint) for name, hint in hints.items()}


def _signature(function: Callable[..., Any]) -> list[tuple[str, Any, Any]]:
    return [(p.name, p.kind, p.default) for p in inspect.signature(function).parameters.values()]


@pytest.mark.parametrize(
    ("async_cls", "sync_cls"), [(a, s) for a, s in TWINS.items() if a is not AsyncIterator]
)
def test_both_clients_have_the_same_methods_and_types(async_cls: type, sync_cls: type) -> None:
    """Names, parameters, defaults and type hints (return types included) agree, with
    each async class in place of its sync twin; calls that do I/O are coroutines."""
    have, want = _members(async_cls), _members(sync_cls)
    assert sorted(have) == sorted(want)
    for name in want:
        sync_fn, async_fn = getattr(sync_cls, name), getattr(async_cls, have[name])
        if isinstance(sync_fn, property):
            assert isinstance(async_fn, property), name
            assert _hints(async_fn.fget) == _hints(sync_fn.fget), name
            continue
        assert not inspect.iscoroutinefunction(sync_fn), name
        assert _signature(async_fn) == _signature(sync_fn), name
        if (async_cls, name) != (AsyncChatStream, "open"):  # the stream, for chaining; None
            assert _hints(async_fn) == _hints(sync_fn), name
        overloads = typing.get_overloads(sync_fn)
        async_overloads = typing.get_overloads(async_fn)
        assert len(async_overloads) == len(overloads), name
        for async_overload, sync_overload in zip(async_overloads, overloads, strict=True):
            assert _signature(async_overload) == _signature(sync_overload), name
            assert _hints(async_overload) == _hints(sync_overload), name


def test_the_async_client_awaits_what_does_io() -> None:
    """Every resource call that sends a request at once is a coroutine; lists and streams
    return their lazy objects at once."""
    for cls in (AsyncChat, AsyncFiles, AsyncModels, AsyncWorkspaces):
        for name in _members(cls):
            method = getattr(cls, name)
            answer = _hints(method)["return"]
            lazy = typing.get_origin(answer) is SyncPage or answer is ChatStream
            assert inspect.iscoroutinefunction(method) is not lazy, f"{cls.__name__}.{name}"


def test_chat_create_params_cover_every_argument() -> None:
    from chatspace.client._chat import ChatCreateParams

    create = inspect.signature(Chat.create)
    names = [n for n in create.parameters if n not in ("self", "stream")]
    assert sorted(names) == sorted(ChatCreateParams.__annotations__)


def test_upload_options_cover_every_keyword() -> None:
    from chatspace.client._uploads import UploadOptions

    upload = inspect.signature(Files.upload)
    names = [n for n in upload.parameters if n not in ("self", "file")]
    assert sorted(names) == sorted(UploadOptions.__annotations__)


def test_no_module_keeps_an_older_name() -> None:
    """``chatspace.tokens`` held the JWT secret, not LLM tokens: it is ``chatspace.local.auth``, and
    the first release keeps no alias."""
    import importlib

    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("chatspace.tokens")
