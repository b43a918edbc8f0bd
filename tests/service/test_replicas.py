"""Two replicas behind nginx on PostgreSQL and SeaweedFS (docs/deploy.md), real processes.

The deployment (:func:`support.replicas.running_deployment`: ``deploy/nginx.conf`` in
front of two ``chatspace serve``, one database, one bucket) is this module's ``service``,
so a representative part of the service suite runs here again, unchanged, through the
proxy: the same test functions, taken from their modules below (tokens, workspaces,
files with ranges and paging, streamed chat, idempotency). Then what only replicas can
break: a file or an ``Idempotency-Key`` moving from one replica to the other, the rate
limit counted on both, 16 concurrent writers, a replica killed mid-upload, and the
housekeeping lease moving to the survivor when its holder dies.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import psutil
import pytest
import test_auth
import test_files
import test_idempotency
import test_streaming
import test_workspaces

from chatspace import Client
from chatspace.service.housekeeping import LEASE_INTERVALS
from chatspace.service.store.blobs import LocalBlobStore
from chatspace.service.store.blobs_s3 import STALE_UPLOAD_SECONDS, S3BlobStore, parse_url
from support import engines
from support.platform import blob_files, incoming_files, rows, wait_until
from support.replicas import Deployment, running_deployment, running_nginx
from support.service import Service, new_org
from support.upstream import REPLY, FakeUpstream, closed_port

pytestmark = pytest.mark.replicas

REPOSITORY = Path(__file__).resolve().parents[2]
RATE = 400
"""Requests per caller per minute, on every replica."""
HOUSEKEEPING_SECONDS = 1.0
"""A short housekeeping interval, so that a lease runs out within the test."""


@pytest.fixture(scope="module")
def shared_engines(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[engines.TeamEngines]:
    """The run's PostgreSQL and SeaweedFS with ``--engine postgres``, else this module's."""
    if engines.current is not None:
        yield engines.current
        return
    with engines.running_team_engines(tmp_path_factory.mktemp("team-engines")) as team:
        yield team


@pytest.fixture(scope="module")
def upstream() -> Iterator[FakeUpstream]:
    """A model (``stall``) that starts a streamed answer and then sends nothing more."""
    server = FakeUpstream().start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def team(
    tmp_path_factory: pytest.TempPathFactory,
    shared_engines: engines.TeamEngines,
    upstream: FakeUpstream,
) -> Iterator[Deployment]:
    base = tmp_path_factory.mktemp("replicas")
    shared = shared_engines.service_env(base) | {
        "CHATSPACE_HOUSEKEEPING_INTERVAL": str(HOUSEKEEPING_SECONDS)
    }
    args = ("--rate-limit-per-minute", str(RATE))
    args += ("--upstream-url", upstream.url, "--upstream-model", "stall")
    args += ("--upstream-model", "first-held")
    with running_deployment(base / "team", replicas=2, env=shared, args=args) as deployment:
        yield deployment


@pytest.fixture(scope="module")
def service(team: Deployment) -> Deployment:
    """The service of the tests taken from other modules: the proxy."""
    return team


# The conformance part: these tests of other modules run here against the proxy.
five = test_files.five
client = test_streaming.client
test_every_endpoint_needs_a_token = test_auth.test_every_endpoint_needs_a_token
test_bad_tokens_are_401 = test_auth.test_bad_tokens_are_401
test_an_expired_token_says_so = test_auth.test_an_expired_token_says_so
test_a_valid_token_is_accepted = test_auth.test_a_valid_token_is_accepted_and_names_the_caller
test_create_get_and_list = test_workspaces.test_create_get_and_list
test_default_workspace_rules = test_workspaces.test_default_workspace_rules
test_get_and_list = test_files.test_get_and_list
test_cursor_pagination = test_files.test_cursor_pagination
test_filters = test_files.test_filters
test_content_headers = test_files.test_content_headers
test_ranges = test_files.test_ranges
test_patch_metadata = test_files.test_patch_metadata_merges_and_removes
test_readers_read_but_do_not_write = test_files.test_readers_read_but_do_not_write
test_framing_and_chunk_order = test_streaming.test_framing_and_chunk_order
test_usage_chunk_comes_last = test_streaming.test_usage_chunk_comes_last_when_asked
test_a_streamed_completion_is_stored = (
    test_streaming.test_a_streamed_completion_is_stored_as_streamed
)
test_a_client_leaving_mid_stream = test_streaming.test_a_client_leaving_mid_stream_harms_nothing
test_same_key_same_answer = test_streaming.test_same_key_same_answer_created_once
test_a_streamed_replay = test_streaming.test_a_streamed_replay_streams_the_same_completion
test_user_addition_is_replayed = test_idempotency.test_user_addition_is_replayed
test_keys_belong_to_their_caller = test_idempotency.test_keys_belong_to_their_caller
test_failed_requests_are_not_remembered = test_idempotency.test_failed_requests_are_not_remembered


def _client(url: str, team: Deployment, org: str, user: str = "alice") -> httpx.Client:
    return httpx.Client(base_url=url, headers=team.headers(user, org), timeout=60)


@pytest.fixture
def replica_clients(team: Deployment, org: str) -> Iterator[list[httpx.Client]]:
    """A client of alice in this test's org for each replica, straight to it."""
    clients = [_client(replica.url, team, org) for replica in team.replicas]
    yield clients
    for each in clients:
        each.close()


