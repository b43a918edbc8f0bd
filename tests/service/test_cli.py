"""The ``chatspace`` command: ``serve`` and ``token`` as a user runs them, usage errors
as one line with status 2, and ``service.json`` for clients to find the service."""

from __future__ import annotations

import json
import os
import signal
import socket
import stat
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import jwt
import pytest

from chatspace import __version__
from chatspace.local.runtime import env_fingerprint
from chatspace.local.serving import start_serve
from support.service import READY_PREFIX, TEST_SECRET, Service, running_service

CHATSPACE = Path(sys.executable).with_name("chatspace")


def _clean_env(home: Path) -> dict[str, str]:
    """The environment of a new user: no CHATSPACE_* settings, a fresh home."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CHATSPACE_")}
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / ".local" / "share"))
    return env


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(CHATSPACE), *args], capture_output=True, text=True, env=env, timeout=60, check=False
    )


def test_token_prints_a_jwt_signed_with_the_data_dir_secret(tmp_path: Path) -> None:
    env = _clean_env(tmp_path)
    data = tmp_path / "data"
    done = _run(
        "token", "--user", "ada", "--org", "lab", "--ttl", "2h", "--data-dir", str(data), env=env
    )
    assert done.returncode == 0, done.stderr
    secret_file = data / "jwt-secret"
    assert stat.S_IMODE(secret_file.stat().st_mode) == 0o600
    claims = jwt.decode(done.stdout.strip(), secret_file.read_text().strip(), algorithms=["HS256"])
    assert (claims["sub"], claims["org_id"]) == ("ada", "lab")
    assert claims["exp"] - claims["iat"] == 7200
    again = _run("token", "--user", "bob", "--org", "lab", "--data-dir", str(data), env=env)
    bob = jwt.decode(again.stdout.strip(), secret_file.read_text().strip(), algorithms=["HS256"])
    assert (bob["sub"], bob["exp"] - bob["iat"]) == ("bob", 3600)
    assert "admin" not in claims
    assert "admin" not in bob
    admin = _run(
        "token", "--user", "op", "--org", "lab", "--admin", "--data-dir", str(data), env=env
    )
    assert (
        jwt.decode(admin.stdout.strip(), secret_file.read_text().strip(), algorithms=["HS256"])[
            "admin"
        ]
        is True
    )


def test_the_secret_from_the_environment_wins(tmp_path: Path) -> None:
    env = _clean_env(tmp_path) | {"CHATSPACE_JWT_SECRET": TEST_SECRET}
    done = _run("token", "--user", "u", "--org", "o", "--data-dir", str(tmp_path / "d"), env=env)
    assert jwt.decode(done.stdout.strip(), TEST_SECRET, algorithms=["HS256"])["sub"] == "u"
    assert not (tmp_path / "d" / "jwt-secret").exists()


def test_processes_creating_the_secret_at_once_all_read_the_whole_of_it(tmp_path: Path) -> None:
    """The secret appears whole or not at all: a reader never sees it half written."""
    racer = (
        "import sys, pathlib; from chatspace.local.auth import load_or_create_secret;"
        "print(load_or_create_secret(pathlib.Path(sys.argv[1])))"
    )
    env = _clean_env(tmp_path)
    for attempt in range(6):
        where = tmp_path / f"d{attempt}"
        racers = [
            subprocess.Popen(
                [sys.executable, "-c", racer, str(where)],
                stdout=subprocess.PIPE,
                text=True,
                env=env,
            )
            for _ in range(6)
        ]
        seen = {child.communicate(timeout=60)[0].strip() for child in racers}
        assert seen == {(where / "jwt-secret").read_text().strip()}
        assert len(seen.pop()) >= 64


USAGE_ERRORS = {
    "no command": [],
    "unknown command": ["frobnicate"],
    "unknown option": ["serve", "--bogus"],
    "port not a number": ["serve", "--port", "abc"],
    "port too big": ["serve", "--port", "70000"],
    "relevance above 1": ["serve", "--relevance-threshold", "2"],
    "unknown embeddings": ["serve", "--embeddings", "bert"],
    "zero upload limit": ["serve", "--max-upload-mb", "0"],
    "blob store not s3": ["serve", "--blob-store", "http://bucket/files"],
    "database not a url": ["serve", "--database-url", "chatspace.db"],
    "unknown database": ["serve", "--database-url", "mysql://u@h/db"],
    "negative retention": ["serve", "--retention-days", "-3"],
    "key before url": ["serve", "--upstream-key", "k"],
    "url not http": ["serve", "--upstream-url", "ftp://models.example"],
    "url without model": ["serve", "--upstream-url", "http://127.0.0.1:9/v1"],
    "empty model name": ["serve", "--upstream-url", "http://x", "--upstream-model", "=remote"],
    "missing key file": ["serve", "--jwt-public-key", "/no/such/key.pem"],
    "token without org": ["token", "--user", "u"],
    "bad ttl": ["token", "--user", "u", "--org", "o", "--ttl", "soon"],
    "empty user": ["token", "--user", " ", "--org", "o"],
}


@pytest.mark.parametrize("args", USAGE_ERRORS.values(), ids=USAGE_ERRORS)
def test_usage_errors_are_one_line_and_status_2(tmp_path: Path, args: list[str]) -> None:
    done = _run(*args, env=_clean_env(tmp_path))
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("chatspace")
    assert "error: " in lines[0]


def test_a_key_file_that_is_not_a_key_is_a_usage_error(tmp_path: Path) -> None:
    bad = tmp_path / "key.pem"
    bad.write_text("not a key")
    done = _run("serve", "--jwt-public-key", str(bad), env=_clean_env(tmp_path))
    assert (done.returncode, done.stderr.strip()) == (
        2,
        f"chatspace serve: error: --jwt-public-key: {bad} is not a PEM RSA public key",
    )


def test_a_taken_port_is_one_line_and_status_1(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = _run(
            "serve", "--port", str(port), "--data-dir", str(tmp_path), env=_clean_env(tmp_path)
        )
    assert done.returncode == 1
    assert done.stderr.strip() == (
        f"chatspace serve: error: cannot listen on 127.0.0.1:{port}: Address already in use"
    )


def test_a_database_that_cannot_be_reached_is_one_line_and_status_1(tmp_path: Path) -> None:
    """It names the database, without its password, and says why."""
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]  # bound, never listening: refused
        url = f"postgresql://ann:hunter2-secret@127.0.0.1:{port}/chatspace"
        done = _run(
            "serve", "--port", "0", "--data-dir", str(tmp_path), "--database-url", url,
            env=_clean_env(tmp_path),
        )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.startswith(
        f"chatspace serve: error: The database postgresql+psycopg://ann:***@127.0.0.1:{port}"
        "/chatspace cannot be used: connection failed"
    )
    assert "Connection refused" in done.stderr
    assert len(done.stderr.splitlines()) == 1
    assert "hunter2" not in done.stdout + done.stderr


@pytest.mark.postgres_only
@pytest.mark.parametrize("shared", [False, True], ids=["own secret", "shared secret"])
def test_a_service_on_postgresql_says_when_replicas_could_not_share_its_tokens(
    tmp_path: Path, database_url: str, shared: bool
) -> None:
    """A secret kept in one data dir verifies the tokens of that replica only."""
    env = {**_clean_env(tmp_path), "CHATSPACE_DATABASE_URL": database_url}
    if shared:
        env["CHATSPACE_JWT_SECRET"] = TEST_SECRET
    started = start_serve(tmp_path / "data", "--embeddings", "off", "--no-autodetect", env=env)
    try:
        warned = [line for line in started.output if "must get the same" in line]
        assert len(warned) == (0 if shared else 1), started.output
        if not shared:
            assert "CHATSPACE_JWT_SECRET (or --jwt-public-key)" in warned[0]
    finally:
        started.process.terminate()
        started.process.communicate(timeout=30)


def test_version() -> None:
    done = _run("--version")
    assert (done.returncode, done.stdout.strip()) == (0, f"chatspace {__version__}")


def test_service_json_is_written_while_serving_and_removed_after(tmp_path: Path) -> None:
    with running_service(tmp_path / "data") as svc:
        runtime = json.loads((tmp_path / "data" / "service.json").read_text())
        env = env_fingerprint(svc.secret)  # of the model variables it saw (none but one)
        assert runtime == {
            "url": svc.url,
            "pid": svc.process.pid,
            "version": __version__,
            "env": env,
        }
    assert svc.process.returncode is not None
    assert not (tmp_path / "data" / "service.json").exists()


def test_models_without_upstreams_is_the_local_engine(service: Service) -> None:
    models = httpx.get(service.url + "/models", headers=service.headers()).json()
    assert models == {
        "object": "list",
        "data": [{"id": "service-l0", "object": "model", "created": 0, "owned_by": "chatspace"}],
    }


def test_upstream_options_add_models(tmp_path: Path) -> None:
    args = [
        "--upstream-url", "http://127.0.0.1:9/v1", "--upstream-key", "sk-never-printed",
        "--upstream-model", "fast=remote-fast", "plain",
        "--upstream-url", "http://127.0.0.1:10/v1", "--upstream-model", "other",
    ]  # fmt: skip
    with running_service(tmp_path / "data", *args) as svc:
        models = httpx.get(svc.url + "/models", headers=svc.headers()).json()
        assert [m["id"] for m in models["data"]] == ["service-l0", "fast", "plain", "other"]
    assert not any("sk-never-printed" in line for line in svc.log)


@contextmanager
def _serve_as_new_user(home: Path) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``chatspace serve --port 0`` with nothing configured; yields its URL once it listens."""
    log = (home / "serve.log").open("w")
    process = subprocess.Popen(
        [str(CHATSPACE), "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=log,
        text=True,
        env=_clean_env(home),
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith(READY_PREFIX), line + (home / "serve.log").read_text()
        yield line[len(READY_PREFIX) :].strip(), process
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=20)
        assert process.stdout is not None
        process.stdout.close()
        log.close()


def _curl(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["curl", *args], capture_output=True, text=True, timeout=60, check=False)


def test_a_new_user_serves_mints_a_token_and_curls(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    data = home / ".local" / "share" / "chatspace"  # the platform's user data dir
    with _serve_as_new_user(home) as (url, process):
        assert url.startswith("http://127.0.0.1:")
        assert json.loads((data / "service.json").read_text())["pid"] == process.pid
        token = _run("token", "--user", "me", "--org", "mine", env=_clean_env(home))
        assert token.returncode == 0, token.stderr
        bearer = f"Authorization: Bearer {token.stdout.strip()}"
        listed = _curl("-sS", "--fail-with-body", "-H", bearer, f"{url}/workspaces")
        assert listed.returncode == 0, listed.stdout + listed.stderr
        (default,) = json.loads(listed.stdout)["data"]
        assert (default["id"], default["org_id"]) == ("default", "mine")
        note = home / "note.txt"
        note.write_text("uploaded with curl\n")
        uploaded = _curl(
            "-sS", "--fail-with-body", "-H", bearer, "-F", f"file=@{note}", f"{url}/files"
        )
        assert uploaded.returncode == 0, uploaded.stdout + uploaded.stderr
        (file,) = json.loads(uploaded.stdout)
        assert (file["filename"], file["bytes"], file["user_id"]) == ("note.txt", 19, "me")
        denied = _curl("-s", "-o", "/dev/null", "-w", "%{http_code}", f"{url}/workspaces")
        assert denied.stdout == "401"
    assert stat.S_IMODE((data / "jwt-secret").stat().st_mode) == 0o600
    assert not (data / "service.json").exists()
