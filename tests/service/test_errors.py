"""Error answers (docs/interface.md#errors): one plain sentence in ``detail`` (422: ``loc``/``msg``/
``type`` items only), the right status for each fault, and nothing internal leaked."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from starlette.requests import Request

from chatspace.service import problems
from chatspace.service.http.errors import on_problem
from chatspace.service.http.uploads import ClientGone
from support.platform import stored, upload
from support.service import Service, running_service


def test_unknown_paths_and_methods(alice: httpx.Client) -> None:
    missing = alice.get("/no/such/thing")
    assert (missing.status_code, missing.json()["detail"]) == (404, "Not Found")
    wrong = alice.put("/files")
    assert (wrong.status_code, wrong.json()["detail"]) == (405, "Method Not Allowed")


JSON = {"content-type": "application/json"}
INVALID = {
    "malformed json": (
        "POST",
        "/workspaces",
        {"content": b'{"id": ', "headers": JSON},
        ["body", 7],
        "json_invalid",
    ),
    "form to json": (
        "POST",
        "/workspaces",
        {"data": {"id": "x"}},
        ["body"],
        "model_attributes_type",
    ),
    "text/plain": (
        "POST",
        "/workspaces",
        {"content": b'{"id":"x"}', "headers": {"content-type": "text/plain"}},
        ["body"],
        "model_attributes_type",
    ),
    "no body": ("POST", "/workspaces", {}, ["body"], "missing"),
    "array": ("POST", "/workspaces", {"json": ["id", "name"]}, ["body"], "model_attributes_type"),
    "wrong type": (
        "PUT",
        "/workspaces/default/user",
        {"json": {"user": "u", "access": 3}},
        ["body", "access"],
        "literal_error",
    ),
    "multipart to json": (
        "POST",
        "/workspaces/default/user",
        {"files": {"user": (None, "u"), "access": (None, "reader")}},
        ["body"],
        "model_attributes_type",
    ),
    "negative limit": (
        "GET",
        "/files",
        {"params": {"limit": "-1"}},
        ["query", "limit"],
        "greater_than_equal",
    ),
    "bad workspace": (
        "GET",
        "/files/f/content",
        {"params": {"workspace": "UPPER"}},
        ["query", "workspace"],
        "string_pattern_mismatch",
    ),
}


@pytest.mark.parametrize(("method", "path", "kwargs", "loc", "kind"), INVALID.values(), ids=INVALID)
def test_validation_errors(
    alice: httpx.Client,
    service: Service,
    org: str,
    method: str,
    path: str,
    kwargs: dict,
    loc: list,
    kind: str,
) -> None:
    before = stored(service, org)
    response = alice.request(method, path, **kwargs)
    assert response.status_code == 422
    (item,) = response.json()["detail"]
    assert set(item) == {"loc", "msg", "type"}
    assert (item["loc"], item["type"]) == (loc, kind)
    assert isinstance(item["msg"], str)
    assert item["msg"]
    assert stored(service, org) == before


def test_422_never_echoes_the_input(alice: httpx.Client) -> None:
    secret = "do-not-echo-" + "x" * 40
    response = alice.post("/workspaces", json={"id": secret.upper(), "name": "n", "extra": secret})
    assert response.status_code == 422
    assert secret not in response.text
    assert secret.upper() not in response.text


def test_error_answers_leak_nothing_internal(
    service: Service, org: str, alice: httpx.Client
) -> None:
    token = service.token("alice", org)
    (f,) = upload(alice, ("a.txt", b"a"))
    answers = [
        alice.get("/files/file-nope"),
        alice.get("/files", params={"after": "' OR 1=1 --"}),
        alice.get(f"/files/{f['id']}/content", headers={"Range": "bytes=99-"}),
        alice.post(
            "/files",
            content=b"--x\r\nbroken",
            headers={"content-type": "multipart/form-data; boundary=x"},
        ),
        alice.delete("/workspaces/default"),
        alice.post("/workspaces", json={"id": "default", "name": "d"}),
        alice.patch(
            f"/files/{f['id']}/metadata", content=b"{", headers={"content-type": "application/json"}
        ),
        httpx.get(service.url + "/files", headers={"Authorization": f"Bearer {token[:-2]}"}),
    ]
    for response in answers:
        assert response.status_code >= 400
        detail = response.json()["detail"]
        assert isinstance(detail, str | list)
        _check_openai_shape(response)
        for leak in (
            token,
            token[:-2],
            str(service.data_dir),
            "Traceback",
            "SELECT",
            "sqlite",
            ".py",
        ):
            assert leak not in response.text, (response.request.url, leak)


OPENAI_TYPES = {
    401: "authentication_error",
    404: "not_found_error",
    409: "conflict_error",
    416: "invalid_request_error",
    422: "invalid_request_error",
    429: "rate_limit_error",
}


def _check_openai_shape(response: httpx.Response) -> None:
    """Beside ``detail``, ``error`` in the OpenAI API's shape: a 422's message is its first
    fault on one line, its code the fault's type; any other message is the detail."""
    body = response.json()
    assert set(body) == {"detail", "error"}
    error, detail = body["error"], body["detail"]
    assert error["type"] == OPENAI_TYPES[response.status_code]
    if isinstance(detail, list):
        first = detail[0]
        loc = [str(p) for p in first["loc"]]
        where = ".".join(loc[1:] if loc[0] == "body" else loc)
        message = f"{where}: {first['msg']}" if where else first["msg"]
        assert error == {"message": message, "type": error["type"], "code": first["type"]}
    else:
        assert error == {"message": detail, "type": error["type"], "code": None}


