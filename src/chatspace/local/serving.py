"""Starting ``chatspace serve`` in a process of its own, and knowing when it listens.

``chatspace serve`` prints :data:`READY_LINE` followed by its URL once its socket
listens (``--port 0`` picks a free port, so the line is how the URL is learned). The
service's CLI prints that line; the tests and the benchmarks wait for it with
:func:`start_serve`; the embedded service builds its command with :func:`serve_command`
and, being detached, waits on ``service.json`` instead.

    started = start_serve(Path("/tmp/data"), "--log-level", "warning")
    started.url  # 'http://127.0.0.1:43123'
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["READY_LINE", "ServeFailed", "Started", "ready_url", "serve_command", "start_serve"]

READY_LINE = "chatspace service listening on"
"""What ``chatspace serve`` prints, then a space and its URL, once it accepts connections."""


class ServeFailed(RuntimeError):
    """``chatspace serve`` exited before it listened; the message holds its output."""


@dataclass
class Started:
    """A ``chatspace serve`` process that listens at ``url``.

    Its output is still a pipe: the caller must keep reading ``process.stdout`` (or
    close it), or the service blocks once the pipe is full.
    """

    url: str
    process: subprocess.Popen[str]
    output: list[str] = field(default_factory=list)
    """The lines printed up to and including the ready line."""


def serve_command(
    data_dir: str | os.PathLike[str],
    *args: str,
    host: str = "127.0.0.1",
    port: int = 0,
) -> list[str]:
    """The command line of ``chatspace serve`` on this interpreter, for one data dir."""
    return [
        sys.executable,
        "-m",
        "chatspace",
        "serve",
        "--host",
        host,
        "--port",
        str(port),
        "--data-dir",
        str(data_dir),
        *args,
    ]


def ready_url(line: str) -> str | None:
    """The URL of a ready line, or None for any other line of output.

    >>> ready_url("chatspace service listening on http://127.0.0.1:8000\\n")
    'http://127.0.0.1:8000'
    """
    prefix = READY_LINE + " "
    return line[len(prefix) :].strip() if line.startswith(prefix) else None


def start_serve(
    data_dir: Path,
    *args: str,
    env: Mapping[str, str] | None = None,
    host: str = "127.0.0.1",
    port: int = 0,
) -> Started:
    """Start ``chatspace serve`` (output piped, stderr with it) and return once it listens.

    ``env`` is the whole environment of the process (default: this one's). Raises
    :class:`ServeFailed` with its output if it exits first.
    """
    data_dir.mkdir(parents=True, exist_ok=True)
    process = subprocess.Popen(  # noqa: S603 - our own interpreter and module
        serve_command(data_dir, *args, host=host, port=port),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=None if env is None else dict(env),
    )
    assert process.stdout is not None
    output: list[str] = []
    for line in process.stdout:  # blocks until the service prints, or exits
        output.append(line)
        url = ready_url(line)
        if url is not None:
            return Started(url=url, process=process, output=output)
    process.wait()
    process.stdout.close()
    raise ServeFailed("chatspace serve exited before listening:\n" + "".join(output))
