"""Stopping the child processes the tests start (services, JupyterLab, S3, nginx, llama)."""

from __future__ import annotations

import subprocess
from typing import Any

__all__ = ["stop_process"]


def stop_process(process: subprocess.Popen[Any], timeout: float) -> None:
    """SIGTERM, then SIGKILL after ``timeout`` s, waited for either way (an unwaited
    process is a ResourceWarning, which fails a later test); nothing if it has ended."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