def _all(client: httpx.Client, path: str) -> list[dict[str, Any]]:
    """Every item of a paged list, following ``after`` (100 a page)."""
    found: list[dict[str, Any]] = []
    params: dict[str, Any] = {"limit": 100}
    while True:
        page = client.get(path, params=params)
        assert page.status_code == 200, page.text
        body = page.json()
        found += body["data"]
        if not body.get("has_more"):
            return found
        params["after"] = body["last_id"]


def test_answers_pass_the_proxy_with_their_request_id(team: Deployment, org: str) -> None:
    with _client(team.url, team, org) as proxy:
        answers = [proxy.get("/models") for _ in range(6)]
    ids = [a.headers["x-request-id"] for a in answers]
    assert all(a.status_code == 200 for a in answers)
    assert all(i.startswith("req_") for i in ids)
    # nginx writes a request's line once its answer is sent: the client may read first
    log = wait_until(
        lambda: (
            (text := "\n".join(team.proxy.access_log()))
            and all(f"request_id={i}" in text for i in ids)
            and text
        )
    )
    # Round robin: both replicas answered.
    for replica in team.replicas:
        assert f"upstream={replica.url.removeprefix('http://')}" in log


def test_a_stream_reaches_the_client_while_the_model_still_writes(
    team: Deployment, org: str
) -> None:
    """The ``stall`` model starts its answer and then sends nothing: the first event must
    get through the proxy all the same (a buffering proxy would hold it until the end,
    which never comes)."""
    body = {"model": "stall", "messages": [{"role": "user", "content": "Hi"}], "stream": True}
    with (
        _client(team.url, team, org) as proxy,
        proxy.stream("POST", "/chat/completions", json=body, timeout=10) as response,
    ):
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        first = next(line for line in response.iter_lines() if line)
    chunk = json.loads(first.removeprefix("data: "))
    assert chunk["object"] == "chat.completion.chunk"
    assert chunk["choices"][0]["delta"]["role"] == "assistant"


