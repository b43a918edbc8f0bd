"""Fixtures shared by every test: an isolated environment and the real reference service."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from chatspace.local.launcher import stop_service
from support import engine_free, engines
from support import service as services
from support.service import Service, new_org, start_service


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--engine",
        choices=engines.ENGINES,
        default="sqlite",
        help="the services' engines: SQLite and a directory, or PostgreSQL and S3",
    )


ENGINE_FREE = pytest.StashKey[bool]()
DESELECTED = pytest.StashKey[dict[str, list[pytest.Item]]]()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests of one engine itself (marked ``sqlite_only`` or ``postgres_only``) run
    with that engine only; the tests that never reach the engines (support/engine_free.py)
    run with SQLite only: PostgreSQL would repeat them unchanged. The others are
    deselected, and the summary says how many and why."""
    free = {id(item) for item in engine_free.engine_free(items)}
    for item in items:
        item.stash[ENGINE_FREE] = id(item) in free
    if config.getoption("--engine") == "sqlite":
        reasons = {"postgres_only": [i for i in items if i.get_closest_marker("postgres_only")]}
    else:
        reasons = {
            "sqlite_only": [i for i in items if i.get_closest_marker("sqlite_only")],
            "engine-free": [
                i for i in items if id(i) in free and not i.get_closest_marker("sqlite_only")
            ],
        }
    gone = {id(item) for group in reasons.values() for item in group}
    config.stash[DESELECTED] = reasons
    if gone:
        config.hook.pytest_deselected(items=[i for i in items if id(i) in gone])
        items[:] = [i for i in items if id(i) not in gone]


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    """Which tests this engine left out, and why (the counts pytest shows as "deselected")."""
    reasons = config.stash.get(DESELECTED, {})
    engine = config.getoption("--engine")
    for reason, left in reasons.items():
        if not left:
            continue
        modules = Counter(item.nodeid.split("::")[0] for item in left)
        listed = ", ".join(f"{Path(m).name} {n}" for m, n in sorted(modules.items()))
        terminalreporter.write_line(
            f"--engine {engine} left out {len(left)} {reason} tests ({WHY[reason]}): {listed}"
        )


WHY = {
    "sqlite_only": "about SQLite itself",
    "postgres_only": "about PostgreSQL itself",
    "engine-free": "no service and no database of the run's engines: the SQLite run covers them",
}


@pytest.fixture(scope="session", autouse=True)
def isolated_environment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """No test reads or writes the user's home: data, Jupyter and IPython dirs are temporary."""
    home = tmp_path_factory.mktemp("home")
    saved = dict(os.environ)
    for name in list(os.environ):
        if name.startswith(("CHATSPACE_", "OPENAI_", "OLLAMA_")):
            del os.environ[name]
    os.environ.update(
        CHATSPACE_DATA_DIR=str(home / "chatspace-data"),
        XDG_DATA_HOME=str(home / "xdg-data"),
        XDG_CONFIG_HOME=str(home / "xdg-config"),
        XDG_CACHE_HOME=str(home / "xdg-cache"),
        JUPYTER_CONFIG_DIR=str(home / "jupyter-config"),
        JUPYTER_DATA_DIR=str(home / "jupyter-data"),
        JUPYTER_RUNTIME_DIR=str(home / "jupyter-runtime"),
        JUPYTER_PLATFORM_DIRS="1",
        IPYTHONDIR=str(home / "ipython"),
        MPLBACKEND="Agg",
        # No service of the tests serves a model server the machine happens to run
        # (a local Ollama); the discovery tests turn it on for their own services.
        CHATSPACE_AUTODETECT="0",
    )
    yield home
    # the embedded service a kernel or a client started there outlives them by design
    stop_service(home / "chatspace-data")
    os.environ.clear()
    os.environ.update(saved)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    services.started_in_test.clear()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item: pytest.Item) -> None:
    """A test judged engine-free that started a service was judged wrong: it fails here, in
    the SQLite run, rather than go untested on PostgreSQL."""
    wrong = engine_free.started_a_service(item) if item.stash.get(ENGINE_FREE, False) else None
    if wrong is not None:
        raise AssertionError(wrong)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Iterator[pytest.TestReport]:
    """A failed test's report ends with the output of the services it used: a 500's
    traceback is in the service's log, not in the test's."""
    report = yield
    if report.failed:
        shown = list({id(s): s for s in [*services.started_in_test, *services.running]}.values())
        report.sections.append(("chatspace services", services.output_of(shown)))
    return report


@pytest.fixture(scope="session", autouse=True)
def team_engines(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[None]:
    """With ``--engine postgres``, every service of the run on PostgreSQL and S3."""
    if request.config.getoption("--engine") == "sqlite":
        yield
        return
    with engines.running_team_engines(tmp_path_factory.mktemp("team-engines")) as running:
        engines.current = running
        try:
            yield
        finally:
            engines.current = None


@pytest.fixture(scope="session")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    """One reference service for the session; tests keep apart through their own org."""
    svc = start_service(tmp_path_factory.mktemp("service-data"))
    yield svc
    svc.stop()


@pytest.fixture(scope="session")
def small_limit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    """A service whose upload limit is 1 MiB, for the tests of the limit in every layer."""
    svc = start_service(tmp_path_factory.mktemp("limit"), "--max-upload-mb", "1")
    yield svc
    svc.stop()


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    """A new empty database on this run's engine (a SQLite file, or a PostgreSQL database)."""
    if engines.current is None:
        return f"sqlite:///{tmp_path / 'chatspace.db'}"
    return engines.current.pg.new_database()


@pytest.fixture
def org() -> str:
    return new_org()
