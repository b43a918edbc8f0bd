"""Hostile input (issue 13) against the real service: each case is refused with its precise
status and ``loc``, stores nothing, and leaves every list and get of the workspace readable.

The classes: depth (JSON nested past the bound, in bodies, query JSON, filter parts and
form fields), size (bodies over the JSON limit), encoding (lone surrogates, NUL, non-UTF-8,
NaN), count (a thousand query parameters, numbers of thousands of digits).
"""

from __future__ import annotations

import http.client
import json
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import jwt
import pytest

from chatspace.service.json_values import MAX_JSON_DEPTH
from support.platform import blob_of, delete_blob, stored, upload, write
from support.service import Service

HI = [{"role": "user", "content": "What does the report say?"}]
TEXT = {"type": "text", "text": "What does the report say?"}
JSON = {"content-type": "application/json"}


def nest(depth: int) -> Any:
    """Arrays nested ``depth`` levels deep: ``nest(2) == [[]]``."""
    value: Any = []
    for _ in range(depth - 1):
        value = [value]
    return value


def deep_loc(*prefix: str | int) -> list[str | int]:
    """Where :func:`nest` under ``prefix`` (a path inside one JSON value) passes the bound."""
    return [*prefix, *[0] * (MAX_JSON_DEPTH - len(prefix))]


def raw(body: Any) -> dict[str, Any]:
    """A JSON body as bytes, lone surrogates kept as ``\\ud800`` escapes (as an attacker
    would send them; httpx's ``json=`` cannot encode them)."""
    return {"content": json.dumps(body).encode(), "headers": JSON}


def chat(**fields: Any) -> dict[str, Any]:
    return raw({"messages": HI, "store": True, **fields})


def deep_form_metadata() -> dict[str, Any]:
    return {
        "files": [("file", ("a.txt", b"hello"))],
        "data": {"metadata": json.dumps({"k": nest(300)})},
    }


