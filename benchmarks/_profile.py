"""Where a running service spends its time: py-spy samples every thread of its process.

cProfile sees only the thread it runs in, and the service answers its synchronous
routes in a thread pool; a sampling profiler sees them all, and costs the service
nothing measurable. py-spy writes collapsed stacks (``frame;frame;... count``), which
are summed here by the function a sample stood in (self) and by chatspace function
anywhere on the stack (inclusive).
"""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_FRAME = re.compile(r"^(?P<func>.+?) \((?P<file>[^()]*?)(?::\d+)?\)$")


@contextmanager
def sampled(pid: int, out: Path, rate: int = 250) -> Iterator[list[str]]:
    """Sample ``pid`` while the block runs; the summary lines are filled in at its end."""
    summary: list[str] = []
    beside = Path(sys.executable).with_name("py-spy")  # a venv's bin needs no activation
    spy = str(beside) if beside.exists() else shutil.which("py-spy")
    if spy is None:
        summary.append("py-spy is not installed: no profile (pip install py-spy).")
        yield summary
        return
    cmd = [spy, "record", "--pid", str(pid), "--rate", str(rate), "--format", "raw"]
    proc = subprocess.Popen(
        [*cmd, "--output", str(out), "--nonblocking"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        yield summary
    finally:
        proc.send_signal(signal.SIGINT)  # py-spy writes its output when interrupted
        _, err = proc.communicate(timeout=60)
        if out.exists():
            summary += summarize(out)
        else:
            summary.append(f"py-spy failed: {err.decode(errors='replace').strip()[-200:]}")


def _where(frame: str) -> str:
    match = _FRAME.match(frame.strip())
    if not match:
        return frame.strip()
    file = match["file"]
    short = file.split("site-packages/")[-1].split("src/")[-1]
    return f"{match['func']} ({short})"


def summarize(path: Path, limit: int = 10) -> list[str]:
    """The busiest functions by self time, and chatspace's own by inclusive time."""
    self_time: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        frames = stack.split(";")
        total += count
        self_time[_where(frames[-1])] += count
        for where in {_where(f) for f in frames if "chatspace/" in f}:
            inclusive[where] += count
    if not total:
        return ["the profile holds no samples"]
    lines = [f"{total:,} samples of busy threads; self time, busiest first:"]
    lines += [f"{100 * n / total:5.1f}% {where}" for where, n in self_time.most_common(limit)]
    lines.append("chatspace functions, time with them on the stack:")
    lines += [f"{100 * n / total:5.1f}% {where}" for where, n in inclusive.most_common(limit)]
    return lines
