"""The package's wings and the service's layers import one way (docs/architecture.md).

The wings (``client``, ``local``, ``notebook``, ``serverext``, ``service``, ``types``):
the client, the notebook, the server extension and the wire models reach the service over
HTTP only; ``local`` (this machine's service: data dir, secret, runtime file, launcher)
sits below the service and the client alike; no wing imports another's private modules.
Inside the service: routes -> operations -> retrieval, engines -> store; a route is HTTP
only; below the routes nothing knows HTTP (no FastAPI, no Starlette, nothing of the HTTP
edge ``service/http/``); the store is SQL only, and migrations are frozen database
primitives. Read with ``ast`` from the source, so a rule holds whether or not a module is
imported.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import chatspace.service

SERVICE = Path(chatspace.service.__file__).parent
PACKAGE = SERVICE.parent
PREFIX = "chatspace.service"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(["chatspace", *parts]).removesuffix(".__init__")


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports (relative imports resolved), at any depth."""
    package = (
        _module_name(path).rsplit(".", 1)[0] if path.name != "__init__.py" else (_module_name(path))
    )
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def _modules(folder: str) -> list[Path]:
    paths = sorted((SERVICE / folder).glob("*.py"))
    assert paths, folder
    return paths


def _offending(paths: list[Path], forbidden: tuple[str, ...]) -> list[str]:
    return [
        f"{path.relative_to(PACKAGE)} imports {name}"
        for path in paths
        for name in sorted(_imports(path))
        if any(name == f or name.startswith(f + ".") for f in forbidden)
    ]


NO_HTTP = (f"{PREFIX}.http", "fastapi", "starlette")
"""What no layer below the routes imports: they raise the domain errors of
``service/problems.py``, and the HTTP edge answers them."""

RULES = {
    # The store is SQL only: no retrieval, no engines, no operations, no HTTP.
    "store": (
        f"{PREFIX}.retrieval",
        f"{PREFIX}.engines",
        f"{PREFIX}.operations",
        f"{PREFIX}.routes",
        f"{PREFIX}.idempotency",
        *NO_HTTP,
    ),
    # Routes are HTTP only: they call one operation, never the store, retrieval or an engine.
    "routes": (
        f"{PREFIX}.store.files",
        f"{PREFIX}.store.completions",
        f"{PREFIX}.store.workspaces",
        f"{PREFIX}.store.passages",
        f"{PREFIX}.store.transactions",
        f"{PREFIX}.store.idempotency",
        f"{PREFIX}.retrieval",
        f"{PREFIX}.engines",
    ),
    # Operations raise the service's problems and return data, never a response; access
    # rules come from .access, not from the routes' dependencies (.http.deps).
    "operations": (f"{PREFIX}.routes", *NO_HTTP),
    # Retrieval reads through the store and knows no engine (the tokenizer is a leaf); it
    # knows no request's shape either, so it names a bad filter part by value
    # (problems.UnknownFile), never by a body path (problems.Invalid).
    "retrieval": (
        f"{PREFIX}.engines",
        f"{PREFIX}.operations",
        f"{PREFIX}.routes",
        f"{PREFIX}.problems.Invalid",
        *NO_HTTP,
    ),
    # Engines turn a job into events: no storage, no operations.
    "engines": (f"{PREFIX}.store", f"{PREFIX}.operations", f"{PREFIX}.routes", *NO_HTTP),
}


@pytest.mark.parametrize("layer", sorted(RULES))
def test_a_layer_imports_only_below_it(layer: str) -> None:
    assert _offending(_modules(layer), RULES[layer]) == []


@pytest.mark.parametrize("wing", ["client", "notebook", "serverext", "types"])
def test_the_wings_beside_the_service_talk_to_it_over_http_only(wing: str) -> None:
    """The client, the notebook and the server extension reach the service through its
    HTTP interface, so that each works against any chatspace service (a team's too); the
    wire models import nothing of the service either."""
    paths = sorted((PACKAGE / wing).rglob("*.py"))
    assert paths, wing
    assert _offending(paths, (PREFIX, "fastapi", "sqlalchemy")) == []


HTTP_EDGE = ("app.py", "http", "routes")
"""The service's only modules that may import FastAPI or Starlette."""


def test_below_the_http_edge_nothing_imports_fastapi_or_starlette() -> None:
    """Every service module outside the HTTP edge (idempotency, housekeeping, the saved
    models, config, the CLI, ... and the layers above) is framework-free: JSON data comes
    from pydantic, worker threads from anyio."""
    paths = [
        path
        for path in sorted(SERVICE.rglob("*.py"))
        if path.relative_to(SERVICE).parts[0] not in HTTP_EDGE
    ]
    assert _offending(paths, ("fastapi", "starlette")) == []