SURROGATE = "\ud800"
DEEP_FILTER = '{"k": ' + "[" * 2000 + "]" * 2000 + "}"
FILTER_LOC = ["body", "messages", 0, "content", 1, "filter"]
CASES: dict[str, tuple[str, str, Any, int, list[str | int], str]] = {
    # depth
    "response_format nested 200 levels": (
        "POST",
        "/chat/completions",
        chat(
            response_format={
                "type": "json_schema",
                "json_schema": {"name": "n", "schema": {"type": "object", "x": nest(200)}},
            }
        ),
        422,
        ["body", *deep_loc("response_format", "json_schema", "schema", "x")],
        "json_too_deep",
    ),
    "patch metadata nested 300 levels": (
        "PATCH",
        "/files/{file}/metadata",
        raw({"k": nest(300)}),
        422,
        ["body", *deep_loc("k")],
        "json_too_deep",
    ),
    "body nested 5000 levels": (
        "POST",
        "/workspaces",
        {"content": b"[" * 5000 + b"]" * 5000, "headers": JSON},
        422,
        ["body"],
        "json_too_deep",
    ),
    "query metadata nested 100 levels": (
        "GET",
        "/files",
        {"params": {"metadata": json.dumps({"k": nest(100)})}},
        422,
        ["query", "metadata", "k", 0],
        "filter_value",
    ),
    "query metadata nested 2000 levels": (
        "GET",
        "/files",
        {"params": {"metadata": "[" * 2000 + "]" * 2000}},
        422,
        ["query", "metadata"],
        "json_too_deep",
    ),
    "filter part nested 2000 levels": (
        "POST",
        "/chat/completions",
        chat(messages=[{"role": "user", "content": [TEXT, {"filter": DEEP_FILTER}]}]),
        422,
        FILTER_LOC,
        "json_too_deep",
    ),
    "filter part with a lone surrogate": (
        "POST",
        "/chat/completions",
        raw({"messages": [{"role": "user", "content": [TEXT, {"filter": '{"k": "\\ud800"}'}]}]}),
        422,
        [*FILTER_LOC, "k"],
        "string_unicode",
    ),
    "upload metadata nested 300 levels": (
        "POST",
        "/files",
        deep_form_metadata(),
        422,
        ["body", "metadata"],
        "json_too_deep",
    ),
    # encoding
    "surrogate in content": (
        "POST",
        "/chat/completions",
        raw({"messages": [{"role": "user", "content": SURROGATE}], "store": True}),
        422,
        ["body", "messages", 0, "content"],
        "string_unicode",
    ),
    "surrogate in a text part": (
        "POST",
        "/chat/completions",
        raw({"messages": [{"role": "user", "content": [{"type": "text", "text": SURROGATE}]}]}),
        422,
        ["body", "messages", 0, "content", 0, "text"],
        "string_unicode",
    ),
    "surrogate in name": (
        "POST",
        "/chat/completions",
        raw({"messages": [{"role": "user", "content": "hi", "name": SURROGATE}]}),
        422,
        ["body", "messages", 0, "name"],
        "string_unicode",
    ),
    "surrogate in service_tier": (
        "POST",
        "/chat/completions",
        chat(service_tier=SURROGATE),
        422,
        ["body", "service_tier"],
        "string_unicode",
    ),
    "surrogate in response_format.type": (
        "POST",
        "/chat/completions",
        chat(response_format={"type": SURROGATE}),
        422,
        ["body", "response_format", "type"],
        "string_unicode",
    ),
    "surrogate as a metadata key": (
        "POST",
        "/chat/completions",
        chat(metadata={SURROGATE: "v"}),
        422,
        ["body", "metadata", "\\ud800"],
        "string_unicode",
    ),
    "surrogate as a metadata value": (
        "POST",
        "/chat/completions",
        chat(metadata={"k": SURROGATE}),
        422,
        ["body", "metadata", "k"],
        "string_unicode",
    ),
    "surrogate in file_ids": (
        "POST",
        "/chat/completions",
        raw({"messages": [{"role": "user", "content": [TEXT, {"file_ids": [SURROGATE]}]}]}),
        422,
        ["body", "messages", 0, "content", 1, "file_ids", 0],
        "string_unicode",
    ),
    "surrogate in a streamed stored request": (
        "POST",
        "/chat/completions",
        raw({"messages": [{"role": "user", "content": SURROGATE}], "store": True, "stream": True}),
        422,
        ["body", "messages", 0, "content"],
        "string_unicode",
    ),
    "surrogate in a patched key": (
        "PATCH",
        "/files/{file}/metadata",
        raw({SURROGATE: 1}),
        422,
        ["body", "\\ud800"],
        "string_unicode",
    ),
    "surrogate in query metadata": (
        "GET",
        "/files",
        {"params": {"metadata": '{"k": "\\udfff"}'}},
        422,
        ["query", "metadata", "k"],
        "string_unicode",
    ),
    "surrogate in a workspace name": (
        "POST",
        "/workspaces",
        raw({"id": "w", "name": SURROGATE}),
        422,
        ["body", "name"],
        "string_unicode",
    ),
    "non-UTF-8 body": (
        "POST",
        "/workspaces",
        {"content": b'{"id": "w", "name": "\xff"}', "headers": JSON},
        422,
        ["body", 21],
        "json_invalid",
    ),
    "NaN in a patch": (
        "PATCH",
        "/files/{file}/metadata",
        {"content": b'{"k": NaN}', "headers": JSON},
        422,
        ["body"],
        "json_invalid",
    ),
    "Infinity as 1e999 in a patch": (
        "PATCH",
        "/files/{file}/metadata",
        {"content": b'{"k": 1e999}', "headers": JSON},
        422,
        ["body", "k"],
        "finite_number",
    ),
    # count
    "1000 metadata query parameters": (
        "GET",
        "/chat/completions",
        {"params": {f"metadata[k{i}]": "v" for i in range(1000)}},
        422,
        ["query", "metadata"],
        "too_long",
    ),
    "a number of 5000 digits": (
        "PATCH",
        "/files/{file}/metadata",
        {"content": b'{"k": ' + b"9" * 5000 + b"}", "headers": JSON},
        422,
        ["body"],
        "json_invalid",
    ),
}


