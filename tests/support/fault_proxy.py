"""A fault-injecting reverse proxy on 127.0.0.1, in front of the real service.

Each request that reaches the proxy is matched against the queued faults; the first
fault that matches is spent on it, every other request is forwarded unchanged. Faults
are real network events: an error status, a connection reset before any answer, an
answer lost after the service did the work, a body cut in the middle, an error event
injected into a stream, or no answer at all.

Every answer carries ``Connection: close``, so each request arrives on a fresh
connection and a fault always meets the request it was meant for.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import struct
import threading
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import urlsplit

FaultKind = Literal["status", "reset", "drop_response", "cut", "hang", "sse_error"]


@dataclass
class Fault:
    """What to do to the next request matching ``match`` (``"POST /files"``, a prefix)."""

    kind: FaultKind
    status: int = 503
    headers: dict[str, str] = field(default_factory=dict)
    detail: str = "Injected failure."
    after: int = 0  # cut: body bytes relayed first; sse_error: events relayed first
    match: str = ""


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body_size: int
    fault: FaultKind | None


class FaultProxy:
    """``with FaultProxy(service.url) as proxy: proxy.fail(Fault("status", 503))``."""

    def __init__(self, upstream: str) -> None:
        parts = urlsplit(upstream)
        self._up_host = parts.hostname or "127.0.0.1"
        self._up_port = parts.port or 80
        self._faults: list[Fault] = []
        self._lock = threading.Lock()
        self.seen: list[Seen] = []
        self.url = ""
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None

    # ------------------------------------------------------------ control

    def fail(self, *faults: Fault) -> None:
        with self._lock:
            self._faults.extend(faults)

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._faults)

    def requests(self, match: str = "") -> list[Seen]:
        return [s for s in self.seen if f"{s.method} {s.path}".startswith(match)]

    def __enter__(self) -> FaultProxy:
        self._thread = threading.Thread(target=lambda: asyncio.run(self._main()), daemon=True)
        self._thread.start()
        self._ready.wait()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._loop is not None
        assert self._stop is not None
        assert self._thread is not None
        self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join()

    def _take(self, method: str, path: str) -> Fault | None:
        with self._lock:
            for i, fault in enumerate(self._faults):
                if f"{method} {path}".startswith(fault.match):
                    return self._faults.pop(i)
        return None

    # ------------------------------------------------------------ serving

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        tasks: set[asyncio.Task[None]] = set()

        async def on_connect(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            task = asyncio.current_task()
            assert task is not None
            tasks.add(task)
            try:
                await self._handle(reader, writer)
            except (ConnectionError, asyncio.IncompleteReadError):
                pass
            finally:
                tasks.discard(task)
                writer.close()

        server = await asyncio.start_server(on_connect, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self._ready.set()
        async with server:
            await self._stop.wait()
            for task in list(tasks):
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError:
            return
        lines = head.decode("latin-1").split("\r\n")
        method, target, _ = lines[0].split(" ", 2)
        headers = {}
        for line in lines[1:]:
            if ":" in line:
                name, value = line.split(":", 1)
                headers[name.strip().lower()] = value.strip()
        body = await _read_body(reader, headers)
        path = target.split("?", 1)[0]
        fault = self._take(method, path)
        self.seen.append(Seen(method, path, headers, len(body), fault.kind if fault else None))

        if fault is not None and fault.kind == "status":
            payload = json.dumps({"detail": fault.detail}).encode()
            extra = "".join(f"{k}: {v}\r\n" for k, v in fault.headers.items())
            writer.write(
                f"HTTP/1.1 {fault.status} Injected\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(payload)}\r\nConnection: close\r\n{extra}\r\n".encode()
                + payload
            )
            await writer.drain()
            return
        if fault is not None and fault.kind == "reset":
            _reset(writer)
            return
        if fault is not None and fault.kind == "hang":
            await reader.read()  # until the client gives up
            return
        await self._forward(head, body, writer, fault)

    async def _forward(
        self, head: bytes, body: bytes, writer: asyncio.StreamWriter, fault: Fault | None
    ) -> None:
        up_reader, up_writer = await asyncio.open_connection(self._up_host, self._up_port)
        try:
            up_writer.write(_close_after(head) + body)
            await up_writer.drain()
            if fault is not None and fault.kind == "drop_response":
                await up_reader.read()  # the service did the work; the answer is lost
                _reset(writer)
                return
            if fault is not None and fault.kind == "sse_error":
                await _inject_error(up_reader, writer, fault.after)
                return
            limit = fault.after if fault is not None and fault.kind == "cut" else None
            up_head = await up_reader.readuntil(b"\r\n\r\n")
            writer.write(up_head)
            relayed = 0
            while data := await up_reader.read(65536):
                if limit is not None and relayed + len(data) >= limit:
                    writer.write(data[: limit - relayed])
                    await writer.drain()
                    _reset(writer)
                    return
                relayed += len(data)
                writer.write(data)
                await writer.drain()
        finally:
            up_writer.close()


async def _read_body(reader: asyncio.StreamReader, headers: dict[str, str]) -> bytes:
    if "content-length" in headers:
        return await reader.readexactly(int(headers["content-length"]))
    if headers.get("transfer-encoding", "").lower() == "chunked":
        raw = b""
        while True:
            size_line = await reader.readuntil(b"\r\n")
            raw += size_line
            size = int(size_line.split(b";")[0].strip(), 16)
            if size == 0:
                raw += await reader.readuntil(b"\r\n")  # no trailers from httpx
                return raw
            raw += await reader.readexactly(size + 2)
    return b""


def _close_after(head: bytes) -> bytes:
    lines = head.decode("latin-1").split("\r\n")
    kept = [line for line in lines if line and not line.lower().startswith("connection:")]
    return ("\r\n".join([*kept, "Connection: close"]) + "\r\n\r\n").encode("latin-1")


def _reset(writer: asyncio.StreamWriter) -> None:
    """Close with a TCP reset, as a crashed server or a broken network would."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


async def _inject_error(up: asyncio.StreamReader, writer: asyncio.StreamWriter, keep: int) -> None:
    """Relay ``keep`` events of an event stream, then an error event and ``[DONE]``."""
    head = await up.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    kept = [
        line
        for line in lines
        if line and not line.lower().startswith(("transfer-encoding:", "content-length:"))
    ]
    writer.write(("\r\n".join(kept) + "\r\n\r\n").encode("latin-1"))  # body ends at close
    chunked = any(line.lower() == "transfer-encoding: chunked" for line in lines)
    buffer = b""
    sent = 0
    while sent < keep:
        data = await _next_piece(up, chunked)
        if not data:
            break
        buffer += data
        while b"\n\n" in buffer and sent < keep:
            event, buffer = buffer.split(b"\n\n", 1)
            writer.write(event + b"\n\n")
            sent += 1
    error = {"error": {"message": "Injected upstream failure.", "type": "upstream_error"}}
    writer.write(b"data: " + json.dumps(error).encode() + b"\n\ndata: [DONE]\n\n")
    await writer.drain()


async def _next_piece(up: asyncio.StreamReader, chunked: bool) -> bytes:
    if not chunked:
        return await up.read(65536)
    size = int((await up.readuntil(b"\r\n")).split(b";")[0].strip(), 16)
    if size == 0:
        return b""
    data = await up.readexactly(size + 2)
    return data[:-2]