def test_an_upload_streams_through_the_proxy(team: Deployment, org: str) -> None:
    """The client sends half of a file and waits: a replica must hold that half already
    (a proxy that buffers bodies would pass on nothing before the last byte)."""
    half = 4 * 1024 * 1024
    arrived = threading.Event()
    in_time: list[bool] = []

    def halves() -> Iterator[bytes]:  # not UTF-8: no text to extract and index
        yield b"\xff" * half
        in_time.append(arrived.wait(timeout=20))
        yield b"\xfe" * half

    def watch() -> None:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not arrived.is_set():
            if sum(_spooled(replica) for replica in team.replicas) >= half:
                arrived.set()
            time.sleep(0.01)

    watcher = threading.Thread(target=watch)
    watcher.start()
    answer = httpx.post(
        team.url + "/files",
        content=_form("cut", "halves.bin", halves()),
        headers={**team.headers("alice", org), "Content-Type": "multipart/form-data; boundary=cut"},
        timeout=60,
    )
    watcher.join()
    assert in_time == [True], "no replica received the first half before the second was sent"
    assert answer.status_code == 200, answer.text
    assert answer.json()[0]["bytes"] == 2 * half


def _check_error_shape(answer: httpx.Response, kind: str) -> None:
    body = answer.json()
    assert body == {
        "detail": body["detail"],
        "error": {"message": body["detail"], "type": kind, "code": None},
    }


def test_the_proxys_own_errors_keep_the_services_shape(
    team: Deployment, org: str, tmp_path: Path
) -> None:
    # A body over client_max_body_size is refused on its Content-Length, before any byte.
    with socket.create_connection(("127.0.0.1", int(team.url.rsplit(":", 1)[1]))) as sock:
        sock.sendall(
            b"POST /files HTTP/1.1\r\nHost: proxy\r\nContent-Length: 1000000000\r\n"
            b"Authorization: Bearer " + team.token("alice", org).encode() + b"\r\n"
            b"Content-Type: multipart/form-data; boundary=x\r\n\r\n"
        )
        head, _, body = sock.recv(65536).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413 ")
    assert b"content-type: application/json" in head.lower()
    _check_error_shape(httpx.Response(413, content=body), "request_too_large")
    # No replica to answer.
    with running_nginx(tmp_path / "nginx", upstreams=[f"127.0.0.1:{closed_port()}"]) as alone:
        answer = httpx.get(alone.url + "/models", headers=team.headers("alice", org))
    assert answer.status_code == 502
    _check_error_shape(answer, "upstream_error")


def test_a_file_moves_between_replicas(
    team: Deployment, org: str, replica_clients: list[httpx.Client]
) -> None:
    a, b = replica_clients
    data = os.urandom(6 * 1024 * 1024 + 17)  # two parts of a multipart upload
    uploaded = a.post("/files", files={"file": ("big.bin", data)})
    assert uploaded.status_code == 200, uploaded.text
    (file,) = uploaded.json()
    content = f"/files/{file['id']}/content"
    assert b.get(content).content == data
    part = b.get(content, headers={"Range": "bytes=5242870-5242889"})
    assert (part.status_code, part.content) == (206, data[5242870:5242890])
    assert part.headers["content-range"] == f"bytes 5242870-5242889/{len(data)}"
    (blob,) = rows(team.replicas[0], "SELECT blob FROM files WHERE id = :i", i=file["id"])[0]
    assert blob in blob_files(team.replicas[0])

    assert b.delete(f"/files/{file['id']}").status_code == 200
    assert a.get(f"/files/{file['id']}").status_code == 404
    assert a.get(content).status_code == 404
    assert a.get("/files").json()["total"] == 0
    assert blob not in blob_files(team.replicas[0])


def test_an_idempotency_key_replayed_to_the_other_replica_gets_the_first_answer(
    replica_clients: list[httpx.Client],
) -> None:
    a, b = replica_clients
    body = {"messages": [{"role": "user", "content": "Say hello"}], "store": True}
    key = {"Idempotency-Key": "chat-1"}
    first = a.post("/chat/completions", json=body, headers=key)
    assert first.status_code == 200, first.text
    assert "idempotent-replayed" not in first.headers
    again = b.post("/chat/completions", json=body, headers=key)
    assert (again.status_code, again.headers["idempotent-replayed"]) == (200, "true")
    assert again.json() == first.json()
    assert [c["id"] for c in _all(b, "/chat/completions")] == [first.json()["id"]]
    other = b.post("/chat/completions", json={**body, "store": False}, headers=key)
    assert other.status_code == 409


