"""``service.json``: one schema (``Runtime``) for the service that writes it and the
launcher that reads it; a file that does not match reads as no service."""

from __future__ import annotations

import json
import os
from pathlib import Path

from chatspace.local.runtime import (
    Runtime,
    env_fingerprint,
    process_alive,
    remove_runtime,
    runtime_path,
)


def _runtime(pid: int) -> Runtime:
    return Runtime(url="http://127.0.0.1:8123", pid=pid, version="0.1.0", env="ab12")


def test_what_the_service_writes_the_launcher_reads(tmp_path: Path) -> None:
    _runtime(4242).write(tmp_path)
    assert json.loads(runtime_path(tmp_path).read_text()) == {
        "url": "http://127.0.0.1:8123",
        "pid": 4242,
        "version": "0.1.0",
        "env": "ab12",
    }
    assert Runtime.read(tmp_path) == _runtime(4242)
    assert [p.name for p in tmp_path.iterdir()] == ["service.json"]  # no draft left


def test_a_file_of_another_shape_is_no_service(tmp_path: Path) -> None:
    assert Runtime.read(tmp_path) is None
    runtime_path(tmp_path).write_text(json.dumps({"url": "http://127.0.0.1:9", "pid": 1}))
    assert Runtime.read(tmp_path) is None
    runtime_path(tmp_path).write_text('{"url": "http://127.0.0.1:9", "pid"')  # half written
    assert Runtime.read(tmp_path) is None


def test_only_its_own_record_is_removed(tmp_path: Path) -> None:
    _runtime(4242).write(tmp_path)
    remove_runtime(tmp_path, 4243)  # a newer service took the file over
    assert Runtime.read(tmp_path) == _runtime(4242)
    remove_runtime(tmp_path, 4242)
    assert not runtime_path(tmp_path).exists()


def test_the_fingerprint_tells_model_variables_apart_without_holding_them() -> None:
    plain = env_fingerprint("secret", {})
    keyed = env_fingerprint("secret", {"OPENAI_API_KEY": "sk-private-key", "HOME": "/x"})
    assert plain != keyed
    assert env_fingerprint("secret", {"HOME": "/elsewhere"}) == plain  # not a model variable
    assert "sk-private" not in keyed
    assert env_fingerprint("other secret", {"OPENAI_API_KEY": "sk-private-key"}) != keyed


def test_process_alive() -> None:
    assert process_alive(os.getpid())
    assert not process_alive(2**22 + 1)  # above the largest pid Linux hands out
