"""Files (docs/interface.md#files): list with filters and cursors, get, delete, content with
ranges, and metadata patches. Uploading itself is in ``test_uploads.py``."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from support.platform import blob_files, blob_of, stored, upload, write
from support.service import Service, running_service


def _ids(page: dict) -> list[str]:
    return [f["id"] for f in page["data"]]


@pytest.fixture
def five(alice: httpx.Client) -> list[dict]:
    """Five files in two uploads, with metadata to filter on; oldest first by (created_at, id)."""
    first = upload(alice, ("a.txt", b"a"), ("b.txt", b"b"), metadata='{"lang": "de", "n": 1}')
    second = upload(
        alice,
        ("c.txt", b"c"),
        ("d.txt", b"d"),
        ("e.csv", b"x,y\n1,2\n"),
        metadata='{"lang": "fr", "n": 2, "ok": true}',
    )
    return sorted(first + second, key=lambda f: (f["created_at"], f["id"]))


def test_get_and_list(alice: httpx.Client, five: list[dict], org: str) -> None:
    page = alice.get("/files").json()
    assert page["object"] == "list"
    assert page["total"] == 5
    assert _ids(page) == [f["id"] for f in reversed(five)]
    assert (page["first_id"], page["last_id"], page["has_more"]) == (
        five[-1]["id"],
        five[0]["id"],
        False,
    )
    one = alice.get(f"/files/{five[0]['id']}").json()
    assert one == five[0]
    assert (one["org_id"], one["workspace_id"], one["user_id"]) == (org, "default", "alice")
    assert alice.get("/files", params={"order": "asc"}).json()["data"] == five


def test_cursor_pagination(alice: httpx.Client, five: list[dict]) -> None:
    ids = [f["id"] for f in five]
    seen: list[str] = []
    after = None
    while True:
        params = {"order": "asc", "limit": 2} | ({"after": after} if after else {})
        page = alice.get("/files", params=params).json()
        assert page["total"] == 5
        seen += _ids(page)
        if not page["has_more"]:
            break
        after = page["last_id"]
    assert seen == ids
    desc = alice.get("/files", params={"limit": 3, "after": ids[3]}).json()
    assert _ids(desc) == [ids[2], ids[1], ids[0]]
    assert desc["has_more"] is False
    last = alice.get("/files", params={"order": "asc", "after": ids[-1]}).json()
    assert (last["data"], last["total"], last["has_more"], last["first_id"]) == ([], 5, False, None)


def test_unknown_cursor_is_404(alice: httpx.Client, five: list[dict]) -> None:
    response = alice.get("/files", params={"after": "file-doesnotexist"})
    assert response.status_code == 404
    assert "file-doesnotexist" in response.json()["detail"]


def test_filters(alice: httpx.Client, five: list[dict]) -> None:
    def listed(**params: str) -> tuple[int, set[str]]:
        page = alice.get("/files", params=params).json()
        return page["total"], {f["filename"] for f in page["data"]}

    assert listed(metadata='{"lang": "de"}') == (2, {"a.txt", "b.txt"})
    assert listed(metadata='{"lang": ["de", "fr"], "n": 2}') == (3, {"c.txt", "d.txt", "e.csv"})
    assert listed(metadata='{"ok": true}') == (3, {"c.txt", "d.txt", "e.csv"})
    assert listed(metadata='{"ok": 1}') == (0, set())  # true is not 1
    assert listed(metadata='{"n": 1.0}') == (2, {"a.txt", "b.txt"})
    assert listed(metadata='{"missing": "x"}') == (0, set())
    assert listed(metadata="{}") == (5, {f["filename"] for f in five})
    assert listed(purpose="user_data")[0] == 5
    assert listed(purpose="assistants") == (0, set())
    page = alice.get(
        "/files", params={"metadata": '{"lang": "fr"}', "limit": 2, "order": "asc"}
    ).json()
    assert (page["total"], len(page["data"]), page["has_more"]) == (3, 2, True)
    rest = alice.get(
        "/files", params={"metadata": '{"lang": "fr"}', "order": "asc", "after": page["last_id"]}
    ).json()
    expected = [f["filename"] for f in five if f["metadata"]["lang"] == "fr"]
    assert [f["filename"] for f in page["data"] + rest["data"]] == expected


@pytest.mark.parametrize(
    ("params", "loc", "kind"),
    [
        ({"metadata": "not json"}, ["query", "metadata"], "json_invalid"),
        ({"metadata": "[1, 2]"}, ["query", "metadata"], "dict_type"),
        ({"limit": "0"}, ["query", "limit"], "greater_than_equal"),
        ({"limit": "10001"}, ["query", "limit"], "less_than_equal"),
        ({"limit": "ten"}, ["query", "limit"], "int_parsing"),
        ({"order": "up"}, ["query", "order"], "literal_error"),
        ({"workspace": "No Such"}, ["query", "workspace"], "string_pattern_mismatch"),
    ],
)
def test_bad_list_queries_are_422(alice: httpx.Client, params: dict, loc: list, kind: str) -> None:
    response = alice.get("/files", params=params)
    assert response.status_code == 422
    (item,) = response.json()["detail"]
    assert (item["loc"], item["type"], set(item)) == (loc, kind, {"loc", "msg", "type"})


def test_workspace_scoping(alice: httpx.Client, service: Service, org: str) -> None:
    assert alice.post("/workspaces", json={"id": "other", "name": "Other"}).status_code == 200
    (mine,) = upload(alice, ("x.txt", b"x"), workspace="other")
    assert mine["workspace_id"] == "other"
    assert alice.get("/files").json()["total"] == 0
    assert alice.get("/files", params={"workspace": "other"}).json()["total"] == 1
    before = stored(service, org)
    for response in (
        alice.get(f"/files/{mine['id']}"),
        alice.get(f"/files/{mine['id']}/content"),
        alice.delete(f"/files/{mine['id']}"),
        alice.patch(f"/files/{mine['id']}/metadata", json={"a": "b"}),
    ):
        assert response.status_code == 404
        assert response.json()["detail"] == (
            f"File '{mine['id']}' not found in workspace 'default'."
        )
    assert stored(service, org) == before
    assert alice.get(f"/files/{mine['id']}", params={"workspace": "other"}).json() == mine


def test_delete_removes_row_passages_and_blob(
    alice: httpx.Client, service: Service, org: str
) -> None:
    (doc,) = upload(alice, ("story.txt", b"Once upon a time there was a fox. " * 50))
    held = stored(service, org)
    assert any(p[1] == doc["id"] for p in held["passages"])
    blob = blob_of(service, doc["id"])
    assert blob in blob_files(service)
    response = alice.delete(f"/files/{doc['id']}")
    assert response.status_code == 200
    assert response.json() == {"id": doc["id"], "object": "file", "deleted": True}
    after = stored(service, org)
    assert (after["files"], after["passages"]) == ([], [])
    assert blob not in blob_files(service)
    assert alice.get(f"/files/{doc['id']}").status_code == 404
    assert alice.delete(f"/files/{doc['id']}").status_code == 404


def test_content_headers(alice: httpx.Client) -> None:
    data = "naïve,café\n1,2\n".encode()
    (csv,) = upload(alice, ("Résumé 2024 (final).csv", data))
    response = alice.get(f"/files/{csv['id']}/content")
    assert response.status_code == 200
    assert response.content == data
    assert response.headers["content-type"] == "text/csv"
    assert response.headers["content-length"] == str(len(data))
    assert response.headers["content-disposition"] == (
        "attachment; filename*=UTF-8''R%C3%A9sum%C3%A9%202024%20%28final%29.csv"
    )
    (blob,) = upload(alice, ("blob.unknownext", b"\x00\x01\x02"))
    raw = alice.get(f"/files/{blob['id']}/content")
    assert raw.headers["content-type"] == "application/octet-stream"
    assert raw.content == b"\x00\x01\x02"


def test_ranges(alice: httpx.Client) -> None:
    data = bytes(range(256)) * 4
    (f,) = upload(alice, ("bytes.bin", data))
    url = f"/files/{f['id']}/content"

    def get(range_header: str) -> httpx.Response:
        return alice.get(url, headers={"Range": range_header})

    part = get("bytes=10-19")
    assert part.status_code == 206
    assert part.content == data[10:20]
    assert part.headers["content-range"] == f"bytes 10-19/{len(data)}"
    assert part.headers["content-length"] == "10"
    assert get("bytes=1000-").content == data[1000:]
    assert get("bytes=-5").content == data[-5:]
    assert get("bytes=1020-5000").content == data[1020:]
    # Several ranges, or one that does not parse, are ignored: the whole file comes back.
    for ignored in ("bytes=0-1,5-6", "bytes=9-3", "items=0-5", "bytes=x-y"):
        whole = get(ignored)
        assert (whole.status_code, whole.content) == (200, data)
    past = get("bytes=5000-")
    assert past.status_code == 416
    assert past.headers["content-range"] == f"bytes */{len(data)}"
    assert "past the end" in past.json()["detail"]


def test_patch_metadata_merges_and_removes(alice: httpx.Client) -> None:
    (f,) = upload(alice, ("m.txt", b"m"), metadata='{"keep": 1, "drop": "x", "change": "old"}')
    patched = alice.patch(
        f"/files/{f['id']}/metadata", json={"drop": None, "change": "new", "nested": {"a": [1, 2]}}
    )
    assert patched.status_code == 200
    assert patched.json()["metadata"] == {"keep": 1, "change": "new", "nested": {"a": [1, 2]}}
    assert patched.json()["status_details"] == ""
    assert alice.get(f"/files/{f['id']}").json()["metadata"] == patched.json()["metadata"]
    assert alice.patch(f"/files/{f['id']}/metadata", json={}).json() == patched.json()


def test_patch_with_instructions_derives_metadata(alice: httpx.Client) -> None:
    text = b"Quarterly report\n\nRevenue grew in every region. Costs fell.\n"
    (f,) = upload(alice, ("report.txt", text), metadata='{"owner": "alice"}')
    patched = alice.patch(
        f"/files/{f['id']}/metadata",
        json={"instructions": "Give the title and count the lines", "owner": "bob"},
    ).json()
    assert "instructions" not in patched["metadata"]
    assert patched["metadata"]["owner"] == "bob"  # explicit keys win over derived ones
    assert set(patched["metadata"]) > {"owner"}
    assert patched["status_details"]
    bad = alice.patch(f"/files/{f['id']}/metadata", json={"instructions": 42})
    assert bad.status_code == 422
    assert bad.json()["detail"][0]["loc"] == ["body", "instructions"]


@pytest.mark.parametrize(
    ("kwargs", "loc", "kind"),
    [
        ({"json": [1, 2]}, ["body"], "dict_type"),
        (
            {"content": b"{oops", "headers": {"content-type": "application/json"}},
            ["body", 1],
            "json_invalid",
        ),
        ({"data": {"a": "b"}}, ["body"], "dict_type"),
        ({"json": {f"k{i}": i for i in range(10_000)}}, ["body"], "value_error"),
        ({"json": {"x" * 200: 1}}, ["body"], "value_error"),
        ({"json": {"big": "v" * 70_000}}, ["body"], "value_error"),
    ],
)
def test_bad_patches_are_422_and_change_nothing(
    alice: httpx.Client, service: Service, org: str, kwargs: dict, loc: list, kind: str
) -> None:
    (f,) = upload(alice, ("p.txt", b"p"), metadata='{"a": 1}')
    before = stored(service, org)
    response = alice.patch(f"/files/{f['id']}/metadata", **kwargs)
    assert response.status_code == 422
    (item,) = response.json()["detail"]
    assert (item["loc"], item["type"]) == (loc, kind)
    assert stored(service, org) == before


def test_readers_read_but_do_not_write(client_of: Callable[[str], httpx.Client]) -> None:
    ann, rita = client_of("ann"), client_of("rita")
    ann.post("/workspaces", json={"id": "lib", "name": "Library"})
    ann.post("/workspaces/lib/user", json={"user": "rita", "access": "reader"})
    (f,) = upload(ann, ("book.txt", b"a book"), workspace="lib")
    q = {"workspace": "lib"}
    assert rita.get("/files", params=q).json()["total"] == 1
    assert rita.get(f"/files/{f['id']}", params=q).status_code == 200
    assert rita.get(f"/files/{f['id']}/content", params=q).content == b"a book"
    assert rita.patch(f"/files/{f['id']}/metadata", params=q, json={"a": 1}).status_code == 403
    assert rita.delete(f"/files/{f['id']}", params=q).status_code == 403
    assert ann.get(f"/files/{f['id']}", params=q).json()["metadata"] == {}


def test_retention_sets_expiry_and_expired_files_vanish(tmp_path: Path, org: str) -> None:
    with (
        running_service(tmp_path / "data", "--retention-days", "2") as svc,
        httpx.Client(base_url=svc.url, headers=svc.headers("alice", org)) as client,
    ):
        (f,) = upload(client, ("t.txt", b"t"))
        assert f["expires_at"] - f["created_at"] == 2 * 86400
        assert abs(f["created_at"] - time.time()) < 60
    # Expiry itself is checked against the stored row: push it into the past, restart.
    write(svc, "UPDATE files SET expires_at = 1 WHERE id = :id", id=f["id"])
    with running_service(tmp_path / "data") as svc:
        with httpx.Client(base_url=svc.url, headers=svc.headers("alice", org)) as client:
            assert client.get(f"/files/{f['id']}").status_code == 404
            assert client.get("/files").json()["total"] == 0
        assert blob_files(svc) == []
        svc.wait_for_log("1 expired file(s)")


def test_no_retention_means_no_expiry(alice: httpx.Client) -> None:
    (f,) = upload(alice, ("n.txt", b"n"))
    assert f["expires_at"] is None
    assert json.loads(json.dumps(f))["status"] == "uploaded"