@pytest.fixture
def seeded(service: Service, org: str, alice: httpx.Client) -> dict[str, str]:
    """A workspace with a file and a stored completion, so every list has something to read."""
    (f,) = upload(alice, ("report.txt", b"The report says revenue grew."), metadata='{"a": "b"}')
    done = alice.post("/chat/completions", json={"messages": HI, "store": True})
    assert done.status_code == 200, done.text
    return {"file": f["id"], "completion": done.json()["id"]}


def assert_all_readable(client: httpx.Client, seeded: dict[str, str]) -> None:
    """Every list and get of the workspace answers 200: nothing stored is unreadable."""
    files = client.get("/files")
    completions = client.get("/chat/completions", params={"limit": 100})
    assert (files.status_code, completions.status_code) == (200, 200)
    paths = ["/models", "/workspaces", "/workspaces/default", "/workspaces/default/users"]
    for f in files.json()["data"]:
        paths += [f"/files/{f['id']}", f"/files/{f['id']}/content", f"/files/{f['id']}/text"]
    for c in completions.json()["data"]:
        paths += [f"/chat/completions/{c['id']}", f"/chat/completions/{c['id']}/messages"]
    assert {f"/files/{seeded['file']}", f"/chat/completions/{seeded['completion']}"} <= set(paths)
    for path in paths:
        assert client.get(path).status_code == 200, path


@pytest.mark.parametrize(
    ("method", "path", "kwargs", "status", "loc", "kind"), CASES.values(), ids=CASES
)
def test_hostile_input_is_refused_and_changes_nothing(
    service: Service,
    org: str,
    alice: httpx.Client,
    seeded: dict[str, str],
    method: str,
    path: str,
    kwargs: dict[str, Any],
    status: int,
    loc: list[str | int],
    kind: str,
) -> None:
    before = stored(service, org)
    response = alice.request(method, path.format(**seeded), **kwargs)
    assert response.status_code == status, response.text
    assert [(d["loc"], d["type"]) for d in response.json()["detail"]] == [(loc, kind)]
    assert stored(service, org) == before
    assert_all_readable(alice, seeded)


def test_the_deepest_values_allowed_are_stored_and_read_back(
    alice: httpx.Client, seeded: dict[str, str]
) -> None:
    """The worst each field allows: JSON at the depth bound in a stored request's
    ``response_format`` and in file metadata, NUL in text (valid Unicode: kept as it came),
    read back through every list and get."""
    schema = {"type": "object", "properties": {"answer": {"type": "string"}}}
    schema["x"] = nest(MAX_JSON_DEPTH - 4)  # body > response_format > json_schema > schema
    done = alice.post(
        "/chat/completions",
        json={
            "messages": [{"role": "user", "content": "a\x00b", "name": "n\x00"}],
            "store": True,
            "metadata": {"k\x00": "v\x00"},
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "n", "schema": schema},
            },
        },
    )
    assert done.status_code == 200, done.text
    patched = alice.patch(f"/files/{seeded['file']}/metadata", json={"k": nest(MAX_JSON_DEPTH - 1)})
    assert patched.status_code == 200, patched.text
    read = alice.get(f"/chat/completions/{done.json()['id']}").json()
    assert read["response_format"]["json_schema"]["schema"]["x"] == schema["x"]
    assert read["metadata"] == {"k\x00": "v\x00"}
    messages = alice.get(f"/chat/completions/{done.json()['id']}/messages").json()["data"]
    assert messages[0]["content"] == "a\x00b"
    assert alice.get(f"/files/{seeded['file']}").json()["metadata"]["k"] == nest(MAX_JSON_DEPTH - 1)
    assert_all_readable(alice, seeded)