def test_concurrent_requests_with_one_key_on_both_replicas_create_once(
    replica_clients: list[httpx.Client],
) -> None:
    def send(i: int) -> httpx.Response:
        return replica_clients[i % 2].post(
            "/files",
            files={"file": ("same.txt", b"same bytes" * 1000)},
            headers={"Idempotency-Key": "race"},
        )

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(send, range(8)))
    assert [a.status_code for a in answers] == [200] * 8
    assert sum("idempotent-replayed" not in a.headers for a in answers) == 1
    assert len({a.text for a in answers}) == 1
    assert replica_clients[0].get("/files").json()["total"] == 1


def test_the_rate_limit_counts_a_caller_on_every_replica(
    team: Deployment, replica_clients: list[httpx.Client], org: str
) -> None:
    statuses = [replica_clients[i % 2].get("/models").status_code for i in range(RATE)]
    assert statuses == [200] * RATE  # each replica let half through: the sum is the limit
    with _client(team.url, team, org) as proxy:
        for over in (*(c.get("/models") for c in replica_clients), proxy.get("/models")):
            assert over.status_code == 429
            assert 1 <= int(over.headers["retry-after"]) <= 60
            assert f"{RATE} requests per minute" in over.json()["detail"]
        # Another caller is not held back.
        with _client(team.url, team, org, "bob") as bob:
            assert bob.get("/models").status_code == 200


WRITERS = 16
WRITE_SECONDS = 5.0


Acked = dict[str, list[str]]


def _write_for(team: Deployment, n: int, until: float) -> tuple[str, Acked, list[object]]:
    """Writer ``n`` through the proxy, in an org of its own: workspaces, files and stored
    completions in turn until ``until``; its org, what was acknowledged, what failed."""
    org = new_org()
    acked: Acked = {"workspaces": [], "files": [], "completions": []}
    failed: list[object] = []
    with _client(team.url, team, org, f"writer-{n}") as client:
        i = 0
        while time.monotonic() < until:
            kind = ("workspaces", "files", "completions")[i % 3]
            try:
                if kind == "workspaces":
                    answer = client.post("/workspaces", json={"id": f"w{i}", "name": f"W {i}"})
                    made = f"w{i}"
                elif kind == "files":
                    answer = client.post("/files", files={"file": (f"f{i}.txt", b"x" * i)})
                    made = answer.json()[0]["id"] if answer.status_code == 200 else ""
                else:
                    body = {"messages": [{"role": "user", "content": f"Q{i}"}], "store": True}
                    answer = client.post("/chat/completions", json=body)
                    made = answer.json()["id"] if answer.status_code == 200 else ""
            except httpx.HTTPError as exc:
                failed.append((kind, repr(exc)))
            else:
                if answer.status_code == 200:
                    acked[kind].append(made)
                else:
                    failed.append((kind, answer.status_code))
            i += 1
    return org, acked, failed


