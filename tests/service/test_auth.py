"""Bearer JWTs (docs/interface.md#authentication): HS256 with the shared secret or RS256 with a
public key; required claims sub, org_id and exp; 401 with ``WWW-Authenticate: Bearer``
otherwise; and every answer scoped to the token's organization."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import httpx
import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from support.platform import stored, upload
from support.service import TEST_SECRET, Service, running_service

ENDPOINTS = [
    ("GET", "/workspaces"),
    ("POST", "/workspaces"),
    ("GET", "/workspaces/default"),
    ("DELETE", "/workspaces/w"),
    ("GET", "/workspaces/default/users"),
    ("POST", "/workspaces/w/user"),
    ("PUT", "/workspaces/w/user"),
    ("DELETE", "/workspaces/w/user/bob"),
    ("POST", "/files"),
    ("GET", "/files"),
    ("GET", "/files/file-x"),
    ("DELETE", "/files/file-x"),
    ("GET", "/files/file-x/content"),
    ("PATCH", "/files/file-x/metadata"),
    ("GET", "/models"),
]


def _claims(**overrides: object) -> dict[str, object]:
    claims: dict[str, object] = {"sub": "alice", "org_id": "acme", "exp": int(time.time()) + 600}
    claims.update(overrides)
    return {k: v for k, v in claims.items() if v is not None}


def _assert_401(response: httpx.Response, token: str | None = None) -> str:
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"
    detail = response.json()["detail"]
    assert isinstance(detail, str)
    assert detail
    if token:
        assert token not in response.text
    return detail


@pytest.mark.parametrize(("method", "path"), ENDPOINTS)
def test_every_endpoint_needs_a_token(service: Service, method: str, path: str) -> None:
    response = httpx.request(method, service.url + path, json={})
    assert "Missing bearer token" in _assert_401(response)


BAD_TOKENS = {
    "not a JWT": "not-a-jwt",
    "wrong key": jwt.encode(_claims(), "another-secret-that-is-long-enough-0123456789", "HS256"),
    "no sub": jwt.encode(_claims(sub=None), TEST_SECRET, "HS256"),
    "no org_id": jwt.encode(_claims(org_id=None), TEST_SECRET, "HS256"),
    "no exp": jwt.encode(_claims(exp=None), TEST_SECRET, "HS256"),
    "empty sub": jwt.encode(_claims(sub=""), TEST_SECRET, "HS256"),
    "org_id not a string": jwt.encode(_claims(org_id=7), TEST_SECRET, "HS256"),
    "alg none": jwt.encode(_claims(), None, "none"),
    "tampered": jwt.encode(_claims(), TEST_SECRET, "HS256")[:-3] + "abc",
}


@pytest.mark.parametrize("token", BAD_TOKENS.values(), ids=BAD_TOKENS.keys())
def test_bad_tokens_are_401(service: Service, token: str) -> None:
    response = httpx.get(service.url + "/workspaces", headers={"Authorization": f"Bearer {token}"})
    _assert_401(response, token)


def test_an_expired_token_says_so(service: Service) -> None:
    token = jwt.encode(_claims(exp=int(time.time()) - 5), TEST_SECRET, "HS256")
    response = httpx.get(service.url + "/files", headers={"Authorization": f"Bearer {token}"})
    assert "expired" in _assert_401(response, token)


@pytest.mark.parametrize("header", ["Basic YWxpY2U6cHc=", "Bearer", "Token abc", ""])
def test_malformed_authorization_headers_are_401(service: Service, header: str) -> None:
    response = httpx.get(service.url + "/models", headers={"Authorization": header})
    _assert_401(response)


def test_a_valid_token_is_accepted_and_names_the_caller(service: Service, org: str) -> None:
    token = jwt.encode(_claims(sub="zoe", org_id=org), TEST_SECRET, "HS256")
    response = httpx.get(service.url + "/workspaces", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200
    assert [w["org_id"] for w in response.json()["data"]] == [org]
    created = httpx.post(
        service.url + "/files",
        headers={"Authorization": f"Bearer {token}"},
        files={"file": ("a.txt", b"x")},
    ).json()
    assert (created[0]["user_id"], created[0]["org_id"]) == ("zoe", org)


def test_another_org_sees_nothing_and_changes_nothing(
    service: Service, org: str, alice: httpx.Client
) -> None:
    assert alice.post("/workspaces", json={"id": "secret", "name": "Secret"}).status_code == 200
    (file,) = upload(alice, ("plan.txt", b"the plan"))
    before = stored(service, org)
    with httpx.Client(
        base_url=service.url, headers=service.headers("alice", "intruder-org")
    ) as other:
        assert other.get("/workspaces/secret").status_code == 404
        assert [w["id"] for w in other.get("/workspaces").json()["data"]] == ["default"]
        assert other.get(f"/files/{file['id']}").status_code == 404
        assert other.get(f"/files/{file['id']}/content").status_code == 404
        assert other.get("/files").json()["total"] == 0
        assert other.delete(f"/files/{file['id']}").status_code == 404
        assert other.patch(f"/files/{file['id']}/metadata", json={"a": 1}).status_code == 404
        assert other.delete("/workspaces/secret").status_code == 404
        assert (
            other.post("/workspaces/secret/user", json={"user": "x", "access": "admin"}).status_code
            == 404
        )
        # The same workspace id is free in the other org.
        assert other.post("/workspaces", json={"id": "secret", "name": "Mine"}).status_code == 200
    assert stored(service, org) == before


@pytest.fixture(scope="module")
def rsa_keys(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, Path]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    public = tmp_path_factory.mktemp("keys") / "public.pem"
    public.write_bytes(
        key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
    )
    return private, public


def test_rs256_with_a_public_key(tmp_path: Path, rsa_keys: tuple[bytes, Path]) -> None:
    private, public = rsa_keys
    good = jwt.encode(_claims(), private, "RS256")
    hs256 = jwt.encode(_claims(), TEST_SECRET, "HS256")
    with running_service(tmp_path / "data", "--jwt-public-key", str(public)) as svc:
        ok = httpx.get(svc.url + "/workspaces", headers={"Authorization": f"Bearer {good}"})
        assert ok.status_code == 200
        assert ok.json()["data"][0]["org_id"] == "acme"
        # A token signed with the shared secret is not accepted once RS256 is chosen.
        _assert_401(
            httpx.get(svc.url + "/workspaces", headers={"Authorization": f"Bearer {hs256}"})
        )
        other = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        forged = jwt.encode(_claims(), other, "RS256")
        _assert_401(
            httpx.get(svc.url + "/workspaces", headers={"Authorization": f"Bearer {forged}"})
        )


def test_users_of_one_org_are_kept_apart_by_workspace(
    client_of: Callable[[str], httpx.Client],
) -> None:
    alice, bob = client_of("alice"), client_of("bob")
    assert alice.post("/workspaces", json={"id": "private", "name": "P"}).status_code == 200
    assert bob.get("/workspaces/private").status_code == 404
    assert "private" not in [w["id"] for w in bob.get("/workspaces").json()["data"]]
    assert bob.get("/files", params={"workspace": "private"}).status_code == 404
