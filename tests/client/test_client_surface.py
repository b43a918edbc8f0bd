"""The public surface: curated exports, light imports, async signatures in step."""

from __future__ import annotations

import inspect
import subprocess
import sys
import types

import pytest

import chatspace
import chatspace.client
from chatspace.client import _async_types
from chatspace.client.resources import Chat, Files, Models, Workspaces

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


@pytest.mark.parametrize(
    ("sync_cls", "async_cls"),
    [
        (Chat, _async_types.AsyncChat),
        (Files, _async_types.AsyncFiles),
        (Workspaces, _async_types.AsyncWorkspaces),
        (Models, _async_types.AsyncModels),
    ],
)
def test_async_signatures_match_the_sync_methods(sync_cls: type, async_cls: type) -> None:
    """The typing-only async protocols list every method with the same parameters."""
    methods = {n for n, v in vars(sync_cls).items() if callable(v) and not n.startswith("_")}
    declared = {n for n, v in vars(async_cls).items() if callable(v) and not n.startswith("_")}
    assert methods == declared
    for name in methods:
        if name in ("create", "stream") and sync_cls is Chat:
            continue  # typed through ChatCreateParams (checked below)
        want = inspect.signature(getattr(sync_cls, name))
        have = inspect.signature(getattr(async_cls, name))
        assert [(p.name, p.kind, p.default) for p in want.parameters.values()] == [
            (p.name, p.kind, p.default) for p in have.parameters.values()
        ], name


def test_chat_create_params_cover_every_argument() -> None:
    from chatspace.client.resources.chat import ChatCreateParams

    create = inspect.signature(Chat.create)
    names = [n for n in create.parameters if n not in ("self", "stream")]
    assert sorted(names) == sorted(ChatCreateParams.__annotations__)