def test_concurrent_writers_on_both_replicas_lose_and_double_nothing(team: Deployment) -> None:
    until = time.monotonic() + WRITE_SECONDS
    with ThreadPoolExecutor(WRITERS) as pool:
        results = list(pool.map(lambda n: _write_for(team, n, until), range(WRITERS)))
    assert [failed for _, _, failed in results] == [[]] * WRITERS
    total = 0
    for n, (org, acked, _) in enumerate(results):
        with _client(team.url, team, org, f"writer-{n}") as proxy:
            found = {
                "files": [f["id"] for f in proxy.get("/files").json()["data"]],
                "completions": [c["id"] for c in _all(proxy, "/chat/completions")],
                "workspaces": [w["id"] for w in proxy.get("/workspaces").json()["data"]],
            }
        found["workspaces"].remove("default")
        for kind, ids in acked.items():
            assert sorted(found[kind]) == sorted(ids), kind  # all there, none twice
            assert len(set(ids)) == len(ids)
            total += len(ids)
    posts = [line for line in team.proxy.access_log() if '"POST ' in line]
    for replica in team.replicas:
        assert any(f"upstream={replica.url.removeprefix('http://')}" in p for p in posts)
    kinds = {kind: sum(len(acked[kind]) for _, acked, _ in results) for kind in results[0][1]}
    print(f"{WRITERS} writers, {WRITE_SECONDS:g} s: {total} writes acknowledged {kinds}, all found")
    assert total >= WRITERS


def _lease_holder(team: Deployment) -> int | None:
    """The index of the replica holding the housekeeping lease now, if any."""
    found = rows(
        team.replicas[0],
        "SELECT holder FROM leases WHERE name = 'housekeeping' AND expires_at > :now",
        now=time.time(),
    )
    if not found:
        return None
    holder = str(found[0][0])  # host:data-dir
    dirs = [f":{replica.data_dir.resolve()}" for replica in team.replicas]
    return next(i for i, data_dir in enumerate(dirs) if holder.endswith(data_dir))


def _count(service: Service, text: str) -> int:
    with service.log_changed:
        return sum(text in line for line in service.log)


def _wait_for_more(service: Service, text: str, seen: int, timeout: float) -> None:
    with service.log_changed:
        if not service.log_changed.wait_for(lambda: _count(service, text) > seen, timeout):
            raise AssertionError(f"{text!r} not printed again within {timeout} s")


def _keep_asking(urls_and_headers: list[tuple[str, dict[str, str]]], stop: threading.Event):
    """Requests every 50 ms to each URL until ``stop``; the answers (a status or an error)."""
    answers: list[object] = []

    def ask() -> None:
        with httpx.Client(timeout=10) as http:
            while not stop.is_set():
                for url, headers in urls_and_headers:
                    try:
                        answers.append(http.get(url, headers=headers).status_code)
                    except httpx.HTTPError as exc:
                        answers.append(repr(exc))
                time.sleep(0.05)

    thread = threading.Thread(target=ask)
    thread.start()
    return thread, answers


def _form(boundary: str, filename: str, parts: Iterator[bytes]) -> Iterator[bytes]:
    """A multipart form of one file whose bytes are ``parts``, sent as they come."""
    yield (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"'
        "\r\nContent-Type: application/octet-stream\r\n\r\n"
    ).encode()
    yield from parts
    yield f"\r\n--{boundary}--\r\n".encode()


def _random_mib(size: int, sent: list[int]) -> Iterator[bytes]:
    """``size`` bytes, 1 MiB every 10 ms; ``sent[0]`` counts them."""
    chunk = os.urandom(1024 * 1024)
    while sent[0] < size:
        yield chunk
        sent[0] += len(chunk)
        time.sleep(0.01)


def _spooled(service: Service) -> int:
    """Bytes of the uploads in progress in the service's data dir."""
    total = 0
    for part in (service.data_dir / "blobs" / ".incoming").glob("*.part"):
        with contextlib.suppress(FileNotFoundError):  # an upload that just ended
            total += part.stat().st_size
    return total


