"""``Idempotency-Key`` (docs/interface.md#idempotency) on the creating POSTs of workspaces, users
and files: the same key and request get the first answer again and create nothing; the same key
with another request is a 409; keys are per caller; failures are not remembered."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from chatspace.local.auth import mint_token
from chatspace.service.access import Caller
from chatspace.service.app import create_app
from chatspace.service.config import Settings
from chatspace.service.http.idempotency import response_of
from chatspace.service.idempotency import Answer, Once, fingerprint, lookup, remember
from chatspace.service.problems import Conflict
from chatspace.service.state import AppState
from chatspace.service.store.db import open_database
from chatspace.service.store.idempotency import RETENTION_SECONDS, purge
from chatspace.service.store.transactions import write_transaction
from support.platform import blob_files, blob_of, incoming_files, stored, with_vectors
from support.service import Service, new_org


def _key(value: str) -> dict[str, str]:
    return {"Idempotency-Key": value}


def test_workspace_creation_is_replayed(alice: httpx.Client, service: Service, org: str) -> None:
    body = {"id": "once", "name": "Once"}
    first = alice.post("/workspaces", json=body, headers=_key("ws-1"))
    assert (first.status_code, first.content) == (200, b"")
    assert "idempotent-replayed" not in first.headers
    held = stored(service, org)
    again = alice.post("/workspaces", json=body, headers=_key("ws-1"))
    assert (again.status_code, again.content) == (200, b"")
    assert again.headers["idempotent-replayed"] == "true"
    assert stored(service, org) == held
    other = alice.post("/workspaces", json={"id": "twice", "name": "Twice"}, headers=_key("ws-1"))
    assert other.status_code == 409
    assert "different request" in other.json()["detail"]
    assert stored(service, org) == held
    # Without a key, the same request is a plain duplicate.
    assert alice.post("/workspaces", json=body).status_code == 409


def test_upload_replay_returns_the_same_files_and_keeps_no_new_blob(
    alice: httpx.Client, service: Service, org: str
) -> None:
    files = [("file", ("a.txt", b"alpha")), ("file", ("b.txt", b"beta"))]
    first = alice.post("/files", files=files, data={"metadata": '{"x": 1}'}, headers=_key("up-1"))
    assert first.status_code == 200
    with_vectors(alice, first.json())  # the embedder's writes are not the replay's
    held, blobs = stored(service, org), blob_files(service)
    again = alice.post("/files", files=files, data={"metadata": '{"x": 1}'}, headers=_key("up-1"))
    assert again.status_code == 200
    assert again.json() == first.json()
    assert again.headers["idempotent-replayed"] == "true"
    assert (stored(service, org), blob_files(service)) == (held, blobs)
    # Other bytes, another name or other fields under the same key: 409, nothing kept.
    for changed in (
        {"files": [("file", ("a.txt", b"ALPHA")), files[1]], "data": {"metadata": '{"x": 1}'}},
        {"files": files, "data": {"metadata": '{"x": 2}'}},
        {"files": files[:1], "data": {"metadata": '{"x": 1}'}},
    ):
        conflict = alice.post("/files", headers=_key("up-1"), **changed)
        assert conflict.status_code == 409
    assert (stored(service, org), blob_files(service)) == (held, blobs)
    assert incoming_files(service) == []
    assert alice.get("/files").json()["total"] == 2


def test_user_addition_is_replayed(alice: httpx.Client) -> None:
    alice.post("/workspaces", json={"id": "club", "name": "Club"})
    add = {"user": "bob", "access": "reader"}
    assert alice.post("/workspaces/club/user", json=add, headers=_key("u-1")).status_code == 200
    again = alice.post("/workspaces/club/user", json=add, headers=_key("u-1"))
    assert (again.status_code, again.headers["idempotent-replayed"]) == (200, "true")
    assert alice.post("/workspaces/club/user", json=add).status_code == 409
    # The same body for another workspace is another request.
    alice.post("/workspaces", json={"id": "pub", "name": "Pub"})
    assert alice.post("/workspaces/pub/user", json=add, headers=_key("u-1")).status_code == 409


def test_keys_belong_to_their_caller(client_of: Callable[[str], httpx.Client]) -> None:
    alice, bob = client_of("alice"), client_of("bob")
    assert (
        alice.post("/workspaces", json={"id": "a1", "name": "A"}, headers=_key("k")).status_code
        == 200
    )
    mine = bob.post("/workspaces", json={"id": "b1", "name": "B"}, headers=_key("k"))
    assert mine.status_code == 200
    assert "idempotent-replayed" not in mine.headers
    assert "b1" in [w["id"] for w in bob.get("/workspaces").json()["data"]]


def test_failed_requests_are_not_remembered(alice: httpx.Client) -> None:
    bad = alice.post(
        "/files", files={"file": ("a.txt", b"a")}, data={"metadata": "{"}, headers=_key("f")
    )
    assert bad.status_code == 422
    good = alice.post("/files", files={"file": ("a.txt", b"a")}, headers=_key("f"))
    assert good.status_code == 200
    assert "idempotent-replayed" not in good.headers


@pytest.mark.parametrize("value", ["", "x" * 256, "has space", "tab\tkey"])
def test_malformed_keys_are_422(alice: httpx.Client, value: str) -> None:
    response = alice.post("/workspaces", json={"id": "k", "name": "K"}, headers=_key(value))
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["header", "Idempotency-Key"]
    assert [w["id"] for w in alice.get("/workspaces").json()["data"]] == ["default"]


def test_concurrent_requests_with_one_key_create_once(
    service: Service, org: str, alice: httpx.Client
) -> None:
    def send(_: int) -> httpx.Response:
        with httpx.Client(base_url=service.url, headers=service.headers("alice", org)) as client:
            return client.post(
                "/files", files={"file": ("same.txt", b"same bytes" * 1000)}, headers=_key("race")
            )

    blobs_before = len(blob_files(service))
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(send, range(8)))
    # The first to commit creates; the others wait for it and replay its answer.
    assert [a.status_code for a in answers] == [200] * 8
    assert sum("idempotent-replayed" not in a.headers for a in answers) == 1
    assert len({a.text for a in answers}) == 1
    assert alice.get("/files").json()["total"] == 1
    assert incoming_files(service) == []
    (kept,) = alice.get("/files").json()["data"]
    assert blob_of(service, kept["id"]) in blob_files(service)
    assert len(blob_files(service)) == blobs_before + 1, "the replayed requests' blobs are gone"


def test_the_api_for_other_routes_and_the_24_hour_retention(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The module's documented use, on a real database, with the clock moved a day on."""
    with tempfile.TemporaryDirectory() as tmp:
        engine = open_database(Path(tmp) / "db.sqlite")
        caller = Caller(user_id="u", org_id="o")
        fp = fingerprint("POST /things", {"b": 1, "a": [1, 2]})
        assert fp == fingerprint("POST /things", {"a": [1, 2], "b": 1})
        assert fp != fingerprint("POST /things", {"a": [2, 1], "b": 1})
        with write_transaction(engine) as conn:
            assert lookup(conn, caller=caller, key="k", fingerprint=fp) is None
            remember(
                conn, caller=caller, key="k", answer=Answer.from_payload({"id": 1}, fingerprint=fp)
            )
            remember(conn, caller=caller, key=None, answer=Answer.empty(fingerprint=fp))
            remember(conn, caller=caller, key="k2", answer=Answer.empty(fingerprint=fp))
        with engine.connect() as conn:
            replay = lookup(conn, caller=caller, key="k", fingerprint=fp)
            assert replay is not None
            assert (replay.payload(), replay.replayed, replay.status_code) == ({"id": 1}, True, 200)
            assert response_of(replay).headers["idempotent-replayed"] == "true"
            with pytest.raises(Conflict):
                lookup(conn, caller=caller, key="k", fingerprint="other")
            assert lookup(conn, caller=Caller("v", "o"), key="k", fingerprint=fp) is None
        later = time.time() + RETENTION_SECONDS + 1
        monkeypatch.setattr(time, "time", lambda: later)
        with write_transaction(engine) as conn:
            assert lookup(conn, caller=caller, key="k", fingerprint="other") is None
            remember(conn, caller=caller, key="k", answer=Answer.empty(fingerprint="other"))
        with engine.connect() as conn:
            fresh = lookup(conn, caller=caller, key="k", fingerprint="other")
            assert fresh is not None
            assert fresh.payload() is None
        with write_transaction(engine) as conn:  # housekeeping: only "k2" is past its day
            assert purge(conn, now=later) == 1
            assert lookup(conn, caller=caller, key="k", fingerprint="other") is not None
        engine.dispose()


