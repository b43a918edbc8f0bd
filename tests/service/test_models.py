"""Model connections (issue: real models in one step): where models come from, how a
running service picks up a change, and that keys never show.

Every upstream is a real HTTP server on 127.0.0.1 (:mod:`support.upstream`); every service
is ``chatspace serve`` in its own process (:func:`support.start_service`).
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from support.service import Service, new_org, start_service
from support.upstream import REPLY, FakeUpstream, closed_port

KEY = "sk-test-connection-key-0123456789abcdef"


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeUpstream]:
    server = FakeUpstream(models=["echo", "echo-large", "text-embedding-3-small"], key=KEY)
    server.start()
    yield server
    server.stop()


def models_cli(
    data_dir: Path, *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """``chatspace models ...`` as a user runs it."""
    where = ["--data-dir", str(data_dir)] if args else []
    return subprocess.run(
        [sys.executable, "-m", "chatspace", "models", *args, *where],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def served(service: Service, org: str) -> dict[str, str]:
    """``GET /models`` as ``{id: owned_by}``."""
    answer = httpx.get(f"{service.url}/models", headers=service.headers(org=org), timeout=10)
    assert answer.status_code == 200, answer.text
    return {m["id"]: m["owned_by"] for m in answer.json()["data"]}


def ask(service: Service, org: str, model: str) -> httpx.Response:
    body = {"model": model, "messages": [{"role": "user", "content": "Hello?"}]}
    return httpx.post(
        f"{service.url}/chat/completions", json=body, headers=service.headers(org=org), timeout=30
    )


def test_models_add_while_the_service_runs_is_served_at_the_next_request(
    tmp_path: Path, fake: FakeUpstream
) -> None:
    svc = start_service(tmp_path / "data")
    org = new_org()
    try:
        assert served(svc, org) == {"service-l0": "chatspace"}
        added = models_cli(
            svc.data_dir,
            "add",
            "team-llm",
            "--url",
            fake.url,
            "--model",
            "echo",
            "--key-stdin",
            stdin=KEY + "\n",
        )
        assert added.returncode == 0, added.stderr
        assert KEY not in added.stdout + added.stderr
        # No restart, no wait: the very next request sees it.
        assert served(svc, org) == {"service-l0": "chatspace", "team-llm": "models.toml"}
        answer = ask(svc, org, "team-llm")
        assert answer.status_code == 200, answer.text
        assert answer.json()["choices"][0]["message"]["content"] == REPLY
        sent = fake.last("echo")
        assert sent["headers"]["authorization"] == f"Bearer {KEY}"

        removed = models_cli(svc.data_dir, "remove", "team-llm")
        assert removed.returncode == 0, removed.stderr
        assert served(svc, org) == {"service-l0": "chatspace"}
        assert ask(svc, org, "team-llm").status_code == 404
    finally:
        svc.stop()
    assert not any(KEY in line for line in svc.log)


def test_a_key_given_on_stdin_is_kept_in_a_0600_file_and_nowhere_else(tmp_path: Path) -> None:
    data = tmp_path / "data"
    result = models_cli(
        data,
        "add",
        "gpt",
        "--url",
        "https://models.example/v1",
        "--model",
        "gpt-4o",
        "--key-stdin",
        "--no-check",
        stdin=KEY,
    )
    assert result.returncode == 0, result.stderr
    toml = (data / "models.toml").read_text()
    assert KEY not in toml
    assert 'model = "gpt-4o"' in toml
    key_files = list((data / "keys").iterdir())
    assert [p.read_text() for p in key_files] == [KEY]
    assert stat.S_IMODE(key_files[0].stat().st_mode) == 0o600
    assert stat.S_IMODE((data / "keys").stat().st_mode) == 0o700
    listing = models_cli(data, "list")
    assert listing.returncode == 0
    assert KEY not in listing.stdout
    assert listing.stdout.split("\n")[1].split() == [
        "gpt",
        "https://models.example/v1",
        "gpt-4o",
        "key",
        "file",
        "120",
    ]
    # Removing the model removes its key.
    assert models_cli(data, "remove", "gpt").returncode == 0
    assert list((data / "keys").iterdir()) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["add", "service-l0", "--url", "http://x"], "'service-l0' is the built-in model"),
        (["add", "a b", "--url", "http://x"], "model name 'a b' must start with"),
        (["add", "m", "--url", "ftp://x"], "must start with http:// or https://"),
        (["add", "m", "--url", "http://x", "--key-env", "1BAD"], "not an environment variable"),
        (["add", "m", "--url", "http://x", "--timeout", "0"], "--timeout must be between"),
        (["remove", "nothing"], "no model 'nothing' in models.toml (it has: none)"),
        (["add", "m"], "the following arguments are required: --url"),
        ([], "the following arguments are required: {add,list,test,remove}"),
    ],
)
def test_models_cli_refuses_bad_input_in_one_line(
    tmp_path: Path, args: list[str], message: str
) -> None:
    result = models_cli(tmp_path, *args)
    assert result.returncode == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "models.toml").exists()


def _refused(data: Path, result: subprocess.CompletedProcess[str]) -> str:
    """The one line of a refused ``models add``, once it is known that nothing was saved."""
    assert result.returncode == 2, result.stdout
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (data / "models.toml").exists()
    assert not (data / "keys").exists() or not list((data / "keys").iterdir())
    return result.stderr.strip()


def test_models_add_checks_the_server_is_reachable(tmp_path: Path) -> None:
    dead = f"http://127.0.0.1:{closed_port()}/v1"
    line = _refused(tmp_path, models_cli(tmp_path, "add", "m", "--url", dead))
    assert line.startswith(f"chatspace models: error: {dead} cannot be reached (")
    assert "is the server running and the URL right? (--no-check saves" in line


def test_models_add_checks_the_key(tmp_path: Path, fake: FakeUpstream) -> None:
    wrong = "sk-wrong-key-never-shown-0123456789"
    result = models_cli(
        tmp_path, "add", "m", "--url", fake.url, "--model", "echo", "--key-stdin", stdin=wrong
    )
    line = _refused(tmp_path, result)
    assert line.endswith(f"{fake.url} refused the key (HTTP 401): check the key")
    assert wrong not in result.stdout + result.stderr
    # No key at all is said as such, and a variable unset here cannot be checked.
    line = _refused(tmp_path, models_cli(tmp_path, "add", "m", "--url", fake.url))
    assert f"{fake.url} asks for a key (HTTP 401): give it with --key-env VAR" in line
    unset = models_cli(tmp_path, "add", "m", "--url", fake.url, "--key-env", "UNSET_HERE_X")
    assert "--key-env UNSET_HERE_X is not set here, so the key cannot be checked" in _refused(
        tmp_path, unset
    )


def test_models_add_checks_the_model_is_served_and_lists_what_is(
    tmp_path: Path, fake: FakeUpstream
) -> None:
    result = models_cli(
        tmp_path, "add", "m", "--url", fake.url, "--model", "gpt-4o", "--key-stdin", stdin=KEY
    )
    line = _refused(tmp_path, result)
    assert line.endswith(
        f"{fake.url} does not serve a model 'gpt-4o'; it serves: echo, echo-large, "
        "text-embedding-3-small (name the server's model with --model)"
    )
    assert KEY not in result.stdout + result.stderr


def test_models_add_no_check_saves_what_cannot_be_checked_and_test_says_why(
    tmp_path: Path, fake: FakeUpstream
) -> None:
    dead = f"http://127.0.0.1:{closed_port()}/v1"
    added = models_cli(tmp_path, "add", "later", "--url", dead, "--no-check")
    assert added.returncode == 0, added.stderr
    assert "not checked" in added.stdout
    tested = models_cli(tmp_path, "test", "later")
    assert tested.returncode == 2
    assert f"{dead} cannot be reached" in tested.stderr
    assert tested.stderr.strip().endswith("is the server running and the URL right?")
    keyed = models_cli(
        tmp_path, "add", "team", "--url", fake.url, "--model", "echo", "--key-stdin", stdin=KEY
    )
    assert keyed.returncode == 0, keyed.stderr
    assert "key: key file, checked)" in keyed.stdout
    works = models_cli(tmp_path, "test", "team")
    assert works.returncode == 0, works.stderr
    assert works.stdout.strip() == (
        f"model team works: {fake.url} accepts its key and serves echo "
        "(one of the 3 models it serves)"
    )
    assert KEY not in works.stdout + works.stderr
    assert (
        "no model 'gone' in models.toml (it has: later, team)"
        in models_cli(tmp_path, "test", "gone").stderr
    )


def test_adding_a_name_twice_needs_replace(tmp_path: Path) -> None:
    first = models_cli(tmp_path, "add", "m", "--url", "http://a.example/v1", "--no-check")
    assert first.returncode == 0, first.stderr
    again = models_cli(tmp_path, "add", "m", "--url", "http://b.example/v1")
    assert again.returncode == 2
    assert "exists already" in again.stderr
    assert "http://a.example/v1" in (tmp_path / "models.toml").read_text()
    replaced = models_cli(
        tmp_path, "add", "m", "--url", "http://b.example/v1", "--replace", "--no-check"
    )
    assert replaced.returncode == 0
    assert "http://b.example/v1" in (tmp_path / "models.toml").read_text()


def test_a_broken_models_toml_serves_the_rest_and_says_why(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "models.toml").write_text(
        '[models.good]\nurl = "http://127.0.0.1:9/v1"\n\n'
        '[models.bad]\nurl = "not a url"\n\n'
        '[models."has space"]\nurl = "http://x/v1"\n'
    )
    svc = start_service(data)
    try:
        assert served(svc, new_org()) == {"service-l0": "chatspace", "good": "models.toml"}
        svc.wait_for_log("model 'bad' is left out")
        (data / "models.toml").write_text("this is [ not toml")
        assert served(svc, new_org()) == {"service-l0": "chatspace"}
        svc.wait_for_log("models.toml cannot be read")
    finally:
        svc.stop()


def test_upstream_key_env_keeps_the_key_out_of_the_process_list(
    tmp_path: Path, fake: FakeUpstream
) -> None:
    svc = start_service(
        tmp_path / "data",
        "--upstream-url",
        fake.url,
        "--upstream-key-env",
        "TEAM_KEY",
        "--upstream-model",
        "echo",
        env={"TEAM_KEY": KEY},
    )
    org = new_org()
    try:
        cmdline = Path(f"/proc/{svc.process.pid}/cmdline").read_bytes().decode()
        assert "TEAM_KEY" in cmdline
        assert KEY not in cmdline
        assert served(svc, org) == {"service-l0": "chatspace", "echo": "chatspace serve"}
        assert ask(svc, org, "echo").status_code == 200
        assert fake.last("echo")["headers"]["authorization"] == f"Bearer {KEY}"
    finally:
        svc.stop()


def test_upstream_key_env_naming_an_unset_variable_is_a_usage_error(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "chatspace",
            "serve",
            "--data-dir",
            str(tmp_path),
            "--upstream-url",
            "http://127.0.0.1:9/v1",
            "--upstream-key-env",
            "NOT_SET_ANYWHERE",
            "--upstream-model",
            "m",
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        env={k: v for k, v in os.environ.items() if k != "NOT_SET_ANYWHERE"},
    )
    assert result.returncode == 2
    assert (
        "--upstream-key-env NOT_SET_ANYWHERE: that environment variable is not set" in result.stderr
    )


def test_one_model_and_an_unknown_one(tmp_path: Path, fake: FakeUpstream) -> None:
    models_cli(tmp_path / "data", "add", "org/llama-3.1:8b", "--url", fake.url, "--no-check")
    svc = start_service(tmp_path / "data")
    org = new_org()
    try:
        headers = svc.headers(org=org)
        one = httpx.get(f"{svc.url}/models/org/llama-3.1:8b", headers=headers, timeout=10)
        assert one.status_code == 200, one.text
        assert one.json() == {
            "id": "org/llama-3.1:8b",
            "object": "model",
            "created": 0,
            "owned_by": "models.toml",
        }
        l0 = httpx.get(f"{svc.url}/models/service-l0", headers=headers, timeout=10)
        assert l0.json()["owned_by"] == "chatspace"
        for answer in (
            httpx.get(f"{svc.url}/models/gpt-4o", headers=headers, timeout=10),
            ask(svc, org, "gpt-4o"),
        ):
            assert answer.status_code == 404
            detail = answer.json()["detail"]
            assert detail.startswith("model 'gpt-4o' not found; this service serves: ")
            assert "org/llama-3.1:8b, service-l0" in detail
            assert "chatspace models add NAME --url URL" in detail
            assert "%chat models add" in detail
            assert "workspace" not in detail
        unauthenticated = httpx.get(f"{svc.url}/models/service-l0", timeout=10)
        assert unauthenticated.status_code == 401
    finally:
        svc.stop()


# ---------------------------------------------------------------- the environment


def test_openai_variables_register_that_endpoints_chat_models(
    tmp_path: Path, fake: FakeUpstream
) -> None:
    env = {
        "CHATSPACE_AUTODETECT": "1",
        "OPENAI_BASE_URL": fake.url,
        "OPENAI_API_KEY": KEY,
        "OLLAMA_HOST": f"127.0.0.1:{closed_port()}",
    }
    svc = start_service(tmp_path / "data", env=env)
    org = new_org()
    try:
        svc.wait_for_log("openai: 2 models discovered")
        assert served(svc, org) == {
            "service-l0": "chatspace",
            "echo": "openai",
            "echo-large": "openai",
        }  # the embedding model is not a chat model
        answer = ask(svc, org, "echo")
        assert answer.status_code == 200, answer.text
        assert fake.last("echo")["headers"]["authorization"] == f"Bearer {KEY}"
    finally:
        svc.stop()
    assert not any(KEY in line for line in svc.log)


def test_a_discovery_that_fails_is_one_line_and_never_fatal(tmp_path: Path) -> None:
    env = {
        "CHATSPACE_AUTODETECT": "1",
        "OPENAI_BASE_URL": f"http://127.0.0.1:{closed_port()}/v1",
        "OPENAI_API_KEY": KEY,
    }
    svc = start_service(tmp_path / "data", env=env)
    try:
        line = svc.wait_for_log("openai models not discovered")
        assert "it cannot be reached; trying again later" in line
        assert served(svc, new_org()) == {"service-l0": "chatspace"}
    finally:
        svc.stop()
    assert sum("openai models not discovered" in line for line in svc.log) == 1
    assert not any(KEY in line for line in svc.log)


def test_a_refused_key_is_said_plainly(tmp_path: Path, fake: FakeUpstream) -> None:
    env = {"CHATSPACE_AUTODETECT": "1", "OPENAI_BASE_URL": fake.url, "OPENAI_API_KEY": "sk-wrong"}
    svc = start_service(tmp_path / "data", env=env)
    try:
        line = svc.wait_for_log("openai models not discovered")
        assert "the key was refused (HTTP 401)" in line
    finally:
        svc.stop()


def test_a_local_ollama_is_found_through_ollama_host(tmp_path: Path) -> None:
    ollama = FakeUpstream(models=["llama3.2:1b"]).start()
    port = ollama.url.split(":")[-1].split("/")[0]
    try:
        env = {"CHATSPACE_AUTODETECT": "1", "OLLAMA_HOST": f"0.0.0.0:{port}"}
        svc = start_service(tmp_path / "data", env=env)
        try:
            svc.wait_for_log("ollama: 1 models discovered")
            assert served(svc, new_org()) == {"service-l0": "chatspace", "llama3.2:1b": "ollama"}
        finally:
            svc.stop()
    finally:
        ollama.stop()


def test_autodetect_off_serves_nothing_from_the_environment(
    tmp_path: Path, fake: FakeUpstream
) -> None:
    env = {"OPENAI_BASE_URL": fake.url, "OPENAI_API_KEY": KEY}
    quiet = start_service(
        tmp_path / "off", "--no-autodetect", env={**env, "CHATSPACE_AUTODETECT": "1"}
    )
    try:
        # A service started after it, with autodetection on, has discovered by now...
        loud = start_service(tmp_path / "on", env={**env, "CHATSPACE_AUTODETECT": "1"})
        loud.wait_for_log("openai: 2 models discovered")
        loud.stop()
        # ... the one with it off has not even tried.
        assert served(quiet, new_org()) == {"service-l0": "chatspace"}
        assert not any("discovered" in line for line in quiet.log)
    finally:
        quiet.stop()


def test_models_toml_wins_over_the_environment_for_a_name_both_serve(
    tmp_path: Path, fake: FakeUpstream
) -> None:
    dead = f"http://127.0.0.1:{closed_port()}/v1"
    models_cli(tmp_path / "data", "add", "echo", "--url", dead, "--no-check")
    env = {"CHATSPACE_AUTODETECT": "1", "OPENAI_BASE_URL": fake.url, "OPENAI_API_KEY": KEY}
    svc = start_service(tmp_path / "data", env=env)
    try:
        svc.wait_for_log("openai: 2 models discovered")
        assert served(svc, new_org()) == {
            "service-l0": "chatspace",
            "echo": "models.toml",
            "echo-large": "openai",
        }
        svc.wait_for_log("model echo of openai is not served: models.toml serves that name")
    finally:
        svc.stop()


def test_a_refusal_in_the_servers_words_never_repeats_the_key() -> None:
    from chatspace.local.checks import _their_words

    key = "sk-secret-0123456789"

    def said(body: object) -> str:
        return _their_words(httpx.Response(400, json=body), key)

    assert said({"error": {"message": "No connected\n db."}}) == "No connected db."
    assert said({"error": "quota exceeded"}) == "quota exceeded"
    assert said({"error": {"message": f"bad key {key}"}}) == ""
    assert said({"error": {"message": "key ends in 0123456789"}}) == ""
    assert said({"error": {"message": "x" * 500}}) == "x" * 120
    assert said(["not", "an", "object"]) == ""
    assert _their_words(httpx.Response(400, text="<html>"), key) == ""