def test_a_replica_killed_mid_upload_leaves_nothing_and_the_other_serves(
    team: Deployment, shared_engines: engines.TeamEngines, org: str, tmp_path: Path
) -> None:
    holder = _lease_holder(team)
    victim_index = 1 if holder == 0 else 0  # the lease stays put: this is about the upload
    victim, survivor = team.replicas[victim_index], team.replicas[1 - victim_index]
    headers = team.headers("alice", org)
    stop = threading.Event()
    prober, answers = _keep_asking(
        [
            (team.url + "/files", team.headers("prober", org)),
            (survivor.url + "/models", team.headers("prober-2", org)),
        ],
        stop,
    )
    sent = [0]
    failure: list[BaseException] = []

    def upload() -> None:
        body = _form("cut-here", "huge.bin", _random_mib(256 * 1024 * 1024, sent))
        try:
            httpx.post(
                victim.url + "/files",
                content=body,
                headers={**headers, "Content-Type": "multipart/form-data; boundary=cut-here"},
                timeout=30,
            )
        except httpx.HTTPError as exc:
            failure.append(exc)

    uploader = threading.Thread(target=upload)
    uploader.start()
    deadline = time.monotonic() + 30
    while _spooled(victim) < 8 * 1024 * 1024:  # a 5 MiB part is in the bucket
        assert time.monotonic() < deadline, "the upload did not start"
        time.sleep(0.01)
    victim.process.kill()
    killed_at = time.monotonic()
    uploader.join(timeout=30)
    time.sleep(1.5)  # the survivor keeps serving, through the proxy and straight
    stop.set()
    prober.join()

    assert failure, "the upload to the killed replica cannot have succeeded"
    assert answers, "the survivor was asked"
    assert set(answers) == {200}, [a for a in answers if a != 200]
    print(
        f"killed after {sent[0] >> 20} MiB sent ({_spooled(victim) >> 20} MiB spooled); "
        f"{len(answers)} requests answered 200 meanwhile"
    )

    # Nothing partial: no row; in the bucket only objects that rows name, and the cut
    # upload as an unfinished multipart upload (never an object), which the sweep aborts.
    with _client(team.url, team, org) as proxy:
        assert proxy.get("/files").json()["total"] == 0
    assert rows(survivor, "SELECT count(*) FROM files WHERE org_id = :o", o=org) == [(0,)]
    referenced = {blob for (blob,) in rows(survivor, "SELECT blob FROM files")}
    stored = blob_files(survivor)
    unfinished = [name for name in stored if name.startswith("(open upload)")]
    assert {name for name in stored if name not in unfinished} == referenced
    assert len(unfinished) == 1, stored
    bucket, prefix = parse_url(team.env["CHATSPACE_BLOB_STORE"])
    store = S3BlobStore(
        shared_engines.s3.client(), bucket, prefix, spool=LocalBlobStore(tmp_path / "spool")
    )
    removed = store.sweep(referenced=referenced, now=time.time() + STALE_UPLOAD_SECONDS + 60)
    assert [name for name in removed if "unfinished" in name] != []
    assert blob_files(survivor) == sorted(referenced)

    # Started again on its port and data dir, it removes the spool file of its dead self.
    assert _spooled(victim) > 0
    restarted = team.restart(victim_index)
    assert incoming_files(restarted) == []
    assert httpx.get(restarted.url + "/models", headers=headers).status_code == 200
    assert time.monotonic() - killed_at < 60


def _talking_to(team: Deployment, upstream: FakeUpstream) -> int:
    """The index of the replica with a connection open to the upstream model."""
    port = int(upstream.url.rsplit(":", 1)[1].split("/")[0])
    for index, replica in enumerate(team.replicas):
        connections = psutil.Process(replica.process.pid).net_connections("tcp")
        if any(c.raddr and c.raddr.port == port for c in connections):
            return index
    raise AssertionError("no replica is talking to the upstream model")