def test_a_write_whose_key_was_taken_meanwhile_is_rolled_back() -> None:
    """``Once.run(looked_up=True)`` does not look the key up again: the insert that
    remembers the answer finds the winner, the write is undone and the winner answers
    (or a 409 when the winner asked another thing)."""
    with tempfile.TemporaryDirectory() as tmp:
        engine = open_database(Path(tmp) / "db.sqlite")
        caller = Caller(user_id="u", org_id="o")
        winner = Once.of(caller, "k", "POST /things", {"a": 1})
        other = Once.of(caller, "k", "POST /things", {"a": 2})
        with write_transaction(engine) as conn:
            assert remember(conn, caller=caller, key="k", answer=winner.answer({"id": "first"}))
        events = sa.Table("events", sa.MetaData(), sa.Column("id", sa.Text))
        events.create(engine)

        def write(conn: sa.Connection) -> Answer:
            conn.execute(events.insert().values(id="second"))
            return winner.answer({"id": "second"})

        replay = winner.run(engine, write, workspace="w", looked_up=True)
        assert (replay.payload(), replay.replayed) == ({"id": "first"}, True)
        with pytest.raises(Conflict):
            other.run(engine, write, workspace="w", looked_up=True)
        with engine.connect() as conn:
            assert conn.execute(sa.select(events)).all() == []
        engine.dispose()


def test_a_stored_completion_looks_its_key_up_once(tmp_path: Path, database_url: str) -> None:
    """``POST /chat/completions`` with ``store: true`` and a key reads the key's row once
    (plain, streamed, and a replay): the insert that remembers the answer finds a request
    that finished meanwhile, so the write transaction does not look again."""
    settings = Settings(
        data_dir=tmp_path / "data", database_url=database_url, embeddings="off", autodetect=False
    )
    state = AppState.open(settings)
    lookups: list[str] = []

    def count(_c: object, _cur: object, statement: str, *_: object) -> None:
        if statement.lstrip().upper().startswith("SELECT") and "idempotency_keys" in statement:
            lookups.append(statement)

    token = mint_token(user="alice", org=new_org(), secret=state.verification_key)
    with TestClient(create_app(settings, state=state)) as http:
        http.headers["Authorization"] = f"Bearer {token}"
        sa.event.listen(state.db, "before_cursor_execute", count)
        seen = []
        for key, stream in [("plain", False), ("streamed", True), ("plain", False)]:
            lookups.clear()
            body = {"messages": [{"content": f"hi {key}"}], "store": True, "stream": stream}
            answer = http.post("/chat/completions", json=body, headers=_key(key))
            assert answer.status_code == 200, answer.text
            seen.append((answer.headers.get("idempotent-replayed"), len(lookups)))
    assert seen == [(None, 1), (None, 1), ("true", 1)]