def test_a_json_body_over_the_limit_is_413_before_it_is_read(
    service: Service, org: str, alice: httpx.Client, seeded: dict[str, str]
) -> None:
    before = stored(service, org)
    big = b'{"messages": [{"role": "user", "content": "' + b"x" * (9 << 20) + b'"}]}'
    declared = alice.post("/chat/completions", content=big, headers=JSON)
    streamed = alice.post("/chat/completions", content=iter([big[: 1 << 20]] * 9), headers=JSON)
    for response in (declared, streamed):
        assert response.status_code == 413, response.text
        assert response.json()["detail"] == (
            "The request body is over the limit of 8 MiB for JSON requests."
        )
        assert response.json()["error"]["type"] == "request_too_large"
    assert stored(service, org) == before
    assert_all_readable(alice, seeded)


def test_not_found_answers_quote_huge_ids_cut(alice: httpx.Client) -> None:
    huge = "f" * 10_000
    for response in (
        alice.get(f"/files/{huge}"),
        alice.get(f"/chat/completions/{huge}"),
        alice.get(f"/workspaces/{huge}"),
        alice.get("/files", params={"after": huge}),
    ):
        assert response.status_code == 404
        assert len(response.json()["detail"]) < 300
        assert "f" * 80 + "..." in response.json()["detail"]


def test_a_message_cursor_of_thousands_of_digits_is_404(
    alice: httpx.Client, seeded: dict[str, str]
) -> None:
    completion = seeded["completion"]
    for number in ("9" * 5000, "²"):
        response = alice.get(
            f"/chat/completions/{completion}/messages", params={"after": f"{completion}-{number}"}
        )
        assert response.status_code == 404, response.text


def test_content_whose_bytes_were_deleted_meanwhile_is_404(
    service: Service, alice: httpx.Client
) -> None:
    """The state a delete racing a download leaves: the row read, the blob gone."""
    (f,) = upload(alice, ("gone.txt", b"soon gone"))
    delete_blob(service, blob_of(service, f["id"]))
    response = alice.get(f"/files/{f['id']}/content")
    assert response.status_code == 404
    assert response.json()["detail"].startswith(f"File '{f['id']}' not found")


def test_downloads_racing_a_delete_are_whole_or_404(
    client_of: Callable[[str], httpx.Client], alice: httpx.Client
) -> None:
    """A download that has begun is never cut by a delete: every read is the whole file
    or a 404 (before, about 3 in 100 ended with no complete answer)."""
    data = bytes(range(256)) * 4096  # 1 MiB
    readers = [client_of("alice") for _ in range(8)]

    def read(client: httpx.Client, file_id: str) -> int:
        response = client.get(f"/files/{file_id}/content")  # raises on a cut body
        assert response.status_code == 404 or response.content == data, response.status_code
        return response.status_code

    statuses: list[int] = []
    with ThreadPoolExecutor(len(readers) + 1) as pool:
        for _ in range(12):
            (f,) = upload(alice, ("racing.bin", data))
            reads = [pool.submit(read, c, f["id"]) for c in readers for _ in range(3)]
            assert alice.delete(f"/files/{f['id']}").status_code == 200
            statuses += [r.result() for r in reads]
    assert set(statuses) <= {200, 404}
    assert alice.get("/files", params={"limit": 1}).json()["data"] == []


