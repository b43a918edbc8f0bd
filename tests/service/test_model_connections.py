"""Connecting models over HTTP (``POST /models``, ``/models/{id}/check``, ``DELETE``):
admin-only, checked first, the key sealed in the database and never shown again, served
by every process on that database that shares the secret.

Every upstream is a real HTTP server on 127.0.0.1 (:mod:`support.upstream`); every service
is ``chatspace serve`` in its own process.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from support.service import Service, new_org, start_service
from support.upstream import REPLY, FakeUpstream, closed_port

KEY = "sk-http-connection-key-0123456789abcdef"


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeUpstream]:
    server = FakeUpstream(models=["echo", "echo-large"], key=KEY)
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    """One service for the tests of this module (the models it serves are the whole
    service's: :func:`own` hands it to one test at a time, without models added over HTTP)."""
    svc = start_service(tmp_path_factory.mktemp("connections"), "--no-autodetect")
    yield svc
    svc.stop()


@pytest.fixture
def own(shared: Service) -> Iterator[Service]:
    """The module's service, serving no model added over HTTP before the test nor after it:
    what a test connects is removed over HTTP (``DELETE /models/{id}``) when it ends."""
    assert _saved_rows(shared) == [], "a test before this one left a connection behind"
    yield shared
    with _admin(shared) as admin:
        for name, _ in _saved_rows(shared):
            assert admin.delete(f"/models/{name}").status_code == 200
    assert _saved_rows(shared) == []
    assert not any(o.startswith("added by ") for o in _served(shared).values())


def _admin(svc: Service) -> httpx.Client:
    return httpx.Client(base_url=svc.url, headers=svc.headers(admin=True), timeout=60)


def _saved_rows(svc: Service) -> list[Any]:
    engine = sa.create_engine(svc.database_url)
    try:
        with engine.connect() as conn:
            return list(conn.exec_driver_sql("SELECT name, sealed_key FROM model_connections"))
    finally:
        engine.dispose()


def _served(svc: Service) -> dict[str, str]:
    with httpx.Client(base_url=svc.url, headers=svc.headers(org=new_org())) as c:
        return {m["id"]: m["owned_by"] for m in c.get("/models").json()["data"]}


def test_an_admin_connects_a_model_that_every_caller_can_ask(
    own: Service, fake: FakeUpstream
) -> None:
    with _admin(own) as admin:
        added = admin.post(
            "/models", json={"id": "team", "url": fake.url, "model": "echo", "key": KEY}
        )
        assert added.status_code == 201, added.text
        assert added.json()["id"] == "team"
        assert added.json()["owned_by"] == "added by alice"  # the admin, not the route
        checked = admin.post("/models/team/check").json()
        assert checked["ok"] is True
        assert checked["served"] == ["echo", "echo-large"]
        assert "accepts its key and serves echo" in checked["detail"]
    assert _served(own)["team"] == "added by alice"
    with httpx.Client(base_url=own.url, headers=own.headers(org=new_org()), timeout=60) as c:
        answer = c.post(
            "/chat/completions",
            json={"model": "team", "messages": [{"role": "user", "content": "Hi"}]},
        )
    assert answer.status_code == 200, answer.text
    assert answer.json()["choices"][0]["message"]["content"] == REPLY
    assert fake.last("echo")["headers"]["authorization"] == f"Bearer {KEY}"


def test_the_key_never_comes_back_and_the_database_holds_it_sealed(
    own: Service, fake: FakeUpstream
) -> None:
    with _admin(own) as admin:
        said = [
            admin.post("/models", json={"id": "k", "url": fake.url, "model": "echo", "key": KEY}),
            admin.get("/models"),
            admin.get("/models/k"),
            admin.post("/models/k/check"),
            admin.post(
                "/models", json={"id": "w", "url": fake.url, "model": "echo", "key": KEY[::-1]}
            ),
        ]
    assert [r.status_code for r in said] == [201, 200, 200, 200, 422]
    assert "refused the key" in said[-1].text
    everything = "".join(r.text for r in said) + "\n".join(own.log)
    assert KEY not in everything
    assert KEY[::-1] not in everything
    rows = _saved_rows(own)
    assert [name for name, _ in rows] == ["k"], "a refused connection is not kept"
    assert KEY.encode() not in bytes(rows[0][1])


def test_only_a_token_with_the_admin_claim_changes_the_models(
    own: Service, fake: FakeUpstream
) -> None:
    body = {"id": "team", "url": fake.url, "model": "echo", "check": False}
    with httpx.Client(base_url=own.url, headers=own.headers(), timeout=60) as user:
        refused = [
            user.post("/models", json=body),
            user.post("/models/team/check"),
            user.delete("/models/team"),
        ]
    for answer in refused:
        assert answer.status_code == 403
        assert "chatspace token --admin" in answer.json()["detail"]
    assert _saved_rows(own) == []
    assert "team" not in _served(own)


@pytest.mark.parametrize(
    ("body", "loc", "says"),
    [
        ({"id": "x", "url": "ftp://x"}, ["body", "url"], "must start with http:// or https://"),
        ({"id": "-x", "url": "http://x"}, ["body", "id"], "starts with a letter or digit"),
        ({"id": "service-l0", "url": "http://x"}, ["body", "id"], "is the built-in model"),
        ({"id": "x", "url": "http://x", "timeout": 0}, ["body", "timeout"], "greater than 0"),
        ({"id": "x", "url": "http://x", "key": "k" * 5000}, ["body", "key"], "at most 4096"),
        ({"id": "x", "url": "http://x", "owner": "me"}, ["body", "owner"], "Extra inputs"),
        ({"id": "x"}, ["body", "url"], "Field required"),
        ({"id": "x", "url": "http://x", "check": "no"}, ["body", "check"], "valid boolean"),
    ],
)
def test_bad_connections_are_a_422_naming_the_field_and_nothing_is_kept(
    own: Service, body: dict[str, Any], loc: list[str], says: str
) -> None:
    with _admin(own) as admin:
        answer = admin.post("/models", json={"check": False, **body})
    assert answer.status_code == 422, answer.text
    (item,) = answer.json()["detail"]
    assert item["loc"] == loc
    assert says in item["msg"]
    assert _saved_rows(own) == []


@pytest.mark.parametrize(
    ("case", "field", "says"),
    [
        ("dead", "url", "cannot be reached"),
        ("no key", "key", "asks for a key (HTTP 401)"),
        ("not served", "model", "does not serve a model 'gpt-4o'"),
    ],
)
def test_a_check_that_fails_names_the_part_at_fault(
    own: Service, fake: FakeUpstream, case: str, field: str, says: str
) -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1" if case == "dead" else fake.url
    body: dict[str, Any] = {"id": "team", "url": url, "model": "echo", "key": KEY}
    if case == "no key":
        del body["key"]
    if case == "not served":
        body["model"] = "gpt-4o"
    with _admin(own) as admin:
        answer = admin.post("/models", json=body)
    assert answer.status_code == 422
    (item,) = answer.json()["detail"]
    assert item["loc"] == ["body", field]
    assert says in item["msg"]
    assert "check: false saves it unchecked" in item["msg"] or case != "dead"
    assert _saved_rows(own) == []


def test_a_name_is_added_once_replaced_on_request_and_removed(
    own: Service, fake: FakeUpstream
) -> None:
    first = {"id": "team", "url": fake.url, "model": "echo", "key": KEY}
    with _admin(own) as admin:
        assert admin.post("/models", json=first).status_code == 201
        again = admin.post("/models", json=first)
        assert again.status_code == 409
        assert "replace: true" in again.json()["detail"]
        replaced = admin.post("/models", json={**first, "model": "echo-large", "replace": True})
        assert replaced.status_code == 201
        assert admin.delete("/models/team").json() == {
            "id": "team",
            "object": "model",
            "deleted": True,
        }
        assert admin.get("/models/team").status_code == 404
        assert admin.delete("/models/team").status_code == 404
        assert admin.post("/models/team/check").status_code == 404
    with httpx.Client(base_url=own.url, headers=own.headers(), timeout=60) as c:
        c.post(
            "/chat/completions",
            json={"model": "service-l0", "messages": [{"role": "user", "content": "Hi"}]},
        )
    assert _saved_rows(own) == []


def test_models_configured_where_the_service_runs_are_not_changed_over_http(
    tmp_path: Path, fake: FakeUpstream
) -> None:
    svc = start_service(
        tmp_path / "d", "--no-autodetect", "--upstream-url", fake.url, "--upstream-model", "echo"
    )
    try:
        with _admin(svc) as admin:
            answers = [
                admin.post("/models", json={"id": "echo", "url": fake.url, "check": False}),
                admin.post(
                    "/models",
                    json={"id": "echo", "url": fake.url, "check": False, "replace": True},
                ),
                admin.delete("/models/echo"),
                admin.post("/models/echo/check"),
            ]
        for answer in answers:
            assert answer.status_code == 409
            assert "is served from chatspace serve, not added over HTTP" in answer.text
    finally:
        svc.stop()


def test_another_process_on_the_database_serves_it_with_the_same_secret_only(
    tmp_path: Path, fake: FakeUpstream
) -> None:
    """Replicas share the database and the secret: the second serves the model the first
    was given (within its refresh); one with another connections secret cannot unseal
    the key and leaves the model out, saying so."""
    first = start_service(tmp_path / "a", "--no-autodetect")
    shared = {"CHATSPACE_DATABASE_URL": first.database_url}
    second = start_service(tmp_path / "b", "--no-autodetect", env=shared)
    other = start_service(
        tmp_path / "c",
        "--no-autodetect",
        env={**shared, "CHATSPACE_CONNECTIONS_SECRET": "another-secret-0123456789"},
    )
    try:
        with _admin(first) as admin:
            body = {"id": "team", "url": fake.url, "model": "echo", "key": KEY}
            assert admin.post("/models", json=body).status_code == 201
        second.wait_for_log("models added over HTTP served now: team")
        with httpx.Client(base_url=second.url, headers=second.headers(), timeout=60) as c:
            answer = c.post(
                "/chat/completions",
                json={"model": "team", "messages": [{"role": "user", "content": "Hi"}]},
            )
        assert answer.status_code == 200, answer.text
        assert answer.json()["choices"][0]["message"]["content"] == REPLY
        other.wait_for_log("model team is not served: a model key was sealed with another")
        assert "team" not in _served(other)
    finally:
        for svc in (first, second, other):
            svc.stop()
