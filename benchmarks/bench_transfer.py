"""4. Transfers: upload and download throughput and peak client memory, vs curl."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from ._harness import Section, median
from ._service import BenchService

MB = 1024 * 1024


def _make_file(path: Path, size: int) -> Path:
    block = os.urandom(MB)
    with path.open("wb") as f:
        for _ in range(size // MB):
            f.write(block)
    return path


# Forked from a small interpreter, so that the peak RSS is the command's own and not
# the image of this process (pandas and all) that a fork from here would inherit.
_MEASURE = (
    "import resource, subprocess, sys, time\n"
    "t = time.perf_counter()\n"
    "out = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, check=True).stdout\n"
    "t = time.perf_counter() - t\n"
    "rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
    "sys.stdout.write(f'{t} {rss}\\n' + out.decode())\n"
)


def _measure(cmd: list[str]) -> tuple[float, int, str]:
    """(wall seconds, peak RSS in bytes, stdout) of one command."""
    done = subprocess.run(
        [sys.executable, "-S", "-c", _MEASURE, *cmd], capture_output=True, text=True, check=True
    )
    first, _, out = done.stdout.partition("\n")
    seconds, rss_kib = first.split()
    return float(seconds), int(rss_kib) * 1024, out


def _chatspace(
    action: str, service: BenchService, token: str, *args: str
) -> tuple[float, int, str]:
    worker = [sys.executable, "-m", "benchmarks._transfer_worker", action, service.url, token]
    _, rss, out = _measure([*worker, *args])
    result = json.loads(out)
    return result["seconds"], rss, result["file_id"]


def _curl(service: BenchService, token: str, *args: str) -> tuple[float, int]:
    auth = ["-H", f"Authorization: Bearer {token}"]
    seconds, rss, _ = _measure(["curl", "-sS", "--fail", "-o", *args[:1], *auth, *args[1:]])
    return seconds, rss


def run(service: BenchService, size: dict[str, Any], scratch: Path) -> Section:
    token = service.fresh_token()
    total = size["transfer_mb"] * MB
    big = _make_file(scratch / "big.bin", total)
    small = _make_file(scratch / "small.bin", max(MB, total // 4))
    rounds = size["transfer_rounds"]
    up: dict[str, list[float]] = {"curl": [], "chatspace": []}
    down: dict[str, list[float]] = {"curl": [], "chatspace": []}
    rss: dict[str, int] = {}
    file_id = ""
    for _ in range(rounds):
        seconds, rss["chatspace upload"], file_id = _chatspace("upload", service, token, str(big))
        up["chatspace"].append(seconds)
        seconds, rss["curl upload"] = _curl(
            service, token, "/dev/null", "-F", f"file=@{big}", f"{service.url}/files"
        )
        up["curl"].append(seconds)
        target = scratch / "down.bin"
        seconds, rss["chatspace download"], _ = _chatspace(
            "download", service, token, file_id, str(target)
        )
        down["chatspace"].append(seconds)
        assert target.stat().st_size == total
        target.unlink()
        seconds, rss["curl download"] = _curl(
            service, token, str(target), f"{service.url}/files/{file_id}/content"
        )
        down["curl"].append(seconds)
        target.unlink()
    _, rss["chatspace upload (1/4 size)"], small_id = _chatspace(
        "upload", service, token, str(small)
    )
    _, rss["chatspace download (1/4 size)"], _ = _chatspace(
        "download", service, token, small_id, str(scratch / "small-down.bin")
    )
    section = Section(
        "transfer",
        f"4. Transfers of {size['transfer_mb']:,} MiB",
        baseline="curl",
        unit_notes="MB/s (higher is better) and the client process's peak RSS in MiB.",
    )
    for name in ("curl", "chatspace"):
        section.add(
            name,
            upload_mb_s=total / MB / median(up[name]),
            download_mb_s=total / MB / median(down[name]),
            upload_peak_rss_mib=rss[f"{name} upload"] / MB,
            download_peak_rss_mib=rss[f"{name} download"] / MB,
        )
    up_ratio = section.ratio("chatspace", "upload_mb_s")
    down_ratio = section.ratio("chatspace", "download_mb_s")
    section.goal("upload throughput within 1.5x of curl", up_ratio >= 1 / 1.5)
    section.goal("download throughput within 1.5x of curl", down_ratio >= 1 / 1.5)
    growth = max(
        rss["chatspace upload"] - rss["chatspace upload (1/4 size)"],
        rss["chatspace download"] - rss["chatspace download (1/4 size)"],
    )
    section.goal(
        f"peak memory independent of size (+{growth / MB:.1f} MiB from 1/4 to full size)",
        growth < 16 * MB,
    )
    section.notes.append(
        "Peak RSS at 1/4 of the size: "
        f"upload {rss['chatspace upload (1/4 size)'] / MB:.0f} MiB, "
        f"download {rss['chatspace download (1/4 size)'] / MB:.0f} MiB."
    )
    for path in (big, small, scratch / "small-down.bin"):
        path.unlink(missing_ok=True)
    return section