def test_ranges_of_an_empty_file_and_after_if_range(alice: httpx.Client) -> None:
    (empty,) = upload(alice, ("empty.txt", b""))
    (f,) = upload(alice, ("ten.txt", b"0123456789"))
    suffix = alice.get(f"/files/{empty['id']}/content", headers={"Range": "bytes=-1"})
    assert (suffix.status_code, suffix.headers["content-range"]) == (416, "bytes */0")
    assert "past the end" in suffix.json()["detail"]
    whole = alice.get(f"/files/{f['id']}/content")
    for validator in (whole.headers["etag"], whole.headers["last-modified"]):
        past = alice.get(
            f"/files/{f['id']}/content", headers={"Range": "bytes=50-", "If-Range": validator}
        )
        assert (past.status_code, past.headers["content-range"]) == (416, "bytes */10")
        assert "past the end" in past.json()["detail"]
    stale = alice.get(
        f"/files/{f['id']}/content", headers={"Range": "bytes=50-", "If-Range": '"other"'}
    )
    assert (stale.status_code, stale.content) == (200, b"0123456789")
    huge = alice.get(f"/files/{f['id']}/content", headers={"Range": f"bytes={'9' * 4301}-"})
    assert (huge.status_code, huge.headers["content-range"]) == (416, "bytes */10")
    tail = alice.get(f"/files/{f['id']}/content", headers={"Range": f"bytes=-{'9' * 4301}"})
    assert (tail.status_code, tail.content) == (206, b"0123456789")


def test_a_500_is_logged_once_with_its_request_id_on_a_kept_connection(
    service: Service, alice: httpx.Client, seeded: dict[str, str]
) -> None:
    """A stored body damaged outside the service (here, by hand) is a real server fault."""
    completion = seeded["completion"]
    write(service, "UPDATE completions SET body = 'damaged' WHERE id = :id", id=completion)
    url = httpx.URL(service.url)
    conn = http.client.HTTPConnection(url.host, url.port, timeout=30)
    auth = {"Authorization": alice.headers["authorization"]}
    start = len(service.log)
    conn.request("GET", f"/chat/completions/{completion}", headers=auth)
    failed = conn.getresponse()
    body = json.loads(failed.read())
    assert failed.status == 500
    assert body["error"]["type"] == "server_error"
    assert not failed.will_close
    request_id = failed.getheader("x-request-id")
    sock = conn.sock
    mark = uuid.uuid4().hex
    conn.request("GET", f"/models?mark={mark}", headers=auth)
    after = conn.getresponse()
    after.read()
    assert (after.status, conn.sock) == (200, sock)  # the same connection served it
    conn.close()
    service.wait_for_log(mark)  # the access line of the next request: the 500 is logged
    logged = service.log[start:]
    assert sum("Traceback" in line for line in logged) == 1
    assert [line for line in logged if request_id in line]


def _token(service: Service, **claims: Any) -> dict[str, str]:
    full = {"sub": "alice", "org_id": "acme", "exp": int(time.time()) + 600, **claims}
    return {"Authorization": "Bearer " + jwt.encode(full, service.secret, algorithm="HS256")}


def test_tokens_past_the_longest_lifetime_are_401(service: Service) -> None:
    response = httpx.get(service.url + "/models", headers=_token(service, exp=10**30))
    assert response.status_code == 401
    assert response.json()["detail"] == (
        "The token is valid for longer than this service allows (366 days); "
        "get one that expires sooner."
    )
    year = int(time.time()) + 365 * 86400
    assert httpx.get(service.url + "/models", headers=_token(service, exp=year)).status_code == 200


@pytest.mark.parametrize(
    "claims",
    [
        {"sub": "ali\x00ce"},
        {"sub": "\u202eecila"},
        {"sub": "alice smith"},
        {"sub": "x" * 257},
        {"org_id": "\ud800"},
        {"org_id": "acme\n"},
    ],
    ids=["NUL", "RTL override", "space", "too long", "surrogate", "newline"],
)
def test_sub_and_org_id_must_be_printable_identifiers(
    service: Service, claims: dict[str, str]
) -> None:
    response = httpx.get(service.url + "/workspaces", headers=_token(service, **claims))
    assert response.status_code == 401
    assert "printable identifiers" in response.json()["detail"]
