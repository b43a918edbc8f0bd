"""Large transfers stream: memory stays flat; progress is reported, or not."""

from __future__ import annotations

import hashlib
import threading
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psutil
import pytest

from chatspace.client import PROGRESS_THRESHOLD
from support.clients import AnyClient, run

pytestmark = pytest.mark.anyio

SIZE = 200 * 1024 * 1024
FLAT = 24 * 1024 * 1024  # well below the file's size


@dataclass
class Peak:
    traced: int = 0  # bytes allocated by Python at the peak (tracemalloc)
    rss_growth: int = 0  # the process's resident memory at its peak, minus before


@contextmanager
def measured() -> Iterator[Peak]:
    """Peak Python allocations and peak RSS growth of this process during the block."""
    process = psutil.Process()
    before = process.memory_info().rss
    highest = before
    done = threading.Event()

    def sample() -> None:
        nonlocal highest
        while not done.wait(0.01):
            highest = max(highest, process.memory_info().rss)

    sampler = threading.Thread(target=sample, daemon=True)
    peak = Peak()
    tracemalloc.start()
    sampler.start()
    try:
        yield peak
    finally:
        done.set()
        sampler.join()
        peak.traced = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        peak.rss_growth = highest - before


@pytest.fixture(scope="module")
def big_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    path = tmp_path_factory.mktemp("big") / "big.bin"
    digest = hashlib.sha256()
    block = bytes(range(256)) * 4096  # 1 MiB, with NUL bytes: no text to index
    with path.open("wb") as f:
        for i in range(SIZE // len(block)):
            chunk = block[i % 256 :] + block[: i % 256]
            f.write(chunk)
            digest.update(chunk)
    return path, digest.hexdigest()


async def test_200_mb_upload_and_download_keep_memory_flat(
    client: AnyClient, big_file: tuple[Path, str], tmp_path: Path
) -> None:
    path, digest = big_file
    with measured() as up:
        uploaded = await run(client.files.upload(path, progress=False))
    assert uploaded.bytes == SIZE

    target = tmp_path / "copy.bin"
    with measured() as down:
        await run(client.files.download(uploaded.id, target, progress=False))
    assert target.stat().st_size == SIZE
    sha = hashlib.sha256()
    with target.open("rb") as f:
        while block := f.read(1 << 20):
            sha.update(block)
    assert sha.hexdigest() == digest

    for peak in (up, down):
        assert peak.traced < FLAT, f"Python allocations peaked at {peak.traced / 2**20:.1f} MiB"
        assert peak.rss_growth < FLAT, f"RSS grew by {peak.rss_growth / 2**20:.1f} MiB"
    print(  # shown with -s; recorded in the report
        f"\nupload: traced peak {up.traced / 2**20:.2f} MiB, RSS +{up.rss_growth / 2**20:.1f} MiB;"
        f" download: traced peak {down.traced / 2**20:.2f} MiB,"
        f" RSS +{down.rss_growth / 2**20:.1f} MiB"
    )
    await run(client.files.delete(uploaded.id))


async def test_progress_callback_sees_every_byte(client: AnyClient, tmp_path: Path) -> None:
    data = b"x" * 300_000
    seen: list[tuple[int, int | None]] = []
    uploaded = await run(
        client.files.upload(data, filename="p.bin", progress=lambda d, t: seen.append((d, t)))
    )
    assert seen[-1] == (300_000, 300_000)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)

    seen.clear()
    await run(
        client.files.download(
            uploaded.id, tmp_path / "p.bin", progress=lambda d, t: seen.append((d, t))
        )
    )
    assert seen[-1] == (300_000, 300_000)


async def test_progress_bar_for_large_transfers_only(
    client: AnyClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    small = await run(client.files.upload(b"y" * 1000, filename="small.bin"))
    assert capsys.readouterr().err == ""  # below the threshold: no bar by default
    await run(client.files.upload(b"y" * 1000, filename="forced.bin", progress=True))
    assert "100%" in capsys.readouterr().err
    large = tmp_path / "large.bin"
    large.write_bytes(b"\0" * PROGRESS_THRESHOLD)
    uploaded = await run(client.files.upload(large))
    err = capsys.readouterr().err
    assert "large.bin" in err
    assert "100%" in err
    await run(client.files.download(uploaded.id, tmp_path / "again.bin", progress=False))
    assert capsys.readouterr().err == ""
    await run(client.files.download(small.id, tmp_path / "small.bin", progress=True))
    assert "100%" in capsys.readouterr().err
