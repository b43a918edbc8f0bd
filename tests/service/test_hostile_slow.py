"""Hostile use of resources (issue 13): clients that trickle, callers that upload too much at
once, and large bodies arriving while others are served, against the real service."""

from __future__ import annotations

import asyncio
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import pytest

from support.platform import incoming_files, wait_until
from support.service import Service, new_org, running_service

TIMEOUT = 1.0
"""The header and body timeouts of the service under test, in seconds."""
SLACK = 3.0
"""How late a cut may come on a loaded machine."""
MULTIPART = "multipart/form-data; boundary=b0undary"
FIRST_FILE_BYTES = (
    b'--b0undary\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nab'
)
"""The start of an upload: a file part's head and its first bytes."""


@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    args = ["--header-timeout", str(TIMEOUT), "--body-timeout", str(TIMEOUT)]
    with running_service(tmp_path_factory.mktemp("strict"), *args) as svc:
        yield svc


def _head(service: Service, method: str, path: str, user: str, org: str, **headers: str) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: test"]
    lines += [f"{k}: {v}" for k, v in {**service.headers(user, org), **headers}.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


async def _trickle_head(service: Service, org: str) -> float:
    """Send a request head a byte every 0.25 s; seconds until the service hangs up."""
    url = httpx.URL(service.url)
    reader, writer = await asyncio.open_connection(url.host, url.port)
    start = time.monotonic()
    head = _head(service, "GET", "/models", "alice", org)
    try:
        for byte in head[:-1]:  # never the last byte
            writer.write(bytes([byte]))
            try:
                if await asyncio.wait_for(reader.read(1), 0.25) == b"":
                    break
            except TimeoutError:
                continue
    except ConnectionError:
        pass
    writer.close()
    return time.monotonic() - start


def _started_body(service: Service, path: str, user: str, org: str) -> bytes:
    """A whole request head declaring 100000 bytes of body, and the body's first bytes."""
    kind, first = (MULTIPART, FIRST_FILE_BYTES) if path == "/files" else ("application/json", b"{")
    headers = {"Content-Type": kind, "Content-Length": "100000"}
    return _head(service, "POST", path, user, org, **headers) + first


async def _stall_body(service: Service, org: str, user: str, path: str) -> tuple[float, bytes]:
    """Start a request's body, then send nothing: seconds until the service answers and
    hangs up, and its status line."""
    url = httpx.URL(service.url)
    reader, writer = await asyncio.open_connection(url.host, url.port)
    start = time.monotonic()
    writer.write(_started_body(service, path, user, org))
    answer = await reader.read()  # until the service closes the connection
    writer.close()
    return time.monotonic() - start, answer.split(b"\r\n", 1)[0]


def test_trickling_clients_are_cut_at_the_configured_timeouts(strict: Service) -> None:
    org = new_org()

    async def run() -> tuple[list[float], list[tuple[float, bytes]], list[int]]:
        heads = [_trickle_head(strict, org) for _ in range(24)]
        bodies = [
            _stall_body(strict, org, f"user{i}", "/files" if i % 2 else "/chat/completions")
            for i in range(24)
        ]
        async with httpx.AsyncClient(
            base_url=strict.url, headers=strict.headers("alice", org)
        ) as c:
            normal = asyncio.gather(*(c.get("/models") for _ in range(10)))
            cut = await asyncio.gather(asyncio.gather(*heads), asyncio.gather(*bodies), normal)
        return cut[0], cut[1], [r.status_code for r in cut[2]]

    heads, bodies, normal = asyncio.run(run())
    assert normal == [200] * 10
    assert all(TIMEOUT * 0.9 <= t <= TIMEOUT + SLACK for t in heads), heads
    assert {status for _, status in bodies} == {b"HTTP/1.1 408 Request Timeout"}
    assert all(TIMEOUT * 0.9 <= t <= TIMEOUT + SLACK for t, _ in bodies), bodies
    assert incoming_files(strict) == []  # the cut uploads left no partial file
    with httpx.Client(base_url=strict.url, headers=strict.headers("alice", org)) as alice:
        assert alice.get("/files").status_code == 200


def _answer(sock: socket.socket) -> bytes:
    """The status line of the next answer on ``sock`` (a small one, read whole)."""
    got = b""
    while b"\r\n\r\n" not in got:
        chunk = sock.recv(65536)
        assert chunk, "the service closed the connection"
        got += chunk
    head, _, body = got.partition(b"\r\n\r\n")
    length = int(
        next(h for h in head.split(b"\r\n") if h.lower().startswith(b"content-length")).split(b":")[
            1
        ]
    )
    while len(body) < length:
        body += sock.recv(65536)
    return head.split(b"\r\n", 1)[0]


def test_an_idle_kept_alive_connection_outlives_the_head_timeout(strict: Service) -> None:
    """A client keeps an idle connection for its next request (httpx: 5 s). The service
    keeps it longer than the head's time limit, which starts with the next request's
    first byte: a slow head is still cut, an idle connection is not."""
    org = new_org()
    url = httpx.URL(strict.url)
    head = _head(strict, "GET", "/models", "alice", org)
    with socket.create_connection((url.host, url.port)) as sock:
        sock.sendall(head)
        assert _answer(sock) == b"HTTP/1.1 200 OK"
        sock.settimeout(3 * TIMEOUT)
        with pytest.raises(TimeoutError):  # idle past the head timeout: still open
            sock.recv(1)
        sock.settimeout(None)
        sock.sendall(head)
        assert _answer(sock) == b"HTTP/1.1 200 OK"
        sock.sendall(head[:10])  # then a head that never ends
        start = time.monotonic()
        sock.settimeout(TIMEOUT + SLACK)
        assert sock.recv(1) == b""
        assert TIMEOUT * 0.9 <= time.monotonic() - start <= TIMEOUT + SLACK


@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    with running_service(tmp_path_factory.mktemp("capped"), "--max-uploads-per-caller", "2") as svc:
        yield svc


def test_a_caller_has_at_most_the_configured_uploads_at_once(capped: Service) -> None:
    org = new_org()
    url = httpx.URL(capped.url)
    held = []
    for _ in range(2):
        sock = socket.create_connection((url.host, url.port))
        sock.sendall(_started_body(capped, "/files", "alice", org))
        held.append(sock)
    wait_until(lambda: len(incoming_files(capped)) == 2)  # both are being received
    with httpx.Client(base_url=capped.url, headers=capped.headers("alice", org)) as alice:
        third = alice.post("/files", files={"file": ("b.txt", b"b")})
        assert third.status_code == 429
        assert third.headers["retry-after"] == "1"
        assert "2 uploads in progress" in third.json()["detail"]
        with httpx.Client(base_url=capped.url, headers=capped.headers("bob", org)) as bob:
            assert bob.post("/files", files={"file": ("c.txt", b"c")}).status_code == 200
        for sock in held:
            sock.close()
        wait_until(lambda: not incoming_files(capped))  # cut uploads leave no partial file
        assert alice.post("/files", files={"file": ("b.txt", b"b")}).status_code == 200


SENDER = """
import os, sys, httpx
os.nice(19)  # the measure is the service's event loop, not how 2 cores share 6 processes
url, token = sys.argv[1:]
JSON = "application/json"
big = b'{"messages": [{"role": "user", "content": "' + b"x" * (50 << 20) + b'"}]}'
chunked = lambda: (big[i : i + (1 << 20)] for i in range(0, len(big), 1 << 20))
with httpx.Client(base_url=url, headers={"Authorization": "Bearer " + token}, timeout=120) as c:
    for body in (big, chunked()):
        answer = c.post("/chat/completions", content=body, headers={"content-type": JSON})
        print(answer.status_code)
"""
"""Sends a 50 MB JSON body twice (with Content-Length, then chunked), in its own process:
threads of the test's process would take the GIL from the client that measures."""


@pytest.mark.slow
def test_big_bodies_are_413_and_do_not_stall_other_requests(service: Service) -> None:
    """Four clients each send 50 MB JSON bodies while another asks for ``GET /models``:
    every big body is a 413, and the event loop keeps answering the others."""
    org = new_org()
    token = service.token("bob", org)
    senders = [
        subprocess.Popen(
            [sys.executable, "-c", SENDER, service.url, token], stdout=subprocess.PIPE, text=True
        )
        for _ in range(4)
    ]
    took = []
    with httpx.Client(base_url=service.url, headers=service.headers("alice", org)) as client:
        while any(sender.poll() is None for sender in senders):
            start = time.perf_counter()
            assert client.get("/models").status_code == 200
            took.append(time.perf_counter() - start)
    assert [sender.communicate()[0].split() for sender in senders] == [["413", "413"]] * 4
    p99 = statistics.quantiles(took, n=100, method="inclusive")[98]
    print(f"GET /models while 4 x 50 MB bodies arrive: {len(took)} calls, p99 {p99 * 1000:.0f} ms")
    # Before, four such bodies held the event loop for seconds (GET /models took 11.8 s);
    # 14 ms was measured here, and the bound leaves room for a shared, loaded machine.
    assert p99 < 0.25