def test_a_422_message_names_the_first_fault(alice: httpx.Client) -> None:
    response = alice.post("/chat/completions", json={"messages": [{"role": "user"}]})
    assert response.status_code == 422
    assert response.json()["error"] == {
        "message": "messages.0.content: Field required",
        "type": "invalid_request_error",
        "code": "missing",
    }
    _check_openai_shape(response)


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    with running_service(tmp_path_factory.mktemp("rate"), "--rate-limit-per-minute", "3") as svc:
        yield svc


def test_rate_limit_is_429_with_retry_after(limited: Service, org: str) -> None:
    with httpx.Client(base_url=limited.url, headers=limited.headers("alice", org)) as alice:
        assert [alice.get("/models").status_code for _ in range(3)] == [200, 200, 200]
        over = alice.get("/models")
        assert over.status_code == 429
        assert 1 <= int(over.headers["retry-after"]) <= 60
        assert "3 requests per minute" in over.json()["detail"]
        _check_openai_shape(over)
        # The limit is per caller: another user is not held back.
        with httpx.Client(base_url=limited.url, headers=limited.headers("bob", org)) as bob:
            assert bob.get("/models").status_code == 200


def test_callers_counted_at_once_are_each_answered(tmp_path: Path, org: str) -> None:
    """Counting is a read and a write in one transaction: 16 callers at once each get
    their answers, and the limit holds for each of them exactly."""
    with running_service(tmp_path / "data", "--rate-limit-per-minute", "12") as svc:

        def calls(user: str) -> list[int]:
            with httpx.Client(base_url=svc.url, headers=svc.headers(user, org)) as client:
                return [client.get("/models").status_code for _ in range(14)]

        with ThreadPoolExecutor(16) as pool:
            answered = list(pool.map(calls, [f"user{i}" for i in range(16)]))
    assert answered == [[200] * 12 + [429] * 2] * 16


@pytest.mark.parametrize(
    ("problem", "status", "headers"),
    [
        (problems.Problem("bug"), 500, {}),
        (problems.BadRequest("no"), 400, {}),
        (ClientGone("gone"), 400, {}),
        (problems.Unauthenticated("who?"), 401, {"www-authenticate": "Bearer"}),
        (problems.Forbidden("no"), 403, {}),
        (problems.NotFound("none"), 404, {}),
        (problems.Conflict("taken"), 409, {}),
        (problems.TooLarge("big"), 413, {}),
        (problems.Invalid(["body", "x"], "wrong"), 422, {}),
        (problems.RateLimited("slow down", retry_after=7), 429, {"retry-after": "7"}),
        (problems.UpstreamFailed("down"), 502, {}),
        (problems.UpstreamTimeout("late"), 504, {}),
    ],
)
def test_each_domain_error_has_its_status_and_headers(
    problem: problems.Problem, status: int, headers: dict[str, str]
) -> None:
    """The domain errors carry no status: the HTTP edge gives each class (and a subclass,
    such as the upload's ``ClientGone``) its own, with the headers the answer needs."""
    answer = asyncio.run(on_problem(Request({"type": "http"}), problem))
    assert answer.status_code == status
    sent = {k: v for k, v in answer.headers.items() if k in {"www-authenticate", "retry-after"}}
    assert sent == headers
    assert json.loads(answer.body)["detail"] == (
        problem.items if isinstance(problem, problems.Invalid) else problem.detail
    )