def test_a_post_cut_by_its_replicas_death_is_a_502_and_the_retry_completes_it_once(
    team: Deployment, upstream: FakeUpstream, org: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The replica holding a stored completion (its model call held open) is killed: the
    proxy answers 502, the client retries under the same Idempotency-Key, the other
    replica completes it, and one completion is stored."""
    caplog.set_level(logging.INFO, logger="chatspace")
    done: list[Any] = []
    client = Client(base_url=team.url, token=team.token("alice", org), max_retries=3)
    question = [{"role": "user", "content": "Which desert is the largest?"}]

    def ask() -> None:
        done.append(client.chat.create(model="first-held", messages=question, store=True))

    asker = threading.Thread(target=ask)
    asker.start()
    wait_until(lambda: any(r["body"]["model"] == "first-held" for r in upstream.requests))
    victim_index = _talking_to(team, upstream)
    team.replicas[victim_index].process.kill()
    asker.join(timeout=60)
    client.close()
    try:
        (completion,) = done
        assert completion.choices[0].message.content == REPLY
        retried = [r.getMessage() for r in caplog.records if "Retrying" in r.getMessage()]
        (retry,) = retried
        assert "502" in retry
        assert sum(r["body"]["model"] == "first-held" for r in upstream.requests) == 2
        survivor = team.replicas[1 - victim_index]
        assert rows(survivor, "SELECT id FROM completions WHERE org_id = :o", o=org) == [
            (completion.id,)
        ]
        assert rows(survivor, "SELECT count(*) FROM idempotency_keys WHERE org_id = :o", o=org) == [
            (1,)
        ]
    finally:
        team.restart(victim_index)


def test_housekeeping_moves_to_another_replica_when_its_holder_dies(
    team: Deployment, org: str
) -> None:
    deadline = time.monotonic() + 10
    while (holder := _lease_holder(team)) is None:
        assert time.monotonic() < deadline, "no replica holds the housekeeping lease"
        time.sleep(0.2)
    heir = team.replicas[1 - holder]
    took_over = "runs the housekeeping now"
    seen = _count(heir, took_over)
    team.replicas[holder].process.kill()
    killed = time.monotonic()
    limit = (LEASE_INTERVALS + 1) * HOUSEKEEPING_SECONDS + 5
    _wait_for_more(heir, took_over, seen, timeout=limit)
    print(f"the housekeeping lease moved {time.monotonic() - killed:.1f} s after SIGKILL")
    assert _lease_holder(team) == 1 - holder
    # Restarted, the dead holder's replica does not take the lease back while it is held.
    restarted = team.restart(holder)
    time.sleep(2 * HOUSEKEEPING_SECONDS)  # a turn at start, and one or two more
    assert _count(restarted, took_over) == 0
    assert _lease_holder(team) == 1 - holder
    with _client(team.url, team, org) as proxy:
        assert proxy.get("/models").status_code == 200


@pytest.fixture(scope="module")
def plain_team(
    tmp_path_factory: pytest.TempPathFactory, shared_engines: engines.TeamEngines
) -> Iterator[Deployment]:
    """Two replicas as docs/deploy.md starts them: no upstream model, no rate limit."""
    base = tmp_path_factory.mktemp("plain-team")
    shared = shared_engines.service_env(base)
    with running_deployment(base / "team", replicas=2, env=shared) as deployment:
        yield deployment


def test_the_notebooks_pass_against_the_deployment(plain_team: Deployment, org: str) -> None:
    """The committed notebooks, run by nbval with ``CHATSPACE_BASE_URL`` at the proxy and
    a token of a new org, give the outputs they give on the embedded service."""
    env = dict(os.environ)
    env.update(
        CHATSPACE_NBVAL_BASE_URL=plain_team.url,
        CHATSPACE_NBVAL_TOKEN=plain_team.token("ann", org),
    )
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--nbval", "--nbval-current-env",
         "--nbval-sanitize-with", "notebooks/sanitize.cfg", "--nbval-cell-timeout=120",
         "-q", "notebooks"],
        cwd=REPOSITORY, env=env, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-8000:] + done.stderr[-2000:]
    assert " passed" in done.stdout
    assert "failed" not in done.stdout
    # the cells reached the deployment: the workspace the quickstart makes is there
    with _client(plain_team.url, plain_team, org, user="ann") as ann:
        assert {w["id"] for w in _all(ann, "/workspaces")} >= {"default", "quickstart"}