@pytest.mark.parametrize("module", ["problems.py", "access.py"])
def test_the_domain_errors_and_access_rules_know_no_http(module: str) -> None:
    """Operations, retrieval and engines raise these and authorize with these: they import
    nothing of FastAPI, Starlette or the HTTP edge."""
    assert _offending([SERVICE / module], NO_HTTP) == []


WINGS = ("client", "local", "notebook", "serverext", "service", "types")


def _wing_files(wing: str) -> list[Path]:
    paths = sorted((PACKAGE / wing).rglob("*.py"))
    assert paths, wing
    return paths


def test_the_local_wing_knows_neither_the_service_nor_its_callers() -> None:
    """``chatspace.local`` is what the service, the CLI, the launcher and the server
    extension share about this machine; the client starts the service through it, so it
    may import none of them (only ``types``, ``errors`` and the package's leaves)."""
    forbidden = tuple(f"chatspace.{w}" for w in ("service", "notebook", "client", "serverext"))
    assert _offending(_wing_files("local"), (*forbidden, "fastapi", "sqlalchemy")) == []


@pytest.mark.parametrize("wing", WINGS)
def test_no_wing_imports_another_wings_private_modules(wing: str) -> None:
    """``chatspace.client._config`` is the client's to change; other wings use what the
    client exports (``chatspace.client.resolve_config``). The package's own leaves
    (``chatspace._version``, ``_wire``, ``_pandas``) belong to no wing and are shared."""
    found = []
    for path in _wing_files(wing):
        for name in sorted(_imports(path)):
            parts = name.split(".")
            if len(parts) < 3 or parts[0] != "chatspace" or parts[1] == wing:
                continue
            if parts[1] in WINGS and any(p.startswith("_") for p in parts[2:]):
                found.append(f"{path.relative_to(PACKAGE)} imports {name}")
    assert found == []


LOCAL_FILES = ("service.json", "service.lock", "service.log", "jwt-secret", "models.toml")


def test_the_local_machines_files_are_named_in_local_only() -> None:
    """The runtime file, the lock, the secret and the connections file are each named
    once, in ``chatspace.local``: a module elsewhere asks ``local`` for them."""
    found = [
        f"{path.relative_to(PACKAGE)} names {node.value!r}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if "local" not in path.relative_to(PACKAGE).parts
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and node.value in LOCAL_FILES
    ]
    assert found == []


def test_no_route_imports_the_store_package() -> None:
    """``from chatspace.service.store import files`` names the store too."""
    store_modules = {p.stem for p in _modules("store")}
    found = [
        f"{path.name} imports {name}"
        for path in _modules("routes")
        for name in _imports(path)
        if name.startswith(f"{PREFIX}.store.")
        and name.split(".")[3] in store_modules - {"blobs"}  # blobs: the S3 answer's types
    ]
    assert found == []


def test_migrations_use_database_primitives_only() -> None:
    """A migration means what it meant when written: it calls no code of chatspace."""
    used = _imports(SERVICE / "store" / "migrations.py")
    assert {name for name in used if name.startswith("chatspace")} == set()


def test_the_tokenizer_is_a_leaf() -> None:
    """Retrieval and the engines both count tokens; the tokenizer imports neither."""
    used = _imports(SERVICE / "tokenizer.py")
    assert {name for name in used if name.startswith(PREFIX)} == set()


def test_the_registry_and_runner_use_the_engine_protocol_only() -> None:
    """Metadata derivation and chunking are methods of ``Engine``: no ``isinstance`` on a
    concrete engine, no borrowing of the local engine's helpers."""
    registry = ast.parse((SERVICE / "engines" / "registry.py").read_text(encoding="utf-8"))
    calls = [
        node
        for node in ast.walk(registry)
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance"
    ]
    assert calls == []
    runner = _imports(SERVICE / "engines" / "runner.py")
    assert {n for n in runner if n.startswith(f"{PREFIX}.engines.local")} == set()
    assert {n for n in runner if n.startswith(f"{PREFIX}.engines.upstream")} == set()


def test_one_idempotency_helper() -> None:
    """Only ``service/idempotency.py`` itself looks a key up or remembers an answer; every
    other module goes through ``Once``."""
    found = []
    for path in sorted(SERVICE.rglob("*.py")):
        if path == SERVICE / "idempotency.py":
            continue
        for name in _imports(path):
            if name in {f"{PREFIX}.idempotency.lookup", f"{PREFIX}.idempotency.remember"}:
                found.append(f"{path.relative_to(SERVICE)} imports {name}")
    assert found == []
