"""Fixtures of the notebook layer: a real IPython shell, and a session on the real service.

``ip`` is IPython's own test shell (``start_ipython()``; one per process, see
``shared/notes/jupyter-testing.md``) with ``%load_ext chatspace`` done. ``nb_session`` binds
the process-wide notebook session (the one magics and panels share) to a client of the
test ``service`` for a fresh organization, and puts the magics' settings and threads back
to their defaults afterwards, so that tests never see each other's state.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from support.service import Service

if TYPE_CHECKING:
    from chatspace.client import Client
    from chatspace.notebook.magics import ChatspaceMagics
    from chatspace.notebook.session import NotebookSession


@pytest.fixture(scope="session")
def ip() -> Any:
    """IPython's test shell with the chatspace extension loaded."""
    from IPython.testing.globalipapp import start_ipython

    shell = start_ipython()
    shell.run_line_magic("load_ext", "chatspace")
    return shell


@pytest.fixture
def magics(ip: Any) -> Iterator[ChatspaceMagics]:
    """The registered ``ChatspaceMagics``; the session and the kernel's settings are reset
    after the test."""
    from chatspace.notebook.session import reset_session
    from chatspace.notebook.settings import kernel_settings

    yield ip.magics_manager.registry["ChatspaceMagics"]
    reset_session()  # its threads and --df uploads with it
    ip.config.pop("ChatspaceSettings", None)  # what %config set, read again by a reload
    settings = kernel_settings()
    for name, trait in settings.traits(config=True).items():
        setattr(settings, name, trait.default())


@pytest.fixture
def client(service: Service, org: str) -> Iterator[Client]:
    """A client of the test service, as user ``alice`` of a fresh organization."""
    from chatspace.client import Client

    with Client(base_url=service.url, token=service.token("alice", org)) as client:
        yield client


@pytest.fixture
def session(client: Client) -> NotebookSession:
    """A session of its own for a panel under test, bound to ``client``."""
    from chatspace.notebook.session import NotebookSession

    return NotebookSession(client=client)


@pytest.fixture
def nb_session(client: Client, magics: ChatspaceMagics) -> Iterator[NotebookSession]:
    """The notebook session every magic and panel uses, bound to ``client``."""
    from chatspace.notebook.session import get_session, reset_session

    reset_session()
    session = get_session()
    session.use_client(client)
    assert magics.session is session
    yield session
    reset_session()
