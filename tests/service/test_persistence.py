"""Data survives a restart: stop the service, start it again on the same data dir."""

from __future__ import annotations

import json
from pathlib import Path

import httpx

from support.platform import stored, with_vectors
from support.service import running_service


def test_everything_survives_a_restart(tmp_path: Path, org: str) -> None:
    data = tmp_path / "data"
    with running_service(data) as first:
        with httpx.Client(base_url=first.url, headers=first.headers("ann", org)) as ann:
            assert ann.post("/workspaces", json={"id": "keep", "name": "Keep"}).status_code == 200
            ann.post("/workspaces/keep/user", json={"user": "bob", "access": "writer"})
            uploaded = ann.post(
                "/files",
                files=[("file", ("one.txt", b"first file")), ("file", ("two.csv", b"a,b\n1,2\n"))],
                data={"workspace": "keep", "metadata": '{"v": 1}'},
                headers={"Idempotency-Key": "restart-key"},
            )
            assert uploaded.status_code == 200
            (one, two) = uploaded.json()
            ann.patch(f"/files/{two['id']}/metadata", params={"workspace": "keep"}, json={"v": 2})
            # the rows are compared whole: the background embedder's work done first
            with_vectors(ann, [one, two])
            seen = {
                "workspaces": ann.get("/workspaces").json(),
                "users": ann.get("/workspaces/keep/users").json(),
                "files": ann.get("/files", params={"workspace": "keep"}).json(),
            }
        rows = stored(first, org)
        runtime = json.loads((data / "service.json").read_text())
        assert runtime["url"] == first.url
    assert not (data / "service.json").exists()

    with running_service(data) as second:
        assert json.loads((data / "service.json").read_text())["pid"] == second.process.pid
        assert stored(second, org) == rows
        with httpx.Client(base_url=second.url, headers=second.headers("ann", org)) as ann:
            assert ann.get("/workspaces").json() == seen["workspaces"]
            assert ann.get("/workspaces/keep/users").json() == seen["users"]
            files = ann.get("/files", params={"workspace": "keep"}).json()
            assert files == seen["files"]
            assert {f["id"]: f["metadata"] for f in files["data"]} == {
                one["id"]: {"v": 1},
                two["id"]: {"v": 2},
            }
            content = ann.get(f"/files/{one['id']}/content", params={"workspace": "keep"})
            assert content.content == b"first file"
            replay = ann.post(
                "/files",
                files=[("file", ("one.txt", b"first file")), ("file", ("two.csv", b"a,b\n1,2\n"))],
                data={"workspace": "keep", "metadata": '{"v": 1}'},
                headers={"Idempotency-Key": "restart-key"},
            )
            assert replay.headers["idempotent-replayed"] == "true"
            assert replay.json() == uploaded.json()
        with httpx.Client(base_url=second.url, headers=second.headers("bob", org)) as bob:
            assert bob.get("/files", params={"workspace": "keep"}).json()["total"] == 2
